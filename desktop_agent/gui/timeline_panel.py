"""The episodes timeline: remembered conversations by day, each with its exchanges; open one
in the chat, or forget a conversation and everything learned only from it."""

from __future__ import annotations

import html
from dataclasses import dataclass
from datetime import date, datetime
from typing import Any

from PySide6.QtCore import Qt, Signal, Slot
from PySide6.QtWidgets import (
    QAbstractItemView,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QPushButton,
    QTreeWidget,
    QTreeWidgetItem,
    QVBoxLayout,
    QWidget,
)

from desktop_agent.core.memory_model import MemoryItem
from desktop_agent.core.memory_service import ConversationSummary, MemoryService
from desktop_agent.gui import forget_dialogs
from desktop_agent.gui.memory_panel import MemoryPanel
from desktop_agent.gui.session import Session
from desktop_agent.gui.theme import icon

ConversationRole = Qt.ItemDataRole.UserRole + 1
EpisodeRole = Qt.ItemDataRole.UserRole + 2


@dataclass(frozen=True, slots=True)
class TimelineEntry:
    conversation: ConversationSummary
    episodes: tuple[MemoryItem, ...]
    learned: int  # memories learned from it


def read_timeline(memory: MemoryService) -> list[TimelineEntry]:
    entries = []
    learned = memory.items("semantic")
    for summary in memory.conversations():
        episodes = memory.episodes(summary.id)
        ids = {e.id for e in episodes}
        count = sum(1 for i in learned if any(p.episode_id in ids for p in i.provenance))
        entries.append(TimelineEntry(summary, tuple(episodes), count))
    return entries


def day_label(day: date, today: date) -> str:
    delta = (today - day).days
    if delta == 0:
        return "Today"
    if delta == 1:
        return "Yesterday"
    if delta < 7:
        return day.strftime("%A")
    return day.strftime("%d %B %Y")


