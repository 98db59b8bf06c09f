"""Adding and editing memories (``Writer``, a part of ``Vault``).

Each write picks the data key (``keys_for``), seals one row, commits it to Lance (fsynced),
then updates RAM and the audit log, in that order: if the commit fails, nothing in RAM moved.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
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
    from desktop_agent.memory.read_only import ReadOnlyGuard
    from desktop_agent.memory.state import VaultState


@dataclass(frozen=True, slots=True)
class Edit:
    """What an update changes; None keeps what the memory has."""

    text: str | None = None
    meta: Mapping[str, Any] | None = None
    vector: NDArray[np.float32] | Sequence[float] | None = None
    kind: str | None = None


class Writer:
    """Adding and editing memories: a part of Vault."""

    def __init__(self, state: VaultState, guard: ReadOnlyGuard) -> None:
        self._state = state
        self._guard = guard

    def add_many(self, items: Sequence[NewMemory]) -> list[MemoryRecord]:
        """Seal every item, commit them in one append, then update RAM and the audit log."""
        state = self._state
        with state.mutex:
            self._guard.check_writing()
            if not items:
                return []
            now = datetime.now(UTC)
            checked = [self._checked(item, now) for item in items]
            key_ids = self.keys_for([(kind, conv) for kind, _t, _v, _m, conv, _s, _c in checked])
            ids = [MemoryId(new_id()) for _ in checked]
            payloads = [
                codec.encode(vector, kind, text, meta, created, created, conv, source)
                for kind, text, vector, meta, conv, source, created in checked
            ]
            blobs = [
                seal_row(state.keys, i, 1, k, p)
                for i, k, p in zip(ids, key_ids, payloads, strict=True)
            ]
            state.store.append(arrow_rows(ids, [1] * len(ids), key_ids, blobs))
            records = [codec.record_part(p, state.dim) for p in payloads]
            for memory_id, key_id, record in zip(ids, key_ids, records, strict=True):
                state.remember(memory_id, 1, key_id, record)
            vectors = np.stack([c[2] for c in checked])
            state.index.put(ids, [c[1] for c in checked], vectors, [r[0] for r in records])
            kinds = [c[0] for c in checked]
            state.audit.append("add", ids=ids, kinds=kinds, epoch=state.keys.epoch)
            state.store.maintain()
            return [codec.decode_record(i, 1, r) for i, r in zip(ids, records, strict=True)]

    def update(self, memory_id: str, edit: Edit, *, keep_history: bool = True) -> MemoryRecord:
        """A new version of ``memory_id`` with ``edit`` applied (none if it changes nothing)."""
        state = self._state
        with state.mutex:
            self._guard.check_writing()
            old = state.record(memory_id)
            if (
                edit.text is None
                and edit.meta is None
                and edit.vector is None
                and (edit.kind is None or edit.kind == old.kind)
            ):
                return old
            new_kind = check_kind(edit.kind) if edit.kind is not None else old.kind
            new_text = check_text(edit.text) if edit.text is not None else old.text
            meta_json = meta_to_json(edit.meta if edit.meta is not None else old.meta)
            slot = state.index.slot(memory_id)
            vec = (
                check_vector(edit.vector, state.dim)
                if edit.vector is not None
                else state.index.vectors.matrix[slot].copy()
            )
            (key_id,) = self.keys_for(
                [(new_kind, old.conversation_id)], reuse=state.current[old.id][1]
            )
            version = max(v for v, _k in state.versions_of(old.id)) + 1
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
            blob = seal_row(state.keys, old.id, version, key_id, plain)
            state.store.append(arrow_rows([old.id], [version], [key_id], [blob]))
            record = codec.record_part(plain, state.dim)
            state.remember(old.id, version, key_id, record)
            if not keep_history:
                older = state.older.pop(old.id, [])
                state.store.delete_rows([(str(old.id), v) for v, _key in older])
            state.index.put([old.id], [new_text], vec[None, :], [record[0]])
            state.audit.append(
                "edit", ids=[old.id], kinds=[new_kind], epoch=state.keys.epoch, version=version
            )
            state.store.maintain()
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
            check_vector(item.vector, self._state.dim),
            meta_to_json(item.meta),
            check_optional_id(item.conversation_id, "conversation_id"),
            check_optional_id(item.source_id, "source_id"),
            created,
        )

    def keys_for(
        self, wants: Iterable[tuple[str, str | None]], *, reuse: str | None = None
    ) -> list[str]:
        """The DEK for each (kind, conversation): episodic memories share their conversation's
        key; every other memory has a key of its own, kept across its edits (``reuse``)."""
        keys = self._state.keys
        scopes: list[str] = []  # keys to make: "conv:<id>", or "" for a key of its own
        pending: dict[str, int] = {}
        plan: list[str | int] = []
        for kind, conversation in wants:
            if kind == "episodic" and conversation:
                scope = f"conv:{conversation}"
                existing = keys.scope_key(scope)
                if existing is None and scope not in pending:
                    pending[scope] = len(scopes)
                    scopes.append(scope)
                plan.append(existing if existing is not None else pending[scope])
            elif reuse is not None and not keys.scope_of(reuse):
                plan.append(reuse)
            else:
                plan.append(len(scopes))
                scopes.append("")
        made = keys.new_keys(scopes)
        return [step if isinstance(step, str) else made[step] for step in plan]
