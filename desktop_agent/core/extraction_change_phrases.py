"""Changes told in set phrases, read without the parser: "Not Tuesday, Thursday.", "I gave up on
Japanese, switched to Korean instead", "I've gone off sushi, pizza's my favourite now", "no more
running for me", "Nibbles passed away". ``extraction_changes`` reads the rest from the parse and
owns ``read``; both give the same ``Change``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Final, Literal

from desktop_agent.core.timeparse import WEEKDAYS

ChangeKind = Literal["end", "replace", "redate", "cancel"]


@dataclass(frozen=True, slots=True)
class Change:
    """One change the user told: ``old`` ended, or became ``new``; a plan moved to ``new``; an
    event called off (``cancel``: only the plans and goals naming it end)."""

    kind: ChangeKind
    old: str  # the word naming what changed ("Corolla"); empty for a new date
    new: str  # what replaces it ("Nissan Leaf"), or the new date ("June")
    span: tuple[int, int]  # in the user's message


# Objects too general to name what ended: "I left work early", "we lost it".
VAGUE: Final = frozenset(
    """work home house office school job early late it that this them him her everything
    something anything nothing lot bit time day way place thing things one""".split()
)


_MARKERS = r"(?:(?:oh|sorry|wait|no|nope|oops|whoops|correction|actually|my bad)[\s,:;!.-]+)*"
_VALUE = r"(?:on\s+|in\s+|at\s+)?(?P<{}>[\w'’-]+(?:\s+[\w'’-]+){{0,2}}?)"
_NOT_BUT = re.compile(
    rf"(?:^|(?<=[.!?]\s)){_MARKERS}(?:"
    rf"not\s+{_VALUE.format('old')}\s*[,;–—-]\s*(?:it's\s+|its\s+|it\s+is\s+|but\s+)?{_VALUE.format('new')}"
    rf"|(?:it's|its|it\s+is|that's|that\s+is)\s+(?:actually\s+|really\s+|in\s+fact\s+)?"
    rf"(?:the\s+|an?\s+)?{_VALUE.format('new2')}\s*,\s*not\s+(?:the\s+|an?\s+)?{_VALUE.format('old2')}"
    r")\s*[.!]*(?=\s|$|,)",
    re.IGNORECASE,
)


def _not_this_but_that(text: str) -> list[Change]:
    """ "Not Tuesday, Thursday.", "It's Thursday, not Tuesday": a value said earlier, put
    right on its own (the fact it corrects is found by the old value)."""
    found = []
    for match in _NOT_BUT.finditer(text):
        old, new = (
            match.group("old") or match.group("old2"),
            match.group("new") or match.group("new2"),
        )
        if old.casefold() != new.casefold() and old.casefold() not in VAGUE:
            found.append(Change("replace", old, new, (match.start(), match.end())))
    return found


_SWITCHED = re.compile(
    r"\bi(?:'ve|\s+have)?\s+(?:gave|given|give)\s+up\s+(?:on\s+)?(?P<old>[\w'’-]+(?:\s+[\w'’-]+)?)"
    r"\s*(?:,|;|and|,\s*and)\s*(?:i(?:'ve|\s+have)?\s+)?(?:switched|moved|changed|went)\s+(?:over\s+)?to\s+"
    r"(?P<new>[\w'’-]+(?:\s+(?!instead\b)[\w'’-]+)?)(?=\s+instead\b|\s*[.!,;]|\s*$)",
    re.IGNORECASE,
)


# "I've gone off sushi a bit, pizza's my favourite now": the new favourite replaces the old.
_GONE_OFF = re.compile(
    r"\b(?:gone|went|go)\s+(?:right\s+|a\s+bit\s+)?off\s+(?P<old>[\w'’-]+(?:\s+[\w'’-]+)??)"
    r"(?:\s+a\s+bit|\s+lately|\s+recently|\s+completely)?\s*(?:,\s*and|,|;|and)\s*(?:now\s+)?"
    r"(?P<new>[\w'’-]+(?:\s+[\w'’-]+)?)(?:'s|’s|\s+is)\s+(?:now\s+)?my\s+(?:new\s+)?fav(?:ou)?rite\b",
    re.IGNORECASE,
)
# "I've gone off Radiohead, these days it's all Fontaines D.C. for me", "I went off sushi, I'm
# more into ramen now": what the user likes now, said without the word "favourite".
_GONE_OFF_FOR = re.compile(
    r"\b(?:gone|went|go)\s+(?:right\s+|a\s+bit\s+)?off\s+(?P<old>[\w'’-]+(?:\s+[\w'’-]+)??)"
    r"(?:\s+a\s+bit|\s+lately|\s+recently|\s+completely)?\s*(?:,\s*and|,|;|and)\s*"
    r"(?:(?:these\s+days|nowadays|now)\s*,?\s*)?"
    r"(?:(?:it's|it’s|its|it\s+is)\s+all|i'm\s+(?:much\s+|way\s+)?more\s+into|i\s+prefer)\s+"
    r"(?P<new>[\w'’-]+(?:\s+[\w'’.-]+){0,2}?)\.?\s+(?:for\s+me|now|these\s+days|nowadays)\b",
    re.IGNORECASE,
)
# "I've upgraded my entry to the full marathon", "I switched to the night shift": the same
# thing of another kind, named by its head noun ("marathon" -> "full marathon").
_UPGRADED = re.compile(
    r"\b(?:upgraded|downgraded|switched|changed|swapped)\s+"
    r"(?:(?:my|our)\s+(?:entry|ticket|place|booking|registration|plan|package|membership|"
    r"subscription|contract|course)\s+)?(?:over\s+)?to\s+the\s+"
    r"(?P<mod>[A-Za-z][\w-]*)\s+(?P<head>[a-z][\w-]*)\b(?!\s+(?:of|to|for|with)\b)",
)
# "My doctor switched me from warfarin to apixaban", "we changed from Sky to Virgin".
_FROM_TO = re.compile(
    r"\b(?:switched|changed|moved|swapped)\s+(?:me\s+|us\s+|over\s+)?from\s+"
    # "from Hobart up to Launceston": the particle is the way, not part of the place
    r"(?P<old>[\w'’-]+(?:\s+(?!(?:up|down|over|back|across)\b)[\w'’-]+)?)\s+"
    r"(?:(?:up|down|over|back|across)\s+)?(?:to|for)\s+(?P<new>[\w'’-]+(?:\s+[\w'’-]+)?)"
    r"(?=\s+(?:last|this|yesterday|today|instead|recently|a\s|two\s|three\s)|\s*[.!,;]|\s*$)",
    re.IGNORECASE,
)


# Words after "to the" that say which one, not what kind: "switched to the other one".
_NOT_KINDS: Final = frozenset("other same new old next first last one".split())


def _switched(text: str) -> list[Change]:
    """ "I gave up on Japanese, switched to Korean instead", "switched me from warfarin to
    apixaban": one thing replaced by another."""
    said_again = (_IS_NOT, _TOLD_BUT, _SAID_BUT, _TAKEN_UP)
    return [
        Change("replace", m["old"], m["new"], (m.start(), m.end()))
        for pattern in (_SWITCHED, _FROM_TO, _GONE_OFF, _GONE_OFF_FOR, *said_again)
        for m in pattern.finditer(text)
        if m["old"].casefold() not in VAGUE and m["old"].casefold() != m["new"].casefold()
    ] + [  # the same head noun, another kind of it: "full marathon", "6th floor"
        Change("replace", m["head"], f"{m['mod']} {m['head']}", (m.start(), m.end()))
        for pattern in (_UPGRADED, _MEANT)
        for m in pattern.finditer(text)
        if m["head"].casefold() not in VAGUE and m["mod"].casefold() not in _NOT_KINDS
    ]


