"""Markdown rendering and the screenshot command."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from PySide6.QtGui import QTextFormat

from desktop_agent.gui.message_view import MessageView
from desktop_agent.gui.theme import DARK, LIGHT, apply_theme


def test_code_blocks_get_a_background(qtbot: Any, make_window: Any) -> None:
    make_window(load_model=False)
    view = MessageView("assistant", "Here:\n\n```python\nprint('hi')\n```\n\nand `x`.")
    qtbot.addWidget(view)

    document = view.text_view.document()
    code = [
        b
        for b in _blocks(document)
        if b.blockFormat().hasProperty(QTextFormat.Property.BlockCodeFence)
    ]
    assert code and code[0].text() == "print('hi')"
    assert code[0].blockFormat().background().color().name() == LIGHT.code_bg


def test_theme_change_recolours_existing_messages(qtbot: Any, make_window: Any) -> None:
    window = make_window(load_model=False)
    window.chat.add_user_message("```\ncode\n```")
    try:
        apply_theme(DARK)
        block = next(_blocks(window.chat.bubbles[0].text_view.document()))
        assert block.blockFormat().background().color().name() == DARK.code_bg
    finally:
        apply_theme(LIGHT)


def _blocks(document: Any) -> Any:
    block = document.begin()
    while block.isValid():
        yield block
        block = block.next()


def test_screenshot_command_writes_one_png_per_view(
    tmp_path: Path, monkeypatch: Any, qapp: Any
) -> None:
    from desktop_agent.gui.launch import launch

    monkeypatch.setenv("QT_QPA_PLATFORM", "offscreen")
    out = tmp_path / "shots"

    assert launch(model=None, screenshot_dir=out) == 0

    names = sorted(p.name for p in out.glob("*.png"))
    assert names == [
        "chat-dark.png",
        "chat-streaming.png",
        "chat.png",
        "incognito.png",
        "settings.png",
    ]
    assert all((out / n).stat().st_size > 10_000 for n in names)
