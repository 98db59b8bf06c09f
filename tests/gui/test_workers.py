"""run_in_background: the work runs off the GUI thread, every callback on it."""

from __future__ import annotations

import threading
from typing import Any

import pytest

from desktop_agent.gui.workers import TurnStream, run_in_background


def test_result_and_yields_arrive_on_the_gui_thread(qtbot: Any) -> None:
    gui = threading.get_ident()
    seen: list[tuple[str, Any, bool]] = []

    def work() -> Any:
        yield threading.get_ident() != gui
        yield 2
        return "done"

    task = run_in_background(
        work,
        on_yield=lambda v: seen.append(("yield", v, threading.get_ident() == gui)),
        on_done=lambda v: seen.append(("done", v, threading.get_ident() == gui)),
    )
    qtbot.waitUntil(lambda: not task.running, timeout=5000)

    assert seen == [("yield", True, True), ("yield", 2, True), ("done", "done", True)]


def test_errors_are_reported_not_raised(qtbot: Any) -> None:
    errors: list[BaseException] = []

    def work() -> None:
        raise ValueError("boom")

    task = run_in_background(work, on_error=errors.append)
    qtbot.waitUntil(lambda: not task.running, timeout=5000)

    assert isinstance(errors[0], ValueError)


class _FakeTurn:
    def __init__(self) -> None:
        self.cancelled = False

    def cancel(self) -> None:
        self.cancelled = True

    def __iter__(self) -> Any:
        return iter(())

    def finish(self) -> str:
        return "reply"


def test_turn_stream_cancel_before_the_turn_exists_cancels_it() -> None:
    turn = _FakeTurn()
    stream = TurnStream(lambda: turn)  # type: ignore[arg-type, return-value]
    stream.cancel()

    with pytest.raises(StopIteration) as stop:
        next(stream.run())

    assert turn.cancelled
    assert stop.value.value == "reply"
