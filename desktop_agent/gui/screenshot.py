"""`desktop-agent gui --screenshot DIR`: render the main views over sample data, then exit.

Runs in a temporary DESKTOP_AGENT_HOME (never the user's data) and works offscreen
(QT_QPA_PLATFORM=offscreen), with an in-memory keyring. The sample data is made through the real
services (screenshot_samples.py); the chat shows real replies streamed from the bundled model,
and the memory lens the real memories and scores behind one.
"""

from __future__ import annotations

import json
import os
import sys
import tempfile
import time
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path

from PySide6.QtCore import QEventLoop, Qt, QTimer
from PySide6.QtWidgets import QAbstractItemView, QApplication, QWidget

REPLY_TOKENS = 200  # tests lower it
PROMPT = (
    "Show me a Python function that checks whether a word is a palindrome, with a code example."
)


def wait_until(predicate: Callable[[], bool], timeout: float) -> bool:
    """Run the event loop until ``predicate()`` holds (or ``timeout`` seconds passed)."""
    deadline = time.monotonic() + timeout
    loop = QEventLoop()
    while not predicate():
        if time.monotonic() > deadline:
            return False
        QTimer.singleShot(20, loop.quit)
        loop.exec()
    return True


def settle(ms: int = 150) -> None:
    """Let layouts and deferred deletes finish before a grab."""
    loop = QEventLoop()
    QTimer.singleShot(ms, loop.quit)
    loop.exec()


def save(widget: QWidget, folder: Path, name: str, settle_ms: int = 150) -> Path:
    settle(settle_ms)
    path = folder / name
    if not widget.grab().save(str(path)):
        raise OSError(f"cannot write {path}")
    print(f"wrote {path}")
    return path


def take_screenshots(folder: Path, model: str | None) -> int:
    folder.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix="desktop-agent-screens-") as home:
        os.environ["DESKTOP_AGENT_HOME"] = home
        _offscreen_screen(Path(home))
        return _render(folder, model)


def _offscreen_screen(home: Path) -> None:
    """The offscreen platform's default screen is 800 x 600, which squeezes dialogs; give it a
    laptop-sized one (only possible before the QApplication exists)."""
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    if os.environ["QT_QPA_PLATFORM"] != "offscreen" or QApplication.instance() is not None:
        return
    config = home / "offscreen.json"
    screen = {
        "name": "screen",
        "x": 0,
        "y": 0,
        "width": 1920,
        "height": 1200,
        "logicalDpi": 96,
        "logicalBaseDpi": 96,
        "dpr": 1,
    }
    config.write_text(json.dumps({"screens": [screen]}), encoding="utf-8")
    os.environ["QT_QPA_PLATFORM"] = f"offscreen:configfile={config}"