class TimelinePanel(MemoryPanel):
    """``timeline_did_request_open(conversation_id, user_text)`` opens an exchange in the chat;
    ``timeline_did_forget(conversation_id)`` after a conversation was forgotten."""

    timeline_did_request_open = Signal(str, str)
    timeline_did_forget = Signal(str)

    def __init__(self, session: Session, parent: QWidget | None = None) -> None:
        super().__init__(session, parent)
        self.setObjectName("timelinePanel")
        self.entries: list[TimelineEntry] = []
        self.last_receipt: Any = None
        self.tree = QTreeWidget(objectName="timelineTree")
        self.tree.setHeaderLabels(["Conversation", "When", "Learned"])
        self.tree.setRootIsDecorated(True)
        self.tree.setUniformRowHeights(True)
        self.tree.setIndentation(16)
        self.tree.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        header = self.tree.header()
        header.setStretchLastSection(False)
        header.setSectionResizeMode(0, QHeaderView.ResizeMode.Stretch)
        header.setSectionResizeMode(1, QHeaderView.ResizeMode.ResizeToContents)
        header.setSectionResizeMode(2, QHeaderView.ResizeMode.ResizeToContents)
        self.tree.itemDoubleClicked.connect(self._open_item)
        self.tree.currentItemChanged.connect(self._current_changed)
        self.summary_label = QLabel(objectName="mutedLabel")
        self.summary_label.setWordWrap(True)
        self.open_button = QPushButton(icon("chat"), "Open in chat")
        self.open_button.clicked.connect(lambda: self._open_item(self.tree.currentItem(), 0))
        self.forget_button = QPushButton(icon("delete"), "Forget conversation…")
        self.forget_button.setObjectName("dangerButton")
        self.forget_button.clicked.connect(self.forget_current)
        buttons = QHBoxLayout()
        buttons.addWidget(self.open_button)
        buttons.addStretch(1)
        buttons.addWidget(self.forget_button)
        layout = QVBoxLayout(self.content)
        layout.setContentsMargins(8, 8, 8, 8)
        layout.addWidget(self.summary_label)
        layout.addWidget(self.tree, 1)
        layout.addLayout(buttons)
        self._current_changed(None, None)
        self.start()

    def reload(self) -> None:
        self.read(read_timeline, self._show)

    def clear(self) -> None:
        self.entries = []
        self.tree.clear()

    @Slot(object)
    def _show(self, entries: list[TimelineEntry]) -> None:
        expanded = {
            self.tree.topLevelItem(i).text(0)
            for i in range(self.tree.topLevelItemCount())
            if self.tree.topLevelItem(i).isExpanded()
        }
        first_load = not self.entries and not expanded
        self.entries = entries
        self.tree.clear()
        today = datetime.now().astimezone().date()
        days: dict[date, QTreeWidgetItem] = {}
        for entry in entries:
            day = entry.conversation.last_at.astimezone().date()
            parent = days.get(day)
            if parent is None:
                parent = days[day] = QTreeWidgetItem(self.tree, [day_label(day, today)])
                parent.setFirstColumnSpanned(True)
                parent.setFlags(Qt.ItemFlag.ItemIsEnabled)
            self._conversation_item(parent, entry)
        for parent in days.values():
            parent.setExpanded(first_load or parent.text(0) in expanded)
        episodes = sum(len(e.episodes) for e in entries)
        self.summary_label.setText(
            f"{len(entries)} remembered conversations, {episodes} exchanges. "
            "Forgetting a conversation also forgets what was learned only from it."
            if entries
            else "No remembered conversations yet. Incognito chats never appear here."
        )

    def _conversation_item(self, parent: QTreeWidgetItem, entry: TimelineEntry) -> None:
        summary = entry.conversation
        item = QTreeWidgetItem(
            parent,
            [
                summary.title or "Untitled chat",
                summary.last_at.astimezone().strftime("%H:%M"),
                str(entry.learned) if entry.learned else "",
            ],
        )
        item.setIcon(0, icon("chat"))
        font = item.font(0)
        font.setBold(True)
        item.setFont(0, font)
        item.setData(0, ConversationRole, summary.id)
        item.setToolTip(0, f"{summary.title}\n{len(entry.episodes)} exchanges")
        for episode in entry.episodes:
            text = " ".join(episode.user_text.split())
            child = QTreeWidgetItem(
                item, [text, episode.created_at.astimezone().strftime("%H:%M"), ""]
            )
            child.setForeground(0, self.palette().placeholderText())
            child.setData(0, ConversationRole, summary.id)
            child.setData(0, EpisodeRole, episode.id)
            child.setToolTip(0, episode.text)

    def item_for(self, conversation_id: str) -> QTreeWidgetItem | None:
        for i in range(self.tree.topLevelItemCount()):
            day = self.tree.topLevelItem(i)
            for j in range(day.childCount()):
                if day.child(j).data(0, ConversationRole) == conversation_id:
                    return day.child(j)
        return None

    @Slot(object, object)
    def _current_changed(self, current: QTreeWidgetItem | None, _previous: object) -> None:
        has = current is not None and current.data(0, ConversationRole) is not None
        self.open_button.setEnabled(has)
        self.forget_button.setEnabled(has)

    @Slot(object, int)
    def _open_item(self, item: QTreeWidgetItem | None, _column: int) -> None:
        if item is None or item.data(0, ConversationRole) is None:
            return
        episode_id = item.data(0, EpisodeRole)
        entry = self._entry(item.data(0, ConversationRole))
        episode = next((e for e in entry.episodes if e.id == episode_id), None) if entry else None
        self.timeline_did_request_open.emit(
            item.data(0, ConversationRole), episode.user_text if episode else ""
        )

    def _entry(self, conversation_id: str) -> TimelineEntry | None:
        return next((e for e in self.entries if e.conversation.id == conversation_id), None)

    @Slot()
    def forget_current(self) -> None:
        item = self.tree.currentItem()
        if item is not None and item.data(0, ConversationRole):
            self.forget(item.data(0, ConversationRole))

    def forget(self, conversation_id: str) -> None:
        entry = self._entry(conversation_id)
        if entry is None:
            return
        title = html.escape(entry.conversation.title or "Untitled chat")
        if not forget_dialogs.confirm(
            self,
            "Forget conversation",
            f"<b>Forget “{title}”?</b><br>Its {len(entry.episodes)} exchanges are erased, and "
            f"so is what was learned only from it ({entry.learned} memories at most). A fact "
            "you also told elsewhere stays, without this source.",
        ):
            return
        assistant = self.session.assistant

        def forget(_memory: MemoryService) -> Any:
            return assistant.delete_conversation(conversation_id)

        self.write(forget, lambda r: self._forgotten(conversation_id, r), name="forget-chat")

    def _forgotten(self, conversation_id: str, receipt: Any) -> None:
        self.last_receipt = receipt
        item = self.item_for(conversation_id)
        if item is not None and item.parent() is not None:
            item.parent().removeChild(item)
        self.timeline_did_forget.emit(conversation_id)
        if receipt is not None:
            forget_dialogs.show_receipt(receipt, self)
            self.panel_did_report.emit(
                f"Forgot the conversation: {len(receipt.ids)} memories, key epoch {receipt.epoch}"
            )
