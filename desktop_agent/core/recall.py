"""Hybrid recall: exact cosine and BM25 fused by weighted reciprocal rank fusion, then weighted
by recency, importance, use and the question's time window.

Everything over all memories is a NumPy vector op (scores, partitions, one sort per signal);
Python touches only the few hundred candidates, so recall stays a few ms at 100k memories.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Collection, Iterable
from dataclasses import dataclass, field
from datetime import UTC, datetime

import numpy as np
from numpy.typing import NDArray

from desktop_agent.core.timeparse import TimeWindow, parse_time_window
from desktop_agent.embed import Embedder
from desktop_agent.search import HybridIndex


@dataclass(frozen=True, slots=True)
class MemoryFacts:
    """What recall needs to know about one memory besides its text and vector."""

    kind: str
    created_at: datetime  # tz-aware
    importance: float = 0.5  # 0..1
    use_count: int = 0
    last_used_at: datetime | None = None
    pinned: bool = False
    superseded: bool = False


FactsLookup = Callable[[str], MemoryFacts | None]


@dataclass(frozen=True, slots=True)
class RecallWeights:
    """Tuning knobs; the defaults were chosen on LoCoMo-dev (see bench/recall_quality.py)."""

    vector: float = 1.0
    keyword: float = 1.0
    # RRF's k: larger flattens the difference between rank 1 and rank 20.
    rrf_k: float = 60.0
    # Each signal contributes its top ``depth`` (or more when filters remove candidates).
    depth: int = 200
    recency: float = 0.1
    recency_half_life_days: float = 90.0
    importance: float = 0.2
    use: float = 0.1
    pinned: float = 0.2
    # Superseded memories stay findable (history) but rank far below what replaced them.
    superseded: float = 0.3
    # A memory inside the question's time window ("last week", "in May") counts this much more.
    time_window: float = 2.0


@dataclass(frozen=True, slots=True)
class RecallHit:
    """One recalled memory and every number that put it where it is (for the memory lens)."""

    memory_id: str
    score: float
    vector_score: float
    vector_rank: int | None  # 1-based among all memories; None when past the fusion depth
    keyword_score: float
    keyword_rank: int | None  # None when no query word matched
    fused: float
    recency: float  # 0..1, 1 = just now
    importance: float
    use_boost: float
    in_time_window: bool | None  # None when the question names no time
    superseded: bool
    kind: str


@dataclass(frozen=True, slots=True)
class RecallResult:
    hits: list[RecallHit]
    time_window: TimeWindow | None = None
    timings_ms: dict[str, float] = field(default_factory=dict)


class Recaller:
    """Hybrid recall over a HybridIndex, with per-memory facts from ``facts(memory_id)``."""

    def __init__(
        self,
        index: HybridIndex,
        embedder: Embedder,
        facts: FactsLookup,
        weights: RecallWeights | None = None,
    ) -> None:
        self.index = index
        self.embedder = embedder
        self.facts = facts
        self.weights = weights or RecallWeights()
        self._created: _CreatedAtCache = _CreatedAtCache()

    def recall(
        self,
        query: str,
        *,
        limit: int = 10,
        kinds: Collection[str] | None = None,
        now: datetime | None = None,
        exclude: Iterable[str] = (),
        include_superseded: bool = True,
        query_vector: NDArray[np.float32] | None = None,
    ) -> list[RecallHit]:
        """The ``limit`` best memories for ``query``, best first."""
        return self.recall_detailed(
            query,
            limit=limit,
            kinds=kinds,
            now=now,
            exclude=exclude,
            include_superseded=include_superseded,
            query_vector=query_vector,
        ).hits

    def recall_detailed(
        self,
        query: str,
        *,
        limit: int = 10,
        kinds: Collection[str] | None = None,
        now: datetime | None = None,
        exclude: Iterable[str] = (),
        include_superseded: bool = True,
        query_vector: NDArray[np.float32] | None = None,
    ) -> RecallResult:
        """Like ``recall`` but also returns the parsed time window."""
        now = now or datetime.now(UTC)
        if len(self.index) == 0 or limit <= 0 or not query.strip():
            return RecallResult([])
        if query_vector is None:
            query_vector = self.embedder.embed([query])[0]
        vector = self.index.vector_scores(query_vector)
        keyword = self.index.keyword_scores(query)
        window = parse_time_window(query, now)
        return RecallResult(
            self.rank(
                vector,
                keyword,
                limit=limit,
                kinds=kinds,
                now=now,
                exclude=exclude,
                include_superseded=include_superseded,
                window=window,
            ),
            window,
        )

    def rank(
        self,
        vector: NDArray[np.float32],
        keyword: NDArray[np.float32],
        *,
        limit: int,
        now: datetime,
        kinds: Collection[str] | None = None,
        exclude: Iterable[str] = (),
        include_superseded: bool = True,
        window: TimeWindow | None = None,
    ) -> list[RecallHit]:
        """Fuse precomputed index scores into hits (the part measured as recall overhead)."""
        w = self.weights
        allowed = np.ones(len(vector), dtype=bool)
        for memory_id in exclude:
            if memory_id in self.index:
                allowed[self.index.slot(memory_id)] = False
        in_window = None
        if window is not None:
            created = self._created.array(self.index, self.facts)
            in_window = (created >= window.start.timestamp()) & (created < window.end.timestamp())
        vector_rank = _ranker(np.where(allowed, vector, -np.inf))
        keyword_rank = _ranker(np.where(allowed & (keyword > 0), keyword, -np.inf))
        depth = max(w.depth, 4 * limit)
        while True:
            slots = self._candidates(vector, keyword, allowed, in_window, depth)
            hits = self._score(
                slots,
                vector,
                keyword,
                vector_rank,
                keyword_rank,
                in_window,
                now,
                kinds,
                include_superseded,
            )
            # Filters (kinds, superseded) may have eaten the candidates: dig deeper if so.
            if len(hits) >= limit or depth >= len(vector):
                break
            depth *= 4
        hits.sort(key=lambda hit: hit.score, reverse=True)
        return hits[:limit]

    def _candidates(
        self,
        vector: NDArray[np.float32],
        keyword: NDArray[np.float32],
        allowed: NDArray[np.bool_],
        in_window: NDArray[np.bool_] | None,
        depth: int,
    ) -> NDArray[np.intp]:
        masks = [allowed] if in_window is None else [allowed, allowed & in_window]
        parts = []
        for mask in masks:
            parts.append(_top(np.where(mask, vector, -np.inf), depth))
            parts.append(_top(np.where(mask & (keyword > 0), keyword, -np.inf), depth))
        return np.unique(np.concatenate(parts))

    def _score(
        self,
        slots: NDArray[np.intp],
        vector: NDArray[np.float32],
        keyword: NDArray[np.float32],
        vector_rank: Callable[[NDArray[np.float32]], NDArray[np.int64]],
        keyword_rank: Callable[[NDArray[np.float32]], NDArray[np.int64]],
        in_window: NDArray[np.bool_] | None,
        now: datetime,
        kinds: Collection[str] | None,
        include_superseded: bool,
    ) -> list[RecallHit]:
        w = self.weights
        v_ranks = vector_rank(vector[slots])
        k_ranks = keyword_rank(keyword[slots])
        fused = w.vector / (w.rrf_k + v_ranks) + np.where(
            keyword[slots] > 0, w.keyword / (w.rrf_k + k_ranks), 0.0
        )
        ids = self.index.ids
        now_ts = now.timestamp()
        hits = []
        for i, slot in enumerate(slots.tolist()):
            memory_id = ids[slot]
            facts = self.facts(memory_id)
            if facts is None or (kinds is not None and facts.kind not in kinds):
                continue
            if facts.superseded and not include_superseded:
                continue
            age_days = max(0.0, now_ts - facts.created_at.timestamp()) / 86400.0
            recency = math.exp(-math.log(2) * age_days / w.recency_half_life_days)
            use_boost = math.log1p(facts.use_count) / math.log1p(100)
            multiplier = (
                (1.0 + w.recency * recency)
                * (1.0 + w.importance * (facts.importance - 0.5))
                * (1.0 + w.use * min(use_boost, 1.0))
                * (1.0 + (w.pinned if facts.pinned else 0.0))
                * (w.superseded if facts.superseded else 1.0)
            )
            inside = None if in_window is None else bool(in_window[slot])
            if inside:
                multiplier *= w.time_window
            hits.append(
                RecallHit(
                    memory_id=memory_id,
                    score=float(fused[i]) * multiplier,
                    vector_score=float(vector[slot]),
                    vector_rank=int(v_ranks[i]),
                    keyword_score=float(keyword[slot]),
                    keyword_rank=int(k_ranks[i]) if keyword[slot] > 0 else None,
                    fused=float(fused[i]),
                    recency=recency,
                    importance=facts.importance,
                    use_boost=use_boost,
                    in_time_window=inside,
                    superseded=facts.superseded,
                    kind=facts.kind,
                )
            )
        return hits


def _top(scores: NDArray[np.float32], k: int) -> NDArray[np.intp]:
    """Slots of the ``k`` highest finite scores (unordered)."""
    k = min(k, len(scores))
    if k <= 0:
        return np.zeros(0, dtype=np.intp)
    best = np.argpartition(-scores, k - 1)[:k]
    return best[np.isfinite(scores[best])]


def _ranker(scores: NDArray[np.float32]) -> Callable[[NDArray[np.float32]], NDArray[np.int64]]:
    """A function giving the 1-based rank among ``scores`` of any value (ties share a rank).

    One sort of all scores (about 0.3 ms at 100k) makes ranks exact for every candidate, so a
    memory pulled in by one signal still gets its true rank in the other.
    """
    ordered = np.sort(scores[np.isfinite(scores)])

    def rank(values: NDArray[np.float32]) -> NDArray[np.int64]:
        higher = len(ordered) - np.searchsorted(ordered, values, side="right")
        return (higher + 1).astype(np.int64)

    return rank


class _CreatedAtCache:
    """Creation times by index slot, rebuilt only when the index's ids change.

    Only time-aware questions need them for all memories; creation times never change, so a
    per-id memo makes the rebuild after an insert a dictionary pass, not a facts lookup each.
    """

    def __init__(self) -> None:
        self._version: object = None
        self._array = np.zeros(0, dtype=np.float64)
        self._by_id: dict[str, float] = {}

    def array(self, index: HybridIndex, facts: FactsLookup) -> NDArray[np.float64]:
        version = (getattr(index, "version", None), len(index))
        if version != self._version or len(self._array) != len(index):
            values = np.empty(len(index), dtype=np.float64)
            for slot, memory_id in enumerate(index.ids):
                stamp = self._by_id.get(memory_id)
                if stamp is None:
                    found = facts(memory_id)
                    stamp = found.created_at.timestamp() if found is not None else math.nan
                    self._by_id[memory_id] = stamp
                values[slot] = stamp
            self._array, self._version = values, version
        return self._array