def _render(folder: Path, model: str | None) -> int:
    from desktop_agent.gui.launch import qt_application
    from desktop_agent.gui.main_window import MainWindow
    from desktop_agent.gui.screenshot_samples import SHOWCASE, ScreenshotApp, seed
    from desktop_agent.gui.session import Session
    from desktop_agent.gui.settings_dialog import SettingsDialog
    from desktop_agent.gui.theme import DARK, LIGHT, apply_theme
    from desktop_agent.settings import Settings

    qt_app = qt_application(dark=False)
    # One thread: on a busy 2-core machine llama.cpp's threads wait on each other.
    settings = Settings().replace(
        "model", seed=11, max_tokens=REPLY_TOKENS, temperature=0.3, n_threads=1
    )
    app = ScreenshotApp(settings=settings, model_override=Path(model) if model else None)
    session = Session(app)
    window = MainWindow(session)
    window.resize(1280, 820)
    window.show()
    session.load_model()
    session.open_memory()
    save(window, folder, "startup.png", settle_ms=30)  # up at once, the slow parts loading
    if not wait_until(lambda: session.model_info is not None and session.memory.is_open, 120):
        print("the model or memory did not load", file=sys.stderr)
        return 1
    seed(app)  # through the real services, while the window waits
    if window.controller.conversation is not None:  # the empty chat opened at startup
        window.controller.conversation.started_at = datetime.now(UTC)  # is the newest
    window.conversations.refresh()
    window.new_chat()
    window.chat.composer.set_text(PROMPT)
    window.chat.composer.submit()
    controller = window.controller
    wait_until(lambda: controller.pieces >= 30 or not controller.busy, 120)
    save(window, folder, "chat-streaming.png")
    if not wait_until(lambda: not controller.busy, 300):
        print("the reply did not finish", file=sys.stderr)
        return 1

    window.new_chat()
    window.chat.composer.set_text(SHOWCASE)
    window.chat.composer.submit()
    if not wait_until(lambda: not controller.busy, 300):
        print("the reply did not finish", file=sys.stderr)
        return 1
    showcase = controller.conversation
    reply_view = window.chat.last_reply_view()
    if reply_view is not None:
        reply_view.open_lens()
    save(window, folder, "chat.png", settle_ms=300)

    _memory_views(window, folder)
    window.open_conversation(showcase.id)
    reply_view = window.chat.last_reply_view()
    if reply_view is not None:
        reply_view.open_lens()

    dialog = SettingsDialog(session.settings, window, session=session)
    dialog.show()
    save(dialog, folder, "settings.png")
    dialog.tabs.setCurrentIndex(dialog.tabs.count() - 1)  # Memory & security, the last tab
    security = dialog.security
    wait_until(lambda: security is not None and security.state is not None, 30)
    security.verify()
    wait_until(lambda: security.busy == 0, 30)
    dialog.resize(dialog.width(), 980)  # tall enough to show every section at once
    save(dialog, folder, "settings-security.png")
    dialog.close()

    apply_theme(DARK)
    save(window, folder, "chat-dark.png")
    apply_theme(LIGHT)

    window.new_incognito_chat()
    window.chat.composer.set_text("What is the capital of Portugal? One word.")
    window.chat.composer.submit()
    wait_until(lambda: not controller.busy, 120)
    save(window, folder, "incognito.png")

    window.close()
    app.engine.close()
    app.close()
    qt_app.processEvents()
    return 0


def _memory_views(window: QWidget, folder: Path) -> None:
    """The inspector on the corrected fact, its source opened in the chat, the timeline and
    what-I-know, in a window wide enough for a panel beside the chat."""
    from desktop_agent.gui.main_window import MainWindow

    assert isinstance(window, MainWindow)
    window.resize(1600, 920)
    inspector = window.inspector
    window.inspector_dock.show()
    window.resizeDocks([window.inspector_dock], [840], Qt.Orientation.Horizontal)
    wait_until(lambda: inspector.loading == 0 and inspector.model.rowCount() > 0, 30)
    porto = next(i for i in inspector.model.items if i.text == "User lives in Porto")
    inspector.kind_combo.setCurrentIndex(inspector.kind_combo.findData("semantic"))
    inspector.select_memory(porto.id)
    wait_until(lambda: inspector.detail.detail is not None, 30)
    inspector.splitter.setSizes([300, 520])
    settle(50)
    inspector.table.scrollTo(
        inspector.current_index(), QAbstractItemView.ScrollHint.PositionAtCenter
    )
    save(window, folder, "memory-inspector.png", settle_ms=300)

    source = next(iter(inspector.detail.detail.sources), None)
    if source is not None:
        window.open_source(source)
        save(window, folder, "memory-source.png", settle_ms=300)

    inspector.tabs.setCurrentIndex(1)
    save(window, folder, "memory-inbox.png")
    inspector.tabs.setCurrentIndex(0)
    inspector.kind_combo.setCurrentIndex(0)

    window.timeline_dock.show()
    window.timeline_dock.raise_()
    wait_until(lambda: window.timeline.loading == 0 and bool(window.timeline.entries), 30)
    window.timeline.tree.expandAll()
    save(window, folder, "timeline.png")

    window.profile_dock.show()
    window.profile_dock.raise_()
    wait_until(lambda: window.profile.loading == 0 and window.profile.profile is not None, 30)
    save(window, folder, "what-i-know.png")
    window.inspector_dock.raise_()
    window.resize(1280, 820)
    window.inspector_dock.hide()
    window.timeline_dock.hide()
    window.profile_dock.hide()
