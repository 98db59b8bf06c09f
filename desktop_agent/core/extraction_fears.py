"""Extraction rule for what the user is afraid of: "I'm terrified of flying", "I have a phobia
of spiders", "Heights scare me". A fear shapes advice (the train, not the plane), so it is
kept as its own slot, one per thing feared.

Same contract as ``extraction_rules``: each rule reads one clause anchored at its subject.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Final

from desktop_agent.core.extraction_phrases import I_AM, Match, _compile, normalise_object

_AFRAID: Final = r"(?P<adjective>terrified|scared|afraid|frightened|petrified|fearful)"
_FEAR = _compile(
    rf"(?:{I_AM}|i've\s+always\s+been|i\s+have\s+always\s+been|i've\s+been|i\s+was\s+always)\s+"
    r"(?:(?:really|so|very|absolutely|totally|deathly|always|still|quite|a\s+bit|kind\s+of)\s+)*"
    rf"{_AFRAID}\s+of\s+(?P<what>.+)$"
    r"|i\s+(?:have|'ve\s+got|have\s+got|'ve\s+always\s+had|have\s+always\s+had)\s+"
    r"an?\s+(?:(?:real|serious|terrible|huge|bad|irrational)\s+)?(?:phobia|fear)\s+of\s+"
    r"(?P<what2>.+)$"
)
_SCARES_ME = re.compile(
    r"^(?P<what>[\w'’ -]{3,30}?)\s+(?i:terrify|terrifies|scare|scares|frighten|frightens)\s+"
    r"(?i:me)(?:\s+(?i:to\s+death|so\s+much|a\s+lot))?$",
)
# "I'm scared of missing the train tomorrow" is a worry of the day, not a fear to remember.
_OF_THE_DAY: Final = re.compile(
    r"\b(?:tomorrow|today|tonight|this\s+(?:week|weekend|morning|evening)|next\s+week)\b",
    re.IGNORECASE,
)
_OBJECT_END: Final = re.compile(
    r"\s*(?:,|;|\bso\b|\bbut\b|\bbecause\b|\bsince\b|\band\s+(?:i|so)\b).*$", re.IGNORECASE
)


def fear(clause: str) -> Iterator[Match]:
    """A fear the user lives with, in their words: "User is terrified of flying"."""
    body = clause.strip().rstrip(".!")
    if _OF_THE_DAY.search(body):
        return
    found = _FEAR.match(body)
    if found:
        what = _OBJECT_END.sub("", found.group("what") or found.group("what2")).strip()
        adjective = (found.group("adjective") or "afraid").casefold()
        text = f"User is {adjective} of {what}"
    elif scared := _SCARES_ME.match(body):
        what = scared.group("what").strip()
        if what.casefold().split()[0] in ("it", "that", "this", "he", "she", "they", "you"):
            return
        text = f"User is scared of {what[:1].lower()}{what[1:]}"
    else:
        return
    if not what or len(what.split()) > 5:
        return
    yield Match("fact", f"fear:{normalise_object(what)}", what, text, 0.85)


__all__ = ["fear"]
