"""The GUI thread never stalls during a generation (a 10 ms heartbeat records the gaps)."""

from __future__ import annotations

import time
from typing import Any

from PySide6.QtCore import QTimer

from tests.gui.conftest import fast_settings, send, wait_for_reply

MAX_GAP_MS = 50


def test_gui_thread_keeps_beating_during_a_generation(
    qtbot: Any, make_window: Any, record_property: Any
) -> None:
    # Given a window and a 10 ms heartbeat on the GUI thread
    window = make_window(settings=fast_settings(max_tokens=160))
    beats: list[float] = []
    heartbeat = QTimer(interval=10)
    heartbeat.timeout.connect(lambda: beats.append(time.perf_counter()))

    # When a reply streams in, with Markdown rendered on the coalescing timer
    heartbeat.start()
    send(
        qtbot, window, "Write a Python function with a docstring that sorts a list, and explain it."
    )
    wait_for_reply(qtbot, window)
    heartbeat.stop()

    # Then no gap between beats is longer than 50 ms
    gaps_ms = [(b - a) * 1000 for a, b in zip(beats, beats[1:], strict=False)]
    max_gap = max(gaps_ms)
    record_property("max_gap_ms", round(max_gap, 1))
    print(
        f"\nheartbeat: {len(beats)} beats, max gap {max_gap:.1f} ms, "
        f"reply {window.controller.pieces} pieces"
    )
    assert window.controller.pieces > 20
    assert max_gap < MAX_GAP_MS
