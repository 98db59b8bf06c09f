"""Adding and editing memories (a part of ``Vault``).

Each write picks the data key (``_keys_for``), seals one row, commits it to Lance (fsynced),
then updates RAM and the audit log, in that order: if the commit fails, nothing in RAM moved.
"""

from __future__ import annotations

import threading
from collections.abc import Iterable, Mapping, Sequence
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

import numpy as np
from numpy.typing import NDArray

from desktop_agent.errors import InputError
from desktop_agent.memory import payload as codec
from desktop_agent.memory.crypto import new_id
from desktop_agent.memory.model import (
    MemoryId,
    MemoryRecord,
    NewMemory,
    check_kind,
    check_optional_id,
    check_text,
    check_vector,
    meta_to_json,
)
from desktop_agent.memory.rows import seal_row
from desktop_agent.memory.store import arrow_rows

if TYPE_CHECKING:
    from desktop_agent.memory.audit import AuditLog
    from desktop_agent.memory.index import VaultIndex
    from desktop_agent.memory.keystore import KeyStore
    from desktop_agent.memory.store import Store


class Writing:
    """add, add_many and update, mixed into Vault."""

    _keys: KeyStore
    _store: Store
    _audit: AuditLog
    _index: VaultIndex
    _mutex: threading.RLock
    _current: dict[MemoryId, tuple[int, str, bytes]]
    _older: dict[MemoryId, list[tuple[int, str]]]
    dim: int

    @property
    def epoch(self) -> int:
        return self._keys.epoch

    if TYPE_CHECKING:  # provided by Vault (stubs only for the type checker)

        def _check_open(self) -> None: ...
        def _check_writing(self) -> None: ...
        def get(self, memory_id: str) -> MemoryRecord: ...
        def versions_of(self, memory_id: str) -> list[tuple[int, str]]: ...

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
            self._check_writing()
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
        keep_history: bool = True,
    ) -> MemoryRecord:
        """Write a new version; the old one stays in ``history`` until the memory is forgotten,
        unless ``keep_history`` is False (bookkeeping such as use counts, whose old versions
        would pile up one per write): then the older versions' rows are deleted."""
        with self._mutex:
            self._check_writing()
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
            if not keep_history:
                older = self._older.pop(old.id, [])
                self._store.delete_rows([(str(old.id), v) for v, _key in older])
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
            self._older.setdefault(memory_id, []).append((previous[0], previous[1]))
        self._current[memory_id] = (version, key_id, record)
