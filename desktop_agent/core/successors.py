"""Someone who did a job for the user left, and the one after them is named: "my GP retired" |
"The new one is Dr Farah"; "Dave's stepped down as coach. Femi Adebayo has taken over"; "Jake's
moving to Dubai so I've been handed over to Siobhan". The successor's sentence rarely says the
role; the departure does, or the one who left is known by it ("my manager is Karen Doyle").
A successor is read only with a departure before it (in the message or the one before), or
when the user says whose they are ("my new dentist is ..."), so a newcomer beside an old hand
("the new receptionist is Sandra") replaces nobody; and only in a role someone does for the
user (a dentist, a landlord, a manager), never a relation ("my mum passed away" makes nobody
else the mother).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Final

from desktop_agent.core.extraction_words import CARERS


@dataclass(frozen=True)
class Successor:
    """``name`` does now what ``role`` did; ``start``-``end``: where the message names them."""

    role: str
    name: str
    start: int
    end: int


# The roles of people who do something for the user, by which a successor is named.
_ROLE_WORDS: Final = tuple(
    sorted(
        CARERS
        | set(
            "manager boss supervisor landlord landlady cleaner nanny childminder babysitter pt "
            "instructor accountant solicitor lawyer mechanic gardener dogwalker".split()
        )
        | {"team lead", "team leader"},
        key=len,
        reverse=True,
    )
)
ROLE: Final = (
    r"(?:(?:personal|piano|driving|swimming|music|maths|math|guitar|line|dog|family)\s+)?"
    rf"(?:{'|'.join(_ROLE_WORDS)})(?:\s+walker)?"
)
_TITLE: Final = r"(?:(?:Dr|Mr|Mrs|Ms|Mx|Prof)\.?\s+)"
_NAME: Final = rf"{_TITLE}?[A-ZÀ-Ý][\w'’-]+(?:\s+[A-ZÀ-Ý][\w'’-]+){{0,2}}"
# Capitalised words that name nobody.
_NOT_NAMES: Final = frozenset(
    "i i'm i've the she he they it we you my our this that so and but anyway monday tuesday "
    "wednesday thursday friday saturday sunday january february march april may june july "
    "august september october november december".split()
)
_SAID: Final = {"pt": "personal trainer", "gp": "GP"}

# Leaving the role: "retired", "handed in her notice", "is moving to Dubai", "sold the flat",
# "is going on maternity leave", "stepped down as coach".
_LEAVES: Final = (
    # (not "left early", "left me a voicemail", "is leaving at 5": the day, not the role)
    r"(?:retir\w*|(?:left|leaving)\b(?!\s+(?:early|late|work|the\s+office|for\s+the\s+day|home|"
    r"town|at\s|by\s|soon|now|today|tonight|a\s+(?:message|note|voicemail)|it|me|us|them|him|"
    r"her|you)\b)|quit\w*|resign\w*|handed\s+in\s+(?:his|her|their)\s+notice|"
    r"gave\s+(?:in\s+)?(?:his|her|their\s+)?notice|stepp\w*\s+down|sold|selling|emigrat\w*|"
    r"relocat\w*|(?:moved|moving)\s+(?:away|abroad|to|into|up|down|back|out|over)\b"
    # (not "moved to a new building": the practice moved, with them)
    r"(?!\s+(?:a|the)\s+(?:new|bigger|smaller)\s+(?:building|office|premises|practice|clinic|"
    r"surgery|site|room|unit)\b)|"
    r"(?:going|gone|went|off)\s+on\s+(?:\w+\s+)?leave|passed\s+away|died|"
    r"(?:got|took|taking|taken|accepted)\s+(?:a|another)\s+(?:new\s+)?(?:job|post|role)\b|"
    r"(?:took|taken|taking)\s+(?:voluntary\s+)?redundancy|(?:made|being)\s+redundant|"
    r"laid\s+off|let\s+go\b|(?:got\s+)?(?:sacked|fired))"
)
_FILLER: Final = r"(?:\s+(?:has|had|is|was|just|finally|actually|officially|now|suddenly))*"
_ROLE_LEAVES: Final = re.compile(
    rf"\b(?:my|our|the|his|her|their|[\w'’]+['’]s)\s+(?:old\s+|usual\s+|regular\s+)?"
    rf"(?P<role>{ROLE})(?:['’]s)?{_FILLER}\s+{_LEAVES}"
    rf"|\bstepp\w*\s+down\s+as\s+(?:(?:the|his|her|our|my)\s+)?(?P<as>{ROLE})\b"
    # "I finally switched dentists": the one before is left
    rf"|\b(?:switch|switched|switching|changed|changing|swapped)\s+(?P<switched>{ROLE})s\b",
    re.IGNORECASE,
)
_NAME_LEAVES: Final = re.compile(
    rf"(?P<name>{_NAME})(?:['’]s)?{_FILLER}\s+(?i:{_LEAVES})",
)

# Naming the one after: "the new one is Dr Farah", "our new manager started this week, Tom
# Bakshi", "the new owner is a company, Keystone Lettings", "Femi has taken over", "I've been
# handed over to Siobhan", "I'm seeing Gareth Lloyd while she's off", "we've gone with Mr
# Lindqvist".
_NEW_ONE: Final = re.compile(
    rf"\b(?P<det>(?i:the|my|our|a|his|her|their))\s+(?i:new)\s+(?P<role>(?i:one|owner|person|guy|lady|woman|"
    rf"man|bloke|{ROLE}))"
    r"(?:(?:\s+(?i:is|was|will\s+be)|['’]s)\s+(?i:called\s+|named\s+)?"
    r"(?:(?i:an?)\s+[a-z][\w\s-]{0,30}?,\s+(?i:called\s+|named\s+)?)?"
    r"|\s+(?i:started|starts|arrived|joined|came|began)\b[^,.!?]{0,30},\s+"
    r"|,\s+)"
    rf"(?P<name>{_NAME})"
)
_AFTER: Final = re.compile(
    # ("Marcus Olsen from the platform team is taking over")
    rf"(?P<name>{_NAME})(?:\s+(?i:from|of|at|in)\s+(?:the\s+)?[a-z][\w\s'’-]{{0,30}}?)?"
    r"\s+(?i:(?:has|had|is|will)\s+)?(?i:(?:taken|took|taking|take)\s+over|"
    r"covering|filling\s+in|stepping\s+in|stepped\s+in|replaced|replacing)\b"
    r"|\b(?i:(?:handed|passed)\s+(?:me\s+|us\s+)?(?:over|on)|(?:handed|passed|transferred|"
    r"moved|switched|referred)\s+(?:me|us)(?:\s+over|\s+on)?)\s+(?i:to)\s+"
    rf"(?:(?i:one\s+of\s+[\w\s'’-]{{0,40}}?,\s+|(?:an?|the)\s+[\w\s'’-]{{0,30}}?,\s+))?(?P<to>{_NAME})"
    rf"|\b(?i:i['’]?m|i\s+am|we['’]re|we\s+are|i['’]ve\s+been|we['’]ve\s+been|(?:now\s+)?(?:i|we)\s+"
    r"(?=(?:go\s+to|see)\s))\s*(?i:now\s+)?"
    r"(?i:seeing|see|with|go\s+to|going\s+to|booked\s+in\s+with|(?:re)?assigned\s+to|allocated\s+to|"
    rf"under)\s+(?:(?i:an?)\s+)?(?P<seeing>{_NAME})"
    rf"|\b(?i:we['’]ve|i['’]ve|we|i)\s+(?i:gone|went|decided\s+to\s+go)\s+(?i:with)\s+"
    rf"(?P<chose>{_NAME})"
)
# (not ended by the dot of a title: "I'm now with a Dr. Lindqvist")
_SENTENCE: Final = re.compile(r"(?:\b(?:Dr|Mr|Mrs|Ms|Mx|Prof|St)\.|[^.!?\n])+[.!?]*")


def successors(message: str, before: str, known: Mapping[str, str]) -> list[Successor]:
    """Who ``message`` names as doing now what someone who left did (told in ``message`` or in
    ``before``, the message just before it); ``known``: the user's people by name ("karen
    doyle" -> "boss")."""
    left = _departures(before, known)
    found = []
    for sentence in _SENTENCE.finditer(message):
        left += _departures(sentence.group(), known)
        named = _successor(sentence.group(), [role for role, _ in left])
        if named is None:
            continue
        role, name = named
        if all(_first(name) != _first(gone) for _, gone in left if gone):
            found.append(Successor(role, name, sentence.start(), sentence.end()))
    return found


