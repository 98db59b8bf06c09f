"""GUI fixtures: a real App (bundled model, real vault with LanceDB and AES-GCM) over the test's
own DESKTOP_AGENT_HOME with an in-memory keyring, and a factory that builds the main window and
closes it after the test (like napari's make_napari_viewer)."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import keyring
import pytest
from PySide6.QtCore import QSettings, Qt

from desktop_agent.app import App
from desktop_agent.embed import HashingEmbedder
from desktop_agent.gui.launch import qt_application
from desktop_agent.gui.main_window import MainWindow
from desktop_agent.gui.session import Session
from desktop_agent.gui.workers import run_in_background
from desktop_agent.secrets.memory_backend import InMemoryKeyring
from desktop_agent.settings import Settings

MODEL_TIMEOUT_MS = 60_000
REPLY_TIMEOUT_MS = 120_000


def fast_settings(**model: Any) -> Settings:
    """Short, repeatable replies on one thread (two threads crawl when the machine is busy)."""
    values: dict[str, Any] = {"n_threads": 1, "max_tokens": 40, "seed": 7, "n_ctx": 2048}
    values.update(model)
    return Settings().replace("model", **values)


@pytest.fixture(autouse=True)
def memory_keyring() -> Iterator[InMemoryKeyring]:
    """The vault's key-encryption keys live in RAM for the test (never the real keychain)."""
    previous = keyring.get_keyring()
    backend = InMemoryKeyring()
    keyring.set_keyring(backend)
    yield backend
    keyring.set_keyring(previous)


def drain_memory_lane(timeout: float = 60) -> None:
    """Wait until every queued memory read or write has run."""
    assert run_in_background(lambda: None, name="drain", lane="memory").wait(timeout)


def make_app(settings: Settings | None = None) -> App:
    # The hashing embedder: recall and learning work the same, without loading torch.
    return App(settings=settings or fast_settings(), embedder=HashingEmbedder())


@pytest.fixture
def make_window(qtbot: Any, qapp: Any) -> Iterator[Callable[..., MainWindow]]:
    qt_application(dark=False)
    built: list[tuple[MainWindow, App]] = []

    def make(
        *,
        load_model: bool = True,
        settings: Settings | None = None,
        memory: bool = True,
        app: App | None = None,
        welcome_seen: bool = True,
    ) -> MainWindow:
        app = app or make_app(settings)
        # A returning user: the first-run welcome has been seen (tests/gui/test_welcome.py
        # covers the first run itself).
        seen = QSettings(str(app.paths.config_dir / "gui.ini"), QSettings.Format.IniFormat)
        seen.setValue("welcome/shown", welcome_seen)
        seen.sync()
        session = Session(app)
        window = MainWindow(session)
        qtbot.addWidget(window)
        window.show()
        window.activateWindow()  # window shortcuts (Ctrl+N, F2, Esc) need the active window
        # (on a first run the welcome dialog takes the focus instead)
        qtbot.waitUntil(lambda: window.isActiveWindow() or not welcome_seen, timeout=5000)
        built.append((window, app))
        if memory:
            session.open_memory()
            qtbot.waitUntil(lambda: not session.memory_opening, timeout=MODEL_TIMEOUT_MS)
            assert session.memory.is_open, session.memory_problem
            drain_memory_lane()  # the conversation list's re-read after unlocking
            qtbot.wait(20)
        if load_model:
            session.load_model()
            qtbot.waitUntil(lambda: session.model_info is not None, timeout=MODEL_TIMEOUT_MS)
        return window

    yield make
    for window, app in built:
        window.controller.stop()
        qtbot.waitUntil(lambda w=window: not w.controller.busy, timeout=REPLY_TIMEOUT_MS)
        window.close()
        drain_memory_lane()
        app.engine.close()
        app.close()


def send(qtbot: Any, window: MainWindow, text: str) -> None:
    """Type ``text`` into the message box and press Enter."""
    edit = window.chat.composer.edit
    edit.setFocus()
    edit.setPlainText(text)
    qtbot.keyClick(edit, Qt.Key.Key_Return)


def wait_for_reply(qtbot: Any, window: MainWindow) -> None:
    qtbot.waitUntil(lambda: not window.controller.busy, timeout=REPLY_TIMEOUT_MS)


def settle_memory(qtbot: Any, window: MainWindow, rounds: int = 3) -> None:
    """Let every memory write, change signal, coalesced refresh and read finish."""
    panels = (window.inspector, window.timeline, window.profile)
    for _ in range(rounds):
        drain_memory_lane()
        qtbot.wait(160)  # the panels' coalescing timer, then their reads
        drain_memory_lane()
        qtbot.waitUntil(lambda: all(p.loading == 0 for p in panels), timeout=30_000)


def remember(window: MainWindow, text: str, **options: Any) -> Any:
    """Store a memory through the real service (as the app would on the memory lane)."""
    memory = window.session.memory
    assert memory.is_open, window.session.memory_problem
    return memory.remember(text, **options)


def show_panel(window: MainWindow, name: str) -> None:
    """Show one memory panel (hidden panels do not refresh); they share one tabbed dock."""
    dock = {
        "inspector": window.inspector_dock,
        "timeline": window.timeline_dock,
        "profile": window.profile_dock,
    }[name]
    dock.show()
    dock.raise_()
