"""The message box: Enter (or Ctrl+Enter) sends, Shift+Enter adds a line; it grows with its
text up to a few lines, with the Send / Stop button beside it."""

from __future__ import annotations

from PySide6.QtCore import QSize, Qt, Signal, Slot
from PySide6.QtGui import QKeyEvent, QResizeEvent
from PySide6.QtWidgets import (
    QFrame,
    QHBoxLayout,
    QLabel,
    QPlainTextEdit,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from desktop_agent.gui.theme import current_theme, icon

MAX_LINES = 8


class MessageEdit(QPlainTextEdit):
    """A plain-text box that submits on Enter."""

    edit_did_submit = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("composer")
        self.set_hint("Message the assistant", "Enter to send, Shift+Enter for a new line")
        self.setTabChangesFocus(True)
        self.document().documentLayout().documentSizeChanged.connect(self._fit_height)
        self._fit_height()

    def keyPressEvent(self, event: QKeyEvent) -> None:
        enter = event.key() in (Qt.Key.Key_Return, Qt.Key.Key_Enter)
        if enter and not event.modifiers() & Qt.KeyboardModifier.ShiftModifier:
            self.edit_did_submit.emit()
            return
        if enter:  # Shift+Enter: a plain new line, not a paragraph separator
            self.insertPlainText("\n")
            return
        super().keyPressEvent(event)

    def set_hint(self, lead: str, hint: str) -> None:
        """The placeholder: ``lead`` and, when the box is wide enough, ``hint`` after it (a
        placeholder wider than the box would wrap and be cut off)."""
        self._hint = (lead, hint)
        self.setToolTip(hint)
        self._fit_hint()

    def _fit_hint(self) -> None:
        lead, hint = self._hint
        full = f"{lead}  ·  {hint}"
        room = self.viewport().width() - 2 * int(self.document().documentMargin()) - 4
        fits = self.fontMetrics().horizontalAdvance(full) <= room
        self.setPlaceholderText(full if fits else lead)

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        self._fit_hint()

    @Slot()
    def _fit_height(self, *_: object) -> None:
        line = self.fontMetrics().lineSpacing()
        lines = max(1, min(MAX_LINES, int(self.document().size().height())))
        margins = self.contentsMargins()
        self.setFixedHeight(
            lines * line
            + int(2 * self.document().documentMargin())
            + margins.top()
            + margins.bottom()
            + 8
        )

    def sizeHint(self) -> QSize:
        return QSize(400, self.height())


class Composer(QWidget):
    """The edit bar, the message box, the Send/Stop button and an inline error line."""

    composer_did_submit = Signal(str, bool)  # text, whether it replaces the last message
    composer_did_request_stop = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.editing = False
        self.busy = False
        self._build()
        self.set_busy(False)

    def _build(self) -> None:
        self.edit_bar = QFrame(objectName="editBar")
        bar = QHBoxLayout(self.edit_bar)
        bar.setContentsMargins(10, 4, 4, 4)
        bar.addWidget(QLabel("Editing your last message: Enter resends it"), 1)
        cancel = QPushButton("Cancel")
        cancel.setFlat(True)
        cancel.clicked.connect(self.cancel_edit)
        bar.addWidget(cancel)
        self.edit_bar.hide()

        frame = QFrame(objectName="composerFrame")
        row = QHBoxLayout(frame)
        row.setContentsMargins(8, 6, 8, 6)
        self.edit = MessageEdit(frame)
        self.edit.edit_did_submit.connect(self.submit)
        self.edit.textChanged.connect(self.clear_error)
        self.send_button = QPushButton(objectName="sendButton", toolTip="Send (Enter)")
        self.send_button.clicked.connect(self.submit)
        self.stop_button = QPushButton(objectName="stopButton", toolTip="Stop (Esc)")
        self.stop_button.clicked.connect(self.composer_did_request_stop)
        row.addWidget(self.edit, 1)
        row.addWidget(self.send_button, 0, Qt.AlignmentFlag.AlignBottom)
        row.addWidget(self.stop_button, 0, Qt.AlignmentFlag.AlignBottom)

        self.error_label = QLabel(objectName="errorLabel")
        self.error_label.setWordWrap(True)
        self.error_label.hide()

        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(6)
        layout.addWidget(self.edit_bar)
        layout.addWidget(frame)
        layout.addWidget(self.error_label)
        self.retint()

    def retint(self) -> None:
        theme = current_theme()
        self.send_button.setIcon(icon("send", theme.accent_text))
        self.stop_button.setIcon(icon("stop", theme.base))

    # --- state ---
    @property
    def text(self) -> str:
        return self.edit.toPlainText()

    def set_text(self, text: str) -> None:
        self.edit.setPlainText(text)
        self.edit.moveCursor(self.edit.textCursor().MoveOperation.End)

    def set_busy(self, busy: bool) -> None:
        self.busy = busy
        self.send_button.setVisible(not busy)
        self.stop_button.setVisible(busy)

    def show_error(self, message: str) -> None:
        self.error_label.setText(message)
        self.error_label.show()

    @Slot()
    def clear_error(self) -> None:
        if self.error_label.isVisible():
            self.error_label.hide()

    def start_edit(self, text: str) -> None:
        self.editing = True
        self.edit_bar.show()
        self.set_text(text)
        self.edit.setFocus()

    @Slot()
    def cancel_edit(self) -> None:
        if self.editing:
            self.editing = False
            self.edit_bar.hide()
            self.edit.clear()

    @Slot()
    def submit(self) -> None:
        """Send the text (empty text too: the core says why it cannot be sent)."""
        if self.busy:
            return
        text, editing = self.text, self.editing
        self.editing = False
        self.edit_bar.hide()
        self.composer_did_submit.emit(text, editing)