def roles_named(texts: Iterable[str]) -> dict[str, str]:
    """People named with their role in ``texts`` ("User trains at PureGym with a PT called
    Jake", "User sees a therapist, Ines Moreau, ..."): name (casefolded) -> role."""
    return {
        match["name"].casefold(): _said(match["role"])
        for text in texts
        for match in _ROLE_NAMED.finditer(text)
    }


_ROLE_NAMED: Final = re.compile(
    rf"\b(?P<role>(?i:{ROLE}))(?:\s*,\s*|\s+(?i:called|named|is)\s+){_TITLE}?"
    r"(?P<name>[A-ZÀ-Ý][\w'’-]+(?:\s+[A-ZÀ-Ý][\w'’-]+)?)"
)


def _departures(text: str, known: Mapping[str, str]) -> list[tuple[str, str]]:
    """(role, name or "") of each one ``text`` says left, in order."""
    found = []
    for match in _ROLE_LEAVES.finditer(text):
        found.append((match.start(), _said(match["role"] or match["as"] or match["switched"]), ""))
    for match in _NAME_LEAVES.finditer(text):
        name = _bare(match["name"])
        role = _role_of(name, known)
        if not re.fullmatch(ROLE, role, re.IGNORECASE):
            continue  # unknown, or a friend, a sister: no one takes their place
        if not any(start <= match.start() < start + 80 for start, _, _ in found):
            found.append((match.start(), role, name))
    return [(role, name) for _, role, name in sorted(found)]


