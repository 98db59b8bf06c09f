"""The one ordered lane every memory write goes through, whoever asks for it.

The chat turn's reflection (on the turn's thread), consolidation (on its own thread), the GUI's
renames and deletes (on its memory thread) and the CLI (on its main thread) all enter this lane
before they write. Inside it a job runs alone; jobs enter in the order they asked (a ticket
queue, not a plain lock, which lets a thread that just left cut back in ahead of the others).
A job that needs several writes to agree (store an exchange and learn from it; forget a
conversation and everything learned from it; a whole consolidation run) holds the lane for
all of them, so a delete never lands between a reply's episode and the facts learned from it.

Jobs run on the caller's own thread: no extra thread holds references to the vault after a
lock, and a job that writes again from inside the lane re-enters it (the lane is reentrant).
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from types import TracebackType
from typing import TypeVar

T = TypeVar("T")


class WriteLane:
    """An exclusive, first-come-first-served, reentrant lane for writes."""

    def __init__(self) -> None:
        self._turns = threading.Condition(threading.Lock())
        self._next_ticket = 0
        self._serving = 0
        self._owner: int | None = None
        self._depth = 0

    def __enter__(self) -> WriteLane:
        me = threading.get_ident()
        with self._turns:
            if self._owner == me:
                self._depth += 1
                return self
            ticket = self._next_ticket
            self._next_ticket += 1
            while self._serving != ticket or self._owner is not None:
                self._turns.wait()
            self._owner, self._depth = me, 1
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        with self._turns:
            if self._owner != threading.get_ident():
                raise RuntimeError("the write lane was left by a thread that does not hold it")
            self._depth -= 1
            if self._depth == 0:
                self._owner = None
                self._serving += 1
                self._turns.notify_all()

    def run(self, job: Callable[[], T]) -> T:
        """Run ``job`` inside the lane and return what it returns."""
        with self:
            return job()

    def require(self) -> None:
        """Raise unless the calling thread is inside the lane (the vault's writer guard)."""
        if not self.held_here:
            raise RuntimeError("a memory write outside the write lane (see core/write_lane.py)")

    @property
    def held_here(self) -> bool:
        """True on the thread that is inside the lane now."""
        return self._owner == threading.get_ident()

    @property
    def waiting(self) -> int:
        """Jobs queued behind the one inside (for tests and the status bar)."""
        with self._turns:
            inside = 1 if self._owner is not None else 0
            return self._next_ticket - self._serving - inside
