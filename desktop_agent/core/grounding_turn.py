"""The memory side of a grounded answer: which facts answer a question about the user.

Current facts come from recall over semantic memories (superseded ones never answer "where do I
live now?"); a question about the past also gets the superseded facts of the same slots, with
the dates they stopped being true. "What do you know about me?" takes every current fact,
most important first.
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass
from typing import Final

from desktop_agent.core.grounding import GroundedAnswer, compose, quoted, select_facts
from desktop_agent.core.memory_model import EPISODIC, SEMANTIC, SUPERSEDED, MemoryItem
from desktop_agent.core.memory_service import MemoryService, Recollection
from desktop_agent.core.questions import about_user
from desktop_agent.core.recall import RecallHit
from desktop_agent.core.statements import Statement, best_statement

# How many facts a question may recall, and "what do you know about me" may state.
RECALL_DEPTH: Final = 12
EVERYTHING_LIMIT: Final = 10


@dataclass(frozen=True, slots=True)
class Grounding:
    answer: GroundedAnswer
    facts: tuple[Recollection, ...]
    past_recollections: tuple[Recollection, ...]


def ground(memory: MemoryService, text: str, excluded: Collection[str] = ()) -> Grounding | None:
    """The grounded answer to ``text`` if it asks about the user, else None."""
    question = about_user(text)
    if question is None:
        return None
    if question.everything:
        found = _everything(memory, excluded)
    else:
        found = memory.search(text, limit=RECALL_DEPTH, kinds=(SEMANTIC,), exclude=excluded)
    facts = select_facts(question, found)
    if question.named and not facts:
        return None  # "who is Ada Lovelace?" asks the model, not the memory
    past: list[Recollection] = []
    if question.past:
        older = memory.search(
            text,
            limit=RECALL_DEPTH,
            kinds=(SEMANTIC,),
            exclude=excluded,
            include_superseded=True,
        )
        past = select_facts(question, [r for r in older if r.item.status == SUPERSEDED])
    if not facts and not past and not question.everything:
        statement = _said(memory, text, excluded)
        if statement is not None:
            return Grounding(quoted(statement.sentence, statement.source), (statement.source,), ())
    answer = compose(question, facts, [r.item for r in past])
    return Grounding(answer, tuple(facts), tuple(past))


def _said(memory: MemoryService, text: str, excluded: Collection[str]) -> Statement | None:
    """The user's own sentence that answers ``text`` when no learned fact does."""
    hidden = {*excluded, *memory.outdated_episodes()}
    episodes = memory.search(text, limit=RECALL_DEPTH, kinds=(EPISODIC,), exclude=hidden)
    return best_statement(text, episodes)


def _everything(memory: MemoryService, excluded: Collection[str]) -> list[Recollection]:
    items = [
        i
        for i in memory.items(SEMANTIC, include_inactive=False)
        if i.id not in excluded and i.type != "task"
    ]
    items.sort(key=lambda i: (not i.pinned, -i.importance, i.created_at))
    return [listed(i) for i in items[:EVERYTHING_LIMIT]]


def listed(item: MemoryItem) -> Recollection:
    """A memory taken without search (the user asked for everything; a risk that matters)."""
    return Recollection(item, _listed_hit(item))


def _listed_hit(item: MemoryItem) -> RecallHit:
    return RecallHit(
        memory_id=item.id,
        score=item.importance,
        vector_score=0.0,
        vector_rank=0,
        keyword_score=0.0,
        keyword_rank=None,
        fused=0.0,
        context=0.0,
        recency=0.0,
        importance=item.importance,
        use_boost=0.0,
        in_time_window=None,
        speaker_named=False,
        superseded=False,
        pinned=item.pinned,
        kind=item.kind,
    )
