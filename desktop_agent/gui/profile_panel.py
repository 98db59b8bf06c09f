"""What I know about you: learned preferences and facts grouped by type and topic, and the
answer styles (procedural strategies) that worked, with their success rates."""

from __future__ import annotations

from dataclasses import dataclass

from PySide6.QtCore import Qt, Signal, Slot
from PySide6.QtWidgets import (
    QHeaderView,
    QLabel,
    QSplitter,
    QTreeWidget,
    QTreeWidgetItem,
    QVBoxLayout,
    QWidget,
)

from desktop_agent.core.memory_model import FACT_TYPES, MemoryItem, Strategy
from desktop_agent.core.memory_service import MemoryService
from desktop_agent.gui.memory_panel import MemoryPanel
from desktop_agent.gui.session import Session

IdRole = Qt.ItemDataRole.UserRole + 1
GROUP_TITLES = {
    "preference": "Preferences",
    "fact": "Facts",
    "plan": "Plans",
    "decision": "Decisions",
    "task": "Tasks",
    "risk": "Things to watch out for",
}
STYLE_NAMES = {"concise": "short answers", "detailed": "detailed answers", "step_by_step": "steps"}


@dataclass(frozen=True, slots=True)
class Profile:
    learned: list[MemoryItem]
    strategies: list[Strategy]


def read_profile(memory: MemoryService) -> Profile:
    return Profile(memory.items("semantic", include_inactive=False), memory.strategies())


class ProfilePanel(MemoryPanel):
    """``profile_did_request_inspect(memory_id)`` on double-click."""

    profile_did_request_inspect = Signal(str)

    def __init__(self, session: Session, parent: QWidget | None = None) -> None:
        super().__init__(session, parent)
        self.setObjectName("profilePanel")
        self.profile: Profile | None = None
        self.summary_label = QLabel(objectName="mutedLabel")
        self.summary_label.setWordWrap(True)
        self.known_tree = QTreeWidget(objectName="knownTree")
        self.known_tree.setHeaderLabels(["What I know", "Topic", "Since"])
        header = self.known_tree.header()
        header.setStretchLastSection(False)
        header.setSectionResizeMode(0, QHeaderView.ResizeMode.Stretch)
        header.setSectionResizeMode(1, QHeaderView.ResizeMode.ResizeToContents)
        header.setSectionResizeMode(2, QHeaderView.ResizeMode.ResizeToContents)
        self.known_tree.setWordWrap(True)
        self.known_tree.itemDoubleClicked.connect(self._inspect)
        self.strategy_tree = QTreeWidget(objectName="strategyTree")
        self.strategy_tree.setRootIsDecorated(False)
        self.strategy_tree.setHeaderLabels(["When you ask…", "I answer with", "Worked", "Votes"])
        header = self.strategy_tree.header()
        header.setStretchLastSection(False)
        header.setSectionResizeMode(0, QHeaderView.ResizeMode.Stretch)
        for column in (1, 2, 3):
            header.setSectionResizeMode(column, QHeaderView.ResizeMode.ResizeToContents)
        self.strategy_tree.itemDoubleClicked.connect(self._inspect)
        strategies = QWidget()
        box = QVBoxLayout(strategies)
        box.setContentsMargins(0, 6, 0, 0)
        box.addWidget(QLabel("What works for you", objectName="sectionTitle"))
        hint = QLabel(
            "Learned from your feedback (“thanks, that helped”, “too long”): the answer style "
            "with the best success rate is used for each kind of request.",
            objectName="mutedLabel",
        )
        hint.setWordWrap(True)
        box.addWidget(hint)
        box.addWidget(self.strategy_tree, 1)
        splitter = QSplitter(Qt.Orientation.Vertical)
        splitter.addWidget(self.known_tree)
        splitter.addWidget(strategies)
        splitter.setStretchFactor(0, 3)
        splitter.setStretchFactor(1, 2)
        layout = QVBoxLayout(self.content)
        layout.setContentsMargins(8, 8, 8, 8)
        layout.addWidget(self.summary_label)
        layout.addWidget(splitter, 1)
        self.start()

    def reload(self) -> None:
        self.read(read_profile, self._show)

    def clear(self) -> None:
        self.profile = None
        self.known_tree.clear()
        self.strategy_tree.clear()

    @Slot(object)
    def _show(self, profile: Profile) -> None:
        self.profile = profile
        self.known_tree.clear()
        groups: dict[str, list[MemoryItem]] = {}
        for item in profile.learned:
            groups.setdefault(item.type or "fact", []).append(item)
        order = [*FACT_TYPES, *sorted(set(groups) - set(FACT_TYPES))]
        for kind in order:
            items = groups.get(kind)
            if not items:
                continue
            title = GROUP_TITLES.get(kind, kind.capitalize())
            group = QTreeWidgetItem(self.known_tree, [f"{title} ({len(items)})"])
            group.setFirstColumnSpanned(True)
            group.setFlags(Qt.ItemFlag.ItemIsEnabled)
            for item in sorted(items, key=lambda i: (i.topic, -i.importance)):
                row = QTreeWidgetItem(
                    group,
                    [item.text, item.topic, item.created_at.astimezone().strftime("%d %b")],
                )
                row.setData(0, IdRole, item.id)
                row.setToolTip(0, item.text)
            group.setExpanded(True)
        self.strategy_tree.clear()
        for strategy in profile.strategies:
            row = QTreeWidgetItem(
                self.strategy_tree,
                [
                    strategy.context.replace("_", " "),
                    STYLE_NAMES.get(strategy.action, strategy.action),
                    f"{strategy.success_rate:.0%}",
                    f"{strategy.successes} of {strategy.total}",
                ],
            )
            row.setData(0, IdRole, strategy.id)
            row.setTextAlignment(2, Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        facts = len(profile.learned)
        self.summary_label.setText(
            f"I know {facts} thing{'s' if facts != 1 else ''} about you. Double-click one to "
            "see where I learned it, correct it or forget it."
            if facts
            else "I have not learned anything about you yet. Tell me about yourself, or use "
            "/remember in a chat."
        )

    @Slot(object, int)
    def _inspect(self, item: QTreeWidgetItem, _column: int) -> None:
        memory_id = item.data(0, IdRole)
        if memory_id:
            self.profile_did_request_inspect.emit(memory_id)
