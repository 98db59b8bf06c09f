"""Hybrid recall: exact cosine and BM25 in a convex fusion, widened by pseudo-relevance
feedback (the words of a first pass's best memories), then weighted by neighbour context,
recency, importance, use, the speaker and the question's time window.

Everything over all memories is a NumPy vector op (scores, partitions, masks); Python touches
only the few hundred candidates, so recall stays a few ms at 100k memories.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Collection, Iterable
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

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
    # The memories just before and after this one in its conversation (episodes), see
    # ``neighbour_map``: an answer often sits in the turn after the one that matches the question.
    neighbours: tuple[str, ...] = ()
    # Who said it (imported history: the line's speaker); a question naming them favours it.
    speaker: str | None = None
    # An episode whose user message only asks something: history, not knowledge. It never
    # outranks a memory that states something (see ``Recaller.rank``).
    question: bool = False


FactsLookup = Callable[[str], MemoryFacts | None]

# Candidates of the first pass of pseudo-relevance feedback, which only needs its best few.
FIRST_PASS_DEPTH = 30


@dataclass(frozen=True, slots=True)
class RecallWeights:
    """Tuning knobs; bench/recall_quality.py records how each was chosen on LoCoMo-dev."""

    # Share of the vector signal in the convex fusion (the keyword signal gets the rest).
    vector_share: float = 0.5
    # A memory gains this times the best fused score of its conversation neighbours.
    context: float = 0.4
    # Candidates per signal before the per-memory weighting (more when filters eat them).
    depth: int = 100
    recency: float = 0.05
    recency_half_life_days: float = 90.0
    importance: float = 0.2
    use: float = 0.1
    pinned: float = 0.2
    # Superseded memories stay findable (history) but rank far below what replaced them.
    superseded: float = 0.3
    # A memory inside the question's time window ("last week", "in May") counts this much more.
    time_window: float = 1.5
    # A memory said by someone the question names ("what did Ana say...") gains this share.
    speaker: float = 0.2
    # Pseudo-relevance feedback: the words of the ``feedback_memories`` best memories of a
    # first pass are searched too, at this share of the keyword signal (0 turns it off).
    feedback: float = 0.5
    feedback_memories: int = 3


@dataclass(frozen=True, slots=True)
class RecallHit:
    """One recalled memory and every number that put it where it is (for the memory lens)."""

    memory_id: str
    score: float
    vector_score: float  # cosine similarity
    vector_rank: int  # 1-based among all searchable memories
    keyword_score: float  # BM25
    keyword_rank: int | None  # None when no query word matched
    fused: float  # convex fusion of the normalised signals, 0..1
    context: float  # what the best neighbour added
    recency: float  # 0..1, 1 = just now
    importance: float
    use_boost: float  # 0..1
    in_time_window: bool | None  # None when the question names no time
    speaker_named: bool  # the question names who said it
    superseded: bool
    pinned: bool
    kind: str
    question: bool = False
    # BM25 of the words the best first-pass memories hold beyond the question's (0 when none):
    # a memory found only this way shares no word with the question itself.
    feedback_score: float = 0.0


@dataclass(frozen=True, slots=True)
class RecallResult:
    hits: list[RecallHit]
    time_window: TimeWindow | None = None


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
        self._created = _CreatedAtCache()

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
        """The ``limit`` best memories for ``query``, best first.

        ``query_vector`` skips embedding the query (the caller may have it already).
        """
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
        """Like ``recall``, and also the time window read from the question."""
        now = now or datetime.now(UTC)
        window = parse_time_window(query, now)
        if len(self.index) == 0 or limit <= 0 or not query.strip():
            return RecallResult([], window)
        if query_vector is None:
            query_vector = self.embedder.embed([query])[0]
        hits = self.rank(
            self.index.vector_scores(query_vector),
            self.index.keyword_scores(query),
            limit=limit,
            kinds=kinds,
            now=now,
            exclude=exclude,
            include_superseded=include_superseded,
            window=window,
            query=query,
        )
        return RecallResult(hits, window)

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
        query: str = "",
    ) -> list[RecallHit]:
        """Fuse precomputed index scores into hits (the part timed as recall overhead).

        ``query`` gives the names it mentions (the speaker weight) and the words the feedback
        pass leaves out as already asked; without it there is no feedback pass.
        """
        if len(vector) != len(self.index) or len(keyword) != len(self.index):
            raise ValueError("scores do not match the index (it changed since they were computed)")
        allowed = np.ones(len(vector), dtype=bool)
        for memory_id in exclude:
            if memory_id in self.index:
                allowed[self.index.slot(memory_id)] = False
        if not allowed.any():
            return []
        in_window = None
        if window is not None:
            created = self._created.array(self.index, self.facts)
            in_window = (created >= window.start.timestamp()) & (created < window.end.timestamp())
        names = frozenset(re.findall(r"[^\W_]+", query.casefold()))
        p = _Pass(self, vector, keyword, allowed, in_window, now, names, kinds, include_superseded)
        w = self.weights
        if w.feedback > 0 and w.feedback_memories > 0 and query:
            # Rocchio on words: what the best memories of a first pass say besides the
            # question's own words finds the memories that share it (the other half of a
            # multi-hop answer, the place an open question is about).
            first = self._scored(p, keyword, w.feedback_memories, FIRST_PASS_DEPTH)
            best = [self.index.ids[slot] for _, slot in first[: w.feedback_memories]]
            if best:
                p.feedback = self.index.feedback_scores(best, query)
                keyword = keyword + w.feedback * p.feedback
        scored = self._scored(p, keyword, limit, max(w.depth, 4 * limit))
        return [p.hit(slot, score) for score, slot in scored[:limit]]

    def _scored(
        self, p: _Pass, keyword: NDArray[np.float32], limit: int, depth: int
    ) -> list[tuple[float, int]]:
        """(score, slot) of the best candidates by ``p.vector`` fused with ``keyword``.

        Statements come before questions: "What is my name?" asked last week matches "What is my
        name?" better than "My name is Dana" does, but only the statement answers it.
        """
        p.fused = self._fuse(p.vector, keyword, p.allowed)
        while True:
            scored = p.score(self._candidates(p.fused, p.allowed, p.in_window, depth))
            # Filters (kinds, superseded) may have eaten the candidates: dig deeper if so.
            if len(scored) >= limit or depth >= len(p.vector):
                break
            depth *= 4
        scored.sort(key=lambda pair: (not p.weighed[pair[1]].facts.question, pair[0]), reverse=True)
        return scored

    def _fuse(
        self,
        vector: NDArray[np.float32],
        keyword: NDArray[np.float32],
        allowed: NDArray[np.bool_],
    ) -> NDArray[np.float32]:
        """Convex combination of min-max normalised cosine and max-normalised BM25.

        On LoCoMo-dev this beat reciprocal rank fusion at every k tried (0.695 vs 0.684 at best),
        as Bruch et al. (2023, "An Analysis of Fusion Functions for Hybrid Retrieval") found:
        ranks throw away how far ahead the best match is.
        """
        share = self.weights.vector_share
        v = vector[allowed]
        low, high = float(v.min()), float(v.max())
        normal_v = (vector - low) / max(high - low, 1e-9)
        top_k = float(keyword[allowed].max())
        normal_k = keyword / top_k if top_k > 0 else np.zeros_like(keyword)
        fused = share * normal_v + (1.0 - share) * normal_k
        return np.where(allowed, fused, -np.inf).astype(np.float32)

    @staticmethod
    def _candidates(
        fused: NDArray[np.float32],
        allowed: NDArray[np.bool_],
        in_window: NDArray[np.bool_] | None,
        depth: int,
    ) -> NDArray[np.intp]:
        parts = [_top(fused, depth)]
        if in_window is not None:
            parts.append(_top(np.where(in_window, fused, -np.inf), depth))
        return np.unique(np.concatenate(parts))


@dataclass(frozen=True, slots=True)
class _Weighed:
    """What a memory's own facts make of its score in one query (the same in every pass)."""

    facts: MemoryFacts
    multiplier: float
    recency: float
    use_boost: float
    inside: bool | None
    named: bool


