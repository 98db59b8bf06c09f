"""How a row of the conversation list is drawn: its height, and its group's date heading."""

from __future__ import annotations

from PySide6.QtCore import QModelIndex, QPersistentModelIndex, QRect, QSize, Qt
from PySide6.QtGui import QColor, QFont, QPainter
from PySide6.QtWidgets import QStyledItemDelegate, QStyleOptionViewItem

from desktop_agent.gui.conversation_list_model import GroupRole
from desktop_agent.gui.theme import current_theme

_Index = QModelIndex | QPersistentModelIndex


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
