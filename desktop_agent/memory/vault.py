"""The vault: encrypted memories on disk, decrypted into RAM at unlock, one writer per data dir.

Reads (get, list, search) are served from RAM. Every write goes through this object under one
lock, is committed to Lance and fsynced before it returns, and is recorded in the audit log.
"""

from __future__ import annotations

import builtins
import logging
import threading
from collections import defaultdict
from collections.abc import Callable, Sequence
from datetime import UTC, datetime
from functools import partial
from pathlib import Path
from types import TracebackType
from typing import Final

import numpy as np
from numpy.typing import NDArray

from desktop_agent.errors import VaultError, VaultLockedError
from desktop_agent.memory import payload as codec
from desktop_agent.memory import snapshot
from desktop_agent.memory.audit import AuditEntry, AuditLog
from desktop_agent.memory.backup import Backups
from desktop_agent.memory.crypto import new_id
from desktop_agent.memory.forget import Forgetting
from desktop_agent.memory.header import Header, read_header
from desktop_agent.memory.index import VaultIndex
from desktop_agent.memory.keystore import AUDIT_SCOPE, KeySource, KeyStore
from desktop_agent.memory.lock import WriterLock
from desktop_agent.memory.migrations import SCHEMA_VERSION, upgrade
from desktop_agent.memory.model import (
    KINDS,
    Damage,
    KeyStatus,
    MemoryId,
    MemoryNotFound,
    MemoryRecord,
    MemoryVersion,
    SearchHit,
    check_kind,
    check_vector,
)
from desktop_agent.memory.permissions import narrow, private_umask
from desktop_agent.memory.read_only import ReadOnly, tidy
from desktop_agent.memory.rekey import Rekeying
from desktop_agent.memory.row_set import CommittedStore, RowSets
from desktop_agent.memory.rows import Loaded, load, open_row
from desktop_agent.memory.store import Store
from desktop_agent.memory.writing import Writing

logger = logging.getLogger(__name__)
RRF_K: Final = (
    60  # reciprocal-rank fusion constant (Cormack et al.); callers may fuse their own way
)


