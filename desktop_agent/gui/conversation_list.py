"""The conversation list: a list model over the core's conversations, a search filter, and the
panel with new / rename / delete."""

from __future__ import annotations

from datetime import date, datetime
from typing import Any

from PySide6.QtCore import (
    QAbstractListModel,
    QModelIndex,
    QPersistentModelIndex,
    QRect,
    QSize,
    QSortFilterProxyModel,
    Qt,
    Signal,
    Slot,
)
from PySide6.QtGui import QColor, QFont, QIcon, QPainter
from PySide6.QtWidgets import (
    QAbstractItemView,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QListView,
    QMenu,
    QMessageBox,
    QStyledItemDelegate,
    QStyleOptionViewItem,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from desktop_agent.core.assistant import Assistant
from desktop_agent.core.conversation import Conversation
from desktop_agent.gui.theme import current_theme, icon, theme_signals
from desktop_agent.gui.workers import run_in_background

UNTITLED = "New chat"
ConversationRole = Qt.ItemDataRole.UserRole + 1
IdRole = Qt.ItemDataRole.UserRole + 2
GroupRole = Qt.ItemDataRole.UserRole + 3
_Index = QModelIndex | QPersistentModelIndex


def display_title(conversation: Conversation) -> str:
    return conversation.title or UNTITLED


def date_group(conversation: Conversation, today: date | None = None) -> str:
    """The heading a conversation is listed under: pinned ones first, then by when it began."""
    if conversation.pinned:
        return "Pinned"
    today = today or datetime.now().astimezone().date()
    day = conversation.started_at.astimezone().date()
    age = (today - day).days
    if age <= 0:
        return "Today"
    if age == 1:
        return "Yesterday"
    if age < 7:
        return "Previous 7 days"
    if age < 30:
        return "Previous 30 days"
    return day.strftime("%B %Y") if day.year == today.year else str(day.year)


def listed_order(conversations: list[Conversation]) -> list[Conversation]:
    """Pinned first, each part newest first (the core lists newest first already)."""
    return sorted(conversations, key=lambda c: (not c.pinned, -c.started_at.timestamp()))


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


class RowDelegate(QStyledItemDelegate):
    """Roomy rows from the first paint (a stylesheet's item padding only counts once the view
    has been polished, so rows laid out at startup came out cramped), and a date heading
    ("Today", "Yesterday", ...) above the first row of each group."""

    ROW_HEIGHT = 40
    HEADING_HEIGHT = 24

    @staticmethod
    def heading(index: _Index) -> str:
        """The group heading shown above this row, or "" inside a group."""
        group = index.data(GroupRole) or ""
        if index.row() == 0:
            return group
        above = index.model().index(index.row() - 1, 0)
        return "" if above.data(GroupRole) == group else group

    def sizeHint(self, option: QStyleOptionViewItem, index: _Index) -> QSize:
        hint = super().sizeHint(option, index)
        # No width of its own: rows take the view's width, so long titles are elided
        # instead of growing a horizontal scroll bar.
        extra = self.HEADING_HEIGHT if self.heading(index) else 0
        return QSize(1, max(hint.height(), self.ROW_HEIGHT) + extra)

    def paint(self, painter: QPainter, option: QStyleOptionViewItem, index: _Index) -> None:
        heading = self.heading(index)
        if not heading:
            super().paint(painter, option, index)
            return
        top = QRect(option.rect)
        top.setHeight(self.HEADING_HEIGHT)
        painter.save()
        font = QFont(option.font)
        font.setPointSizeF(max(6.0, font.pointSizeF() - 1))
        font.setBold(True)
        painter.setFont(font)
        painter.setPen(QColor(current_theme().muted))
        painter.drawText(
            top.adjusted(10, 0, -8, 0),
            int(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignBottom),
            heading,
        )
        painter.restore()
        row = QStyleOptionViewItem(option)
        row.rect = option.rect.adjusted(0, self.HEADING_HEIGHT, 0, 0)
        super().paint(painter, row, index)


class ConversationListPanel(QWidget):
    """Search box, the list, and buttons; signals carry conversation ids."""

    conversation_did_select = Signal(str)
    conversation_did_request_new = Signal()
    conversation_did_delete = Signal(str)
    conversation_did_forget = Signal(object)  # ForgetReceipt | None, once the core is done
    panel_did_fail = Signal(str)

    def __init__(self, assistant: Assistant, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("conversationPanel")
        self.model = ConversationListModel(assistant, self)
        self.model.model_did_fail.connect(self.panel_did_fail)
        self.model.model_did_forget.connect(self.conversation_did_forget)
        self.proxy = ConversationFilter(self)
        self.proxy.setSourceModel(self.model)
        self._build()
        theme_signals().theme_did_change.connect(self._retint)

    def _build(self) -> None:
        self.search = QLineEdit(placeholderText="Search conversations")
        self.search.setClearButtonEnabled(True)
        self.search.textChanged.connect(self._filter)
        self._search_icon = self.search.addAction(QIcon(), QLineEdit.ActionPosition.LeadingPosition)
        self.new_button = QToolButton(toolTip="New chat (Ctrl+N)")
        self.new_button.clicked.connect(self.conversation_did_request_new)
        top = QHBoxLayout()
        top.setContentsMargins(8, 8, 8, 4)
        top.addWidget(self.search, 1)
        top.addWidget(self.new_button)

        self.view = QListView(objectName="conversationList")
        self.view.setModel(self.proxy)
        self.view.setItemDelegate(RowDelegate(self.view))
        self.view.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.view.setTextElideMode(Qt.TextElideMode.ElideRight)
        self.view.setEditTriggers(
            QAbstractItemView.EditTrigger.EditKeyPressed
            | QAbstractItemView.EditTrigger.DoubleClicked
        )
        self.view.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.view.setContextMenuPolicy(Qt.ContextMenuPolicy.CustomContextMenu)
        self.view.customContextMenuRequested.connect(self._context_menu)
        self.view.selectionModel().currentChanged.connect(self._current_changed)

        self.no_matches = QLabel("No matches", objectName="noMatches")
        self.no_matches.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.no_matches.setVisible(False)

        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(4)
        layout.addLayout(top)
        layout.addWidget(self.no_matches)
        layout.addWidget(self.view, 1)
        self._retint()

    @Slot()
    def _retint(self, *_: object) -> None:
        self.new_button.setIcon(icon("new-chat"))
        self._search_icon.setIcon(icon("search"))

    @Slot(str)
    def _filter(self, text: str) -> None:
        # Searching only filters the list: the chat on screen stays open, even when its row is
        # hidden (the view would otherwise move the current row and switch chats).
        selection = self.view.selectionModel()
        selection.blockSignals(True)
        try:
            self.proxy.setFilterFixedString(text)
        finally:
            selection.blockSignals(False)
        self.no_matches.setVisible(bool(text.strip()) and self.proxy.rowCount() == 0)

    @Slot(QModelIndex, QModelIndex)
    def _current_changed(self, current: QModelIndex, _previous: QModelIndex) -> None:
        if current.isValid():
            self.conversation_did_select.emit(current.data(IdRole))

    def set_pending_title(self, conversation_id: str, text: str) -> None:
        """Show ``text`` as the title of an untitled conversation while its reply streams."""
        first_line = text.strip().splitlines()[0][:60] if text.strip() else ""
        if first_line:
            self.model.pending_titles[conversation_id] = first_line
            self.model.title_changed(conversation_id)

    def refresh(self, select_id: str | None = None) -> None:
        self.model.refresh()
        if select_id is not None:
            self.select(select_id)

    def refresh_in_background(self, select_id: str | None = None) -> None:
        keep = select_id or self.current_id()
        self.model.refresh_in_background(lambda: keep and self.select(keep))

    def select(self, conversation_id: str) -> None:
        if self.current_id() == conversation_id:
            return  # already there (and a rename editor may be open on it)
        row = self.model.row_of(conversation_id)
        if row < 0:
            return
        index = self.proxy.mapFromSource(self.model.index(row))
        if not index.isValid():  # hidden by the search: clear it so the chat is visible
            self.search.clear()
            index = self.proxy.mapFromSource(self.model.index(row))
        self.view.selectionModel().blockSignals(True)
        self.view.setCurrentIndex(index)
        self.view.selectionModel().blockSignals(False)

    def current_id(self) -> str | None:
        index = self.view.currentIndex()
        return index.data(IdRole) if index.isValid() else None

    @Slot()
    def rename_current(self) -> None:
        index = self.view.currentIndex()
        if index.isValid():
            self.view.edit(index)

    def rename(self, conversation_id: str, title: str) -> bool:
        return self.model.setData(self.model.index(self.model.row_of(conversation_id)), title)

    @Slot()
    def delete_current(self) -> None:
        conversation_id = self.current_id()
        if conversation_id is not None:
            self.delete(conversation_id, confirm=True)

    def delete(self, conversation_id: str, *, confirm: bool) -> bool:
        row = self.model.row_of(conversation_id)
        if row < 0:
            return False
        title = display_title(self.model.conversation_at(row))
        if confirm:
            answer = QMessageBox.question(
                self,
                "Delete conversation",
                f"Delete “{title}”? Its messages are erased, with everything remembered "
                "only from it.",
                QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.Cancel,
                QMessageBox.StandardButton.Cancel,
            )
            if answer != QMessageBox.StandardButton.Yes:
                return False
        self.model.remove(conversation_id)
        self.conversation_did_delete.emit(conversation_id)
        return True

    @Slot("QPoint")
    def _context_menu(self, position: Any) -> None:
        index = self.view.indexAt(position)
        if not index.isValid():
            return
        self.view.setCurrentIndex(index)
        menu = QMenu(self)
        conversation = index.data(ConversationRole)
        pinned = bool(conversation and conversation.pinned)
        menu.addAction(
            icon("pin"),
            "Unpin" if pinned else "Pin to the top",
            lambda: self.model.set_pinned(index.data(IdRole), not pinned),
        )
        menu.addAction(icon("rename"), "Rename", self.rename_current)
        menu.addAction(icon("delete"), "Delete…", self.delete_current)
        menu.exec(self.view.viewport().mapToGlobal(position))
