"""Markdown text in a bubble: a read-only view exactly as tall as its text, with coloured and
framed code blocks that each have a "Copy code" link, and the helpers that prepare what it shows
(a streaming reply's finished part, a user's line breaks)."""

from __future__ import annotations

import re

from PySide6.QtCore import QSize, Qt, QUrl, Signal, Slot
from PySide6.QtGui import QDesktopServices, QGuiApplication, QTextDocument, QTextOption
from PySide6.QtWidgets import QFrame, QSizePolicy, QTextBrowser, QWidget

from desktop_agent.gui.code_blocks import COPY_SCHEME, add_copy_links, colour_code
from desktop_agent.gui.code_frames import CODE_FRAME, style_code
from desktop_agent.gui.theme import current_theme


def stable_prefix_length(text: str) -> int:
    """Where the last finished paragraph ends: the last blank line outside a code fence."""
    cut = text.rfind("\n\n")
    while cut > 0 and text.count("```", 0, cut) % 2:
        cut = text.rfind("\n\n", 0, cut)
    return max(cut, 0)


def hard_line_breaks(text: str) -> str:
    """Markdown in which each single newline outside code fences is a line break."""
    parts = re.split(r"(```.*?```)", text, flags=re.DOTALL)
    return "".join(
        part if part.startswith("```") else re.sub(r"(?<!\n)\n(?!\n)", "  \n", part)
        for part in parts
    )


class MarkdownText(QTextBrowser):
    """Read-only Markdown that is exactly as tall as its text (the transcript scrolls, not it).
    Code blocks are coloured by language and each has a "Copy code" link under it."""

    code_did_request_copy = Signal(str)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("bubbleText")
        # Links are opened here: web links in the browser, copy links copy their block.
        self.setOpenLinks(False)
        self.anchorClicked.connect(self._follow)
        self.code_texts: list[str] = []
        self.setFrameShape(QFrame.Shape.NoFrame)
        self.setVerticalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Fixed)
        self.document().setDocumentMargin(2)
        self.setWordWrapMode(QTextOption.WrapMode.WrapAtWordBoundaryOrAnywhere)
        self.document().documentLayout().documentSizeChanged.connect(self._fit_height)
        self._markdown = ""

    @property
    def markdown(self) -> str:
        return self._markdown

    def set_markdown(self, text: str) -> None:
        self._markdown = text
        document = self.document()
        document.setMarkdown(text, QTextDocument.MarkdownFeature.MarkdownDialectGitHub)
        theme = current_theme()
        self.code_texts = colour_code(document, dark=theme.dark)
        style_code(document, theme.code_bg, theme.border)
        add_copy_links(document, theme.accent, CODE_FRAME)

    @Slot(QUrl)
    def _follow(self, url: QUrl) -> None:
        if url.scheme() == COPY_SCHEME:
            number = int(url.path()) if url.path().isdigit() else -1
            if 0 <= number < len(self.code_texts):
                QGuiApplication.clipboard().setText(self.code_texts[number])
                self.code_did_request_copy.emit(self.code_texts[number])
            return
        if url.scheme() in ("http", "https", "mailto"):
            QDesktopServices.openUrl(url)

    @Slot()
    def _fit_height(self, *_: object) -> None:
        height = int(self.document().size().height()) + 2
        if height != self.height():
            self.setFixedHeight(height)

    def sizeHint(self) -> QSize:
        return QSize(super().sizeHint().width(), int(self.document().size().height()) + 2)