class Vault(Writing, Forgetting, Rekeying, Backups, ReadOnly, RowSets):
    """Encrypted memories of one data dir. Open with ``Vault.open``; close (or use ``with``).

    Writing, forgetting, re-encrypting and backups are verbs of this class too, in writing.py,
    forget.py, rekey.py and backup.py; row_set.py checks the rows against the row log;
    read_only.py holds what unlock leaves for the first write when the disk refuses writes.
    """

    def __init__(
        self, directory: Path, keys: KeyStore, store: Store, lock: WriterLock, dim: int
    ) -> None:
        self.directory = directory
        self.dim = dim
        self._keys = keys
        self._store = store
        self._lock = lock
        self._mutex = threading.RLock()
        self._audit = AuditLog(directory, *self._audit_key())
        self._current: dict[MemoryId, tuple[int, str, bytes]] = {}
        self._older: dict[MemoryId, list[tuple[int, str]]] = {}  # (version, key id), not current
        self._used_keys: set[str] = set()
        self._damage: list[Damage] = []
        self._index = VaultIndex(dim, self._text_of)
        self._snapshot_version: int | None = None
        self._read_only: str | None = lock.read_only  # why writing is off (read_only.py)
        self._unlock_noted = False
        self._narrowed = 0
        # Set by the service that owns this vault: raises unless the caller is inside its one
        # ordered write lane (core/write_lane.py), so a write that skips the lane fails loudly.
        self.writer_guard: Callable[[], None] | None = None

    # --- opening and closing -------------------------------------------------------------

    @classmethod
    def open(cls, directory: Path | str, key_source: KeySource, *, dim: int = 384) -> Vault:
        """Unlock (or create) the vault in ``directory``; a failed unlock changes nothing on disk."""
        directory = Path(directory)
        private_umask()  # every file the vault writes from now on is the user's alone
        directory.mkdir(parents=True, exist_ok=True)
        narrowed = _narrow(directory)
        lock = WriterLock(directory).acquire()  # on a read-only disk: held on a read-only file
        try:
            header = read_header(directory)
            store = CommittedStore(directory)  # writes recorded in the row log (row_set.py)
            if header is None:
                keys = cls._create(directory, key_source, store, dim)
            else:
                cls._check_header(header, key_source, dim)
                keys = KeyStore.unlock(directory, header, key_source)
                # From here on the keys are good, so repairs and upgrades may write.
                if not store.exists():
                    store.create()
                upgrade(directory, keys, store)
                tidy(directory, keys)  # best effort: a full or read-only disk keeps the litter
            vault = cls(directory, keys, store, lock, dim)
            vault._narrowed = len(narrowed)
            vault._open_rows()
            # A forget a crash interrupted is finished before anything is read.
            vault._finish_journaled_forget()
            vault._load()
            # Recovery, repairs and the unlock entry: now, or at the first write if the disk
            # refuses them (then the vault is read-only until it takes writes again).
            vault._settle_at_unlock()
            lock.note_holder()
            return vault
        except BaseException:
            lock.release()
            raise

    @staticmethod
    def _create(directory: Path, key_source: KeySource, store: Store, dim: int) -> KeyStore:
        if any(p.name not in {"LOCK", "db", "keys"} for p in directory.iterdir()):
            raise VaultError(
                f"{directory} holds files but no vault.json: not opening it as a vault"
            )
        if not store.exists():
            store.create()
        now = datetime.now(UTC).isoformat()
        header = Header(new_id(), 1, SCHEMA_VERSION, dim=dim, created_at=now, rotated_at=now)
        return KeyStore.create(directory, header, key_source)

    @staticmethod
    def _check_header(header: Header, key_source: KeySource, dim: int) -> None:
        if header.mode != key_source.mode:
            raise VaultLockedError(
                f"this memory vault keeps its key by {header.mode}, not {key_source.mode}: "
                f'set key_mode = "{header.mode}" under [security] in settings.toml'
            )
        if header.dim != dim:
            raise VaultError(f"this memory vault holds {header.dim}-d vectors, not {dim}-d")
        if header.schema_version > SCHEMA_VERSION:
            raise VaultError(
                f"this memory vault was written by a newer desktop-agent (schema "
                f"{header.schema_version}, this one knows {SCHEMA_VERSION}): upgrade desktop-agent"
            )

    def close(self) -> None:
        """Write the unlock snapshot if the vault changed, then release the writer lock."""
        with self._mutex:
            if not self._lock.held:
                return
            try:
                if self._read_only is None:
                    self._save_snapshot()
            except VaultError:
                snapshot.discard(self.directory)  # only a speed-up: a full unlock still works
            finally:
                self._lock.release()
                self._wipe()

    def _wipe(self) -> None:
        """Closed means locked: no key and no decrypted memory stays reachable from here, and
        the index no longer points back at the vault (that cycle kept both alive after Lock
        once the GUI had frozen the collector)."""
        self._keys.wipe()
        self._current.clear()
        self._older.clear()
        self._index = VaultIndex(self.dim, _closed)

    def _save_snapshot(self) -> None:
        version = self._store.dataset().version
        if version == self._snapshot_version or len(self) < snapshot.MIN_ROWS or self._damage:
            return
        ids = list(self._index.ids)
        state = Loaded(
            ids=ids,  # type: ignore[arg-type]
            versions=[self._current[i][0] for i in ids],  # type: ignore[index]
            key_ids=[self._current[i][1] for i in ids],  # type: ignore[index]
            records=[self._current[i][2] for i in ids],  # type: ignore[index]
            older=self._older,
            rows_digest=self._rows_digest(),  # the row log this state was checked against
        )
        snapshot.write(self.directory, self._keys, version, state, self._index.vectors.matrix)
        self._snapshot_version = version

    def __enter__(self) -> Vault:
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.close()

    def _check_open(self) -> None:
        if not self._lock.held:
            raise VaultError("the memory vault is closed")

    def _check_writing(self) -> None:
        self._check_open()
        if self.writer_guard is not None:
            self.writer_guard()
        self._check_writable()

    def _audit_key(self) -> tuple[str, bytes]:
        key_id = self._keys.scope_key(AUDIT_SCOPE)
        if key_id is None:
            raise VaultError("the vault's audit key is missing from its keystore")
        return key_id, self._keys.raw_key(key_id)

    # --- loading -------------------------------------------------------------------------

    def _load(self) -> None:
        version = self._store.dataset().version
        loaded = snapshot.load(self.directory, self._keys, version, self.dim)
        self._snapshot_version = version if loaded is not None else None
        if loaded is None:
            snapshot.discard(self.directory)
            loaded = load(self._store.read(), self._keys, self.dim)
        self._current = {
            memory_id: (version, key_id, record)
            for memory_id, version, key_id, record in zip(
                loaded.ids, loaded.versions, loaded.key_ids, loaded.records, strict=True
            )
        }
        self._older = loaded.older
        self._used_keys = loaded.used_keys
        self._damage = [*self._keys.damage, *self._store.damage, *loaded.damage]
        self._damage += self._check_rows(loaded)  # rows missing or rolled back (row_set.py)
        self._index = VaultIndex(self.dim, self._text_of)
        self._index.load(loaded.ids, loaded.vectors, [record[0] for record in loaded.records])

    # --- reading -------------------------------------------------------------------------

    def __len__(self) -> int:
        return len(self._current)

    def __contains__(self, memory_id: object) -> bool:
        return memory_id in self._current

    @property
    def index(self) -> VaultIndex:
        """The in-RAM HybridIndex (read it under ``vault.lock`` if another thread writes)."""
        return self._index

    @property
    def lock(self) -> threading.RLock:
        return self._mutex

    @property
    def damaged(self) -> tuple[Damage, ...]:
        """Rows and files that could not be read at unlock (the rest of the vault is fine)."""
        return tuple(self._damage)

    def get(self, memory_id: str) -> MemoryRecord:
        entry = self._current.get(MemoryId(memory_id))
        if entry is None:
            raise MemoryNotFound(f"no memory with id {memory_id!r}")
        return codec.decode_record(memory_id, entry[0], entry[2])

    def list(
        self, kind: str | None = None, conversation_id: str | None = None
    ) -> list[MemoryRecord]:
        """Current memories, oldest first, optionally of one kind or one conversation."""
        code = codec.KIND_CODES[check_kind(kind)] if kind else None
        records = [
            codec.decode_record(memory_id, version, record)
            for memory_id, (version, _key, record) in list(self._current.items())
            if (code is None or record[0] == code)
            and (conversation_id is None or codec.conversation_of(record) == conversation_id)
        ]
        records.sort(key=lambda r: (r.created_at, r.id))
        return records

    def history(self, memory_id: str) -> builtins.list[MemoryVersion]:
        """Every readable version, oldest first; the last one is the current text."""
        if not self.known(memory_id):
            raise MemoryNotFound(f"no memory with id {memory_id!r}")
        table = self._store.read(ids=[memory_id])
        current = self._current.get(MemoryId(memory_id), (0, "", b""))[0]
        versions = []
        for row in table.to_pylist():
            plain = open_row(
                self._keys, row["memory_id"], row["version"], row["key_id"], row["blob"]
            )
            if plain is None:
                continue
            record = codec.decode_record(
                memory_id, row["version"], codec.record_part(plain, self.dim)
            )
            versions.append(
                MemoryVersion(
                    record.id,
                    row["version"],
                    record.kind,
                    record.text,
                    record.meta,
                    record.updated_at,
                    row["version"] == current,
                )
            )
        return sorted(versions, key=lambda v: v.version)

    def search(
        self,
        query_vector: NDArray[np.float32] | None,
        query_text: str | None,
        k: int = 10,
        kind: str | None = None,
    ) -> builtins.list[SearchHit]:
        """Exact cosine and BM25 in RAM, fused by reciprocal rank; both raw scores kept."""
        with self._mutex:
            if len(self._index) == 0 or k <= 0:
                return []
            mask = self._index.kind_mask(codec.KIND_CODES[check_kind(kind)]) if kind else None
            lists: list[list[str]] = []
            vector_scores = keyword_scores = None
            if query_vector is not None:
                vector_scores = self._index.vector_scores(check_vector(query_vector, self.dim))
                lists.append([hit.id for hit in self._index.top(vector_scores, k, mask)])
            if query_text and query_text.strip():
                keyword_scores = self._index.keyword_scores(query_text)
                matched = keyword_scores > 0
                lists.append(
                    [
                        hit.id
                        for hit in self._index.top(
                            keyword_scores, k, matched if mask is None else mask & matched
                        )
                    ]
                )
            fused: dict[str, float] = defaultdict(float)
            for ranked in lists:
                for rank, doc_id in enumerate(ranked):
                    fused[doc_id] += 1.0 / (RRF_K + rank + 1)
            best = sorted(fused.items(), key=lambda item: -item[1])[:k]
            return [
                self._hit(doc_id, score, vector_scores, keyword_scores) for doc_id, score in best
            ]

    def _hit(
        self,
        doc_id: str,
        score: float,
        vs: NDArray[np.float32] | None,
        ks: NDArray[np.float32] | None,
    ) -> SearchHit:
        slot = self._index.slot(doc_id)
        version, _key, record = self._current[MemoryId(doc_id)]
        return SearchHit(
            MemoryId(doc_id),
            score,
            float(vs[slot]) if vs is not None else 0.0,
            float(ks[slot]) if ks is not None else 0.0,
            partial(codec.decode_record, doc_id, version, record),
        )

    def warm(self) -> None:
        """Build the keyword index now (e.g. on a background thread right after unlock)."""
        with self._mutex:
            self._index.warm()

    def status(self) -> KeyStatus:
        header = self._keys.header
        return KeyStatus(
            mode=header.mode,
            backend=self._keys.describe_source(),
            epoch=header.epoch,
            data_keys=len(self._keys),
            memories=len(self),
            vault_id=header.vault_id,
            schema_version=header.schema_version,
            damaged=len(self._damage),
            extra={
                "rotated_at": header.rotated_at,
                "created_at": header.created_at,
                "read_only": self._read_only,
                # Passphrase mode: a copy of the folder carries its own wrapped KEK, which the
                # same passphrase opens, so forgetting cannot reach copies made before it.
                # Not with a secret outside the folder, ratcheted by every forget.
                "forget_reaches_copies": header.mode != "passphrase"
                or bool(header.key.get("outside")),
                "rekey_unfinished": self.rekey_unfinished,  # `keys rotate --rekey` finishes it
                "row_set": self.row_set_note,  # memories missing from the store, or None
                "key_files": [
                    *self._keys.notes,
                    *(f"{d.where}: {d.reason}" for d in self._keys.damage),
                ],
            },
        )

    def audit_entries(self) -> builtins.list[AuditEntry]:
        """The audit log, oldest first; entries after a break in the chain are marked unverified."""
        with self._mutex:
            return list(self._audit.entries())

    def _text_of(self, memory_id: str) -> str:
        return codec.text_of(self._current[MemoryId(memory_id)][2])

    def _forget_in_ram(self, ids: Sequence[MemoryId]) -> None:
        for memory_id in ids:
            self._older.pop(memory_id, None)
            self._current.pop(memory_id, None)
        self._damage = [d for d in self._damage if d.memory_id not in set(ids)]
        self._index.drop(ids)

    def known(self, memory_id: str) -> bool:
        """True for a current memory, and for one whose newest row is damaged (it can be forgotten)."""
        return memory_id in self._current or memory_id in self._older

    def versions_of(self, memory_id: str) -> builtins.list[tuple[int, str]]:
        """(version, key id) of every stored row of a memory, oldest first."""
        rows = list(self._older.get(MemoryId(memory_id), []))
        current = self._current.get(MemoryId(memory_id))
        if current is not None:
            rows.append((current[0], current[1]))
        return rows

    def kind_of(self, memory_id: str) -> str:
        entry = self._current.get(MemoryId(memory_id))
        return KINDS[entry[2][0]] if entry else "unknown"


def _narrow(directory: Path) -> list[Path]:
    try:
        return narrow(directory)
    except OSError as exc:  # a read-only disk: the modes stay as they are
        logger.warning("cannot narrow the vault's permissions: %s", exc.__class__.__name__)
        return []


def _closed(memory_id: str) -> str:
    raise VaultError("the vault is locked: unlock it to read memories")
