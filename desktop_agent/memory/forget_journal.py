"""The forget journal: a forget's intent, written before its first destructive step.

A forget deletes rows, ratchets the KEK (destroying data keys), drops the unlock snapshot,
compacts the table and cleans every old Lance version. A crash between any two of those used
to leave the keys gone but the forgotten ciphertext still in data files and old versions, with
nothing to say a forget had begun. Now the intent (which rows, which old versions, which keys:
opaque ids only, never a memory's words) is sealed under the vault's audit key and written
durably first; the next open of the vault reads it and finishes the forget, every step of it,
whatever point the crash hit. The file is removed only after the audit entry is written.

Every step is safe to repeat: deleting rows already gone changes nothing, the ratchet destroys
only keys still present, compaction and version cleanup are idempotent.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from desktop_agent.errors import VaultError
from desktop_agent.memory.crypto import BlobError, open_with_key, seal_with_key
from desktop_agent.memory.files import fsync_path, write_atomic

JOURNAL_NAME = "forget.journal"
_ASSOCIATED = b"desktop-agent forget journal v1"


@dataclass(frozen=True, slots=True)
class ForgetIntent:
    """What one forget destroys (ids and key ids only)."""

    ids: tuple[str, ...]  # memories forgotten whole
    kinds: tuple[str, ...]
    old_rows: tuple[tuple[str, int], ...]  # old versions of rewritten (redacted) memories
    keys: tuple[str, ...]  # data keys to destroy
    redacted: tuple[str, ...] = ()
    rekeyed: int = 0
    everything: bool = False  # forget_all: the whole table and every key but the audit key

    def to_bytes(self) -> bytes:
        return json.dumps(
            {
                "ids": list(self.ids),
                "kinds": list(self.kinds),
                "old_rows": [list(row) for row in self.old_rows],
                "keys": list(self.keys),
                "redacted": list(self.redacted),
                "rekeyed": self.rekeyed,
                "everything": self.everything,
            }
        ).encode()

    @classmethod
    def from_bytes(cls, data: bytes) -> ForgetIntent:
        raw = json.loads(data)
        return cls(
            ids=tuple(str(i) for i in raw["ids"]),
            kinds=tuple(str(k) for k in raw["kinds"]),
            old_rows=tuple((str(m), int(v)) for m, v in raw["old_rows"]),
            keys=tuple(str(k) for k in raw["keys"]),
            redacted=tuple(str(i) for i in raw.get("redacted", ())),
            rekeyed=int(raw.get("rekeyed", 0)),
            everything=bool(raw.get("everything", False)),
        )


def journal_path(directory: Path) -> Path:
    return directory / JOURNAL_NAME


def write(directory: Path, key: bytes, intent: ForgetIntent) -> None:
    """Record the intent durably (the forget's point of no return)."""
    write_atomic(journal_path(directory), seal_with_key(key, intent.to_bytes(), _ASSOCIATED))


def read(directory: Path, key: bytes) -> ForgetIntent | None:
    """The unfinished forget, if a crash left one."""
    path = journal_path(directory)
    if not path.exists():
        return None
    try:
        return ForgetIntent.from_bytes(open_with_key(key, path.read_bytes(), _ASSOCIATED))
    except (BlobError, ValueError, KeyError, TypeError) as error:
        raise VaultError(
            f"an unfinished forget was found but its journal cannot be read ({error}); "
            "nothing was changed: restore the data folder from a backup or report this"
        ) from None


def clear(directory: Path) -> None:
    path = journal_path(directory)
    if path.exists():
        path.unlink()
        fsync_path(directory)


def key_ids(keys: Sequence[str]) -> tuple[str, ...]:
    return tuple(sorted(set(keys)))
