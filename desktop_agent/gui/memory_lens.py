"""The memory lens under a reply: the memories injected into it, each with the numbers that
put it there, and two ways to act on one (open it in the inspector, keep it out of this chat)."""

from __future__ import annotations

from collections.abc import Sequence

from PySide6.QtCore import Qt, Signal, Slot
from PySide6.QtWidgets import (
    QFrame,
    QHBoxLayout,
    QLabel,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from desktop_agent.core.memory_service import Recollection
from desktop_agent.core.recall import RecallHit
from desktop_agent.gui.theme import current_theme, icon

KIND_NAMES = {"episodic": "episode", "procedural": "strategy", "topic": "topic"}


def kind_label(kind: str, type_: str = "") -> str:
    """What a memory is, in a word: "preference", "fact", "episode"."""
    return type_ if kind == "semantic" and type_ else KIND_NAMES.get(kind, kind)


def explain(hit: RecallHit) -> str:
    """The score breakdown, readable: "keyword match 0.94 (rank 1) · meaning 0.33 (rank 1) · …"."""
    parts = []
    if hit.keyword_rank is not None:
        parts.append(f"keyword match {hit.keyword_score:.2f} (rank {hit.keyword_rank})")
    else:
        parts.append("no keyword match")
    parts.append(f"meaning {hit.vector_score:.2f} (rank {hit.vector_rank})")
    parts.append(f"recency {hit.recency:.2f}")
    parts.append(f"importance {hit.importance:.2f}")
    if hit.use_boost > 0.005:
        parts.append(f"used before +{hit.use_boost:.2f}")
    if hit.context > 0.005:
        parts.append(f"context +{hit.context:.2f}")
    if hit.in_time_window:
        parts.append("in the time asked about")
    if hit.speaker_named:
        parts.append("speaker named")
    if hit.pinned:
        parts.append("pinned")
    if hit.superseded:
        parts.append("superseded")
    return " · ".join(parts)


class LensRow(QFrame):
    """One recalled memory: its kind, text, score, breakdown and actions."""

    row_did_request_inspect = Signal(str)
    row_did_request_exclude = Signal(str)

    def __init__(self, recollection: Recollection, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("lensRow")
        self.memory_id = recollection.item.id
        item, hit = recollection.item, recollection.hit
        grid = QHBoxLayout(self)
        grid.setContentsMargins(8, 6, 6, 6)
        grid.setSpacing(10)
        score = QLabel(f"{hit.score:.2f}", objectName="lensScore")
        score.setToolTip(f"fused score {hit.fused:.3f}; final score {hit.score:.3f}")
        score.setAlignment(Qt.AlignmentFlag.AlignCenter)
        grid.addWidget(score, 0, Qt.AlignmentFlag.AlignTop)
        text_column = QVBoxLayout()
        text_column.setSpacing(2)
        chip = QLabel(kind_label(item.kind, item.type).upper(), objectName="kindChip")
        text = item.user_text if item.kind == "episodic" else item.text
        self.text_label = QLabel(text, objectName="lensText")
        self.text_label.setTextFormat(Qt.TextFormat.PlainText)
        self.text_label.setWordWrap(True)
        self.text_label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        top = QHBoxLayout()
        top.setSpacing(8)
        top.addWidget(chip, 0, Qt.AlignmentFlag.AlignTop)
        top.addWidget(self.text_label, 1)
        text_column.addLayout(top)
        self.breakdown_label = QLabel(explain(hit), objectName="mutedLabel")
        self.breakdown_label.setWordWrap(True)
        text_column.addWidget(self.breakdown_label)
        grid.addLayout(text_column, 1)
        self.inspect_button = self._button("inspect", "Inspect", "Open in the memory inspector")
        self.inspect_button.clicked.connect(
            lambda: self.row_did_request_inspect.emit(self.memory_id)
        )
        self.exclude_button = self._button(
            "exclude", "Exclude", "Keep this memory out of this conversation's replies"
        )
        self.exclude_button.clicked.connect(self._exclude)
        buttons = QVBoxLayout()
        buttons.setSpacing(0)
        buttons.addWidget(self.inspect_button)
        buttons.addWidget(self.exclude_button)
        buttons.addStretch(1)
        grid.addLayout(buttons)

    def _button(self, icon_name: str, text: str, tip: str) -> QToolButton:
        button = QToolButton(objectName="bubbleAction", text=text, toolTip=tip)
        button.setIcon(icon(icon_name, current_theme().muted))
        button.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextBesideIcon)
        button.setAutoRaise(True)
        return button

    @Slot()
    def _exclude(self) -> None:
        self.row_did_request_exclude.emit(self.memory_id)

    def mark_excluded(self) -> None:
        self.exclude_button.setEnabled(False)
        self.exclude_button.setText("Excluded")
        self.exclude_button.setToolTip("Kept out of this conversation from the next reply on")
        font = self.text_label.font()
        font.setStrikeOut(True)
        self.text_label.setFont(font)


class MemoryLens(QFrame):
    """The memories injected into one reply, best first."""

    memory_did_request_inspect = Signal(str)
    memory_did_request_exclude = Signal(str)

    def __init__(
        self, memories: Sequence[Recollection], incognito: bool, parent: QWidget | None = None
    ) -> None:
        super().__init__(parent)
        self.setObjectName("memoryLens")
        self.rows: list[LensRow] = []
        layout = QVBoxLayout(self)
        layout.setContentsMargins(12, 8, 12, 8)
        layout.setSpacing(4)
        count = len(memories)
        title = QLabel(
            f"<b>Memory lens</b> · {count} memor{'y' if count == 1 else 'ies'} "
            "went into this reply, best first"
            if memories
            else "<b>Memory lens</b> · what this reply was based on"
        )
        layout.addWidget(title)
        for recollection in sorted(memories, key=lambda r: r.hit.score, reverse=True):
            row = LensRow(recollection, self)
            row.row_did_request_inspect.connect(self.memory_did_request_inspect)
            row.row_did_request_exclude.connect(self.memory_did_request_exclude)
            layout.addWidget(row)
            self.rows.append(row)
        if not memories:
            if incognito:
                why = "Incognito chat: nothing is recalled or remembered."
            else:
                why = "No saved memory was relevant to this message, so none was injected."
            empty = QLabel(f"No memories were used for this reply. {why}", objectName="mutedLabel")
            empty.setWordWrap(True)
            layout.addWidget(empty)

    def row_for(self, memory_id: str) -> LensRow | None:
        return next((r for r in self.rows if r.memory_id == memory_id), None)

    def mark_excluded(self, memory_id: str) -> None:
        row = self.row_for(memory_id)
        if row is not None:
            row.mark_excluded()
