from __future__ import annotations

from pathlib import Path

import pytest

from desktop_agent.paths import app_paths
from desktop_agent.settings import Settings, SettingsError, load_settings, save_settings


def test_defaults_when_no_file(tmp_path: Path) -> None:
    settings = load_settings(tmp_path / "missing.toml")
    assert settings.model.n_ctx == 4096
    assert settings.memory.enabled is True
    assert settings.memory.model_assisted_extraction is False


def test_round_trip(tmp_path: Path) -> None:
    path = tmp_path / "settings.toml"
    changed = Settings().replace("model", temperature=0.2, n_ctx=2048, path="/models/x.gguf")
    save_settings(changed, path)
    assert load_settings(path) == changed


def test_int_accepted_for_float_and_unknown_keys_ignored(tmp_path: Path) -> None:
    path = tmp_path / "settings.toml"
    path.write_text("[model]\ntemperature = 1\nfuture_option = 3\n[memory]\nenabled = false\n")
    settings = load_settings(path)
    assert settings.model.temperature == 1.0
    assert settings.memory.enabled is False


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ('[model]\nn_ctx = "big"\n', "model.n_ctx must be int"),
        ("[model]\nn_ctx = true\n", "model.n_ctx must be int"),
        ("[model\n", "cannot read settings file"),
        ('model = "x"\n', "must be a table"),
        (
            '[memory]\nanswers = "sometimes"\n',
            "memory.answers must be one of auto, composed, model",
        ),
    ],
)
def test_bad_files_give_one_line_errors(tmp_path: Path, text: str, message: str) -> None:
    path = tmp_path / "settings.toml"
    path.write_text(text)
    with pytest.raises(SettingsError, match=message):
        load_settings(path)


def test_home_override_puts_everything_under_one_folder(agent_home: Path) -> None:
    paths = app_paths()
    for folder in (paths.data_dir, paths.config_dir, paths.cache_dir, paths.models_dir):
        assert folder.is_relative_to(agent_home.resolve())


def test_model_assisted_extraction_setting_chooses_the_extractor(tmp_path: Path) -> None:
    from desktop_agent.app import App
    from desktop_agent.core.extraction_model import ModelAssistedExtractor

    app = App()
    assert app.extractor() is None  # off by default: the bundled model's JSON is unreliable
    app.settings = app.settings.replace("memory", model_assisted_extraction=True)
    assert isinstance(app.extractor(), ModelAssistedExtractor)


def test_who_answers_questions_about_the_user(tmp_path: Path) -> None:
    from desktop_agent.app import App

    # The bundled 135M model is far below the size that answers reliably: the core composes.
    app = App()
    assert app.answer_mode() == "composed"
    app.settings = app.settings.replace("memory", answers="model")
    assert app.answer_mode() == "model"
    # A large GGUF (a sparse file of the size of a ~3B model at 4 bits) lets the model answer.
    big = tmp_path / "big.gguf"
    with open(big, "wb") as handle:
        handle.truncate(2_000_000_000)
    large = App(model_override=big)
    assert large.answer_mode() == "model"
    large.settings = large.settings.replace("memory", answers="composed")
    assert large.answer_mode() == "composed"
