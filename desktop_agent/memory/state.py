"""What the parts of a ``Vault`` share: its folder, keys, table, audit log and lock, and the
memories decrypted into RAM.

Each part (writing.py, forget.py, rekey.py, backup.py, read_only.py, row_set.py, reading.py,
loading.py) takes this object in its constructor and changes it only under ``mutex``. The small
operations on the rows in RAM that more than one part needs live here, so no part reaches into
another.
"""

from __future__ import annotations

import threading
from collections.abc import Sequence
from pathlib import Path

from desktop_agent.errors import VaultError
from desktop_agent.memory import payload as codec
from desktop_agent.memory import snapshot
from desktop_agent.memory.audit import AuditLog
from desktop_agent.memory.index import VaultIndex
from desktop_agent.memory.keystore import AUDIT_SCOPE, KeyStore
from desktop_agent.memory.model import KINDS, Damage, MemoryId, MemoryNotFound, MemoryRecord
from desktop_agent.memory.store import Store

Current = dict[MemoryId, tuple[int, str, bytes]]  # id -> (version, key id, record part)
Older = dict[MemoryId, list[tuple[int, str]]]  # id -> (version, key id) of each row not current


class VaultState:
    """One vault's keys, table, audit log, lock and rows in RAM (a plain holder, no verbs of
    its own beyond bookkeeping)."""

    def __init__(self, directory: Path, keys: KeyStore, store: Store, dim: int) -> None:
        self.directory = directory
        self.dim = dim
        self.keys = keys
        self.store = store
        self.mutex = threading.RLock()
        self.audit = AuditLog(directory, *self.audit_key())
        self.current: Current = {}
        self.older: Older = {}
        self.used_keys: set[str] = set()
        self.damage: list[Damage] = []
        self.index = VaultIndex(dim, self.text_of)
        self.snapshot_version: int | None = None  # the table version the unlock snapshot holds

    def audit_key(self) -> tuple[str, bytes]:
        key_id = self.keys.scope_key(AUDIT_SCOPE)
        if key_id is None:
            raise VaultError("the vault's audit key is missing from its keystore")
        return key_id, self.keys.raw_key(key_id)

    # --- the rows in RAM -----------------------------------------------------------------

    def record(self, memory_id: str) -> MemoryRecord:
        entry = self.current.get(MemoryId(memory_id))
        if entry is None:
            raise MemoryNotFound(f"no memory with id {memory_id!r}")
        return codec.decode_record(memory_id, entry[0], entry[2])

    def text_of(self, memory_id: str) -> str:
        return codec.text_of(self.current[MemoryId(memory_id)][2])

    def known(self, memory_id: str) -> bool:
        """True for a current memory, and for one whose newest row is damaged (it can be forgotten)."""
        return memory_id in self.current or memory_id in self.older

    def versions_of(self, memory_id: str) -> list[tuple[int, str]]:
        """(version, key id) of every stored row of a memory, oldest first."""
        rows = list(self.older.get(MemoryId(memory_id), []))
        current = self.current.get(MemoryId(memory_id))
        if current is not None:
            rows.append((current[0], current[1]))
        return rows

    def kind_of(self, memory_id: str) -> str:
        entry = self.current.get(MemoryId(memory_id))
        return KINDS[entry[2][0]] if entry else "unknown"

    def remember(self, memory_id: MemoryId, version: int, key_id: str, record: bytes) -> None:
        """A new current version (the one it replaces becomes an older row)."""
        previous = self.current.get(memory_id)
        if previous is not None:
            self.older.setdefault(memory_id, []).append((previous[0], previous[1]))
        self.current[memory_id] = (version, key_id, record)

    def move_key(self, memory_id: MemoryId, version: int, key_id: str) -> None:
        """One row re-encrypted: it is under ``key_id`` now."""
        history = self.older.get(memory_id, [])
        for at, (v, _old) in enumerate(history):
            if v == version:
                history[at] = (v, key_id)
        current = self.current.get(memory_id)
        if current is not None and current[0] == version:
            self.current[memory_id] = (version, key_id, current[2])

    def drop(self, ids: Sequence[MemoryId]) -> None:
        """Forget ``ids`` in RAM (every version, their damage and their index entries)."""
        for memory_id in ids:
            self.older.pop(memory_id, None)
            self.current.pop(memory_id, None)
        self.damage = [d for d in self.damage if d.memory_id not in set(ids)]
        self.index.drop(ids)

    # --- the unlock snapshot -------------------------------------------------------------

    def snapshot_keys(self) -> set[str]:
        key_id = self.keys.scope_key(snapshot.SNAPSHOT_SCOPE)
        return {key_id} if key_id else set()

    def drop_snapshot(self) -> None:
        """Its key is gone already (same ratchet); the file is now noise: delete it."""
        snapshot.discard(self.directory)
        self.snapshot_version = None

    def wipe(self) -> None:
        """Closed means locked: no key and no decrypted memory stays reachable from here, and
        the index no longer points back at this state (that cycle kept the vault alive after
        Lock once the GUI had frozen the collector)."""
        self.keys.wipe()
        self.current.clear()
        self.older.clear()
        self.index = VaultIndex(self.dim, _closed)


def _closed(memory_id: str) -> str:
    raise VaultError("the vault is locked: unlock it to read memories")
