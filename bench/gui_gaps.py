"""The longest GUI-thread gap with 10k memories, idle and under a competing CPU load (issue 11).

A 10 ms heartbeat timer runs on the GUI thread while the window unlocks a store of 10,000
memories (8,000 episodes in 160 conversations), lists its conversations, renames and deletes
conversations from the sidebar, and opens the memory inspector. Each phase reports its longest
gap between beats (a gap is time the GUI thread could not run its event loop). The load is one
busy process per competing thread, started by the bench itself so every condition faces the
same. Target: <= 50 ms at 10k.

    python bench/gui_gaps.py [--memories 10000] [--repeat 3] [--json]
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import os
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

TARGET_MS = 50.0


def _spin(stop: Any) -> None:
    while not stop.is_set():
        pass


class Load:
    """``threads`` busy processes for the duration of a ``with`` block."""

    def __init__(self, threads: int) -> None:
        self.threads = threads
        # spawn, not fork: Lance is not fork-safe, and a spinner needs nothing of this process
        self._context = multiprocessing.get_context("spawn")
        self._stop = self._context.Event()
        self._procs: list[Any] = []

    def __enter__(self) -> Load:
        for _ in range(self.threads):
            proc = self._context.Process(target=_spin, args=(self._stop,), daemon=True)
            proc.start()
            self._procs.append(proc)
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        for proc in self._procs:
            proc.join(5)


def build_store(app: Any, count: int) -> None:
    from desktop_agent.embed import HashingEmbedder
    from desktop_agent.memory import NewMemory, Vault

    texts = [
        f"User: note {i} about the garden, the trip to Kyoto and the budget\nAssistant: noted {i}"
        for i in range(count)
    ]
    vectors = HashingEmbedder().embed(texts)
    rows = [
        NewMemory(
            "episodic" if i % 5 else "semantic",
            text,
            vector,
            meta={"importance": 0.3, "source": "import", "title": f"Chat {i % 200}"},
            conversation_id=f"conversation-{i % 200}" if i % 5 else None,
        )
        for i, (text, vector) in enumerate(zip(texts, vectors, strict=True))
    ]
    with Vault.open(app.paths.vault_dir, app.key_source()) as vault:
        vault.add_many(rows)


def one_run(qapp: Any, count: int, load: int) -> dict[str, float]:
    """Every phase once, in a fresh data dir; the longest gap of each, in ms."""
    from PySide6.QtCore import QEventLoop, QTimer

    from desktop_agent.app import App
    from desktop_agent.embed import HashingEmbedder
    from desktop_agent.gui.launch import qt_application
    from desktop_agent.gui.main_window import MainWindow
    from desktop_agent.gui.session import Session
    from desktop_agent.gui.workers import run_in_background
    from desktop_agent.settings import Settings

    def wait_until(done: Callable[[], bool], timeout: float = 120) -> None:
        deadline = time.monotonic() + timeout
        while not done():
            if time.monotonic() > deadline:
                raise TimeoutError("the window did not get there in time")
            pause = QEventLoop()
            QTimer.singleShot(5, pause.quit)
            pause.exec()

    def drain() -> None:
        task = run_in_background(lambda: None, name="drain", lane="memory")
        wait_until(lambda: task.wait(0))

    beats: list[float] = []
    heartbeat = QTimer(interval=10)
    heartbeat.timeout.connect(lambda: beats.append(time.perf_counter()))

    def phase(action: Callable[[], None], settle: float = 0.3) -> float:
        beats.clear()
        heartbeat.start()
        qapp.processEvents()
        action()
        end = time.monotonic() + settle
        wait_until(lambda: time.monotonic() > end)
        heartbeat.stop()
        gaps = [(b - a) * 1000 for a, b in zip(beats, beats[1:], strict=False)]
        return max(gaps) if gaps else float("nan")

    with tempfile.TemporaryDirectory() as home:
        os.environ["DESKTOP_AGENT_HOME"] = home
        settings = Settings().replace("model", n_threads=1, max_tokens=16, n_ctx=1024)
        # Recall and listing work the same with the hashing embedder, without loading torch.
        app = App(settings=settings, embedder=HashingEmbedder())
        build_store(app, count)
        qt_application(dark=False)
        session = Session(app)
        window = MainWindow(session)
        window.resize(1180, 760)
        window.show()
        figures: dict[str, float] = {}
        with Load(load):
            figures["unlock_ms"] = phase(
                lambda: (
                    session.open_memory(),
                    wait_until(lambda: session.memory.is_open),
                    drain(),
                ),
                settle=0.5,
            )
            model = window.conversations.model
            wait_until(lambda: model.rowCount() >= 160)  # the store's 160 conversations
            figures["list_ms"] = phase(lambda: (model.refresh_in_background(), drain()))

            def renames() -> None:
                for row in range(5):
                    model.setData(model.index(row), f"Renamed {row}")
                drain()

            figures["rename_ms"] = phase(renames)

            def deletes() -> None:
                for _ in range(3):
                    model.remove(model.conversation_at(0).id)
                drain()

            figures["delete_ms"] = phase(deletes)
            figures["inspector_ms"] = phase(
                lambda: (window.inspector_dock.show(), window.inspector_dock.raise_(), drain()),
                settle=1.0,
            )
        window.close()
        drain()
        app.close()
    return figures


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--memories", type=int, default=10_000)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()

    import keyring

    from desktop_agent.gui.launch import qt_application
    from desktop_agent.secrets.memory_backend import InMemoryKeyring

    keyring.set_keyring(InMemoryKeyring())  # the bench never touches the real keychain
    qapp = qt_application(dark=False)
    runs: dict[str, list[dict[str, float]]] = {"idle": [], "loaded": []}
    for _ in range(args.repeat):  # interleaved: idle and loaded face the same machine drift
        runs["idle"].append(one_run(qapp, args.memories, load=0))
        runs["loaded"].append(one_run(qapp, args.memories, load=1))
    result: dict[str, Any] = {"memories": args.memories, "repeat": args.repeat}
    for condition, figures in runs.items():
        for name in figures[0]:
            result[f"{condition}_{name}"] = round(statistics.median(f[name] for f in figures), 1)
        result[f"{condition}_max_gap_ms"] = round(
            statistics.median(max(f.values()) for f in figures), 1
        )
    result["target_ms"] = TARGET_MS
    if args.json:
        print(json.dumps(result))
    else:
        for key, value in result.items():
            print(f"{key:>28}: {value}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
