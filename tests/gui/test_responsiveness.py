"""The GUI thread never stalls, during a generation or while a 10k-memory store unlocks (a
10 ms heartbeat records the gaps)."""

from __future__ import annotations

import time
from typing import Any

import pytest
from PySide6.QtCore import QTimer

from tests.gui.conftest import fast_settings, make_app, send, wait_for_reply

# The target is 50 ms (measured and printed: `max_gap_ms`); the assertion only catches a freeze.
# On this 2-core machine an idle unlock of 10k memories gaps 44-62 ms from run to run (the same
# before and after a change), so a 50 ms assertion failed half the runs: timings belong in
# benches, and a test fails only on a real stall (importing the parser mid-reply: 322 ms).
MAX_GAP_MS = 50
FREEZE_MS = 250


def test_gui_thread_keeps_beating_during_a_generation(
    qtbot: Any, make_window: Any, record_property: Any
) -> None:
    # Given a window and a 10 ms heartbeat on the GUI thread
    window = make_window(settings=fast_settings(max_tokens=160))
    # (after start-up, as the app starts: the embedder and the language parser load in the
    # background; importing the parser stalls every thread for ~170 ms, as torch's import does)
    window.session.load_embedder()
    qtbot.waitUntil(lambda: window.session.embedder_ready, timeout=120_000)
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

    # Then the GUI thread never freezes (target: no gap over MAX_GAP_MS)
    gaps_ms = [(b - a) * 1000 for a, b in zip(beats, beats[1:], strict=False)]
    max_gap = max(gaps_ms)
    record_property("max_gap_ms", round(max_gap, 1))
    print(
        f"\nheartbeat: {len(beats)} beats, max gap {max_gap:.1f} ms, "
        f"reply {window.controller.pieces} pieces"
    )
    assert window.controller.pieces > 20
    assert max_gap < FREEZE_MS


def _build_store(app: Any, count: int) -> None:
    """A store of ``count`` memories (most of them episodes of 200 conversations), written
    straight to the vault in one batch, as a long-time user's would be."""
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


@pytest.mark.parametrize("snapshot", [True, False], ids=["snapshot", "row-by-row"])
def test_gui_thread_keeps_beating_while_a_10k_store_unlocks(
    qtbot: Any, make_window: Any, record_property: Any, snapshot: bool
) -> None:
    # Given a vault of 10,000 memories on disk (closing it leaves the unlock snapshot; without
    # it every row is decrypted one by one)
    app = make_app()
    _build_store(app, 10_000)
    if not snapshot:
        from desktop_agent.memory import snapshot as unlock_snapshot

        unlock_snapshot.discard(app.paths.vault_dir)
    window = make_window(load_model=False, memory=False, app=app)
    beats: list[float] = []
    heartbeat = QTimer(interval=10)
    heartbeat.timeout.connect(lambda: beats.append(time.perf_counter()))

    # When it unlocks in the background, with the progress shown
    heartbeat.start()
    started = time.perf_counter()
    window.session.open_memory()
    assert window.status.progress.isVisible()
    assert "Unlocking memory…" in window.status.loading_label.text()
    qtbot.waitUntil(lambda: window.session.memory.is_open, timeout=120_000)
    unlocked_after = time.perf_counter() - started
    qtbot.wait(500)  # and what the window does once it is open (the conversation list)
    heartbeat.stop()

    # Then the GUI thread never freezes (target: no gap over MAX_GAP_MS), and the store is all there
    gaps_ms = [(b - a) * 1000 for a, b in zip(beats, beats[1:], strict=False)]
    max_gap = max(gaps_ms)
    record_property("max_gap_ms", round(max_gap, 1))
    print(
        f"\nunlock 10k ({'snapshot' if snapshot else 'row by row'}): {unlocked_after:.2f} s, "
        f"{len(beats)} beats, max gap {max_gap:.1f} ms"
    )
    assert len(window.session.memory.vault) == 10_000
    assert not window.status.progress.isVisible()
    # 160 remembered, and the new chat (read on the memory lane after unlocking)
    qtbot.waitUntil(lambda: window.conversations.model.rowCount() > 160, timeout=30_000)
    assert max_gap < FREEZE_MS
