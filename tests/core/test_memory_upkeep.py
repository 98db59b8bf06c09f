"""The vault's upkeep through the memory service (what `memory keys` and `memory list` use):
the stored record, the store's health, and a re-encryption that waits its turn in the lane."""

from __future__ import annotations

import threading
import time

import pytest

from desktop_agent.core.memory_service import MemoryService
from desktop_agent.memory import rekey_journal
from desktop_agent.memory.model import MemoryNotFound


def test_record_is_the_stored_version(memory: MemoryService) -> None:
    fact = memory.remember("The user likes tea")
    memory.edit(fact.id, text="The user loves tea")
    assert memory.record(fact.id).version == 2 and memory.record(fact.id).text.endswith("tea")
    memory.forget([fact.id])
    with pytest.raises(MemoryNotFound):
        memory.record(fact.id)


def test_health_of_a_fine_store_and_of_an_interrupted_rekey(memory: MemoryService) -> None:
    memory.remember("The user likes tea")
    health = memory.health()
    assert health.fine and health.read_only is None and health.damaged == ()
    assert health.epoch == memory.key_status().epoch and health.records >= 1
    rekey_journal.journal_path(memory.vault.directory).write_bytes(b"\x01" + b"\x00" * 40)
    assert memory.health().rekey_unfinished and not memory.health().fine


def test_rekey_runs_in_the_write_lane_after_the_job_inside_it(memory: MemoryService) -> None:
    memory.remember("The user likes tea")
    before = memory.key_status().epoch
    order: list[str] = []
    progress: list[tuple[int, int]] = []

    def rekey() -> None:
        memory.rekey(lambda done, total: progress.append((done, total)))
        order.append("rekey")

    with memory.lane:
        thread = threading.Thread(target=rekey)
        thread.start()
        deadline = time.monotonic() + 10
        while memory.lane.waiting < 1 and time.monotonic() < deadline:
            time.sleep(0.01)
        order.append("job inside the lane")
    thread.join(60)

    assert order == ["job inside the lane", "rekey"]
    assert memory.key_status().epoch == before + 1 and progress[-1][0] == progress[-1][1]
    assert [m.text for m in memory.items()] == ["The user likes tea"]
