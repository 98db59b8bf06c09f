"""One index that keeps vectors and keywords for the same ids in step."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from itertools import count

import numpy as np
from numpy.typing import NDArray

from desktop_agent.search.bm25 import KeywordIndex
from desktop_agent.search.vectors import VectorIndex

# Process-wide so that a cleared index never reuses a version a cache has already seen.
_VERSIONS = count(1)


@dataclass(frozen=True, slots=True)
class ScoredId:
    id: str
    score: float


class HybridIndex:
    """Exact cosine and BM25 over the same documents, addressed by string ids."""

    def __init__(self, dim: int) -> None:
        self.dim = dim
        self.vectors = VectorIndex(dim)
        self.keywords = KeywordIndex()
        self._ids: list[str] = []
        self._slots: dict[str, int] = {}
        # Bumped on every change, so caches keyed by slot know when to rebuild.
        self.version = next(_VERSIONS)
        # Bumped only when existing slots move or vanish (removal): until then, a cache by slot
        # stays valid and only needs the slots appended since.
        self.layout_version = next(_VERSIONS)

    def __len__(self) -> int:
        return len(self._ids)

    def __contains__(self, doc_id: object) -> bool:
        return doc_id in self._slots

    @property
    def ids(self) -> Sequence[str]:
        return self._ids

    def slot(self, doc_id: str) -> int:
        return self._slots[doc_id]

    def vectors_of(self, doc_ids: Sequence[str]) -> NDArray[np.float32]:
        """The stored (unit) vectors of ``doc_ids``, one row each in their order, as a copy
        that later writes leave alone. KeyError for an id not in the index."""
        rows: NDArray[np.float32] = self.vectors.matrix[[self._slots[d] for d in doc_ids]]
        return rows

    def upsert(self, doc_id: str, text: str, vector: NDArray[np.float32] | None) -> None:
        self.upsert_many([doc_id], [text], None if vector is None else np.asarray(vector)[None, :])

    def upsert_many(
        self,
        doc_ids: Sequence[str],
        texts: Sequence[str],
        vectors: NDArray[np.float32] | None,
    ) -> None:
        """Add or replace documents; a missing vector is stored as zeros (never matches)."""
        self.version = next(_VERSIONS)
        if vectors is None:
            vectors = np.zeros((len(doc_ids), self.dim), dtype=np.float32)
        new_rows = []
        for row, (doc_id, text) in enumerate(zip(doc_ids, texts, strict=True)):
            slot = self._slots.get(doc_id)
            if slot is None:
                new_rows.append(row)
                self._slots[doc_id] = len(self._ids)
                self._ids.append(doc_id)
                self.keywords.append(text)
            else:
                self.vectors.set(slot, vectors[row])
                self.keywords.set(slot, text)
        if new_rows:
            self.vectors.append(vectors[new_rows])

    def remove(self, doc_ids: Iterable[str]) -> None:
        self.version = next(_VERSIONS)
        self.layout_version = next(_VERSIONS)
        for doc_id in doc_ids:
            slot = self._slots.pop(doc_id, None)
            if slot is None:
                continue
            last = len(self._ids) - 1
            self.vectors.swap_remove(slot)
            self.keywords.swap_remove(slot)
            moved = self._ids.pop()
            if slot != last:
                self._ids[slot] = moved
                self._slots[moved] = slot

    def clear(self) -> None:
        self.__init__(self.dim)  # type: ignore[misc]

    def vector_scores(self, query: NDArray[np.float32]) -> NDArray[np.float32]:
        return self.vectors.scores(query)

    def keyword_scores(self, query: str) -> NDArray[np.float32]:
        return self.keywords.scores(query)

    def feedback_scores(self, doc_ids: Iterable[str], query: str) -> NDArray[np.float32]:
        """BM25 of the words that the documents ``doc_ids`` hold and ``query`` lacks."""
        slots = [self._slots[doc_id] for doc_id in doc_ids if doc_id in self._slots]
        if not slots:
            return np.zeros(len(self), dtype=np.float32)
        keywords = self._keyword_index()
        return keywords.term_scores(keywords.feedback_terms(slots, query))

    def _keyword_index(self) -> KeywordIndex:
        # A subclass may hold a stand-in that builds the real index on first use (the vault's
        # LazyKeywords only forwards ``scores``): ask it for the real one.
        keywords: object = self.keywords
        if not isinstance(keywords, KeywordIndex):
            build = getattr(keywords, "build", None)
            keywords = build() if callable(build) else None
            if not isinstance(keywords, KeywordIndex):
                raise TypeError("the keyword index cannot score feedback terms")
        return keywords

    def top(
        self, scores: NDArray[np.float32], k: int, mask: NDArray[np.bool_] | None = None
    ) -> list[ScoredId]:
        """The ``k`` best ids by ``scores`` (slots where ``mask`` is False are skipped)."""
        if mask is not None:
            scores = np.where(mask, scores, -np.inf)
        k = min(k, len(scores))
        if k <= 0:
            return []
        best = np.argpartition(-scores, k - 1)[:k]
        best = best[np.argsort(-scores[best], kind="stable")]
        return [ScoredId(self._ids[i], float(scores[i])) for i in best if np.isfinite(scores[i])]