_STOPPED = re.compile(
    r"(?:\bno\s+more\s+(?P<more>[a-z][\w-]+)(?=\s+for\s+me\b)|"
    r"^(?:no\s+more\s+(?P<lead>[a-z][\w-]+))(?=\s+for\s+me\b|\s*[,.!])|"
    r"\bi(?:'ve|\s+have)?\s+(?:stopped|quit|given\s+up|gave\s+up)\s+(?P<ing>[a-z]+ing)\b)",
    re.IGNORECASE,
)


def _stopped(text: str) -> list[Change]:
    """ "No more running for me", "I've stopped cycling": what the user no longer does ends,
    named as said and by its base form ("running" -> "run", "cycling" -> "cycle"), so the fact
    "User runs marathons" is found too."""
    found = []
    for m in _STOPPED.finditer(text):
        word = (m.group("more") or m.group("lead") or m.group("ing")).casefold()
        if word in VAGUE:
            continue
        span = (m.start(), m.end())
        found += [Change("end", form, "", span) for form in _forms(word)]
    return found


def _forms(word: str) -> list[str]:
    if not word.endswith("ing") or len(word) < 6:
        return [word]
    stem = word[:-3]
    if len(stem) > 2 and stem[-1] == stem[-2] and stem[-1] not in "ls":
        return [word, stem[:-1]]  # running -> run, swimming -> swim
    if stem[-1] not in "aeiouy" and stem[-2] not in "aeiou":
        return [word, stem + "e"]  # cycling -> cycle
    return [word, stem]  # reading -> read


