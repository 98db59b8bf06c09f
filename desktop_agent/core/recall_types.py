"""What recall works with and hands back: a memory's facts besides its text and vector, the
tuning weights, and a hit with every number that placed it (the memory lens shows them)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime

from desktop_agent.core.timeparse import TimeWindow


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
    # It tells something about someone: a turn in the first person ("I started pottery"), or any
    # semantic memory. Reactions and remarks to the other ("Wow, nice pic!") do not.
    discloses: bool = True


FactsLookup = Callable[[str], MemoryFacts | None]


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
    # A memory that tells something about someone (``MemoryFacts.discloses``) counts this share
    # more than a reaction to it: an answer about a person is in what they say of themselves.
    disclosure: float = 0.2


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
    discloses: bool = True  # gained the disclosure weight


@dataclass(frozen=True, slots=True)
class RecallResult:
    hits: list[RecallHit]
    time_window: TimeWindow | None = None
