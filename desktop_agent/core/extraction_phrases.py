"""The phrases every extraction rule reads: what a rule yields (``Match``), the openings ("I'm"),
and the object phrases, names and articles after them. The rules themselves are grouped by noun
(``extraction_profile``, ``extraction_relations``, ``extraction_health``, ``extraction_work``,
``extraction_vehicles``) and gathered, in order, by ``extraction_rules``.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass

from desktop_agent.search.tokenize import STOPWORDS


@dataclass(frozen=True, slots=True)
class Match:
    type: str
    key: str
    value: str
    text: str
    confidence: float
    negated: bool = False
    correction: bool = False
    inferred: bool = False  # not said but implied ("a nurse at a clinic in Porto": based there)


Rule = Callable[[str], Iterator[Match]]


def _compile(pattern: str) -> re.Pattern[str]:
    return re.compile(pattern, re.IGNORECASE)


I_AM = r"(?:i'm|i am|im|i’m)"
ADVERBS = (
    r"(?:(?:really|absolutely|truly|just|also|still|genuinely|totally|kind of|kinda|do|so)\s+)*"
)
# Objects end where a new idea starts: a preposition, a conjunction, a time word.
_OBJECT_END = re.compile(
    r"\s+(?:in|on|at|with|for|during|every|when|because|but|so|since|if|though|although|from|"
    r"over|than|to|as|while|after|before|whenever|these|nowadays|now|anymore|any more|too|"
    r"either|lately|especially|it|which|who|that|last|next|this|yesterday|today|tomorrow)\b.*$"
    r"|[.!?,;:].*$",
    re.IGNORECASE,
)
# "I like that idea", "I love it", "I hate when...": not a stable object.
_VAGUE = re.compile(
    r"^(?:it|that|this|these|those|them|you|him|her|us|when|how|what|where|the idea|the way|"
    r"being|doing|having|one|ones|all of (?:it|them)|everything|anything|nothing|some|lots|"
    r"a lot|very much|so much)\b",
    re.IGNORECASE,
)
_DETERMINERS = re.compile(
    r"^(?:the|a|an|my|our|some|any|all|most|those|these|a bit of|a little|a little bit of|"
    r"some|lots of|a lot of|fluent|basic|good|very)\s+",
    re.IGNORECASE,
)
# (never "I" after it: "at the new flat in Aberdeen I can cycle ...")
_PLACE = (
    r"([A-ZÀ-Ý][\w'’.-]*(?:\s+(?:de |do |da |am |on |upon |of )?(?!I\b)[A-ZÀ-Ý][\w'’.-]*){0,3})"
)


def proper_noun(rest: str, clause: str) -> str | None:
    """A capitalised name at the start of ``rest``; in an all-lower-case message, up to three
    plain words (people type "i live in new york")."""
    rest = re.sub(r"^(?i:actually|really|now|still|just)\s+", "", rest)
    found = re.match(_PLACE, rest)
    if found:
        return found.group(1)
    # "I" and "I'm" are capitalised by normalisation; the rest of the message may be lower case.
    if re.sub(r"\bI(?=\b|'|’)", "i", clause) != clause.casefold():
        return None
    words = _OBJECT_END.sub("", rest.strip()).split()
    if not words or len(words) > 3 or words[0] in STOPWORDS:
        return None
    return " ".join(word.capitalize() for word in words)


def normalise_object(words: str) -> str:
    """A stable key part: lower case, no determiners, plural "s" dropped ("the Olives" -> "olive")."""
    text = words.strip().casefold()
    while True:
        stripped = _DETERMINERS.sub("", text)
        if stripped == text:
            break
        text = stripped
    return " ".join(_singular(word) for word in text.split())


def _singular(word: str) -> str:
    if len(word) > 3 and word.endswith("s") and not word.endswith(("ss", "us", "is", "'s")):
        return word[:-1]
    return word


def _object(text: str) -> str | None:
    """The object phrase at the start of ``text`` (at most five words), or None if vague."""
    text = _OBJECT_END.sub("", text.strip())
    text = re.sub(r"^to\s+", "", text, flags=re.IGNORECASE)
    if not text or _VAGUE.match(text):
        return None
    words = text.split()
    if len(words) > 5 or all(word.casefold() in STOPWORDS for word in words):
        return None
    return " ".join(words)


def _objects(text: str) -> list[str]:
    """Several objects joined by "and", "or" or commas: "jazz and old French films"."""
    text = re.sub(r"(?i)\s+(and|or)\s+to\s+", r" \1 ", text)  # "allergic to X and to Y"
    found: list[str] = []
    for index, piece in enumerate(text.split(",")):
        piece = re.sub(r"^\s*(?:and|or)\s+", "", piece, flags=re.IGNORECASE)  # Oxford comma
        head = _OBJECT_END.sub("", piece.strip())
        if index and (len(head.split()) > 5 or _NOT_LISTED.match(head)):
            break
        parts = re.split(r"\s+(?:and|or|&)\s+", head, flags=re.IGNORECASE)
        found += [obj for part in parts if part and (obj := _object(part))]
        if head != piece.strip():
            break  # the list ended inside this piece: "peanuts in summer, ..."
    return found


# After a comma, what starts a new clause rather than the next item of a list.
_NOT_LISTED = re.compile(
    r"^(?:i|i'm|i’m|my|we|our|you|he|she|it|they|this|that|there|but|so|then|please|also|"
    r"especially|except|not|which|who)\b",
    re.IGNORECASE,
)


def _slug(text: str, words: int = 4) -> str:
    content = [w for w in re.findall(r"[\w'-]+", text.casefold()) if w not in STOPWORDS]
    return " ".join(content[:words])


def _a(phrase: str) -> str:
    # "teaching maths" is an activity; "a learning designer", "a nursing assistant" are jobs
    person = re.search(r"(?:er|or|ist|ant|ian|ent|ive|lead|nurse|head)$", phrase.split()[-1])
    if re.match(r"(?i:\w+ing\b)", phrase) and not (person and len(phrase.split()) > 1):
        return phrase
    first = phrase.split()[0] if phrase.split() else ""
    if len(first) > 1 and first.isupper():  # said letter by letter: "a UX designer", "an MP"
        return f"{'an' if first[0] in 'AEFHILMNORSX' else 'a'} {phrase}"
    return f"{'an' if phrase[:1].casefold() in 'aeiou' else 'a'} {phrase}"


def third_singular(verb: str) -> str:
    """ "bake" -> "bakes", "fix" -> "fixes", "study" -> "studies", "have" -> "has"."""
    lower = verb.casefold()
    irregular = {"be": "is", "have": "has", "do": "does", "go": "goes", "am": "is", "are": "is"}
    if lower in irregular:
        return irregular[lower]
    if lower.endswith(("s", "sh", "ch", "x", "z", "o")):
        return verb + "es"
    if lower.endswith("y") and len(lower) > 1 and lower[-2] not in "aeiou":
        return verb[:-1] + "ies"
    return verb + "s"


# "in Walkley, Sheffield": a district and its city, said as one place.
_AND_ITS_CITY = re.compile(
    r",\s+(?P<city>[A-ZÀ-Ý][\w'’-]+(?:\s+[A-ZÀ-Ý][\w'’-]+)?)"
    r"(?=\s*$|\s*[.!?;:,)]|\s+[-–—]|\s+(?:now|last|this|since|for|these|with)\b)"
)


def with_its_city(place: str, text: str) -> str:
    """``place`` with the city said after it in ``text`` ("Walkley" -> "Walkley, Sheffield"),
    else ``place``."""
    at = text.find(place)
    found = _AND_ITS_CITY.match(text, at + len(place)) if at >= 0 else None
    if found:
        return f"{place}, {found['city']}"
    # "officially a Sheffield resident now! new place is in Kelham Island"
    local = city_local(text)
    return f"{place}, {local}" if local and local != place else place


def city_local(text: str) -> str | None:
    """The city ``text`` says the user is now of ("officially a Sheffield resident now",
    "we're Glasgow people now"), or None."""
    found = _CITY_LOCAL.search(text)
    if found is None:
        return None
    sentence_end = re.search(r"[.!?]", text[found.end() :])
    rest = text[found.end() : found.end() + sentence_end.start() if sentence_end else len(text)]
    said_now = found["lead"].strip().casefold() in ("officially", "now", "finally")
    return found["city"] if said_now or re.search(r"\b(?:now|officially)\b", rest, re.I) else None


# "officially a Sheffield resident now", "we're Glasgow people now": the city the user is of
_CITY_LOCAL = re.compile(
    r"(?P<lead>\b(?i:officially|now|finally)\s+|(?i:\b(?:i['’]m|i\s+am|we['’]re|we\s+are)\s+))"
    r"(?:(?i:an?|proper|true|real)\s+)*(?P<city>(?!I\b)[A-ZÀ-Ý][\w'’-]+(?:\s+[A-ZÀ-Ý][\w'’-]+)?)\s+"
    r"(?i:residents?|locals?|people|person|girl|boy|gal|lad|family|household)\b"
)
