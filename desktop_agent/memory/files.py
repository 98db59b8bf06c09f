"""Small durable-file helpers: atomic replace, fsync of files and of the folders that name them."""

from __future__ import annotations

import contextlib
import errno
import logging
import os
from pathlib import Path
from typing import Final

from desktop_agent.errors import VaultError

logger = logging.getLogger(__name__)


def fsync_path(path: Path) -> None:
    flags = os.O_RDONLY | (os.O_DIRECTORY if path.is_dir() else 0)
    fd = os.open(path, flags)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def write_atomic(path: Path, data: bytes) -> None:
    """Replace ``path`` with ``data`` so a crash leaves either the old or the new file."""
    tmp = path.with_name(f".{path.name}.tmp")
    try:
        with open(tmp, "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(tmp, path)
        fsync_path(path.parent)
    except OSError as exc:
        with contextlib.suppress(OSError):  # a read-only disk refuses this too
            tmp.unlink(missing_ok=True)
        raise disk_error(exc, f"cannot write {path.name}") from None


def remove_temporaries(directory: Path) -> list[str]:
    """Delete the ``.<name>.tmp`` files ``write_atomic`` leaves in ``directory`` when the process
    dies between writing one and renaming it (a ``.vault.json.tmp`` holds the next epoch's key
    parameters, in passphrase mode its wrapped KEK). Only safe under the writer lock; returns
    the names removed. Best effort: a read-only folder keeps them until it is writable."""
    removed = []
    for path in directory.glob(".*.tmp"):
        try:
            path.unlink()
        except FileNotFoundError:
            continue
        except OSError as exc:
            logger.warning("cannot remove a temporary file: %s", exc.__class__.__name__)
            continue
        removed.append(path.name)
    return removed


def append_durable(path: Path, data: bytes) -> None:
    """Append ``data`` and fsync; the caller acknowledges only after this returns."""
    new = not path.exists()
    try:
        with open(path, "ab") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        if new:
            fsync_path(path.parent)
    except OSError as exc:
        raise disk_error(exc, f"cannot write {path.name}") from None


class DiskWriteError(VaultError):
    """The disk refused a write: full, read-only, or not ours to write (``why`` says which)."""

    def __init__(self, message: str, why: str) -> None:
        super().__init__(message)
        self.why = why


# errno -> why writing is off; Lance (Rust) reports the same errors as "... (os error N)".
_BLOCKED: Final = {
    errno.ENOSPC: "the disk is full",
    errno.EDQUOT: "the disk quota is used up",
    errno.EROFS: "the data folder is on a read-only disk",
    errno.EACCES: "the data folder is not writable (permission denied)",
    errno.EPERM: "the data folder is not writable (permission denied)",
}


def write_blocked(exc: BaseException) -> str | None:
    """Why the disk refused a write (full, read-only, permission), or None for anything else
    (a damaged file, a bug): only these mean "go on read-only, try again later"."""
    code = getattr(exc, "errno", None)
    if code in _BLOCKED:
        return _BLOCKED[code]
    if isinstance(exc, DiskWriteError):
        return exc.why
    text = str(exc)
    if "No space left" in text:
        return _BLOCKED[errno.ENOSPC]
    for number, why in _BLOCKED.items():
        if f"(os error {number})" in text:
            return why
    return None


def disk_error(exc: BaseException, what: str) -> VaultError:
    """A one-line VaultError for an OS error, with the fix for the common case (disk full)."""
    why = write_blocked(exc)
    if why == _BLOCKED[errno.ENOSPC]:
        return DiskWriteError(
            f"{what}: the disk is full; nothing was saved. Free some space and try again", why
        )
    if why is not None:
        return DiskWriteError(f"{what}: {why}; nothing was saved", why)
    return VaultError(f"{what}: {exc}")
