"""The one way the GUI runs work off its thread (like Anki's QueryOp or napari's thread_worker).

``run_in_background(fn)`` calls ``fn`` on a background thread and reports back through the
signals of a ``Task``, which lives on the GUI thread, so every callback runs on the GUI thread
and may touch widgets. If ``fn`` returns a generator, each yielded value arrives through
``task_did_yield`` and the generator's return value through ``task_did_finish``.

``lane="memory"`` runs tasks one at a time, in the order they were started, on one thread per
lane: every vault write goes through that lane (one writer, like Anki's CollectionOp), so a
forget that was clicked after an edit also happens after it.

The threads are Python daemon threads rather than a QThreadPool: loading the embedder takes
several seconds inside an import of torch, and a pool's destructor would make the window wait
for it on quit. The chat model runs on the engine's own worker thread already; a ``TurnStream``
only relays its pieces.
"""

from __future__ import annotations

import contextlib
import inspect
import logging
import queue
import threading
from collections.abc import Callable, Generator
from typing import Any, NamedTuple

import shiboken6
from PySide6.QtCore import QObject, Qt, Signal, Slot

from desktop_agent.core.assistant import Reply, Turn
from desktop_agent.errors import UserError

logger = logging.getLogger(__name__)

_QUEUED = Qt.ConnectionType.QueuedConnection


class Task(QObject):
    """The GUI-thread handle of one piece of background work."""

    task_did_yield = Signal(object)
    task_did_finish = Signal(object)
    task_did_fail = Signal(object)
    # After finish or fail, whichever happened.
    task_did_end = Signal()

    def __init__(self, fn: Callable[[], Any], name: str) -> None:
        super().__init__()
        self._fn = fn
        self.name = name
        self.running = False
        self._thread: threading.Thread | None = None
        self._done = threading.Event()

    def start(self, lane: str | None = None) -> Task:
        self.running = True
        _alive.add(self)
        self.task_did_end.connect(self._forget, _QUEUED)
        if lane is None:
            self._thread = threading.Thread(target=self._run, name=f"gui-{self.name}", daemon=True)
            self._thread.start()
        else:
            _lane(lane).put(self)
        return self

    def wait(self, timeout: float | None = None) -> bool:
        """Block until the work ends (tests and shutdown only; never from a slot)."""
        return self._done.wait(timeout)

    def _run(self) -> None:
        try:
            result = self._fn()
            if inspect.isgenerator(result):
                result = from_generator(result, self._emit_yield)
            self._emit(self.task_did_finish, result)
        except BaseException as error:  # reported to the GUI, which decides what to show
            if isinstance(error, UserError):
                logger.info("%s: %s", self.name, type(error).__name__)
            else:
                logger.error("background task %s failed", self.name, exc_info=error)
            self._emit(self.task_did_fail, error)
        self._done.set()
        self._emit(self.task_did_end)

    def _emit_yield(self, value: object) -> None:
        self._emit(self.task_did_yield, value)

    @staticmethod
    def _emit(signal: Any, *args: object) -> None:
        # RuntimeError: the Qt side is gone (the app is quitting), so nobody is listening.
        with contextlib.suppress(RuntimeError):
            signal.emit(*args)

    @Slot()
    def _forget(self) -> None:
        self.running = False
        _alive.discard(self)


def from_generator(generator: Generator[Any, None, Any], on_yield: Callable[[Any], None]) -> Any:
    """Drive ``generator`` to its end, passing each value to ``on_yield``; returns its value."""
    while True:
        try:
            value = next(generator)
        except StopIteration as stop:
            return stop.value
        on_yield(value)


# Tasks keep themselves alive until their last signal has been delivered.
_alive: set[Task] = set()
_lanes: dict[str, queue.SimpleQueue[Task]] = {}
_lanes_lock = threading.Lock()


def _lane(name: str) -> queue.SimpleQueue[Task]:
    """The queue of one lane, with the one daemon thread that works through it."""
    with _lanes_lock:
        lane = _lanes.get(name)
        if lane is None:
            lane = _lanes[name] = queue.SimpleQueue()
            threading.Thread(
                target=_work_through, args=(lane,), name=f"gui-lane-{name}", daemon=True
            ).start()
        return lane


def _work_through(lane: queue.SimpleQueue[Task]) -> None:
    while True:
        lane.get()._run()


def run_in_background(
    fn: Callable[[], Any],
    *,
    on_done: Callable[[Any], None] | None = None,
    on_error: Callable[[BaseException], None] | None = None,
    on_yield: Callable[[Any], None] | None = None,
    name: str = "task",
    lane: str | None = None,
    owner: QObject | None = None,
) -> Task:
    """Run ``fn`` on a background thread (in order with the others of ``lane``, if given);
    the callbacks run on the GUI thread, and not at all once ``owner`` has been deleted."""
    task = Task(fn, name)
    if owner is not None:
        on_done, on_error, on_yield = (
            _while_alive(owner, callback) for callback in (on_done, on_error, on_yield)
        )
    if on_yield is not None:
        task.task_did_yield.connect(on_yield, _QUEUED)
    if on_done is not None:
        task.task_did_finish.connect(on_done, _QUEUED)
    if on_error is not None:
        task.task_did_fail.connect(on_error, _QUEUED)
    return task.start(lane)


def _while_alive(owner: QObject, callback: Callable[[Any], None] | None) -> Any:
    if callback is None:
        return None

    def call(value: Any) -> None:
        if shiboken6.isValid(owner):
            callback(value)

    return call


class MemoriesUsed(NamedTuple):
    """Yielded by TurnStream before the text: the memories recalled for this reply."""

    memories: tuple[Any, ...]


class TurnStream:
    """Starts a Turn off the GUI thread and yields its text pieces, then returns its Reply.

    ``cancel()`` is meant to be called directly from the GUI thread (never through a queued
    slot of the busy worker, which would wait for the generation to end): it cancels the Turn,
    which also interrupts prompt processing, or stops it as soon as it exists.
    """

    def __init__(self, start_turn: Callable[[], Turn]) -> None:
        self._start_turn = start_turn
        self._lock = threading.Lock()
        self._cancelled = threading.Event()
        self._turn: Turn | None = None

    @property
    def cancelled(self) -> bool:
        return self._cancelled.is_set()

    def cancel(self) -> None:
        with self._lock:
            self._cancelled.set()
            turn = self._turn
        if turn is not None:
            turn.cancel()

    def run(self) -> Generator[str | MemoriesUsed, None, Reply]:
        turn = self._start_turn()
        with self._lock:
            self._turn = turn
            if self._cancelled.is_set():
                turn.cancel()
        recalled = getattr(turn, "memories_used", ())
        if recalled:  # known before the first token: the lens can show them while it streams
            yield MemoriesUsed(tuple(recalled))
        yield from turn
        return turn.finish()
