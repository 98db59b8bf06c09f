"""Small durable-file helpers: atomic replace, fsync of files and of the folders that name them."""

from __future__ import annotations

import errno
import logging
import os
from pathlib import Path

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


def disk_error(exc: BaseException, what: str) -> VaultError:
    """A one-line VaultError for an OS error, with the fix for the common case (disk full)."""
    code = getattr(exc, "errno", None)
    if code == errno.ENOSPC or "No space left" in str(exc):
        return VaultError(
            f"{what}: the disk is full; nothing was saved. Free some space and try again"
        )
    if code in (errno.EACCES, errno.EPERM, errno.EROFS):
        return VaultError(
            f"{what}: permission denied ({exc.__class__.__name__}); check the data folder"
        )
    return VaultError(f"{what}: {exc}")
