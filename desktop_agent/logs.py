"""The app's log: a rotating file under the data dir that never holds a memory's words.

What fails in the background (consolidation, warm-up, a classifier, a download) is written
here instead of vanishing; Help -> Diagnostics shows it. Plaintext stays out by construction:
our own log calls pass ids, counts and exception types, never texts, and the formatter writes
an exception as its type and frames only, without its message (a message can quote what the
user said: "cannot embed 'my PIN is 4711'"). Other libraries log at WARNING and above only.
"""

from __future__ import annotations

import logging
import os
import traceback
from collections import deque
from logging.handlers import RotatingFileHandler
from pathlib import Path
from types import TracebackType

from desktop_agent.paths import AppPaths

LOG_NAME = "desktop-agent.log"
MAX_BYTES = 1_000_000
BACKUPS = 3
FORMAT = "%(asctime)s %(levelname)-7s %(threadName)s %(name)s: %(message)s"

_ExcInfo = tuple[type[BaseException], BaseException, TracebackType | None]


class PlaintextSafeFormatter(logging.Formatter):
    """Writes an exception as its type chain and stack frames, never its message."""

    def format(self, record: logging.LogRecord) -> str:
        # Another handler may have cached its own rendering of the exception (with the
        # message) on the record: ours is made afresh and the record is left as it was.
        cached = record.exc_text
        record.exc_text = None
        try:
            return super().format(record)
        finally:
            record.exc_text = cached

    def formatException(self, ei: _ExcInfo | tuple[None, None, None]) -> str:  # noqa: N802
        kind, error, tb = ei
        if kind is None or error is None:
            return ""
        lines: list[str] = []
        seen: set[int] = set()
        current: BaseException | None = error
        while current is not None and id(current) not in seen:
            seen.add(id(current))
            lines.append(
                f"{type(current).__module__}.{type(current).__qualname__} (message withheld)"
            )
            for frame in traceback.extract_tb(
                current.__traceback__ if current is not error else tb
            ):
                lines.append(f"  at {Path(frame.filename).name}:{frame.lineno} in {frame.name}")
            current = current.__cause__ or current.__context__
        return "\n".join(lines)

    def formatStack(self, stack_info: str) -> str:  # noqa: N802
        return ""  # a stack dump quotes source lines, and ours never needs one


def log_file(paths: AppPaths) -> Path:
    return paths.log_dir / LOG_NAME


def start_logging(paths: AppPaths, level: int = logging.INFO) -> Path:
    """Send the app's log records to the rotating file (once per process; idempotent)."""
    path = log_file(paths)
    root = logging.getLogger()
    for handler in list(root.handlers):
        if getattr(handler, "desktop_agent_log", None) == str(path):
            return path
        if getattr(handler, "desktop_agent_log", None):  # one log per process: the newest home
            root.removeHandler(handler)
            handler.close()
    paths.log_dir.mkdir(parents=True, exist_ok=True, mode=0o700)
    handler = RotatingFileHandler(
        path, maxBytes=MAX_BYTES, backupCount=BACKUPS, encoding="utf-8", delay=True
    )
    handler.desktop_agent_log = str(path)  # type: ignore[attr-defined]
    handler.setFormatter(PlaintextSafeFormatter(FORMAT))
    handler.addFilter(_ours_or_serious)
    handler.setLevel(level)
    root.addHandler(handler)
    if root.level == logging.NOTSET or root.level > level:
        root.setLevel(level)
    # The file is created on the first record; make it the user's alone from the start.
    if not path.exists():
        path.touch(mode=0o600)
    os.chmod(path, 0o600)
    return path


def stop_logging() -> None:
    """Detach and close the file handlers this module added (tests, and a Lock-all)."""
    root = logging.getLogger()
    for handler in list(root.handlers):
        if getattr(handler, "desktop_agent_log", None):
            root.removeHandler(handler)
            handler.close()


def tail(paths: AppPaths, lines: int = 200) -> list[str]:
    """The last ``lines`` lines of the log (for Help -> Diagnostics)."""
    path = log_file(paths)
    if not path.is_file():
        return []
    with path.open(encoding="utf-8", errors="replace") as file:
        return [line.rstrip("\n") for line in deque(file, maxlen=lines)]


def _ours_or_serious(record: logging.LogRecord) -> bool:
    return record.name.startswith("desktop_agent") or record.levelno >= logging.WARNING
