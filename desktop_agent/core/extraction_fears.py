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


# What people commonly fear, for the ways of saying it that name no fear: "heights are my
# absolute nightmare", "I can't do heights", "I'm claustrophobic", "I get vertigo".
_FEARED: Final = (
    r"(heights|flying|planes|deep\s+water|open\s+water|water|lifts|elevators|"
    r"small\s+spaces|tight\s+spaces|enclosed\s+spaces|crowds|needles|spiders|snakes|horses|"
    r"boats|the\s+dark|roller\s*coasters|tunnels|caves)"
)
_NIGHTMARE = _compile(
    rf"(?P<feared>{_FEARED})\s+(?:is|are)\s+(?:literally\s+)?my\s+(?:(?:absolute|worst|biggest|actual|"
    r"total)\s+)*(?:nightmare|phobia|fear)\b"
    rf"|i\s+(?:can't|cannot|can’t|could\s+never|can\s+never)\s+(?:even\s+)?"
    rf"(?:do|handle|cope\s+with|deal\s+with)\s+(?P<feared2>{_FEARED})(?=\s*$|\s*[,.;!]|\s+(?:at\s+all|either)\b)"
)
# A fear said as what one is: "I'm claustrophobic", "I get vertigo", "I'm a nervous flyer".
_FEAR_BY_NAME: Final = {
    "claustrophobic": "enclosed spaces",
    "vertigo": "heights",
    "nervous flyer": "flying",
    "nervous flier": "flying",
    "acrophobic": "heights",
    "aerophobic": "flying",
}
_I_HAVE_IT = _compile(
    rf"(?:{I_AM}|i\s+get|i\s+have|i've\s+got|i\s+suffer\s+from)\s+(?:(?:really|so|very|quite|"
    r"a\s+bit|badly|terribly|bad|awful|severe|a|an)\s+)*(?P<name>claustrophobic|vertigo|"
    r"nervous\s+fl[iy]er|acrophobic|aerophobic)\b"
)


def fear(clause: str) -> Iterator[Match]:
    """A fear the user lives with, in their words: "User is terrified of flying"."""
    body = clause.strip().rstrip(".!")
    if _OF_THE_DAY.search(body):
        return
    found = _FEAR.match(body)
    named = _NIGHTMARE.search(body) or _I_HAVE_IT.search(body)
    if found is None and named is not None:
        if named.groupdict().get("name"):
            what = _FEAR_BY_NAME[" ".join(named["name"].casefold().split())]
        else:
            what = " ".join((named["feared"] or named["feared2"]).casefold().split())
        yield Match(
            "fact", f"fear:{normalise_object(what)}", what, f"User is afraid of {what}", 0.8
        )
        return
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
