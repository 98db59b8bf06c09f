"""When a clause says something happens: a habit ("every Tuesday"), a passing state ("this
week"), a date resolved forward ("on the 12th" -> "2026-12-12").
"""

from __future__ import annotations

import re

from desktop_agent.core import extraction_words as words
from desktop_agent.core.extraction_clauses import Token, _words
from desktop_agent.core.extraction_dates import resolve_date
from desktop_agent.core.timeparse import MONTHS, WEEKDAYS


def _transient(tokens: list[Token]) -> bool:
    for index, token in enumerate(tokens):
        if token.lower_ in words.TRANSIENT:
            return True
        after = tokens[index + 1].lower_ if index + 1 < len(tokens) else ""
        if token.lower_ == "this" and after in words.TRANSIENT_AFTER_THIS:
            return True
    return False


_DAY_RANGE = re.compile(
    r"\b(?:mon|tues|wednes|thurs|fri|satur|sun)days?\s+(?:to|through|-)\s+\w+day", re.I
)


def _habitual(head: Token, tokens: list[Token]) -> bool:
    if _DAY_RANGE.search(_words(tokens)):
        return True  # "I work Monday to Friday"
    if head.tag_ == "VBP" and re.search(r"(?i)\b(?:these\s+days|nowadays)\b", _words(tokens)):
        return True  # "These days I get the train to work": how things are now, no plan
    for token in tokens:
        lower = token.lower_
        if lower in words.FREQUENCY or lower in words.PLURAL_TIMES:
            return True
        if lower in ("day", "days", "week") and any(
            c.lower_ in ("most", "a", "per", "every", "each") for c in token.children
        ):
            return True
        if lower == "at" and any(c.like_num for c in token.children):
            return bool(head.tag_ == "VBP")
    return False


def _when(tokens: list[Token]) -> str:
    """When a clause says it happens: the date it names resolved forward ("on the 12th" ->
    "2026-12-12"), else its words of time ("every Tuesday at 7", "in the autumn")."""
    doc = tokens[0].doc
    first, last = tokens[0].i, tokens[-1].i
    dates = [
        e.text
        for e in doc.ents
        if first <= e.start <= last
        and (
            e.label_ in ("DATE", "TIME")
            or e.label_ == "ORDINAL"
            and e.start
            and doc[e.start - 1].lower_ == "the"
        )
    ]
    # "every Thursday evening" is a habit's time, not the date of next Thursday
    recurring = any(t.lower_ in ("every", "each") for t in tokens)
    resolved = resolve_date(" ".join(dates)) if dates and not recurring else ""
    if resolved:
        return resolved
    head = next(t for t in tokens if t.head.i == t.i or t.head.i < first or t.head.i > last)
    phrases = []
    for child in head.children:
        if child.dep_ in ("prep", "npadvmod", "advmod", "tmod") and _is_time(child):
            phrases.append(_words(list(child.subtree)))
    return " ".join(phrases) or " ".join(dates)


def _is_time(token: Token) -> bool:
    for item in token.subtree:
        lower = item.lower_
        if (
            lower in words.FREQUENCY
            or lower in words.PLURAL_TIMES
            or item.ent_type_ in ("DATE", "TIME")
        ):
            return True
        if lower in WEEKDAYS or lower in MONTHS or (item.like_num and token.lower_ in ("at", "by")):
            return True
        if lower in ("summer", "winter", "spring", "autumn", "fall"):
            return True
        if (
            lower in ("times", "once")
            or lower in ("day", "week", "month")
            and any(c.lower_ in ("a", "every", "per", "each") for c in item.children)
        ):
            return True
    return False
