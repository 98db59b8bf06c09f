"""The main window's docks and layout: docking a panel, the window's size and dock layout kept
across restarts, and the conversation list taking its width back (a part of MainWindow, kept
apart for size)."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import Qt, Slot
from PySide6.QtWidgets import QDockWidget, QWidget

# Bumped when the docks change, so a layout saved by an older version is not restored.
LAYOUT_VERSION = 2
PANEL_WIDTH = 520
# The conversation list's width when there is room, and the chat width that leaves room.
CONVERSATIONS_WIDTH = 220
CHAT_ROOMY_WIDTH = 560


class WindowLayout:
    """Mixed into MainWindow: its docks, and the layout saved in gui.ini."""

    # Provided by MainWindow.
    gui_settings: Any
    chat: Any
    view_menu: Any
    conversations_dock: Any
    inspector_dock: Any
    timeline_dock: Any
    profile_dock: Any

    def _dock(self, title: str, widget: QWidget, *, floatable: bool = True) -> QDockWidget:
        dock = QDockWidget(title, self)
        dock.setObjectName(f"dock-{title.lower().replace(' ', '-')}")
        dock.setWidget(widget)
        features = (
            QDockWidget.DockWidgetFeature.DockWidgetMovable
            | QDockWidget.DockWidgetFeature.DockWidgetClosable
        )
        if floatable:
            features |= QDockWidget.DockWidgetFeature.DockWidgetFloatable
        dock.setFeatures(features)
        self.addDockWidget(Qt.DockWidgetArea.LeftDockWidgetArea, dock)
        return dock

    def add_panel(
        self,
        title: str,
        widget: QWidget,
        area: Qt.DockWidgetArea = Qt.DockWidgetArea.RightDockWidgetArea,
    ) -> QDockWidget:
        """Dock a panel (the memory panels use this) and list it in the View menu."""
        dock = self._dock(title, widget)
        self.addDockWidget(area, dock)
        self.view_menu.addAction(dock.toggleViewAction())
        if self._layout_restored:
            self.restoreState(self.gui_settings.value("window/state", b""), LAYOUT_VERSION)
        return dock

    _layout_restored = False

    def _restore_layout(self) -> None:
        geometry = self.gui_settings.value("window/geometry")
        if geometry:
            self.restoreGeometry(geometry)
        else:
            self.resize(1180, 760)
        self._fit_screen()
        state = self.gui_settings.value("window/state")
        if state:
            self.restoreState(state, LAYOUT_VERSION)
        else:
            self.resizeDocks(
                [self.conversations_dock, self.inspector_dock],
                [260, PANEL_WIDTH],
                Qt.Orientation.Horizontal,
            )
        self._layout_restored = True

    def _fit_screen(self) -> None:
        """Never larger than the screen: on an 800x600 display the first window (1180x760)
        reached past its edges, the composer's Send button and the inspector off-screen."""
        screen = self.screen()
        if screen is None:
            return
        room = screen.availableGeometry()
        if self.width() <= room.width() and self.height() <= room.height():
            return
        self.resize(min(self.width(), room.width()), min(self.height(), room.height()))
        self.move(room.topLeft())

    def save_layout(self) -> None:
        self.gui_settings.setValue("window/geometry", self.saveGeometry())
        self.gui_settings.setValue("window/state", self.saveState(LAYOUT_VERSION))
        self.gui_settings.sync()

    @Slot()
    def _regrow_conversations(self) -> None:
        """The conversation list gave way when the window was small; it takes its width back
        as the window grows (Qt's docks keep the narrow width otherwise), and in a small window
        a side panel gives way down to its minimum before the list does."""
        dock = self.conversations_dock
        narrow = dock.isVisible() and not dock.isFloating() and dock.width() < CONVERSATIONS_WIDTH
        if not narrow:
            return
        spare = self.chat.width() - CHAT_ROOMY_WIDTH
        if spare > 0:
            width = min(CONVERSATIONS_WIDTH, dock.width() + spare)
            self.resizeDocks([dock], [width], Qt.Orientation.Horizontal)
            return
        for panel in (self.inspector_dock, self.timeline_dock, self.profile_dock):
            if panel.isVisible() and not panel.isFloating():
                give = min(
                    CONVERSATIONS_WIDTH - dock.width(),
                    panel.width() - panel.minimumSizeHint().width(),
                )
                if give > 4:
                    self.resizeDocks(
                        [dock, panel],
                        [dock.width() + give, panel.width() - give],
                        Qt.Orientation.Horizontal,
                    )
                return
