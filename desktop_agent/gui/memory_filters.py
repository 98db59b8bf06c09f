"""The memory inspector's search and filters: the search box (words, or by meaning), the kind,
topic and date filters and the superseded switch, and the count of what they show (a part of
MemoryInspector, kept apart for size)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

from PySide6.QtCore import Qt, Slot
from PySide6.QtWidgets import QCheckBox, QComboBox

from desktop_agent.core.memory_service import MemoryService
from desktop_agent.gui.memory_table_model import TEXT
from desktop_agent.gui.search_edit import SearchEdit

SEMANTIC_DELAY_MS = 300
KIND_FILTERS = (
    ("All kinds", ""),
    ("Everything learned", "semantic"),
    ("Facts", "fact"),
    ("Preferences", "preference"),
    ("Episodes", "episodic"),
    ("Strategies", "procedural"),
    ("Topics", "topic"),
)
DATE_FILTERS = (("Any time", None), ("Today", 1), ("Past 7 days", 7), ("Past 30 days", 30))


class MemoryFilters:
    """Mixed into MemoryInspector: the filters narrow its proxy; a search by meaning asks the
    memory service (off the GUI thread, after a pause in typing)."""

    # Provided by MemoryInspector.
    proxy: Any
    model: Any
    table: Any
    count_label: Any
    read: Any
    _semantic_timer: Any

    def _build_filters(self) -> None:
        self.search_edit = SearchEdit(placeholderText="Search", toolTip="Search memories")
        self.search_edit.textChanged.connect(self._search_changed)
        self.semantic_check = QCheckBox("By meaning")
        self.semantic_check.setToolTip("Semantic search: find memories that mean the same thing")
        self.semantic_check.toggled.connect(self._semantic_toggled)
        self.kind_combo = QComboBox()
        for label, value in KIND_FILTERS:
            self.kind_combo.addItem(label, value)
        self.topic_combo = QComboBox()
        self.topic_combo.addItem("All topics", "")
        self.date_combo = QComboBox()
        for label, days in DATE_FILTERS:
            self.date_combo.addItem(label, days)
        self.superseded_check = QCheckBox("Superseded")
        self.superseded_check.setToolTip("Also show memories a correction replaced")
        self.superseded_check.setChecked(True)
        for combo in (self.kind_combo, self.topic_combo, self.date_combo):
            combo.currentIndexChanged.connect(self._filters_changed)
            # Shrinkable, so the inspector fits beside the chat in an 800-pixel window.
            combo.setSizeAdjustPolicy(
                QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon
            )
            combo.setMinimumContentsLength(5)
        self.superseded_check.toggled.connect(self._filters_changed)

    def _update_count(self) -> None:
        shown, total = self.proxy.rowCount(), self.model.rowCount()
        self.count_label.setText(
            f"{total} memories" if shown == total else f"{shown} of {total} memories"
        )

    # --- filters and search ---
    @Slot(str)
    def _search_changed(self, text: str) -> None:
        if self.semantic_check.isChecked():
            self._semantic_timer.start()
        else:
            self.proxy.set_filters(text=text)
            self._update_count()

    @Slot(bool)
    def _semantic_toggled(self, semantic: bool) -> None:
        if semantic:
            self.proxy.set_filters(text="")
            self._semantic_search()
        else:
            self.proxy.set_filters(ranked=None, text=self.search_edit.text())
            self.table.horizontalHeader().setSortIndicator(-1, Qt.SortOrder.DescendingOrder)
            self.proxy.sort(-1)
            self._update_count()

    @Slot()
    def _semantic_search(self) -> None:
        query = self.search_edit.text().strip()
        if not query:
            self.proxy.set_filters(ranked=None)
            self._update_count()
            return

        def search(memory: MemoryService) -> dict[str, int]:
            found = memory.search(query, limit=50, include_superseded=True)
            return {r.item.id: rank for rank, r in enumerate(found)}

        self.read(search, self._show_ranked)

    @Slot(object)
    def _show_ranked(self, ranked: dict[str, int]) -> None:
        if self.semantic_check.isChecked():
            self.proxy.set_filters(ranked=ranked)
            self.table.horizontalHeader().setSortIndicator(TEXT, Qt.SortOrder.AscendingOrder)
            self.proxy.sort(TEXT, Qt.SortOrder.AscendingOrder)  # by rank (see lessThan)
            self._update_count()

    @Slot()
    def _filters_changed(self, *_: object) -> None:
        days = self.date_combo.currentData()
        since = datetime.now(UTC) - timedelta(days=days) if days else None
        if days == 1:
            since = datetime.now().astimezone().replace(hour=0, minute=0, second=0, microsecond=0)
        self.proxy.set_filters(
            kind=self.kind_combo.currentData(),
            topic=self.topic_combo.currentData(),
            since=since,
            show_inactive=self.superseded_check.isChecked(),
        )
        self._update_count()

    def reset_filters(self) -> None:
        self.search_edit.clear()
        self.semantic_check.setChecked(False)
        for combo in (self.kind_combo, self.topic_combo, self.date_combo):
            combo.setCurrentIndex(0)
        self.superseded_check.setChecked(True)