_DIED = re.compile(
    r"(?:^|(?<=[.!?]\s))(?P<name>[A-ZÀ-Ý][\w'’-]+)\s+(?:has\s+|sadly\s+)?(?:passed\s+away|died|"
    r"was\s+put\s+down|had\s+to\s+be\s+put\s+down|ran\s+away|went\s+missing)\b"
)


def _died(text: str) -> list[Change]:
    """ "Nibbles passed away last week": what was remembered about Nibbles ends (the name is a
    capitalised word that opens the sentence; what names no memory changes nothing)."""
    return [
        Change("end", m.group("name"), "", (m.start(), m.end()))
        for m in _DIED.finditer(text)
        if m.group("name").casefold() not in VAGUE | {"i", "he", "she", "it", "they", "we"}
    ]


# What "we broke up" ends: whoever the user's partner was (``revisions.naming`` knows the words).
PARTNER: Final = "partner"
# "Zoe and I broke up last month", "me and Dan split up": the parser reads the name as the
# head of the sentence and misses the verb's subject
# (typed in lower case too: "so tom and i broke up", "me and jonas split up")
_PARTED = re.compile(
    r"\b(?:(?!(?i:she|he|they|we)\b)[^\W\d_][\w'’-]*\s+and\s+(?i:i)|(?i:me)\s+and\s+"
    r"[^\W\d_][\w'’-]*)\s+(?i:have\s+|had\s+)?(?i:broke|broken|split)\s+(?i:up)\b"
    r"(?!\s+(?i:the|a|our)\b)|\b[A-ZÀ-Ý][\w'’-]+\s+and\s+I\s+"
    r"(?:have\s+|had\s+)?(?:separated|got\s+divorced)\b"
)


def _parted(text: str) -> list[Change]:
    return [Change("end", PARTNER, "", (m.start(), m.end())) for m in _PARTED.finditer(text)]


_A_THE = r"(?:an?\s+|the\s+)?"
_PHRASE = r"[\w'’-]+(?:\s+[\w'’-]+){0,2}?"
# "Biscuit is actually a guinea pig, not a hamster": the thing said again, as it really is.
_IS_NOT = re.compile(
    rf"\b(?:is|are|was)\s+(?:actually\s+|really\s+|in\s+fact\s+)?{_A_THE}(?P<new>{_PHRASE})\s*,\s*"
    rf"not\s+{_A_THE}(?P<old>{_PHRASE})\s*[.!]*(?=\s|$)",
    re.IGNORECASE,
)
# "Oops, I meant the 6th floor": the same thing, another one of its kind.
_MEANT = re.compile(
    rf"(?:^|(?<=[.!?]\s)){_MARKERS}i\s+meant\s+{_A_THE}(?P<mod>[\w'’-]+)\s+(?P<head>[a-z][\w-]*)"
    r"\s*[.!]*(?=\s|$)",
    re.IGNORECASE,
)
# "We had the Focus resprayed blue": the same car in another colour.
_RESPRAYED = re.compile(
    r"\b(?:had|got)\s+(?:the|my|our)\s+(?P<thing>[\w'’-]+)\s+(?:resprayed|repainted|painted)\s+"
    r"(?P<colour>[a-z]+)\b"
)


_DAY = rf"(?:{'|'.join(WEEKDAYS)})s?"
# "I've dropped the Wednesday swim, just Mondays now": a routine kept on the days left.
_DROPPED_DAY = re.compile(
    r"\b(?:dropped|ditched|stopped|cancelled|canceled|quit|given\s+up|gave\s+up)\s+(?:the|my|our)\s+"
    rf"(?P<day>{_DAY})\s+[a-z]+\b[^.!?]*?\b(?:just|only)\s+(?:on\s+)?"
    rf"(?P<days>{_DAY}(?:\s*(?:,|and|&)\s*{_DAY})*)",
    re.IGNORECASE,
)


# "I got a new job as a sous chef": the old workplace goes with the old job, unless named.
_NEW_JOB = re.compile(
    r"\b(?i:(?:got|started|landed|accepted|took|found)\s+(?:a\s+)?new\s+(?:job|role|position))\b"
    r"(?![^.!?]*\b(?:at|with|for|in)\s+(?:the\s+)?[A-Z])"
)


