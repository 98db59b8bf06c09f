"""Table columns that hold at every width: the text column gets the room it needs, and the
least useful columns step aside (hidden, not squeezed to "Iemor") when the panel is narrow."""

from __future__ import annotations

from collections.abc import Sequence

from PySide6.QtCore import QEvent, QObject
from PySide6.QtWidgets import QHeaderView, QTableView

# The text column's share of a narrow table before other columns are hidden for it.
TEXT_SHARE = 0.45
TEXT_MIN_PX = 180


class ColumnFitter(QObject):
    """Keeps ``text`` stretching with at least ``TEXT_SHARE`` of the table (or
    ``TEXT_MIN_PX``); when the other columns' widths would squeeze it, hides them in
    ``hide_first`` order, and shows them again as the table grows."""

    def __init__(
        self,
        table: QTableView,
        text: int,
        widths: Sequence[int],
        hide_first: Sequence[int],
    ) -> None:
        super().__init__(table)
        self.table, self.text, self.widths, self.hide_first = table, text, widths, hide_first
        header = table.horizontalHeader()
        for column in range(len(widths)):
            header.setSectionResizeMode(column, QHeaderView.ResizeMode.Interactive)
            if column != text:
                table.setColumnWidth(column, widths[column])
        header.setSectionResizeMode(text, QHeaderView.ResizeMode.Stretch)
        header.setStretchLastSection(False)
        self.viewport = table.viewport()
        table.installEventFilter(self)
        self.viewport.installEventFilter(self)
        self.fit()

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:  # noqa: N802 (Qt's name)
        if event.type() in (QEvent.Type.Resize, QEvent.Type.Show) and watched in (
            self.table,
            self.viewport,
        ):
            self.fit()
        return False

    def fit(self) -> None:
        room = self.viewport.width()
        wanted = max(TEXT_MIN_PX, int(room * TEXT_SHARE))
        hidden: set[int] = set()
        for column in self.hide_first:
            if room - self._others(hidden) >= wanted:
                break
            hidden.add(column)
        for column in range(len(self.widths)):
            if column != self.text:
                self.table.setColumnHidden(column, column in hidden)

    def _others(self, hidden: set[int]) -> int:
        return sum(
            width
            for column, width in enumerate(self.widths)
            if column != self.text and column not in hidden
        )
