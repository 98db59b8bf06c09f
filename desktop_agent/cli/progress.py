"""A one-line progress bar on stderr, drawn only when stderr is a terminal."""

from __future__ import annotations

import sys
import time


class Progress:
    def __init__(self, label: str, total: int | None = None, *, stream=None) -> None:  # noqa: ANN001
        self.label = label
        self.total = total
        self.done = 0
        self.stream = stream or sys.stderr
        self.enabled = self.stream.isatty()
        self._last_draw = 0.0

    def advance(self, count: int) -> None:
        self.done += count
        now = time.monotonic()
        if self.enabled and (
            now - self._last_draw > 0.1 or (self.total and self.done >= self.total)
        ):
            self._last_draw = now
            self._draw()

    def _draw(self) -> None:
        if self.total:
            share = min(self.done / self.total, 1.0)
            bar = "#" * int(share * 30)
            self.stream.write(f"\r{self.label} [{bar:<30}] {self.done}/{self.total}")
        else:
            self.stream.write(f"\r{self.label} {self.done}")
        self.stream.flush()

    def close(self) -> None:
        if self.enabled:
            self._draw()
            self.stream.write("\n")
            self.stream.flush()
