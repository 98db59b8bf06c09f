"""The memory inspector's table view: how the memories table looks and which columns give
way when the panel is narrow."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QAbstractItemView, QTableView

from desktop_agent.gui.memory_table_model import (
    CREATED,
    IMPORTANCE,
    LAST_USED,
    SOURCE,
    TEXT,
    TOPIC,
    MemoryFilter,
)
from desktop_agent.gui.table_columns import ColumnFitter


def memory_table_view(proxy: MemoryFilter) -> tuple[QTableView, ColumnFitter]:
    """The table over ``proxy``, read-only with whole rows selected, and its column fitter."""
    table = QTableView(objectName="memoryTable")
    table.setModel(proxy)
    # Unsorted until a header is clicked: the service's order is already newest first, and
    # sorting a large table calls into Python for every comparison.
    table.horizontalHeader().setSortIndicator(-1, Qt.SortOrder.DescendingOrder)
    table.setSortingEnabled(True)
    table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
    table.setSelectionMode(QAbstractItemView.SelectionMode.ExtendedSelection)
    table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
    table.setWordWrap(False)
    table.setShowGrid(False)
    table.setAlternatingRowColors(True)
    table.verticalHeader().hide()
    table.verticalHeader().setDefaultSectionSize(28)
    table.horizontalHeader().setMinimumSectionSize(48)
    # Narrow, the Memory column keeps its room and the least useful columns step aside.
    columns = ColumnFitter(
        table,
        TEXT,
        widths=(72, 200, 96, 88, 64, 84, 128),
        hide_first=(SOURCE, LAST_USED, IMPORTANCE, TOPIC, CREATED),
    )
    return table, columns
