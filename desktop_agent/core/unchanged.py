"""What the user said stayed the same: "same spin days tho", "date's unchanged", "rent stays the
same but it's due on the 5th now". Such a sentence is news of a change that left the thing
asked as it was; it names no value of it. Quoted for "what days do I have spin?", it answers
nothing. The value is in the user's words before it, which the quote gives instead.
"""

from __future__ import annotations

import re
from collections.abc import Collection
from dataclasses import replace
from typing import Final

from desktop_agent.core.grounding import content_words, stems
from desktop_agent.core.memory_model import EPISODIC
from desktop_agent.core.memory_service import MemoryService, Recollection
from desktop_agent.core.named_people import RECALL_DEPTH
from desktop_agent.core.questions import asks_the_past
from desktop_agent.core.statement_wording import AMOUNT_SAID, CODE_SAID, WHEN_SAID, kind_asked
from desktop_agent.core.statements import Statement, best_statement, parts_saying, said_before


def said_before_unchanged(
    memory: MemoryService,
    sentence: str,
    source: Recollection,
    question: str,
    excluded: Collection[str] = (),
) -> Statement | None:
    """The user's sentence, said before ``sentence`` (of ``source``), that says the value of
    the thing ``question`` asks when ``sentence`` only says it stayed the same; else None."""
    # (only for when, how much and a code: "rent stays the same" says nothing of whom it is
    # paid to; "same confirmation number at least" keeps the one told before)
    if kind_asked(question) not in (WHEN_SAID, AMOUNT_SAID, CODE_SAID) or asks_the_past(question):
        return None
    if not _says_unchanged(sentence, question):
        return None
    told_at = source.item.created_at
    earlier = [
        r
        for r in memory.search(question, limit=RECALL_DEPTH, kinds=(EPISODIC,), exclude=excluded)
        if r.item.created_at < told_at
    ]
    # by the question's words, else by the words of the news ("KE908 now leaves at 20:10.
    # date's unchanged" after "Korean Air KE908 out of Heathrow on 21 March")
    found = best_statement(question, earlier) or said_before(
        Statement(source.item.user_text, source, 0), earlier, content_words(question)
    )
    if found is None or _SAME.search(found.sentence):
        return None
    kind = kind_asked(question)
    if kind is None:
        return found
    # only what says the kind asked: the rest of the old sentence may be what changed
    says = _AN_AMOUNT if kind is AMOUNT_SAID else kind
    said = parts_saying(found.sentence, lambda part: says.search(part) is not None)
    return replace(found, sentence=said) if said else None


def _says_unchanged(sentence: str, question: str) -> bool:
    """Whether ``sentence`` says that what ``question`` asks stayed the same: a word asked
    within a few words of "same", "unchanged" or "stays", and none of the kind asked in its
    sentence ("same time 8.40" says the time)."""
    asked = content_words(question)
    kind = kind_asked(question)
    for said in _SAME.finditer(sentence):
        # (within its own sentence: "leaves at 20:10. date's unchanged" says no date)
        opening = re.split(r"[.!?;]\s", sentence[: said.start()])[-1]
        closing = re.split(r"[.!?;]\s", sentence[said.end() :])[0]
        before, after = opening.split()[-3:], closing.split()[:3]
        near = " ".join([*before, said.group(0), *after])
        if not stems(near) & asked:
            continue
        says = _AN_AMOUNT if kind is AMOUNT_SAID else kind  # ("due on the 5th" is no amount)
        if says is not None and says.search(f"{opening} {said.group(0)} {closing}"):
            continue  # its own sentence says it: "rent stays the same but it's due on the 5th"
        return True
    return False


# "same spin days", "the date stays the same", "date's unchanged", "as before"
_SAME: Final = re.compile(
    r"\b(?:same|unchanged|stays|staying|stayed|as\s+before|not\s+changed|hasn['’]t\s+changed)\b",
    re.IGNORECASE,
)
# A number that is an amount, not a day of the month ("5th").
_AN_AMOUNT: Final = re.compile(r"\b\d[\d.,]*\b")
