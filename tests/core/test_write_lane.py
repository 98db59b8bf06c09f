"""One ordered writer: the write lane, and the races it closes (issue 11, item 1).

Each race test makes the second writer arrive while the first is half done, from another
thread, and then asserts on the store, not on the order of events.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Sequence
from datetime import UTC, datetime

import numpy as np
import pytest

from desktop_agent.core.assistant import Assistant
from desktop_agent.core.consolidation import consolidate
from desktop_agent.core.history_import import HistoryMessage
from desktop_agent.core.memory_service import MemoryService
from desktop_agent.core.write_lane import WriteLane
from desktop_agent.embed import HashingEmbedder
from desktop_agent.llm import GenerationSettings
from desktop_agent.llm.fake import ScriptedEngine
from tests.core.conftest import chat

# --- the lane itself ---------------------------------------------------------------------------


def test_jobs_enter_in_the_order_they_asked() -> None:
    lane = WriteLane()
    entered: list[int] = []
    threads = []
    with lane:
        for n in range(5):
            thread = threading.Thread(target=lambda n=n: lane.run(lambda: entered.append(n)))
            thread.start()
            threads.append(thread)
            deadline = time.monotonic() + 5
            while lane.waiting < n + 1 and time.monotonic() < deadline:
                time.sleep(0.001)
            assert lane.waiting == n + 1
        assert entered == []  # nobody gets in while the lane is held
    for thread in threads:
        thread.join(5)
    assert entered == [0, 1, 2, 3, 4]


def test_the_lane_is_reentrant_and_an_error_leaves_it_open() -> None:
    lane = WriteLane()
    with lane, lane:
        assert lane.held_here
    assert not lane.held_here
    with pytest.raises(ValueError), lane:
        raise ValueError("a failed write")
    assert lane.run(lambda: 42) == 42
    with pytest.raises(RuntimeError, match="outside the write lane"):
        lane.require()


def test_a_vault_write_that_skips_the_lane_fails_loudly(memory: MemoryService) -> None:
    with pytest.raises(RuntimeError, match="outside the write lane"):
        memory.vault.add("semantic", "went around the service", vector=np.zeros(384, np.float32))
    assert len(memory.vault) == 0
    memory.remember("User likes tea", subject_key="likes:tea")  # the service's way in works
    assert len(memory.vault) == 1


# --- the races ---------------------------------------------------------------------------------


def test_a_conversation_deleted_while_its_reply_streams_does_not_come_back(
    memory: MemoryService,
) -> None:
    engine = ScriptedEngine(lambda _m: "A fine reply that takes a while to stream.", delay=0.02)
    assistant = Assistant(engine, GenerationSettings(max_tokens=64), memory=memory)
    first = assistant.start_conversation()
    chat(assistant, first, "I live in Lisbon.")  # remembered before the delete
    turn = assistant.send(first, "I'm allergic to peanuts.")
    next(iter(turn))  # the reply is streaming

    assistant.delete_conversation(first.id)
    turn.cancel()  # then the user stops it
    reply = turn.finish()

    assert reply.episode_id is None and reply.learned == ()
    assert memory.episodes(first.id) == []
    assert first.id not in {c.id for c in assistant.conversations()}
    assert not [i for i in memory.items() if "peanut" in i.text or "Lisbon" in i.text]


def test_a_new_conversation_deleted_before_its_first_reply_ends_stays_deleted(
    memory: MemoryService,
) -> None:
    engine = ScriptedEngine(delay=0.02)
    assistant = Assistant(engine, GenerationSettings(max_tokens=64), memory=memory)
    fresh = assistant.start_conversation()
    turn = assistant.send(fresh, "My name is Ana.")
    next(iter(turn))
    assistant.delete_conversation(fresh.id)  # nothing of it is stored yet
    for _ in turn:
        pass
    turn.finish()
    assert len(memory.vault) == 0
    assert assistant.conversations() == []


class _Trap(HashingEmbedder):
    """Runs ``spring`` on another thread the first time a text containing ``word`` is
    embedded, and gives it time to do its work before going on."""

    def __init__(self, word: str) -> None:
        super().__init__()
        self.word = word
        self.spring: threading.Thread | None = None
        self.armed = False

    def arm(self, action) -> None:  # noqa: ANN001
        self.spring = threading.Thread(target=action)
        self.armed = True

    def embed(self, texts: Sequence[str]):  # noqa: ANN201
        if self.armed and any(self.word in t for t in texts):
            self.armed = False
            assert self.spring is not None
            self.spring.start()
            time.sleep(0.3)  # long enough for an unordered writer to finish first
        return super().embed(texts)


def test_a_conversation_forgotten_during_consolidation_leaves_nothing_behind(
    open_memory,  # noqa: ANN001
) -> None:
    memory = open_memory()
    trap = _Trap("peanut")
    memory = MemoryService(memory.vault, trap)
    assistant = Assistant(ScriptedEngine(), GenerationSettings(max_tokens=64), memory=memory)
    doomed = assistant.start_conversation()
    chat(assistant, doomed, "I'm allergic to peanuts.")
    assistant.settle(10)
    memory.remember("User has asthma", subject_key="condition:asthma")
    # The run writes a health topic quoting the peanut allergy; the forget arrives meanwhile.
    trap.arm(lambda: assistant.delete_conversation(doomed.id))
    consolidate(memory, force=True)
    assert trap.spring is not None
    trap.spring.join(10)

    assert memory.episodes(doomed.id) == []
    left = [i.text for i in memory.items()]
    assert not [t for t in left if "peanut" in t], left
    assert "User has asthma" in left


def test_a_rename_during_an_import_keeps_both(open_memory) -> None:  # noqa: ANN001
    memory = open_memory()
    trap = _Trap("imported line")
    memory = MemoryService(memory.vault, trap)
    assistant = Assistant(ScriptedEngine(), GenerationSettings(max_tokens=64), memory=memory)
    named = assistant.start_conversation()
    chat(assistant, named, "Let's plan the garden.")
    trap.arm(lambda: assistant.rename_conversation(named.id, "Garden plans"))
    lines = [
        HistoryMessage(
            id=f"m{n}",
            conversation="imported",
            speaker="user",
            text=f"imported line {n}",
            timestamp=datetime(2025, 1, 1, 12, n, tzinfo=UTC),
            line_number=n,
        )
        for n in range(20)
    ]
    memory.import_history(lines)
    assert trap.spring is not None
    trap.spring.join(10)

    titles = {c.id: c.title for c in memory.conversations()}
    assert titles[named.id] == "Garden plans"
    assert len(memory.episodes("imported")) == 20


# --- use counts (issue 11, item 4) -------------------------------------------------------------


def test_use_counts_are_written_in_batches_and_keep_one_version(open_memory) -> None:  # noqa: ANN001
    from desktop_agent.core.memory_service import USAGE_FLUSH_EVERY, USAGE_ROLE

    memory = open_memory()
    tea = memory.remember("User likes tea", subject_key="likes:tea")
    versions_before = sum(len(memory.vault.versions_of(i.id)) for i in memory.items())
    for _ in range(USAGE_FLUSH_EVERY - 1):
        memory.mark_used([tea.id])
    assert len(memory.vault) == 1  # nothing written yet: counted in RAM
    assert memory.usage(tea.id)[0] == USAGE_FLUSH_EVERY - 1
    for _ in range(2 * USAGE_FLUSH_EVERY + 1):
        memory.mark_used([tea.id])
    (usage,) = [r for r in memory.vault.list("procedural") if r.meta.get("role") == USAGE_ROLE]
    assert len(memory.vault.versions_of(str(usage.id))) == 1  # old versions are not kept
    assert sum(len(memory.vault.versions_of(i.id)) for i in memory.items()) == versions_before

    memory.flush()  # as Lock does
    again = open_memory()
    assert again.usage(tea.id)[0] == 3 * USAGE_FLUSH_EVERY
    assert [i.text for i in again.items()] == ["User likes tea"]  # the counts stay hidden
