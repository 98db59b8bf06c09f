"""The engine's thread count follows the machine's load (issue 10, part 7)."""

from __future__ import annotations

import multiprocessing
import time

import pytest

from desktop_agent.llm.cpu_load import Sample, others_busy, sample, threads_for


def spin() -> None:
    while True:
        pass


@pytest.mark.parametrize(
    ("cores", "busy", "threads"),
    [(2, 0.0, 2), (2, 0.2, 2), (2, 0.5, 1), (2, 1.0, 1), (2, 2.0, 1), (8, 1.0, 7), (8, 3.4, 4)],
)
def test_threads_leave_the_busy_cores_alone(cores: int, busy: float, threads: int) -> None:
    assert threads_for(cores, busy) == threads


def test_own_time_is_not_counted_as_the_others() -> None:
    # Two CPUs, a 100-tick window per CPU: 150 ticks busy, 100 of them this process's own.
    before = Sample(0.0, busy=0, total=0, own=0)
    after = Sample(1.0, busy=150, total=200, own=100)
    assert others_busy(before, after, cpus=2) == pytest.approx(0.5)


def test_a_competing_busy_process_is_measured() -> None:
    assert sample() is not None  # Linux: /proc is there
    context = multiprocessing.get_context("spawn")
    load = context.Process(target=spin, daemon=True)
    load.start()
    try:
        time.sleep(0.5)  # the child is up and spinning
        before = sample()
        time.sleep(0.5)
        after = sample()
        assert before is not None and after is not None
        assert others_busy(before, after, multiprocessing.cpu_count()) >= 0.6
    finally:
        load.terminate()
        load.join()


def test_the_engine_gives_way_when_every_core_is_busy(engine) -> None:  # noqa: ANN001
    from desktop_agent.llm import ChatMessage, GenerationSettings
    from desktop_agent.llm.model_file import physical_cores

    cores = physical_cores()
    if cores < 2:
        pytest.skip("one core: there is nothing to give way with")
    context = multiprocessing.get_context("spawn")
    loads = [context.Process(target=spin, daemon=True) for _ in range(cores)]
    for load in loads:
        load.start()
    try:
        time.sleep(0.5)
        settings = GenerationSettings(max_tokens=4, temperature=0.0, seed=1)
        engine.chat([ChatMessage("user", "Say hi.")], settings).result()
        assert engine.adaptive_threads and engine.last_threads < cores
    finally:
        for load in loads:
            load.terminate()
            load.join()
