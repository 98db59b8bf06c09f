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

LOCK_FILE: Final = "LOCK"


class WriterLock:
    def __init__(self, directory: Path) -> None:
        self.path = directory / LOCK_FILE
        self._fd: int | None = None

    def acquire(self) -> WriterLock:
        try:
            fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o600)
        except OSError as exc:
            raise VaultError(
                f"cannot open the vault lock file {self.path}: {exc.strerror}"
            ) from None
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

    def note_holder(self) -> None:
        if self._fd is not None:
            os.ftruncate(self._fd, 0)
            os.pwrite(self._fd, str(os.getpid()).encode(), 0)

    def release(self) -> None:
        if self._fd is not None:
            fcntl.flock(self._fd, fcntl.LOCK_UN)
            os.close(self._fd)
            self._fd = None

    @property
    def held(self) -> bool:
        return self._fd is not None
