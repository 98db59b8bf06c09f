"""The conversation list's model over the core's conversations, and the search filter over it."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import (
    QAbstractListModel,
    QModelIndex,
    QPersistentModelIndex,
    QSortFilterProxyModel,
    Qt,
    Signal,
    Slot,
)
from PySide6.QtWidgets import QWidget

from desktop_agent.core.assistant import Assistant
from desktop_agent.core.conversation import Conversation
from desktop_agent.gui.conversation_groups import UNTITLED, date_group, display_title, listed_order
from desktop_agent.gui.theme import icon
from desktop_agent.gui.workers import run_in_background

ConversationRole = Qt.ItemDataRole.UserRole + 1
IdRole = Qt.ItemDataRole.UserRole + 2
GroupRole = Qt.ItemDataRole.UserRole + 3
_Index = QModelIndex | QPersistentModelIndex


class ConversationListModel(QAbstractListModel):
    """The assistant's conversations, most recent first. Editing a title renames it in the core."""

    model_did_fail = Signal(str)
    model_did_forget = Signal(object)  # ForgetReceipt, or None when nothing was remembered

    def __init__(self, assistant: Assistant, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._assistant = assistant
        self._items: list[Conversation] = listed_order(assistant.conversations())
        self._groups = {c.id: date_group(c) for c in self._items}
        # Titles to show until the core has titled a conversation (its first message is
        # added when the reply ends).
        self.pending_titles: dict[str, str] = {}

    # --- Qt overrides ---
    def rowCount(self, parent: _Index = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(self._items)

    def data(self, index: _Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if not index.isValid() or not 0 <= index.row() < len(self._items):
            return None
        conversation = self._items[index.row()]
        if role in (Qt.ItemDataRole.DisplayRole, Qt.ItemDataRole.EditRole):
            return conversation.title or self.pending_titles.get(conversation.id) or UNTITLED
        if role == Qt.ItemDataRole.ToolTipRole:
            when = conversation.started_at.astimezone().strftime("%d %b %Y, %H:%M")
            private = " · incognito" if conversation.incognito else ""
            return f"{display_title(conversation)}\nstarted {when}{private}"
        if role == Qt.ItemDataRole.DecorationRole:
            if conversation.pinned:
                return icon("pin")
            return icon("incognito" if conversation.incognito else "chat")
        if role == GroupRole:
            return date_group(conversation)
        if role == ConversationRole:
            return conversation
        if role == IdRole:
            return conversation.id
        return None

    def flags(self, index: _Index) -> Qt.ItemFlag:
        if not index.isValid():
            return Qt.ItemFlag.NoItemFlags
        return super().flags(index) | Qt.ItemFlag.ItemIsEditable

    def setData(self, index: _Index, value: Any, role: int = Qt.ItemDataRole.EditRole) -> bool:
        if role != Qt.ItemDataRole.EditRole or not index.isValid():
            return False
        title = str(value).strip()
        if not title:
            self.model_did_fail.emit("a conversation title cannot be empty")
            return False
        conversation = self._items[index.row()]
        conversation.title = title  # shown at once; stored on the memory lane, off this thread
        run_in_background(
            lambda: self._assistant.rename_conversation(conversation.id, title),
            on_error=lambda error: self.model_did_fail.emit(f"Could not rename: {error}"),
            name="rename-conversation",
            lane="memory",
        )
        self.dataChanged.emit(index, index)
        return True

    # --- verbs ---
    def conversation_at(self, row: int) -> Conversation:
        return self._items[row]

    def row_of(self, conversation_id: str) -> int:
        for row, conversation in enumerate(self._items):
            if conversation.id == conversation_id:
                return row
        return -1

    def refresh(self) -> None:
        """Re-read the list from the core (after a conversation was added or changed)."""
        self.set_items(self._assistant.conversations())

    def refresh_in_background(self, then: Any = None) -> None:
        """Re-read the list on the memory lane (remembered conversations are rebuilt from
        their episodes, which takes a while in a large store)."""

        def done(fresh: list[Conversation]) -> None:
            self.set_items(fresh)
            if then is not None:
                then()

        run_in_background(
            self._assistant.conversations,
            on_done=done,
            name="list-conversations",
            lane="memory",
            owner=self,
        )

    def title_changed(self, conversation_id: str) -> None:
        row = self.row_of(conversation_id)
        if row >= 0:
            self.dataChanged.emit(self.index(row), self.index(row))

    def set_pinned(self, conversation_id: str, pinned: bool) -> None:
        """Pin or unpin: the list re-sorts now; the core stores it on the memory lane."""
        row = self.row_of(conversation_id)
        if row < 0:
            return
        self._items[row].pinned = pinned
        self.set_items(list(self._items))
        run_in_background(
            lambda: self._assistant.pin_conversation(conversation_id, pinned),
            on_error=lambda error: self.model_did_fail.emit(f"Could not pin: {error}"),
            name="pin-conversation",
            lane="memory",
        )

    def set_items(self, fresh: list[Conversation]) -> None:
        fresh = listed_order(fresh)
        # Same rows under the same headings: repaint; else re-lay out (heights follow headings).
        if [(c.id, date_group(c)) for c in fresh] == [
            (c.id, self._groups.get(c.id)) for c in self._items
        ]:
            self._items = fresh
            if fresh:
                self.dataChanged.emit(self.index(0), self.index(len(fresh) - 1))
            return
        self.beginResetModel()
        self._items = fresh
        self._groups = {c.id: date_group(c) for c in fresh}
        self.endResetModel()

    def add(self, conversation: Conversation) -> None:
        """Show a conversation just started (the newest, so first after the pinned ones)
        without re-reading."""
        if self.row_of(conversation.id) < 0:
            at = sum(1 for c in self._items if c.pinned)
            self.beginInsertRows(QModelIndex(), at, at)
            self._items.insert(at, conversation)
            self._groups[conversation.id] = date_group(conversation)
            self.endInsertRows()
            self._relayout()

    def _relayout(self) -> None:
        """Row heights follow the headings, which a neighbour's arrival or removal moves."""
        self.layoutAboutToBeChanged.emit()
        self.layoutChanged.emit()

    def drop(self, conversation_id: str) -> bool:
        """Remove a row the core no longer has (without asking the core)."""
        row = self.row_of(conversation_id)
        if row < 0:
            return False
        self.beginRemoveRows(QModelIndex(), row, row)
        del self._items[row]
        self.endRemoveRows()
        self._relayout()
        return True

    def remove(self, conversation_id: str) -> None:
        """Drop the row now; the core forgets the conversation on the memory lane."""
        if not self.drop(conversation_id):
            return
        self.forgetting += 1
        run_in_background(
            lambda: self._assistant.delete_conversation(conversation_id),
            on_done=self._forgotten,
            on_error=self._forget_failed,
            name="delete-conversation",
            lane="memory",
        )

    forgetting = 0

    @Slot(object)
    def _forgotten(self, receipt: object) -> None:
        self.forgetting -= 1
        self.model_did_forget.emit(receipt)

    @Slot(object)
    def _forget_failed(self, error: BaseException) -> None:
        self.forgetting -= 1
        self.model_did_fail.emit(f"Could not forget the conversation: {error}")


class ConversationFilter(QSortFilterProxyModel):
    """Search: keeps conversations whose title or messages contain every typed word."""

    def filterAcceptsRow(self, source_row: int, source_parent: _Index) -> bool:
        words = self.filterRegularExpression().pattern().lower().split()
        if not words:
            return True
        model = self.sourceModel()
        assert isinstance(model, ConversationListModel)
        conversation = model.conversation_at(source_row)
        haystack = " ".join(
            [conversation.title, *(m.content for m in conversation.messages)]
        ).lower()
        return all(word in haystack for word in words)
