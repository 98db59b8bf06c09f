"""One writer per data dir: an exclusive ``flock`` on ``LOCK`` held while the vault is open.

The lock file is created with the vault and never rewritten by a failed open, so a refused
unlock leaves the data dir byte-for-byte as it was. The holder's pid is written after a
successful unlock only to make the second instance's message concrete.
"""

from __future__ import annotations

import fcntl
import os
from pathlib import Path
from typing import Final

from desktop_agent.errors import VaultBusyError, VaultError
from desktop_agent.memory.files import write_blocked

LOCK_FILE: Final = "LOCK"


class WriterLock:
    def __init__(self, directory: Path) -> None:
        self.path = directory / LOCK_FILE
        self._fd: int | None = None
        self.read_only: str | None = None  # why the lock file could only be opened to read

    def acquire(self) -> WriterLock:
        try:
            fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o600)
        except OSError as exc:
            fd = self._open_to_read(exc)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            holder = os.read(fd, 32).decode(errors="replace").strip()
            os.close(fd)
            who = f"process {holder}" if holder.isdigit() else "another process"
            raise VaultBusyError(
                f"the memory vault in {self.path.parent} is in use by {who} "
                "(another desktop-agent window or command); close it and try again"
            ) from None
        self._fd = fd
        return self

    def _open_to_read(self, error: OSError) -> int:
        """On a read-only disk an existing lock file still takes a flock when opened to read:
        the vault then opens read-only."""
        why = write_blocked(error)
        try:
            if why is None:
                raise error
            fd = os.open(self.path, os.O_RDONLY)
        except OSError:
            raise VaultError(
                f"cannot open the vault lock file {self.path}: {error.strerror}"
            ) from None
        self.read_only = why
        return fd

    def note_holder(self) -> None:
        if self._fd is not None and self.read_only is None:
            try:
                os.ftruncate(self._fd, 0)
                os.pwrite(self._fd, str(os.getpid()).encode(), 0)
            except OSError:
                pass  # only makes a second instance's message concrete

    def release(self) -> None:
        if self._fd is not None:
            fcntl.flock(self._fd, fcntl.LOCK_UN)
            os.close(self._fd)
            self._fd = None

    @property
    def held(self) -> bool:
        return self._fd is not None
