"""‹ 2/3 ›: the versions of a regenerated reply, under it (as ChatGPT shows them).

The switcher shows which version is on screen and asks for another; the bubble shows it at once
and the controller has the core keep it (``Assistant.choose_reply_version``).
"""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import Signal, Slot
from PySide6.QtWidgets import QHBoxLayout, QLabel, QToolButton, QWidget

from desktop_agent.core.reply_versions import ReplyVersions
from desktop_agent.gui.theme import current_theme

ARROW_SCALE = 1.6  # "‹" and "›" at the text size are too small to aim at


class VersionSwitcher(QWidget):
    """Previous and next buttons around "n/m"; hidden while a reply has one version."""

    version_did_request = Signal(int)  # the version wanted, from 0

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.versions: ReplyVersions | None = None
        # Per version made in this session: its figures line and the memories it used.
        self.figures: dict[int, tuple[str, tuple[Any, ...]]] = {}
        row = QHBoxLayout(self)
        row.setContentsMargins(0, 0, 0, 0)
        row.setSpacing(0)
        self.previous_button = self._arrow("‹", "Previous version", -1)
        self.counter = QLabel("", objectName="bubbleStats")
        self.next_button = self._arrow("›", "Next version", 1)
        for widget in (self.previous_button, self.counter, self.next_button):
            row.addWidget(widget)
        self.retint()
        self.hide()

    def retint(self) -> None:
        """The theme's colours: an arrow with nowhere to go is drawn faint."""
        self.setStyleSheet(f"QToolButton:disabled {{ color: {current_theme().border}; }}")

    def _arrow(self, text: str, name: str, step: int) -> QToolButton:
        button = QToolButton(objectName="bubbleAction", text=text)
        button.setAccessibleName(name)
        button.setToolTip(f"{name} of this reply (the one shown is the one remembered)")
        button.setAutoRaise(True)
        font = button.font()
        font.setPointSizeF(font.pointSizeF() * ARROW_SCALE)
        button.setFont(font)
        button.clicked.connect(lambda: self._step(step))
        return button

    def set_versions(self, versions: ReplyVersions) -> None:
        self.versions = versions
        shown, count = versions.chosen + 1, versions.count
        self.counter.setText(f"{shown}/{count}")
        self.counter.setAccessibleName(f"Version {shown} of {count}")
        self.counter.setToolTip(f"Version {shown} of {count} of this reply")
        self.previous_button.setEnabled(versions.chosen > 0)
        self.next_button.setEnabled(versions.chosen < count - 1)
        self.setVisible(count > 1)

    @Slot()
    def _step(self, step: int) -> None:
        if self.versions is not None and 0 <= self.versions.chosen + step < self.versions.count:
            self.version_did_request.emit(self.versions.chosen + step)
