"""The inbox: memories learned from conversations that the user has not reviewed yet. Accept
keeps one, Edit opens it in the inspector's editor, Reject forgets it."""

from __future__ import annotations

from PySide6.QtCore import Qt, QTimer, Signal, Slot
from PySide6.QtGui import QResizeEvent
from PySide6.QtWidgets import (
    QFrame,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QScrollArea,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from desktop_agent.core.memory_model import MemoryItem
from desktop_agent.gui.memory_lens import kind_label
from desktop_agent.gui.theme import current_theme, icon


class InboxRow(QFrame):
    def __init__(self, item: MemoryItem, source: str, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("inboxRow")
        self.item = item
        row = QHBoxLayout(self)
        row.setContentsMargins(10, 6, 6, 6)
        text = QVBoxLayout()
        text.setSpacing(2)
        chip = QLabel(kind_label(item.kind, item.type).upper(), objectName="kindChip")
        self.text_label = QLabel(item.text, objectName="lensText")
        self.text_label.setTextFormat(Qt.TextFormat.PlainText)
        self.text_label.setWordWrap(True)
        top = QHBoxLayout()
        top.addWidget(chip, 0, Qt.AlignmentFlag.AlignTop)
        top.addWidget(self.text_label, 1)
        text.addLayout(top)
        when = item.created_at.astimezone().strftime("%d %b, %H:%M")
        origin = QLabel(f"learned from “{source}” · {when}", objectName="mutedLabel")
        origin.setTextFormat(Qt.TextFormat.PlainText)
        origin.setWordWrap(True)
        text.addWidget(origin)
        row.addLayout(text, 1)
        muted = current_theme().muted
        self.accept_button = self._button("check", "Accept", "Keep this memory", muted)
        self.edit_button = self._button("edit", "Edit", "Correct it in the inspector", muted)
        self.reject_button = self._button("delete", "Reject", "Forget this memory now", muted)
        for button in (self.accept_button, self.edit_button, self.reject_button):
            row.addWidget(button, 0, Qt.AlignmentFlag.AlignVCenter)

    @staticmethod
    def _button(icon_name: str, text: str, tip: str, colour: str) -> QToolButton:
        button = QToolButton(objectName="bubbleAction", text=text, toolTip=tip)
        button.setIcon(icon(icon_name, colour))
        button.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextBesideIcon)
        button.setAutoRaise(True)
        return button


# Narrower than this, the rows show Accept, Edit and Reject as icons (their tooltips say what).
COMPACT_BELOW = 440

# How long a rejected memory waits, hidden, for Undo before it is forgotten.
REJECT_DELAY_MS = 6000


class MemoryInbox(QWidget):
    """Newly learned memories, newest first; the inspector does the writing."""

    inbox_did_accept = Signal(str)
    inbox_did_accept_all = Signal(object)  # list of ids
    inbox_did_request_edit = Signal(str)
    inbox_did_reject = Signal(str)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.rows: list[InboxRow] = []
        layout = QVBoxLayout(self)
        layout.setContentsMargins(8, 8, 8, 8)
        top = QHBoxLayout()
        self.summary = QLabel("", objectName="mutedLabel")
        self.summary.setWordWrap(True)
        self.accept_all_button = QPushButton(icon("check"), "Accept all")
        self.accept_all_button.clicked.connect(
            lambda: self.inbox_did_accept_all.emit([r.item.id for r in self.rows])
        )
        top.addWidget(self.summary, 1)
        top.addWidget(self.accept_all_button)
        layout.addLayout(top)
        # Reject waits a few seconds with an Undo before anything is destroyed.
        self.pending: dict[str, QTimer] = {}
        self.undo_bar = QWidget(objectName="inboxUndo")
        undo_row = QHBoxLayout(self.undo_bar)
        undo_row.setContentsMargins(0, 0, 0, 0)
        self.undo_label = QLabel("", objectName="mutedLabel")
        self.undo_button = QPushButton("Undo")
        self.undo_button.clicked.connect(self.undo)
        undo_row.addWidget(self.undo_label, 1)
        undo_row.addWidget(self.undo_button)
        self.undo_bar.hide()
        layout.addWidget(self.undo_bar)
        body = QWidget(objectName="inboxBody")
        self.list_layout = QVBoxLayout(body)
        self.list_layout.setContentsMargins(0, 0, 0, 0)
        self.list_layout.setSpacing(6)
        self.list_layout.addStretch(1)
        scroll = QScrollArea(objectName="inboxScroll")
        scroll.setWidgetResizable(True)
        scroll.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        scroll.setWidget(body)
        layout.addWidget(scroll, 1)
        self.set_items([], {})

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        self._fit_rows()

    def _fit_rows(self) -> None:
        style = (
            Qt.ToolButtonStyle.ToolButtonIconOnly
            if self.width() < COMPACT_BELOW
            else Qt.ToolButtonStyle.ToolButtonTextBesideIcon
        )
        for row in self.rows:
            for button in (row.accept_button, row.edit_button, row.reject_button):
                button.setToolButtonStyle(style)

    def set_items(self, items: list[MemoryItem], sources: dict[str, str]) -> None:
        for row in self.rows:
            self.list_layout.removeWidget(row)
            row.deleteLater()
        self.rows = []
        for item in items:
            row = InboxRow(item, sources.get(item.id, "a chat"), self)
            row.accept_button.clicked.connect(
                lambda _=False, i=item.id: self.inbox_did_accept.emit(i)
            )
            row.edit_button.clicked.connect(
                lambda _=False, i=item.id: self.inbox_did_request_edit.emit(i)
            )
            row.reject_button.clicked.connect(lambda _=False, i=item.id: self.reject_later(i))
            row.setVisible(item.id not in self.pending)
            self.list_layout.insertWidget(self.list_layout.count() - 1, row)
            self.rows.append(row)
        self._fit_rows()
        count = len(items)
        self.summary.setText(
            f"{count} new memor{'y' if count == 1 else 'ies'} learned from your conversations. "
            "Keep what is right, correct or reject the rest."
            if count
            else "Nothing new to review. Memories learned from your conversations appear here."
        )
        self.accept_all_button.setEnabled(bool(count))

    def reject_later(self, memory_id: str) -> None:
        """Hide the memory and forget it after ``REJECT_DELAY_MS`` unless Undo is pressed."""
        timer = QTimer(self, singleShot=True, interval=REJECT_DELAY_MS)
        timer.timeout.connect(lambda: self._commit(memory_id))
        self.pending[memory_id] = timer
        timer.start()
        if (row := self.row_for(memory_id)) is not None:
            row.hide()
        count = len(self.pending)
        self.undo_label.setText(
            f"Rejected {count} memor{'y' if count == 1 else 'ies'}: forgotten in a few seconds."
        )
        self.undo_bar.show()

    @Slot()
    def undo(self) -> None:
        """Keep every memory rejected in the last few seconds."""
        for memory_id, timer in self.pending.items():
            timer.stop()
            if (row := self.row_for(memory_id)) is not None:
                row.show()
        self.pending.clear()
        self.undo_bar.hide()

    def commit_rejects(self) -> None:
        """Forget the rejected memories now (the panel closes, the app quits)."""
        for memory_id in list(self.pending):
            self._commit(memory_id)

    def _commit(self, memory_id: str) -> None:
        timer = self.pending.pop(memory_id, None)
        if timer is None:
            return
        timer.stop()
        if not self.pending:
            self.undo_bar.hide()
        self.inbox_did_reject.emit(memory_id)

    def row_for(self, memory_id: str) -> InboxRow | None:
        return next((r for r in self.rows if r.item.id == memory_id), None)
