"""Code blocks in replies (issue 12, part 3): coloured by their language, with a copy link."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QUrl
from PySide6.QtGui import QGuiApplication, QTextCursor

from desktop_agent.gui.message_view import MessageView

REPLY = (
    "Here you go:\n\n```python\ndef greet(name):\n    return f'hi {name}'\n```\n\n"
    "And a shell one:\n\n```\nls -la\n```\n"
)


def _colour_at(view: MessageView, word: str) -> str:
    document = view.text_view.document()
    found = document.find(word)
    assert not found.isNull(), word
    cursor = QTextCursor(document)
    cursor.setPosition(found.selectionStart() + 1)
    return cursor.charFormat().foreground().color().name()


def test_code_is_coloured_by_language_and_each_block_has_a_copy_link(qtbot: Any) -> None:
    view = MessageView("assistant", REPLY)
    qtbot.addWidget(view)
    view.resize(600, 400)
    view.show()
    text = view.text_view
    assert text.code_texts == ["def greet(name):\n    return f'hi {name}'", "ls -la"]
    html = text.document().toHtml()
    assert 'href="copy-code:0"' in html and 'href="copy-code:1"' in html
    # "def" is a keyword and coloured; the plain block is left in the text colour.
    assert _colour_at(view, "def") != _colour_at(view, "ls -la")
    assert _colour_at(view, "def") != text.palette().text().color().name()

    with qtbot.waitSignal(view.message_did_request_copy) as copied:
        text.anchorClicked.emit(QUrl("copy-code:0"))
    assert copied.args == ["def greet(name):\n    return f'hi {name}'"]
    assert QGuiApplication.clipboard().text() == "def greet(name):\n    return f'hi {name}'"
    assert text.document().toPlainText().startswith("Here you go:")  # no navigation happened


def test_an_unknown_language_is_plain_text_and_a_bad_link_does_nothing(qtbot: Any) -> None:
    view = MessageView("assistant", "```klingon\nQapla'\n```\n")
    qtbot.addWidget(view)
    assert view.text_view.code_texts == ["Qapla'"]
    QGuiApplication.clipboard().setText("unchanged")
    view.text_view.anchorClicked.emit(QUrl("copy-code:7"))
    assert QGuiApplication.clipboard().text() == "unchanged"
