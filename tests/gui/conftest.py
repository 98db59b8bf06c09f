"""GUI fixtures: a real App (bundled model) over the test's own DESKTOP_AGENT_HOME, and a
factory that builds the main window and closes it after the test (like napari's
make_napari_viewer)."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import pytest
from PySide6.QtCore import Qt

from desktop_agent.app import App
from desktop_agent.gui.launch import qt_application
from desktop_agent.gui.main_window import MainWindow
from desktop_agent.gui.session import Session
from desktop_agent.settings import Settings

MODEL_TIMEOUT_MS = 60_000
REPLY_TIMEOUT_MS = 120_000


def fast_settings(**model: Any) -> Settings:
    """Short, repeatable replies on one thread (two threads crawl when the machine is busy)."""
    values: dict[str, Any] = {"n_threads": 1, "max_tokens": 40, "seed": 7, "n_ctx": 2048}
    values.update(model)
    return Settings().replace("model", **values)


@pytest.fixture
def make_window(qtbot: Any, qapp: Any) -> Iterator[Callable[..., MainWindow]]:
    qt_application(dark=False)
    built: list[tuple[MainWindow, App]] = []

    def make(*, load_model: bool = True, settings: Settings | None = None) -> MainWindow:
        app = App(settings=settings or fast_settings())
        session = Session(app)
        window = MainWindow(session)
        qtbot.addWidget(window)
        window.show()
        window.activateWindow()  # window shortcuts (Ctrl+N, F2, Esc) need the active window
        qtbot.waitUntil(window.isActiveWindow, timeout=5000)
        built.append((window, app))
        if load_model:
            session.load_model()
            qtbot.waitUntil(lambda: session.model_info is not None, timeout=MODEL_TIMEOUT_MS)
        return window

    yield make
    for window, app in built:
        window.controller.stop()
        qtbot.waitUntil(lambda w=window: not w.controller.busy, timeout=REPLY_TIMEOUT_MS)
        window.close()
        app.engine.close()


def send(qtbot: Any, window: MainWindow, text: str) -> None:
    """Type ``text`` into the message box and press Enter."""
    edit = window.chat.composer.edit
    edit.setFocus()
    edit.setPlainText(text)
    qtbot.keyClick(edit, Qt.Key.Key_Return)


def wait_for_reply(qtbot: Any, window: MainWindow) -> None:
    qtbot.waitUntil(lambda: not window.controller.busy, timeout=REPLY_TIMEOUT_MS)