class _Pass:
    """One query's ranking: raw signals, masks, and per-memory weighting shared by its passes."""

    def __init__(
        self,
        recaller: Recaller,
        vector: NDArray[np.float32],
        keyword: NDArray[np.float32],
        allowed: NDArray[np.bool_],
        in_window: NDArray[np.bool_] | None,
        now: datetime,
        query_words: frozenset[str],
        kinds: Collection[str] | None,
        include_superseded: bool,
    ) -> None:
        self.r = recaller
        # Hits report the raw signals (the lens shows them; the relevance floor reads them).
        self.vector, self.keyword = vector, keyword
        self.fused = np.zeros(0, dtype=np.float32)  # the current pass's fusion
        self.allowed, self.in_window = allowed, in_window
        self.now_ts = now.timestamp()
        self.query_words = query_words
        self.kinds, self.include_superseded = kinds, include_superseded
        self.facts: dict[int, MemoryFacts | None] = {}
        self.weighed: dict[int, _Weighed] = {}
        self.contexts: dict[int, float] = {}
        self.feedback: NDArray[np.float32] | None = None

    def fact(self, slot: int) -> MemoryFacts | None:
        if slot not in self.facts:
            self.facts[slot] = self.r.facts(self.r.index.ids[slot])
        return self.facts[slot]

    def score(self, candidates: NDArray[np.intp]) -> list[tuple[float, int]]:
        """(score, slot) of every candidate the filters keep, and of their neighbours."""
        index = self.r.index
        slots = dict.fromkeys(candidates.tolist())
        # The neighbours of a strong match join the candidates: they may hold the answer.
        for slot in candidates.tolist():
            facts = self.fact(slot)
            for other in facts.neighbours if facts else ():
                if other in index:
                    slots[index.slot(other)] = None
        scored = []
        self.contexts = {}
        for slot in slots:
            weighed = self._weigh(slot)
            if weighed is not None:
                fused = max(0.0, float(self.fused[slot]))
                context = self._context(weighed.facts)
                self.contexts[slot] = context
                scored.append(((fused + context) * weighed.multiplier, slot))
        return scored

    def _context(self, facts: MemoryFacts) -> float:
        best = 0.0
        for other in facts.neighbours:
            if other in self.r.index:
                best = max(best, float(self.fused[self.r.index.slot(other)]))
        return self.r.weights.context * best

    def _weigh(self, slot: int) -> _Weighed | None:
        if slot in self.weighed:
            return self.weighed[slot]
        w = self.r.weights
        facts = self.fact(slot)
        if not self.allowed[slot] or facts is None:
            return None
        if self.kinds is not None and facts.kind not in self.kinds:
            return None
        if facts.superseded and not self.include_superseded:
            return None
        age_days = max(0.0, self.now_ts - facts.created_at.timestamp()) / 86400.0
        recency = 0.5 ** (age_days / w.recency_half_life_days)
        use_boost = min(1.0, math.log1p(facts.use_count) / math.log1p(100))
        inside = None if self.in_window is None else bool(self.in_window[slot])
        named = bool(facts.speaker) and _names(facts.speaker or "") <= self.query_words
        multiplier = (
            (1.0 + w.recency * recency)
            * (1.0 + w.importance * (facts.importance - 0.5))
            * (1.0 + w.use * use_boost)
            * (1.0 + (w.pinned if facts.pinned else 0.0))
            * (w.superseded if facts.superseded else 1.0)
            * (w.time_window if inside else 1.0)
            * (1.0 + (w.speaker if named else 0.0))
        )
        self.weighed[slot] = _Weighed(facts, multiplier, recency, use_boost, inside, named)
        return self.weighed[slot]

    def hit(self, slot: int, score: float) -> RecallHit:
        """The hit for a slot scored in the last pass, with every number that placed it."""
        weighed = self.weighed[slot]
        facts = weighed.facts
        keyword = float(self.keyword[slot])
        return RecallHit(
            memory_id=self.r.index.ids[slot],
            score=score,
            vector_score=float(self.vector[slot]),
            vector_rank=_rank_of(self.vector, self.allowed, self.vector[slot]),
            keyword_score=keyword,
            keyword_rank=(
                _rank_of(self.keyword, self.allowed, self.keyword[slot]) if keyword > 0 else None
            ),
            fused=max(0.0, float(self.fused[slot])),
            context=self.contexts[slot],
            recency=weighed.recency,
            importance=facts.importance,
            use_boost=weighed.use_boost,
            in_time_window=weighed.inside,
            speaker_named=weighed.named,
            superseded=facts.superseded,
            pinned=facts.pinned,
            kind=facts.kind,
            question=facts.question,
            feedback_score=0.0 if self.feedback is None else float(self.feedback[slot]),
        )