def _bare(name: str) -> str:
    """ "Anyway Karen" -> "Karen", "Dr Pike" -> "Pike", "Ray's" -> "Ray"."""
    words = re.sub(rf"['’]s$|^{_TITLE}", "", name).split()
    while words and words[0].casefold() in _NOT_NAMES:
        words.pop(0)
    return " ".join(words)


def _first(name: str) -> str:
    words = _bare(name).casefold().split()
    return words[0] if words else ""


def _role_of(name: str, known: Mapping[str, str]) -> str:
    words = name.casefold().split()
    if not words:
        return ""
    for person, role in known.items():
        parts = person.split()
        if person == " ".join(words) or words[0] in (parts[0], parts[-1]):
            return role
    return ""


def _successor(sentence: str, left: list[str]) -> tuple[str, str] | None:
    new = _NEW_ONE.search(sentence)
    # "her new coach is ...": someone else's; "the new teacher is ..." without anyone who left
    # may be anyone's (the child's teacher in a new class), "my new dentist is ..." the user's
    det = new["det"].casefold() if new is not None else ""
    if new is not None and (name := _named(new["name"])) and det not in ("his", "her", "their"):
        mine = det in ("my", "our")
        if re.fullmatch(ROLE, new["role"], re.IGNORECASE) and (left or mine):
            # (the role of the one who left, as known, unless the user says whose new one)
            return (_said(new["role"]) if mine or not left else left[-1]), name
        if left:
            return left[-1], name
    after = _AFTER.search(sentence)
    if after is None or not left:
        return None
    name = next(n for n in (after["name"], after["to"], after["seeing"], after["chose"]) if n)
    return (left[-1], _named(name)) if _named(name) else None


def _named(name: str) -> str:
    """The name as said, with its title and without a possessive "'s" or a capitalised word
    before it that names nobody ("Anyway Karen"); "" when nothing of it names anyone."""
    words = re.sub(r"['’]s$", "", name).split()
    while words and words[0].casefold() in _NOT_NAMES:
        words.pop(0)
    return " ".join(words) if _bare(" ".join(words)) else ""


def _said(role: str) -> str:
    role = " ".join(role.split())
    return _SAID.get(role.casefold(), role.casefold())
