"""Text size, the shortcuts list and About (issue 12, part 3)."""

from __future__ import annotations

from typing import Any

import pytest
from PySide6.QtWidgets import QApplication, QMessageBox

from desktop_agent import __version__
from tests.gui.conftest import make_app


def _sizes(window: Any) -> tuple[float, float]:
    """The point size of a reply's text and of the message box."""
    bubble = window.chat.bubbles[-1]
    return bubble.text_view.font().pointSizeF(), window.chat.composer.edit.font().pointSizeF()


def test_text_size_steps_clamps_resets_and_is_remembered(qtbot: Any, make_window: Any) -> None:
    window = make_window(load_model=False, memory=False)
    window.chat.add_user_message("Some words to read")
    base = QApplication.font().pointSizeF()
    label_size = window.chat.bubbles[-1].role_label.font().pointSizeF()
    window.zoom_in_action.trigger()
    window.zoom_in_action.trigger()
    assert _sizes(window) == (base + 2, base + 2)
    assert window.chat.bubbles[-1].role_label.font().pointSizeF() == label_size  # labels keep
    for _ in range(40):
        window.zoom_out_action.trigger()
    assert _sizes(window) == (max(6.0, base - 4),) * 2  # clamped
    window.zoom_reset_action.trigger()
    assert _sizes(window) == (base, base)
    window.zoom_in_action.trigger()
    window.close()

    again = make_window(load_model=False, memory=False, app=make_app())
    again.chat.add_user_message("After a restart")
    assert _sizes(again) == (base + 1, base + 1)


def test_the_shortcuts_list_comes_from_the_window_actions(qtbot: Any, make_window: Any) -> None:
    window = make_window(load_model=False, memory=False)
    window.shortcuts_action.trigger()
    dialog = window.shortcuts_dialog
    rows = {
        dialog.table.item(r, 0).text(): dialog.table.item(r, 1).text()
        for r in range(dialog.table.rowCount())
    }
    assert rows["New chat"] == "Ctrl+N"
    assert rows["Export conversation"] == "Ctrl+Shift+S"
    assert "Ctrl+0" in rows["Actual text size"]
    assert rows["New line in the message"] == "Shift+Enter"
    dialog.close()


def test_about_names_the_version_and_the_licenses(
    qtbot: Any, make_window: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    shown: list[str] = []
    monkeypatch.setattr(QMessageBox, "about", lambda _parent, _title, text: shown.append(text))
    window = make_window(load_model=False, memory=False)
    window._about()
    (text,) = shown
    assert f"desktop-agent {__version__}" in text
    assert "MIT" in text and "LGPL" in text and "SmolLM2" in text


def test_the_first_window_fits_a_small_screen(qtbot: Any, make_window: Any) -> None:
    # The offscreen platform's screen is 800x600: the first window (1180x760) used to reach
    # past it, with the Send button and the inspector off-screen.
    window = make_window(load_model=False, memory=False)
    room = window.screen().availableGeometry()
    assert room.width() < 1180  # the case this is about
    window._fit_screen()  # as at start-up (the fixture may have sized it since)
    assert window.width() <= room.width() and window.height() <= room.height()
    assert room.contains(window.geometry().topLeft())
