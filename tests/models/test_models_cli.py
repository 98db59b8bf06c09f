"""`desktop-agent models` as a user runs it: the catalog, a download from a loopback server,
import, use and remove, and clear one-line errors."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from desktop_agent.cli import main
from desktop_agent.llm.model_file import bundled_model_path
from desktop_agent.models.catalog import catalog, recommended
from desktop_agent.models.download import file_sha256
from desktop_agent.settings import load_settings
from tests.models.test_download import Served, model_bytes, server  # noqa: F401 (fixtures)


@pytest.fixture(autouse=True)
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("DESKTOP_AGENT_HOME", str(tmp_path / "home"))
    return tmp_path / "home"


def run_json(capsys: pytest.CaptureFixture[str], *args: str) -> dict:
    assert main(["models", *args, "--json"]) == 0
    return json.loads(capsys.readouterr().out)


def test_the_catalog_is_reviewed_and_complete() -> None:
    models = catalog()
    assert len(models) >= 5 and len({m.name for m in models}) == len(models)
    for model in models:
        assert model.url.startswith("https://") and model.url.endswith(model.file)
        assert len(model.sha256) == 64 and model.size_bytes > 100_000_000 and model.license


def test_the_recommendation_fits_the_machine() -> None:
    small_cpu = recommended(24 * 2**30, cores=2)
    assert small_cpu is not None and small_cpu.size_bytes <= 2.5 * 2**30
    big = recommended(24 * 2**30, cores=2, gpu=True)
    assert big is not None and big.size_bytes > small_cpu.size_bytes
    assert recommended(1 * 2**30, cores=2) is None


def test_download_by_url_then_use_then_remove(
    server: tuple[str, Served],  # noqa: F811
    home: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    url, _ = server
    bundled = bundled_model_path()
    assert bundled is not None
    got = run_json(capsys, "download", "--url", url, "--sha256", file_sha256(bundled))
    installed = Path(got["installed"])
    assert installed.read_bytes() == bundled.read_bytes()
    run_json(capsys, "use", installed.name)
    assert load_settings(home / "config" / "settings.toml").model.path == str(installed)
    listed = run_json(capsys, "list")
    assert listed["other_installed"] == [
        {"file": "model.gguf", "size_bytes": installed.stat().st_size, "in_use": True}
    ]
    removed = run_json(capsys, "remove", installed.name)
    assert removed["was_in_use"] and not installed.exists()
    assert load_settings(home / "config" / "settings.toml").model.path == ""


def test_import_reads_the_chat_template(capsys: pytest.CaptureFixture[str]) -> None:
    bundled = bundled_model_path()
    assert bundled is not None
    got = run_json(capsys, "import", str(bundled))
    assert got["chat_template"] is True and Path(got["installed"]).stat().st_size > 0


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["download", "nope"], "no model 'nope' in the catalog"),
        (["download", "--url", "http://127.0.0.1:9/x.gguf"], "--url URL --sha256 HEX"),
        (["import", "/nonexistent.gguf"], "no such model file"),
        (["remove", "missing.gguf"], "no installed model"),
        (["use", "/nonexistent.gguf"], "model file not found"),
    ],
)
def test_bad_input_is_one_line(
    args: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["models", *args]) == 1
    err = capsys.readouterr().err
    assert message in err and err.count("\n") == 1 and "Traceback" not in err
