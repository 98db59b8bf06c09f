"""The conversation list panel: a search box, the list and new / rename / delete / pin. The
model, its search filter, the row delegate and the date groups live in modules of their own."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QModelIndex, Qt, Signal, Slot
from PySide6.QtGui import QIcon
from PySide6.QtWidgets import (
    QAbstractItemView,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QListView,
    QMenu,
    QMessageBox,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from desktop_agent.core.assistant import Assistant
from desktop_agent.gui.conversation_groups import UNTITLED, date_group, display_title, listed_order
from desktop_agent.gui.conversation_list_model import (
    ConversationFilter,
    ConversationListModel,
    ConversationRole,
    GroupRole,
    IdRole,
)
from desktop_agent.gui.conversation_row_delegate import RowDelegate
from desktop_agent.gui.theme import icon, theme_signals

# Re-exported: tests and older imports find the model, filter, delegate and groups here.
__all__ = [
    "UNTITLED",
    "ConversationFilter",
    "ConversationListModel",
    "ConversationListPanel",
    "ConversationRole",
    "GroupRole",
    "IdRole",
    "RowDelegate",
    "date_group",
    "display_title",
    "listed_order",
]


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