def neighbour_map(
    episodes: Iterable[tuple[str, str, datetime]], *, gap: timedelta = timedelta(hours=6)
) -> dict[str, tuple[str, ...]]:
    """Previous and next memory of each ``(memory_id, conversation, created_at)`` episode.

    Turns further apart than ``gap`` are not neighbours: a new session is a new context. Equal
    times keep the input order (imported turns may share their session's timestamp).
    """
    by_conversation: dict[str, list[tuple[datetime, str]]] = {}
    for memory_id, conversation, created_at in episodes:
        by_conversation.setdefault(conversation, []).append((created_at, memory_id))
    result: dict[str, tuple[str, ...]] = {}
    for turns in by_conversation.values():
        turns.sort(key=lambda turn: turn[0])
        for i, (moment, memory_id) in enumerate(turns):
            around = []
            if i > 0 and moment - turns[i - 1][0] <= gap:
                around.append(turns[i - 1][1])
            if i + 1 < len(turns) and turns[i + 1][0] - moment <= gap:
                around.append(turns[i + 1][1])
            result[memory_id] = tuple(around)
    return result


def _names(speaker: str) -> frozenset[str]:
    return frozenset(re.findall(r"[^\W_]+", speaker.casefold()))


def _top(scores: NDArray[np.float32], k: int) -> NDArray[np.intp]:
    """Slots of the ``k`` highest finite scores (unordered)."""
    k = min(k, len(scores))
    if k <= 0:
        return np.zeros(0, dtype=np.intp)
    best = np.argpartition(-scores, k - 1)[:k]
    return best[np.isfinite(scores[best])]


