"""The re-encryption journal: the plan of a ``rekey`` (old key id -> new key id), written
before the first row moves so that running it again after a crash finishes the same plan.

Opaque key ids only, sealed under the vault's audit key (as the forget journal is). Removed
after the audit entry of the finished re-encryption.
"""

from __future__ import annotations

import json
from pathlib import Path

from desktop_agent.errors import VaultError
from desktop_agent.memory.crypto import BlobError, open_with_key, seal_with_key
from desktop_agent.memory.files import fsync_path, write_atomic

JOURNAL_NAME = "rekey.journal"
_ASSOCIATED = b"desktop-agent rekey journal v1"


def journal_path(directory: Path) -> Path:
    return directory / JOURNAL_NAME


def write(directory: Path, key: bytes, plan: dict[str, str]) -> None:
    body = json.dumps({"plan": plan}, sort_keys=True).encode()
    write_atomic(journal_path(directory), seal_with_key(key, body, _ASSOCIATED))


def read(directory: Path, key: bytes) -> dict[str, str] | None:
    """The plan of an interrupted re-encryption, if there is one."""
    path = journal_path(directory)
    if not path.exists():
        return None
    try:
        raw = json.loads(open_with_key(key, path.read_bytes(), _ASSOCIATED))
        return {str(old): str(new) for old, new in raw["plan"].items()}
    except (BlobError, ValueError, KeyError, TypeError, AttributeError) as error:
        raise VaultError(
            f"an interrupted re-encryption was found but its journal cannot be read ({error}); "
            "nothing was changed: restore the data folder from a backup or report this"
        ) from None


def clear(directory: Path) -> None:
    path = journal_path(directory)
    if path.exists():
        path.unlink()
        fsync_path(directory)
