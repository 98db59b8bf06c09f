"""`desktop-agent gui --screenshot DIR`: render the main views over sample data, then exit.

Runs in a temporary DESKTOP_AGENT_HOME (never the user's data) and works offscreen
(QT_QPA_PLATFORM=offscreen). The chat shows a real reply streamed from the bundled model.
"""

from __future__ import annotations

import json
import os
import sys
import tempfile
import time
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from pathlib import Path

from PySide6.QtCore import QEventLoop, QTimer
from PySide6.QtWidgets import QApplication, QWidget

from desktop_agent.core.assistant import Assistant

PROMPT = (
    "Show me a Python function that checks whether a word is a palindrome, with a code example."
)

SAMPLES = [
    (
        "Plan a 3-day trip to Lisbon",
        2,
        [
            ("user", "Plan a 3-day trip to Lisbon in May, on foot and by tram."),
            (
                "assistant",
                "**Day 1:** Alfama and the castle, tram 28 to Graça, sunset at "
                "the Miradouro da Senhora do Monte.\n\n**Day 2:** Belém: the tower, "
                "the monastery, and pastéis de nata.\n\n**Day 3:** Sintra by train.",
            ),
        ],
    ),
    (
        "Explain recursion simply",
        5,
        [
            ("user", "Explain recursion to a 10-year-old."),
            (
                "assistant",
                "Recursion is when something is defined using a smaller copy of "
                "itself, like Russian dolls: to open them all, open one, then do the "
                "same with the doll inside.",
            ),
        ],
    ),
    (
        "Weekly grocery list",
        9,
        [
            ("user", "Make me a grocery list for a vegetarian week."),
            (
                "assistant",
                "- Lentils, chickpeas, tofu\n- Spinach, tomatoes, peppers\n- Oats, "
                "rice, whole-wheat pasta\n- Yoghurt, eggs, cheese",
            ),
        ],
    ),
]


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


def add_samples(assistant: Assistant) -> None:
    now = datetime.now(UTC)
    for title, days_ago, messages in SAMPLES:
        conversation = assistant.start_conversation()
        conversation.started_at = now - timedelta(days=days_ago)
        for role, text in messages:
            conversation.add(role, text)
        conversation.title = title


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
    from desktop_agent.app import App
    from desktop_agent.gui.launch import qt_application
    from desktop_agent.gui.main_window import MainWindow
    from desktop_agent.gui.session import Session
    from desktop_agent.gui.settings_dialog import SettingsDialog
    from desktop_agent.gui.theme import DARK, LIGHT, apply_theme
    from desktop_agent.settings import Settings

    qt_app = qt_application(dark=False)
    # One thread: on a busy 2-core machine llama.cpp's threads wait on each other.
    settings = Settings().replace("model", seed=11, max_tokens=200, temperature=0.3, n_threads=1)
    app = App(settings=settings, model_override=Path(model) if model else None)
    session = Session(app)
    add_samples(session.assistant)
    window = MainWindow(session)
    window.resize(1280, 820)
    window.show()
    session.load_model()
    save(window, folder, "startup.png", settle_ms=30)  # the window is up, the model loading
    if not wait_until(lambda: session.model_info is not None, 120):
        print("the model did not load", file=sys.stderr)
        return 1
    window.new_chat()
    window.chat.composer.set_text(PROMPT)
    window.chat.composer.submit()
    controller = window.controller
    wait_until(lambda: controller.pieces >= 30 or not controller.busy, 120)
    save(window, folder, "chat-streaming.png")
    if not wait_until(lambda: not controller.busy, 300):
        print("the reply did not finish", file=sys.stderr)
        return 1
    reply_view = window.chat.last_reply_view()
    if reply_view is not None:
        reply_view.open_lens()
    save(window, folder, "chat.png")

    dialog = SettingsDialog(session.settings, window)
    dialog.show()
    dialog.resize(dialog.sizeHint())
    save(dialog, folder, "settings.png")
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
    qt_app.processEvents()
    return 0