def _rank_of(scores: NDArray[np.float32], allowed: NDArray[np.bool_], value: float) -> int:
    """1-based rank of ``value`` among the allowed ``scores`` (ties share a rank).

    Exact for any memory, so one pulled in by one signal still gets its true rank in the other;
    one comparison over all scores (about 0.03 ms at 100k), done only for the returned hits.
    """
    return int(np.count_nonzero((scores > value) & allowed)) + 1


class _CreatedAtCache:
    """Creation times by index slot, for the time-window mask.

    Creation times never change and appends leave existing slots in place, so after an insert
    only the new slots are read; only a removal (which moves slots) costs a full pass.
    """

    def __init__(self) -> None:
        self._layout: object = None
        self._array = np.zeros(0, dtype=np.float64)
        self._by_id: dict[str, float] = {}

    def array(self, index: HybridIndex, facts: FactsLookup) -> NDArray[np.float64]:
        layout = getattr(index, "layout_version", None)
        known = len(self._array) if layout is not None and layout == self._layout else 0
        if known > len(index):
            known = 0
        if known < len(index) or len(self._array) != len(index):
            ids = index.ids
            fresh = np.fromiter(
                (self._by_id.get(ids[slot], math.nan) for slot in range(known, len(index))),
                dtype=np.float64,
                count=len(index) - known,
            )
            for offset in np.flatnonzero(np.isnan(fresh)).tolist():
                memory_id = ids[known + offset]
                found = facts(memory_id)
                if found is not None:
                    self._by_id[memory_id] = fresh[offset] = found.created_at.timestamp()
            self._array = np.concatenate([self._array[:known], fresh])
            self._layout = layout
        return self._array
