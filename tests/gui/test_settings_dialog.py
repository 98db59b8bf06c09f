"""Settings: edited in the dialog, saved to disk with save_settings, applied to the engine."""

from __future__ import annotations

import struct
from typing import Any

from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QApplication, QDialogButtonBox

from desktop_agent.gui.settings_dialog import SettingsDialog
from desktop_agent.llm.model_file import bundled_model_path
from desktop_agent.settings import load_settings
from tests.gui.conftest import MODEL_TIMEOUT_MS, fast_settings


def _fill_and_save(change: Any) -> None:
    dialog = QApplication.activeModalWidget()
    assert isinstance(dialog, SettingsDialog)
    change(dialog)
    dialog.buttons.button(QDialogButtonBox.StandardButton.Save).click()


def test_settings_are_saved_and_applied(qtbot: Any, make_window: Any) -> None:
    # Given a window with the model loaded
    window = make_window()
    settings_file = window.session.app.paths.settings_file

    def change(dialog: SettingsDialog) -> None:
        dialog.temperature_spin.setValue(0.25)
        dialog.threads_spin.setValue(2)
        dialog.memory_check.setChecked(False)

    # When the user changes temperature, threads and memory, and saves
    QTimer.singleShot(0, lambda: _fill_and_save(change))
    window.settings_action.trigger()

    # Then the file on disk holds them, the core uses them, and the model reloads
    saved = load_settings(settings_file)
    assert saved.model.temperature == 0.25
    assert saved.model.n_threads == 2
    assert saved.memory.enabled is False
    assert saved.memory.model_assisted_extraction is False
    assert window.session.assistant.generation_settings.temperature == 0.25
    assert window.status.memory_label.text() == "Memory paused"
    qtbot.waitUntil(lambda: window.session.model_info is not None, timeout=MODEL_TIMEOUT_MS)
    assert window.session.assistant.engine.info.n_threads == 2


def test_cancel_changes_nothing(make_window: Any) -> None:
    window = make_window(load_model=False)
    settings_file = window.session.app.paths.settings_file

    def cancel() -> None:
        dialog = QApplication.activeModalWidget()
        assert isinstance(dialog, SettingsDialog)
        dialog.temperature_spin.setValue(1.5)
        dialog.reject()

    QTimer.singleShot(0, cancel)
    window.settings_action.trigger()

    assert not settings_file.exists()
    assert window.session.settings.model.temperature != 1.5


def test_missing_model_file_is_refused(qtbot: Any, make_window: Any, tmp_path: Any) -> None:
    window = make_window(load_model=False)
    dialog = SettingsDialog(window.session.settings, window)
    qtbot.addWidget(dialog)
    dialog.show()

    dialog.custom_radio.setChecked(True)
    dialog.path_edit.setText(str(tmp_path / "missing.gguf"))
    dialog.accept()

    assert dialog.isVisible()
    assert "model file not found" in dialog.error_label.text()


def test_a_file_that_is_not_a_model_is_refused_not_saved(
    qtbot: Any, make_window: Any, tmp_path: Any
) -> None:
    window = make_window(load_model=False)
    settings_file = window.session.app.paths.settings_file
    notes = tmp_path / "notes.gguf"
    notes.write_text("shopping list: eggs, flour")
    dialog = SettingsDialog(window.session.settings, window)
    qtbot.addWidget(dialog)
    dialog.show()

    dialog.custom_radio.setChecked(True)
    dialog.path_edit.setText(str(notes))
    dialog.accept()

    assert dialog.isVisible()
    assert "not a GGUF model file" in dialog.error_label.text()
    assert not settings_file.exists()


def test_a_chosen_model_that_cannot_load_falls_back_to_the_bundled_one(
    qtbot: Any, make_window: Any, tmp_path: Any
) -> None:
    # Given settings saved earlier that name a model file since deleted
    gone = tmp_path / "deleted.gguf"
    window = make_window(settings=fast_settings(path=str(gone)))

    # Then the bundled model loads, and the window says why
    qtbot.waitUntil(lambda: window.session.model_info is not None, timeout=MODEL_TIMEOUT_MS)
    assert window.session.model_info.model_path == str(bundled_model_path())
    assert "model file not found" in window.model_notice
    assert "bundled model" in window.model_notice


def test_bundled_default_and_custom_file(qtbot: Any, tmp_path: Any) -> None:
    from desktop_agent.settings import Settings

    model = tmp_path / "other.gguf"
    model.write_bytes(b"GGUF" + struct.pack("<I", 3) + bytes(16))
    dialog = SettingsDialog(Settings())
    qtbot.addWidget(dialog)
    assert dialog.bundled_radio.isChecked()
    assert not dialog.path_edit.isEnabled()
    assert dialog.result_settings().model.path == ""

    dialog.custom_radio.setChecked(True)
    dialog.path_edit.setText(str(model))

    assert dialog.result_settings().model.path == str(model)


def test_generation_settings_and_instructions_are_edited(qtbot: Any) -> None:
    from desktop_agent.settings import Settings

    dialog = SettingsDialog(Settings())
    qtbot.addWidget(dialog)
    dialog.top_p_spin.setValue(0.8)
    dialog.repeat_spin.setValue(1.3)
    dialog.instructions_edit.setPlainText("  Answer like a patient tutor.  ")
    model = dialog.result_settings().model
    assert (model.top_p, model.repeat_penalty) == (0.8, 1.3)
    assert model.instructions == "Answer like a patient tutor."


def test_a_chat_gets_its_own_instructions(qtbot: Any, make_window: Any, monkeypatch: Any) -> None:
    from PySide6.QtWidgets import QInputDialog

    window = make_window(load_model=False, memory=False)
    window.new_chat()
    monkeypatch.setattr(
        QInputDialog, "getMultiLineText", lambda *args, **kwargs: ("Answer in Spanish.", True)
    )
    window.instructions_action.trigger()
    assert window.controller.conversation.instructions == "Answer in Spanish."
    assert "own instructions" in window.statusBar().currentMessage()


def test_a_chat_server_is_chosen_with_its_address(qtbot: Any) -> None:
    from desktop_agent.settings import Settings

    dialog = SettingsDialog(Settings())
    qtbot.addWidget(dialog)
    assert not dialog.server_edit.isEnabled()
    dialog.server_radio.setChecked(True)
    dialog.server_edit.setText("not a url")
    dialog.accept()
    assert "chat server's address" in dialog.error_label.text()
    dialog.server_edit.setText("http://127.0.0.1:8080")
    assert dialog.result_settings().model.server == "http://127.0.0.1:8080"
    assert dialog.result_settings().model.path == ""
