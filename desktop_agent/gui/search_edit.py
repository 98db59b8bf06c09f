"""A search box with a search icon that never cuts its placeholder short."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QSize
from PySide6.QtGui import QResizeEvent
from PySide6.QtWidgets import QLineEdit, QStyle

from desktop_agent.gui.theme import icon


class SearchEdit(QLineEdit):
    """A search box that always shows its whole placeholder: Qt's minimum leaves room for one
    letter, so beside the search icon and the clear button "Search" read "Se…" at 800x600. The
    icon shows only where it fits beside the placeholder, so the panel needs no more width."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.setClearButtonEnabled(True)
        self.search_icon = self.addAction(icon("search"), QLineEdit.ActionPosition.LeadingPosition)

    def _icon_room(self) -> int:
        size = self.style().pixelMetric(QStyle.PixelMetric.PM_SmallIconSize, None, self)
        return size + 6 + size // 4  # a line edit's side icon and its margin (as Qt lays it)

    def minimumSizeHint(self) -> QSize:
        hint = super().minimumSizeHint()  # room for the widest letter (and the icon if shown)
        metrics = self.fontMetrics()
        extra = metrics.horizontalAdvance(self.placeholderText()) - metrics.maxWidth() + 4
        shown = self._icon_room() if self.search_icon.isVisible() else 0
        return QSize(hint.width() + max(extra, 0) - shown, hint.height())

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        wide = event.size().width() >= self.minimumSizeHint().width() + self._icon_room()
        self.search_icon.setVisible(wide)
