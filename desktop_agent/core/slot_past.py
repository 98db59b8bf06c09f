"""What came before a current fact, for a question about the past ("what was my previous car?").

First the superseded facts of its slot (``earlier_in_slot``); when no rule kept the old value
as its past, the user's own words before the message that taught the fact, about what that
message changed (``before_its_source``), or the sentence that taught it, when it says what
came before too (``before_in_its_source``: "after 35 years in Linz ... moved to Graz").
"""

from __future__ import annotations

import re
from collections.abc import Collection
from typing import Final

from desktop_agent.core.before_named import named_new
from desktop_agent.core.grounding import content_words
from desktop_agent.core.grounding_words import stems
from desktop_agent.core.memory_changes import Recollection, listed
from desktop_agent.core.memory_model import EPISODIC, SEMANTIC, SUPERSEDED
from desktop_agent.core.memory_service import MemoryService
from desktop_agent.core.named_people import RECALL_DEPTH
from desktop_agent.core.questions import question_only
from desktop_agent.core.statements import Statement, clipped, said_before_fact
from desktop_agent.core.user_sentences import located
from desktop_agent.memory.model import MemoryNotFound


def before_its_source(
    memory: MemoryService, fact: Recollection, text: str, excluded: Collection[str]
) -> Statement | None:
    """The user's words before the message that taught ``fact``, about what it changed."""
    source = _first_source(memory, fact)  # (None: the message was forgotten since)
    if source is None or source.item.id in memory.outdated_episodes():
        return None
    episodes = memory.search(
        f"{text} {fact.item.text}", limit=RECALL_DEPTH, kinds=(EPISODIC,), exclude=excluded
    )
    return said_before_fact(fact.item, source, episodes, content_words(text))


def before_in_its_source(memory: MemoryService, fact: Recollection) -> Statement | None:
    """The sentence ``fact`` was learned from, when it also says what came before: "After 35
    years in Linz my wife Gerda and I moved to Graz" for "where did we live before Graz?",
    "switched from Vodafone to EE", "left Boots for the hospital job" (a name other than
    the fact's, after "from", "after ... in", "left", "instead of")."""
    source = _first_source(memory, fact)
    if source is None:
        return None
    where, told = fact.item.provenance[0], source.item.user_text
    now = stems(fact.item.text)
    for sentence, (start, end) in located(told):
        if not start <= where.start < end:
            continue
        before = _BEFORE_IN_IT.search(sentence)
        if before is not None and not stems(before.group(1)) & now:
            return Statement(clipped(sentence), source, 0, (start, end))
    return None


# What came before, said beside what is now: "moved from Hobart up to Launceston", "after 12
# years at Boots", "quit Vestas", "instead of Lisbon"
_BEFORE_IN_IT: Final = re.compile(
    # (not "an offer from Wipro", which is what came)
    r"\b(?i:(?:mov|switch|transferr|chang|upgrad|relocat)\w*\s+(?:[\w'’-]+\s+){0,3}?from|"
    r"after\s+(?:[\w-]+\s+){0,3}(?:in|at)|left|leaving|quit|instead\s+of|"
    r"rather\s+than)\s+(?:the\s+)?((?-i:[A-ZÀ-Ý])[\w'’-]+(?:\s+(?-i:[A-ZÀ-Ý])[\w'’-]+)*)"
)


def before_a_missed_change(
    memory: MemoryService, fact: Recollection, text: str, excluded: Collection[str]
) -> Statement | None:
    """ "where did we live before Glasgow?" while "User lives in Bristol" is current, and a
    message since named Glasgow ("we're officially Glasgow people now!!"), a move no rule
    learned: the fact is what came before, in the words it was learned from."""
    new = named_new(text)
    if not new or new & stems(fact.item.text):
        return None
    since = memory.search(" ".join(sorted(new)), limit=RECALL_DEPTH, kinds=(EPISODIC,))
    if not any(
        r.item.created_at > fact.item.created_at
        and r.item.id not in excluded
        and not question_only(r.item)
        and new <= stems(r.item.user_text)
        for r in since
    ):
        return None
    source = _first_source(memory, fact)
    if source is None:
        return None
    where, told = fact.item.provenance[0], source.item.user_text
    if not 0 <= where.start < where.end <= len(told):
        return None
    return Statement(clipped(told[where.start : where.end]), source, 0, (where.start, where.end))


def _first_source(memory: MemoryService, fact: Recollection) -> Recollection | None:
    """The message ``fact`` was first learned from, if it is still remembered."""
    if not fact.item.provenance:
        return None
    try:
        return listed(memory.item(fact.item.provenance[0].episode_id))
    except MemoryNotFound:
        return None


def earlier_in_slot(
    memory: MemoryService, current: list[Recollection], excluded: Collection[str]
) -> list[Recollection]:
    """ "What was I before I became a manager?" names the new value, not the slot: the slot is
    that of the current fact saying it, and what came before is that slot's superseded facts."""
    keys = {r.item.subject_key for r in current if r.item.subject_key}
    if not keys:
        return []
    superseded = [
        item
        for item in memory.items(SEMANTIC, include_inactive=True)
        if item.status == SUPERSEDED and item.id not in excluded
    ]
    found = [listed(item) for item in superseded if item.subject_key in keys]
    if not found and keys & _WORK:
        # "which company did I leave?": the old job said where ("backend dev at Klarna")
        found = [listed(item) for item in superseded if item.subject_key in _WORK]
    return found


_WORK: Final = frozenset({"job", "employer"})
