"""The tinted frame each fenced code block sits in, and tinted inline code: QTextDocument's
Markdown reader marks code but does not colour it (``code_blocks`` colours the tokens first and
adds the copy links after)."""

from __future__ import annotations

from PySide6.QtGui import (
    QColor,
    QTextBlock,
    QTextBlockFormat,
    QTextCharFormat,
    QTextCursor,
    QTextDocument,
    QTextFormat,
    QTextFrameFormat,
)

# Marks the frames style_code puts code blocks in (tables are frames too).
CODE_FRAME = int(QTextFormat.Property.UserProperty) + 1


def style_code(document: QTextDocument, background: str, border: str) -> None:
    """Put fenced code blocks in a padded, tinted frame and tint inline code (QTextDocument's
    Markdown reader marks code but does not colour it)."""
    colour = QColor(background)
    runs: list[list[QTextBlock]] = []
    block = document.begin()
    while block.isValid():
        if block.blockFormat().hasProperty(QTextFormat.Property.BlockCodeFence):
            # Long lines wrap at the bubble's edge rather than run past it, cut off.
            breakable = QTextBlockFormat()
            breakable.setNonBreakableLines(False)
            QTextCursor(block).mergeBlockFormat(breakable)
            if runs and runs[-1][-1] == block.previous():
                runs[-1].append(block)
            else:
                runs.append([block])
        else:
            _tint_inline_code(block, colour)
        block = block.next()
    frame = QTextFrameFormat()
    frame.setBackground(colour)
    frame.setPadding(8)
    frame.setBorder(1)
    frame.setBorderBrush(QColor(border))
    frame.setBorderStyle(QTextFrameFormat.BorderStyle.BorderStyle_Solid)
    frame.setProperty(CODE_FRAME, True)  # so the copy links find them among other frames
    for run in reversed(runs):  # from the end, so earlier positions stay valid
        cursor = QTextCursor(document)
        cursor.setPosition(run[0].position())
        cursor.setPosition(run[-1].position() + run[-1].length() - 1, _KEEP)
        cursor.insertFrame(frame)  # moves the selected blocks inside the frame
    _flatten_empty_blocks(document)


_KEEP = QTextCursor.MoveMode.KeepAnchor


def _tint_inline_code(block: QTextBlock, colour: QColor) -> None:
    iterator = block.begin()
    while not iterator.atEnd():
        fragment = iterator.fragment()
        if fragment.isValid() and fragment.charFormat().fontFixedPitch():
            inline = QTextCharFormat()
            inline.setBackground(colour)
            cursor = QTextCursor(block)
            cursor.setPosition(fragment.position())
            cursor.setPosition(fragment.position() + fragment.length(), _KEEP)
            cursor.mergeCharFormat(inline)
        iterator += 1


def _flatten_empty_blocks(document: QTextDocument) -> None:
    """Inserting a frame leaves empty paragraphs around it; make them (nearly) zero-height."""
    root = document.rootFrame()
    flat = QTextBlockFormat()
    flat.setLineHeight(1, QTextBlockFormat.LineHeightTypes.FixedHeight.value)
    flat.setTopMargin(0)
    flat.setBottomMargin(0)
    block = document.begin()
    while block.isValid():
        cursor = QTextCursor(block)
        if not block.text() and cursor.currentFrame() == root:
            cursor.mergeBlockFormat(flat)
        block = block.next()
