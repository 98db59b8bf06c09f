"""Listing, searching and reading a memory's history (``Reader``, a part of ``Vault``).

Lists and searches are served from the rows decrypted into RAM at unlock; a history reads the
memory's rows from the table, since older versions are not kept in RAM.
"""

from __future__ import annotations

from collections import defaultdict
from functools import partial
from typing import TYPE_CHECKING, Final

import numpy as np
from numpy.typing import NDArray

from desktop_agent.memory import payload as codec
from desktop_agent.memory.model import (
    MemoryId,
    MemoryNotFound,
    MemoryRecord,
    MemoryVersion,
    SearchHit,
    check_kind,
    check_vector,
)
from desktop_agent.memory.rows import open_row

if TYPE_CHECKING:
    from desktop_agent.memory.state import VaultState

RRF_K: Final = (
    60  # reciprocal-rank fusion constant (Cormack et al.); callers may fuse their own way
)


class Reader:
    """Lists, searches and histories: a part of Vault."""

    def __init__(self, state: VaultState) -> None:
        self._state = state

    def memories(self, kind: str | None, conversation_id: str | None) -> list[MemoryRecord]:
        """Current memories, oldest first, optionally of one kind or one conversation."""
        code = codec.KIND_CODES[check_kind(kind)] if kind else None
        records = [
            codec.decode_record(memory_id, version, record)
            for memory_id, (version, _key, record) in list(self._state.current.items())
            if (code is None or record[0] == code)
            and (conversation_id is None or codec.conversation_of(record) == conversation_id)
        ]
        records.sort(key=lambda r: (r.created_at, r.id))
        return records

    def history(self, memory_id: str) -> list[MemoryVersion]:
        """Every readable version, oldest first; the last one is the current text."""
        state = self._state
        if not state.known(memory_id):
            raise MemoryNotFound(f"no memory with id {memory_id!r}")
        table = state.store.read(ids=[memory_id])
        current = state.current.get(MemoryId(memory_id), (0, "", b""))[0]
        versions = []
        for row in table.to_pylist():
            plain = open_row(
                state.keys, row["memory_id"], row["version"], row["key_id"], row["blob"]
            )
            if plain is None:
                continue
            record = codec.decode_record(
                memory_id, row["version"], codec.record_part(plain, state.dim)
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
        self, vector: NDArray[np.float32] | None, text: str | None, k: int, kind: str | None
    ) -> list[SearchHit]:
        """The ``k`` best by vector and by keywords, fused by reciprocal rank."""
        state = self._state
        with state.mutex:
            index = state.index
            if len(index) == 0 or k <= 0:
                return []
            mask = index.kind_mask(codec.KIND_CODES[check_kind(kind)]) if kind else None
            lists: list[list[str]] = []
            vector_scores = keyword_scores = None
            if vector is not None:
                vector_scores = index.vector_scores(check_vector(vector, state.dim))
                lists.append([hit.id for hit in index.top(vector_scores, k, mask)])
            if text and text.strip():
                keyword_scores = index.keyword_scores(text)
                matched = keyword_scores > 0
                keyword_mask = matched if mask is None else mask & matched
                lists.append([hit.id for hit in index.top(keyword_scores, k, keyword_mask)])
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
        slot = self._state.index.slot(doc_id)
        version, _key, record = self._state.current[MemoryId(doc_id)]
        return SearchHit(
            MemoryId(doc_id),
            score,
            float(vs[slot]) if vs is not None else 0.0,
            float(ks[slot]) if ks is not None else 0.0,
            partial(codec.decode_record, doc_id, version, record),
        )
