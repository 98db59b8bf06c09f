"""Markdown rendering and the screenshot command."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from desktop_agent.gui.message_view import MessageView
from desktop_agent.gui.theme import DARK, LIGHT, apply_theme


def test_code_blocks_sit_in_a_tinted_frame(qtbot: Any, make_window: Any) -> None:
    make_window(load_model=False)
    view = MessageView("assistant", "Here:\n\n```python\nprint('hi')\n```\n\nand `x`.")
    qtbot.addWidget(view)

    frames = view.text_view.document().rootFrame().childFrames()

    assert len(frames) == 1
    assert frames[0].firstCursorPosition().block().text() == "print('hi')"
    assert frames[0].frameFormat().background().color().name() == LIGHT.code_bg
    assert view.text == "Here:\n\n```python\nprint('hi')\n```\n\nand `x`."


def test_theme_change_recolours_existing_messages(qtbot: Any, make_window: Any) -> None:
    window = make_window(load_model=False)
    window.chat.add_user_message("```\ncode\n```")
    try:
        apply_theme(DARK)
        document = window.chat.bubbles[0].text_view.document()
        frame = document.rootFrame().childFrames()[0]
        assert frame.frameFormat().background().color().name() == DARK.code_bg
    finally:
        apply_theme(LIGHT)


def test_screenshot_command_writes_one_png_per_view(
    tmp_path: Path, monkeypatch: Any, qapp: Any
) -> None:
    from functools import cached_property

    from desktop_agent.embed import HashingEmbedder
    from desktop_agent.gui import screenshot
    from desktop_agent.gui.launch import launch
    from desktop_agent.gui.screenshot_samples import ScreenshotApp

    # Short replies and the hashing embedder keep this quick; the views are the same.
    monkeypatch.setenv("QT_QPA_PLATFORM", "offscreen")
    monkeypatch.setattr(screenshot, "REPLY_TOKENS", 40)
    embedder = cached_property(lambda _self: HashingEmbedder())
    embedder.__set_name__(ScreenshotApp, "embedder")
    monkeypatch.setattr(ScreenshotApp, "embedder", embedder)
    out = tmp_path / "shots"

    assert launch(model=None, screenshot_dir=out) == 0

    names = sorted(p.name for p in out.glob("*.png"))
    assert names == [
        "chat-dark.png",
        "chat-streaming.png",
        "chat.png",
        "incognito.png",
        "memory-inbox.png",
        "memory-inspector.png",
        "memory-source.png",
        "settings-security.png",
        "settings.png",
        "startup.png",
        "timeline.png",
        "what-i-know.png",
    ]
    assert all((out / n).stat().st_size > 10_000 for n in names)


def test_theme_follows_the_system_colour_scheme(qapp: Any, monkeypatch: Any) -> None:
    # The offscreen platform cannot change its colour scheme, so the system's answer is
    # stubbed and its change signal emitted by hand.
    from PySide6.QtCore import Qt

    from desktop_agent.gui import theme
    from desktop_agent.gui.launch import qt_application

    hints = qapp.styleHints()
    qt_application(dark=None)
    try:
        monkeypatch.setattr(theme, "system_is_dark", lambda: True)
        hints.colorSchemeChanged.emit(Qt.ColorScheme.Dark)
        assert theme.current_theme().dark
        assert qapp.palette().window().color().name() == theme.DARK.window
        monkeypatch.setattr(theme, "system_is_dark", lambda: False)
        hints.colorSchemeChanged.emit(Qt.ColorScheme.Light)
        assert not theme.current_theme().dark
    finally:
        qt_application(dark=False)
