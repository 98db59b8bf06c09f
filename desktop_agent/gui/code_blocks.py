"""Code blocks in a reply: syntax colours (Pygments) and a "Copy code" link under each.

Qt's Markdown reader puts a fenced block's lines in consecutive blocks marked with the fence's
language; ``style_code`` has framed them. Here each run of lines is tokenised by the lexer of
its language (plain text when none is named or known: a guessed lexer colours prose wrongly)
and every token gets its style's colour; then a small link follows the frame. The link's
``copy-code:N`` address is handled by the view, which copies the N-th block's exact text.
"""

from __future__ import annotations

from functools import cache

from pygments.lexer import Lexer
from pygments.lexers import TextLexer, get_lexer_by_name
from pygments.style import StyleMeta
from pygments.styles import get_style_by_name
from pygments.token import _TokenType
from pygments.util import ClassNotFound
from PySide6.QtGui import (
    QColor,
    QFont,
    QTextBlock,
    QTextBlockFormat,
    QTextCharFormat,
    QTextCursor,
    QTextDocument,
    QTextFormat,
)

COPY_SCHEME = "copy-code"
LIGHT_STYLE = "default"
DARK_STYLE = "monokai"
_KEEP = QTextCursor.MoveMode.KeepAnchor


def code_runs(document: QTextDocument) -> list[list[QTextBlock]]:
    """Each fenced code block as its run of consecutive blocks."""
    runs: list[list[QTextBlock]] = []
    block = document.begin()
    while block.isValid():
        if block.blockFormat().hasProperty(QTextFormat.Property.BlockCodeFence):
            if runs and runs[-1][-1] == block.previous():
                runs[-1].append(block)
            else:
                runs.append([block])
        block = block.next()
    return runs


def colour_code(document: QTextDocument, *, dark: bool) -> list[str]:
    """Colour every fenced code block (before ``style_code`` frames them); returns their texts
    in order, what each block's copy link copies."""
    runs = code_runs(document)
    style = get_style_by_name(DARK_STYLE if dark else LIGHT_STYLE)
    for run in runs:
        language = run[0].blockFormat().stringProperty(QTextFormat.Property.BlockCodeLanguage)
        _colour(run, _lexer(language.strip().lower()), style)
    return ["\n".join(b.text() for b in run) for run in runs]


def add_copy_links(document: QTextDocument, link_colour: str, code_frame: int) -> int:
    """A "Copy code" link under each framed code block (after ``style_code``, which marks
    their frames with the ``code_frame`` property)."""
    frames = [
        frame
        for frame in document.rootFrame().childFrames()
        if frame.frameFormat().boolProperty(code_frame)
    ]
    for number in reversed(range(len(frames))):  # from the end: earlier positions stay valid
        cursor = QTextCursor(document)
        cursor.setPosition(frames[number].lastPosition() + 1)
        cursor.insertBlock(QTextBlockFormat(), QTextCharFormat())
        cursor.insertHtml(
            f'<a href="{COPY_SCHEME}:{number}" style="color:{link_colour}; '
            'text-decoration:none;"><small>Copy code</small></a>'
        )
    return len(frames)


@cache
def _lexer(language: str) -> Lexer:
    if not language:
        return TextLexer()
    try:
        return get_lexer_by_name(language)
    except ClassNotFound:
        return TextLexer()


def _colour(run: list[QTextBlock], lexer: Lexer, style: StyleMeta) -> None:
    text = "\n".join(b.text() for b in run)
    starts = [b.position() for b in run]
    line, column = 0, 0
    for token, value in lexer.get_tokens(text):
        pieces = value.split("\n")
        for index, piece in enumerate(pieces):
            if index:
                line, column = line + 1, 0
            if piece and line < len(run):
                char_format = _format(style, token)
                if char_format is not None:
                    cursor = QTextCursor(run[line].document())
                    cursor.setPosition(starts[line] + column)
                    cursor.setPosition(starts[line] + column + len(piece), _KEEP)
                    cursor.mergeCharFormat(char_format)
            column += len(piece)


def _format(style: StyleMeta, token: _TokenType) -> QTextCharFormat | None:
    found = style.style_for_token(token)
    if not (found["color"] or found["bold"] or found["italic"]):
        return None
    char_format = QTextCharFormat()
    if found["color"]:
        char_format.setForeground(QColor(f"#{found['color']}"))
    if found["bold"]:
        char_format.setFontWeight(QFont.Weight.Bold)
    if found["italic"]:
        char_format.setFontItalic(True)
    return char_format