# Stand-ins for what a change names by its slot, not a word (``revisions.naming`` knows them).
COMMUTE: Final = "commute"  # "I work from home full-time now": the commute ends
SURNAME: Final = "surname"  # "my surname is now Patel": the name's last word
MEDICATION: Final = "medication"  # "my GP switched me to citalopram": the one medicine taken
_TOLD_BUT = re.compile(
    r"\bi\s+told\s+you\b[^.!?]*?\b(?P<old>[\w'’-]+)\s*,?\s+but\s+(?:it's|it’s|it\s+is|it\s+was|"
    r"that's|it's\s+really)\s+(?:actually\s+|really\s+)?(?P<new>[\w'’-]+(?:\s+[\w'’-]+)?)\s*[.!]*$",
    re.IGNORECASE,
)
# "I said Durham before but my MA is at Newcastle University": the name said instead
_SAID_BUT = re.compile(
    r"\b[Ii]\s+(?:said|put|wrote|typed)\s+(?P<old>[A-Z][\w'’-]+)\s+(?:before|earlier|there)?\s*,?\s*"
    r"but\b[^.!?]*?\b(?:is|are|was|it's|it’s|'s)\s+(?:at\s+|in\s+|actually\s+|really\s+)*"
    r"(?P<new>[A-Z][\w'’-]+(?:\s+[A-Z][\w'’-]+)?)",
)
_TAKEN_UP = re.compile(
    r"\b(?:given|gave)\s+up\s+(?P<old>[\w'’-]+)\s*(?:,\s*and|,|and)\s*(?:has\s+|have\s+|'s\s+|'ve\s+)?"
    r"(?:taken|took)\s+up\s+(?P<new>[\w'’-]+(?:\s+(?!now\b|instead\b)[\w'’-]+)?)",
    re.IGNORECASE,
)
_WORKS_FROM_HOME = re.compile(
    r"\b(?:i\s+)?(?:now\s+)?work\s+from\s+home\s+(?:full[\s-]time|permanently|every\s+day|now)",
    re.IGNORECASE,
)
_SURNAME = re.compile(
    r"\bmy\s+(?:sur|last\s+|family\s+)name\s+is\s+now\s+(?P<new>[A-Z][\w'’-]+)|"
    r"\bi(?:'ve|\s+have)?\s+changed\s+my\s+(?:sur|last\s+)name\s+to\s+(?P<to>[A-Z][\w'’-]+)",
)
_MEDICINE_SWITCH = re.compile(
    r"\b(?:gp|doctor|dr\s+\w+|consultant|psychiatrist|specialist|nurse|pharmacist)\s+(?:has\s+)?"
    r"(?:switched|changed|moved|put)\s+me\s+(?:on\s*)?(?:to\s+|onto\s+)(?P<new>[a-z][\w-]+)|"
    r"\b(?:switched|changed)\s+my\s+(?:medication|meds|prescription|tablets)\s+to\s+(?P<to>[a-z][\w-]+)",
    re.IGNORECASE,
)


def _by_slot(text: str) -> list[Change]:
    """Changes to what a slot holds, however it was said: a commute ended by working from
    home, a new surname, a medicine switched for another."""
    found = [
        Change("end", COMMUTE, "", (m.start(), m.end())) for m in _WORKS_FROM_HOME.finditer(text)
    ]
    found += [
        Change("replace", SURNAME, m["new"] or m["to"], (m.start(), m.end()))
        for m in _SURNAME.finditer(text)
    ]
    return found + [
        Change("replace", MEDICATION, m["new"] or m["to"], (m.start(), m.end()))
        for m in _MEDICINE_SWITCH.finditer(text)
        if (m["new"] or m["to"]).casefold() not in VAGUE | {"the", "a", "an", "some"}
    ]


def _said_again(text: str) -> list[Change]:
    """A new job with no workplace, a weekly day dropped, a thing in another colour."""
    found = [Change("end", "job", "", (m.start(), m.end())) for m in _NEW_JOB.finditer(text)]
    found += [
        Change("redate", m["day"].rstrip("sS"), m["days"], (m.start(), m.end()))
        for m in _DROPPED_DAY.finditer(text)
    ]
    return found + [
        Change("replace", m["thing"], f"{m['colour']} {m['thing']}", (m.start(), m.end()))
        for m in _RESPRAYED.finditer(text)
        if m["thing"].casefold() not in VAGUE
    ]


def phrased(text: str) -> list[Change]:
    """The changes told in set phrases in ``text`` (already normalised)."""
    return [
        *_not_this_but_that(text),
        *_switched(text),
        *_said_again(text),
        *_by_slot(text),
        *_stopped(text),
        *_died(text),
        *_parted(text),
    ]


__all__ = [
    "COMMUTE",
    "MEDICATION",
    "PARTNER",
    "SURNAME",
    "VAGUE",
    "Change",
    "ChangeKind",
    "phrased",
]
