"""Startup: the window is up at once and says what is still loading; layout is remembered."""

from __future__ import annotations

import time
from typing import Any

from PySide6.QtCore import Qt

from desktop_agent.app import App
from desktop_agent.gui.main_window import MainWindow
from desktop_agent.gui.session import Session
from tests.gui.conftest import MODEL_TIMEOUT_MS, fast_settings


def test_window_is_on_screen_at_once_and_loads_in_the_background(
    qtbot: Any, make_window: Any
) -> None:
    started = time.perf_counter()
    window = make_window(load_model=False)
    shown_after = time.perf_counter() - started
    window.session.load_model()

    assert window.isVisible()
    assert shown_after < 2.0
    assert "Loading model…" in window.status.loading_label.text()
    qtbot.waitUntil(lambda: window.session.model_info is not None, timeout=MODEL_TIMEOUT_MS)
    assert window.status.loading_label.text() == ""
    assert "SmolLM2" in window.status.model_label.text()


def test_embedder_loads_in_the_background_with_status(qtbot: Any, make_window: Any) -> None:
    window = make_window(load_model=False)
    window.session.load_embedder()

    assert "Loading embedder…" in window.status.loading_label.text()
    assert window.status.progress.isVisible()
    qtbot.waitUntil(lambda: window.session.embedder_ready, timeout=120_000)
    assert not window.status.progress.isVisible()


def test_window_geometry_and_dock_layout_are_remembered(qtbot: Any, make_window: Any) -> None:
    window = make_window(load_model=False)
    window.resize(700, 500)  # the offscreen screen is 800 x 600
    window.removeDockWidget(window.conversations_dock)
    window.addDockWidget(Qt.DockWidgetArea.RightDockWidgetArea, window.conversations_dock)
    window.conversations_dock.show()
    window.close()
    ini = window.session.app.paths.config_dir / "gui.ini"
    assert ini.exists()

    again = MainWindow(Session(App(settings=fast_settings())))
    qtbot.addWidget(again)

    assert again.size().width() == 700
    assert again.dockWidgetArea(again.conversations_dock) == Qt.DockWidgetArea.RightDockWidgetArea


def test_panels_can_dock_in_later(make_window: Any) -> None:
    from PySide6.QtWidgets import QLabel

    window = make_window(load_model=False)
    dock = window.add_panel("Memory inspector", QLabel("memories"))

    assert dock.toggleViewAction() in window.view_menu.actions()
    assert window.dockWidgetArea(dock) == Qt.DockWidgetArea.RightDockWidgetArea


def test_memory_panels_dock_and_their_layout_is_remembered(qtbot: Any, make_window: Any) -> None:
    # Given a window whose memory panels start hidden, toggled from the toolbar
    window = make_window(load_model=False)
    assert not window.inspector_dock.isVisible()
    toggle = window.inspector_dock.toggleViewAction()
    assert toggle in window.toolbar.actions()

    # When the user opens the inspector (Ctrl+Shift+M) and closes the window
    qtbot.keyClick(
        window,
        Qt.Key.Key_M,
        Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.ShiftModifier,
    )
    assert window.inspector_dock.isVisible()
    window.close()

    # Then a new window opens with the inspector where it was
    again = MainWindow(Session(App(settings=fast_settings())))
    qtbot.addWidget(again)
    again.show()
    assert again.inspector_dock.isVisible()
    assert again.dockWidgetArea(again.inspector_dock) == Qt.DockWidgetArea.RightDockWidgetArea
    again.close()
