"""The vault: encrypted memories on disk, decrypted into RAM at unlock, one writer per data dir.

Reads (get, list, search) are served from RAM. Every write goes through this object under one
lock, is committed to Lance and fsynced before it returns, and is recorded in the audit log.
"""

from __future__ import annotations

import threading
from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from datetime import UTC, datetime
from pathlib import Path
from types import TracebackType
from typing import Any, Final

import numpy as np
from numpy.typing import NDArray

from desktop_agent.errors import InputError, VaultError, VaultLockedError
from desktop_agent.memory import payload as codec
from desktop_agent.memory import snapshot
from desktop_agent.memory.audit import AuditEntry, AuditLog, AuditReport
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
    NewMemory,
    SearchHit,
    check_kind,
    check_optional_id,
    check_text,
    check_vector,
    meta_to_json,
)
from desktop_agent.memory.rows import Loaded, load, open_row, seal_row
from desktop_agent.memory.store import Store, arrow_rows

RRF_K: Final = (
    60  # reciprocal-rank fusion constant (Cormack et al.); callers may fuse their own way
)


class Vault(Forgetting, Backups):
    """Encrypted memories of one data dir. Open with ``Vault.open``; close (or use ``with``).

    Forgetting and backups are verbs of this class too, written in forget.py and backup.py.
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

    # --- opening and closing -------------------------------------------------------------

    @classmethod
    def open(cls, directory: Path | str, key_source: KeySource, *, dim: int = 384) -> Vault:
        """Unlock (or create) the vault in ``directory``; a failed unlock changes nothing on disk."""
        directory = Path(directory)
        directory.mkdir(parents=True, exist_ok=True)
        lock = WriterLock(directory).acquire()
        try:
            header = read_header(directory)
            store = Store(directory)
            if header is None:
                keys = cls._create(directory, key_source, store, dim)
            else:
                cls._check_header(header, key_source, dim)
                keys = KeyStore.unlock(directory, header, key_source)
                # From here on the keys are good, so repairs and upgrades may write.
                if not store.exists():
                    store.create()
                upgrade(directory, keys, store)
                keys.remove_stale_files()
            vault = cls(directory, keys, store, lock, dim)
            vault._load()
            vault._recover_unfinished_forget()
            vault._audit.append("unlock", count=len(vault), epoch=keys.epoch)
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
                self._save_snapshot()
            except VaultError:
                snapshot.discard(self.directory)  # only a speed-up: a full unlock still works
            finally:
                self._lock.release()

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
        self._damage = [*self._store.damage, *loaded.damage]
        self._index = VaultIndex(self.dim, self._text_of)
        self._index.load(loaded.ids, loaded.vectors, [record[0] for record in loaded.records])

    def _recover_unfinished_forget(self) -> None:
        """Keys no row uses are left by a crash mid-forget (or a failed add): finish the job."""
        if self._store.damaged_fragments():
            return  # rows we cannot read may still need their keys: destroy nothing
        used = {
            *self._used_keys,
            self._audit_key()[0],
            self._keys.scope_key(snapshot.SNAPSHOT_SCOPE),
        }
        orphans = [key_id for key_id in self._keys.ids() if key_id not in used]
        if orphans:
            # A snapshot written before the crash may hold what was being forgotten: its key goes too.
            stale = self._keys.scope_key(snapshot.SNAPSHOT_SCOPE)
            epoch = self._keys.ratchet([*orphans, *([stale] if stale else [])])
            snapshot.discard(self.directory)
            self._snapshot_version = None
            self._store.compact_and_purge()
            self._audit.append(
                "recover", count=len(orphans), epoch=epoch, keys_destroyed=len(orphans)
            )

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

    @property
    def epoch(self) -> int:
        return self._keys.epoch

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

    def history(self, memory_id: str) -> list[MemoryVersion]:
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
    ) -> list[SearchHit]:
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
        return SearchHit(
            MemoryId(doc_id),
            score,
            float(vs[slot]) if vs is not None else 0.0,
            float(ks[slot]) if ks is not None else 0.0,
            self.get(doc_id),
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
            extra={"rotated_at": header.rotated_at, "created_at": header.created_at},
        )

    def audit_entries(self) -> list[AuditEntry]:
        """The audit log, oldest first (up to the first broken link, if any)."""
        with self._mutex:
            return list(self._audit.entries())

    def verify_audit(self) -> AuditReport:
        with self._mutex:
            return self._audit.verify()

    def _text_of(self, memory_id: str) -> str:
        return codec.text_of(self._current[MemoryId(memory_id)][2])

    # --- writing -------------------------------------------------------------------------

    def add(
        self,
        kind: str,
        text: str,
        *,
        vector: NDArray[np.float32] | Sequence[float],
        meta: Mapping[str, Any] | None = None,
        conversation_id: str | None = None,
        source_id: str | None = None,
        created_at: datetime | None = None,
    ) -> MemoryRecord:
        item = NewMemory(
            kind, text, np.asarray(vector, np.float32), meta, conversation_id, source_id, created_at
        )
        return self.add_many([item])[0]

    def add_many(self, items: Sequence[NewMemory]) -> list[MemoryRecord]:
        """Add memories in one Lance commit (bulk import of 10k+ rows is one call)."""
        with self._mutex:
            self._check_open()
            if not items:
                return []
            now = datetime.now(UTC)
            checked = [self._checked(item, now) for item in items]
            key_ids = self._keys_for([(kind, conv) for kind, _t, _v, _m, conv, _s, _c in checked])
            ids = [MemoryId(new_id()) for _ in checked]
            payloads = [
                codec.encode(vector, kind, text, meta, created, created, conv, source)
                for kind, text, vector, meta, conv, source, created in checked
            ]
            blobs = [
                seal_row(self._keys, i, 1, k, p)
                for i, k, p in zip(ids, key_ids, payloads, strict=True)
            ]
            self._store.append(arrow_rows(ids, [1] * len(ids), key_ids, blobs))
            records = [codec.record_part(p, self.dim) for p in payloads]
            for memory_id, key_id, record in zip(ids, key_ids, records, strict=True):
                self._remember(memory_id, 1, key_id, record)
            vectors = np.stack([c[2] for c in checked])
            self._index.put(ids, [c[1] for c in checked], vectors, [r[0] for r in records])
            kinds = [c[0] for c in checked]
            self._audit.append("add", ids=ids, kinds=kinds, epoch=self.epoch)
            self._store.maintain()
            return [codec.decode_record(i, 1, r) for i, r in zip(ids, records, strict=True)]

    def update(
        self,
        memory_id: str,
        *,
        text: str | None = None,
        meta: Mapping[str, Any] | None = None,
        vector: NDArray[np.float32] | Sequence[float] | None = None,
        kind: str | None = None,
    ) -> MemoryRecord:
        """Write a new version; the old one stays in ``history`` until the memory is forgotten."""
        with self._mutex:
            self._check_open()
            old = self.get(memory_id)
            if (
                text is None
                and meta is None
                and vector is None
                and (kind is None or kind == old.kind)
            ):
                return old
            new_kind = check_kind(kind) if kind is not None else old.kind
            new_text = check_text(text) if text is not None else old.text
            meta_json = meta_to_json(meta if meta is not None else old.meta)
            slot = self._index.slot(memory_id)
            vec = (
                check_vector(vector, self.dim)
                if vector is not None
                else self._index.vectors.matrix[slot].copy()
            )
            (key_id,) = self._keys_for(
                [(new_kind, old.conversation_id)], reuse=self._current[old.id][1]
            )
            version = max(v for v, _k in self.versions_of(old.id)) + 1
            now = datetime.now(UTC)
            plain = codec.encode(
                vec,
                new_kind,
                new_text,
                meta_json,
                old.created_at,
                now,
                old.conversation_id,
                old.source_id,
            )
            blob = seal_row(self._keys, old.id, version, key_id, plain)
            self._store.append(arrow_rows([old.id], [version], [key_id], [blob]))
            record = codec.record_part(plain, self.dim)
            self._remember(old.id, version, key_id, record)
            self._index.put([old.id], [new_text], vec[None, :], [record[0]])
            self._audit.append(
                "edit", ids=[old.id], kinds=[new_kind], epoch=self.epoch, version=version
            )
            self._store.maintain()
            return codec.decode_record(old.id, version, record)

    def _checked(
        self, item: NewMemory, now: datetime
    ) -> tuple[str, str, NDArray[np.float32], str, str | None, str | None, datetime]:
        created = item.created_at or now
        if created.tzinfo is None:
            raise InputError("created_at must be timezone-aware")
        return (
            check_kind(item.kind),
            check_text(item.text),
            check_vector(item.vector, self.dim),
            meta_to_json(item.meta),
            check_optional_id(item.conversation_id, "conversation_id"),
            check_optional_id(item.source_id, "source_id"),
            created,
        )

    def _keys_for(
        self, wants: Iterable[tuple[str, str | None]], *, reuse: str | None = None
    ) -> list[str]:
        """The DEK for each (kind, conversation): episodic memories share their conversation's
        key; every other memory has a key of its own, kept across its edits (``reuse``)."""
        scopes: list[str] = []  # keys to make: "conv:<id>", or "" for a key of its own
        pending: dict[str, int] = {}
        plan: list[str | int] = []
        for kind, conversation in wants:
            if kind == "episodic" and conversation:
                scope = f"conv:{conversation}"
                existing = self._keys.scope_key(scope)
                if existing is None and scope not in pending:
                    pending[scope] = len(scopes)
                    scopes.append(scope)
                plan.append(existing if existing is not None else pending[scope])
            elif reuse is not None and not self._keys.scope_of(reuse):
                plan.append(reuse)
            else:
                plan.append(len(scopes))
                scopes.append("")
        made = self._keys.new_keys(scopes)
        return [step if isinstance(step, str) else made[step] for step in plan]

    def _remember(self, memory_id: MemoryId, version: int, key_id: str, record: bytes) -> None:
        previous = self._current.get(memory_id)
        if previous is not None:
            self._older.setdefault(memory_id, []).append(previous[:2])  # type: ignore[arg-type]
        self._current[memory_id] = (version, key_id, record)

    def _forget_in_ram(self, ids: Sequence[MemoryId]) -> None:
        for memory_id in ids:
            self._older.pop(memory_id, None)
            self._current.pop(memory_id, None)
        self._damage = [d for d in self._damage if d.memory_id not in set(ids)]
        self._index.drop(ids)

    def known(self, memory_id: str) -> bool:
        """True for a current memory, and for one whose newest row is damaged (it can be forgotten)."""
        return memory_id in self._current or memory_id in self._older

    def versions_of(self, memory_id: str) -> list[tuple[int, str]]:
        """(version, key id) of every stored row of a memory, oldest first."""
        rows = list(self._older.get(MemoryId(memory_id), []))
        current = self._current.get(MemoryId(memory_id))
        if current is not None:
            rows.append((current[0], current[1]))
        return rows

    def kind_of(self, memory_id: str) -> str:
        entry = self._current.get(MemoryId(memory_id))
        return KINDS[entry[2][0]] if entry else "unknown"
