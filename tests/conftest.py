"""Shared fixtures: every test runs with its own DESKTOP_AGENT_HOME in a temp dir."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")


@pytest.fixture(autouse=True)
def agent_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Point all data, config, cache and keys of the app at a fresh temp folder."""
    home = tmp_path / "agent-home"
    monkeypatch.setenv("DESKTOP_AGENT_HOME", str(home))
    monkeypatch.delenv("DESKTOP_AGENT_PASSPHRASE", raising=False)
    return home


@pytest.fixture(autouse=True)
def statement_classifier_off() -> Iterator[None]:
    """An App registers its embedder with extraction's statement classifier (process-wide);
    a test that opened one must not change what the next test extracts."""
    yield
    from desktop_agent.core.extraction_fallback import use_embedder

    use_embedder(None)


def in_ci() -> bool:
    return os.environ.get("CI", "").lower() in {"1", "true", "yes"}
