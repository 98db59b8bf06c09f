"""Bad model files are refused with one clear line, before or while llama.cpp loads them."""

from __future__ import annotations

from pathlib import Path

import pytest

from desktop_agent.cli import main
from desktop_agent.errors import ModelError
from desktop_agent.llm import model_file
from desktop_agent.llm.engine import LlamaEngine
from desktop_agent.llm.model_file import check_model_file, physical_cores


def test_missing_file(tmp_path: Path) -> None:
    with pytest.raises(ModelError, match="model file not found"):
        check_model_file(tmp_path / "nope.gguf")


def test_not_a_gguf_file(tmp_path: Path) -> None:
    fake = tmp_path / "notes.gguf"
    fake.write_text("these are my notes, not a model\n" * 10)
    with pytest.raises(ModelError, match="not a GGUF model file"):
        check_model_file(fake)


def test_empty_file(tmp_path: Path) -> None:
    empty = tmp_path / "empty.gguf"
    empty.touch()
    with pytest.raises(ModelError, match="not a GGUF model file"):
        check_model_file(empty)


def test_truncated_file_fails_to_load_with_a_clear_message(
    model_path: Path, tmp_path: Path
) -> None:
    truncated = tmp_path / "truncated.gguf"
    truncated.write_bytes(model_path.read_bytes()[: 4 * 2**20])
    check_model_file(truncated)  # the header alone looks fine...

    engine = LlamaEngine(truncated, n_ctx=256)
    with pytest.raises(ModelError, match="damaged, truncated"):
        engine.start()  # ...but llama.cpp finds the tensors missing
    engine.close()


def test_model_too_large_for_free_memory(model_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(model_file, "available_memory_bytes", lambda: 10 * 2**20)
    with pytest.raises(ModelError, match="too large for free memory"):
        check_model_file(model_path)


def test_physical_cores_is_positive() -> None:
    assert physical_cores() >= 1


@pytest.mark.parametrize(
    ("content", "expected"),
    [
        (None, "model file not found"),
        (b"plain text", "not a GGUF model file"),
        (b"GGUF\x09\x00\x00\x00" + b"\x00" * 16, "unsupported GGUF version 9"),
    ],
)
def test_cli_reports_bad_models_in_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], content: bytes | None, expected: str
) -> None:
    path = tmp_path / "model.gguf"
    if content is not None:
        path.write_bytes(content)

    code = main(["chat", "--model", str(path), "--once", "Hello"])

    err = capsys.readouterr().err
    assert code != 0
    assert expected in err
    assert err.count("\n") == 1 and "Traceback" not in err
