"""Questions that lean on the one before. Whom "she" or "he" means: "What date is Keanu's
birthday?" then "What kind of music is he into?" is read with the one person the user's message
before it named, by a name the memory knows or as "my <relation>". And what "it" means: "And
what was it before the doctor changed it?" is read together with the question about the user
before it (``following_up``).

Only a sure reading is made: the question names nobody itself, the message before named exactly
one person, and the pronoun fits the relation ("she" is never the brother). Otherwise the
question is left as asked.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Final

from desktop_agent.core.extraction_words import FEMALE, MALE, PET_WORDS, PETS, RELATIONS
from desktop_agent.core.grounding_words import content_words
from desktop_agent.core.questions import about_user, asks_only, asks_the_past

PRONOUN: Final = re.compile(r"\b(?:he|she|him|his|her)\b", re.IGNORECASE)
# "my sister", "my little brother's", "our dog": the relation is the first or second word
_MY_RELATION: Final = re.compile(r"\b(?:my|our)\s+([\w'’-]+)(?:\s+([\w'’-]+))?", re.I)
# After "her", these say it is the object ("tell her about"), not whose ("her job").
_AFTER_OBJECT: Final = frozenset(
    "to for about with at from into on in before after up now again these lately".split()
)
_WORD: Final = re.compile(r"[\w'’-]+")


def resolved(
    question: str, before: str | None, people: Mapping[str, str], earlier: Sequence[str] = ()
) -> str:
    """``question`` with its pronoun replaced by the person ``before`` named, when sure.
    ``people``: the names the memory knows -> their relation ("ana" -> "sister"). When
    ``before`` names no one and leans on a pronoun itself, the messages ``earlier`` (oldest
    first) may: "what day does rosa come?" | "how much do we pay her now?" | "how many hours
    does she do?"."""
    if not before or not PRONOUN.search(question) or _names_someone(question, people):
        return question
    referent = _one_person(before, people)
    if referent is None and earlier and PRONOUN.search(before):
        return resolved(question, earlier[-1], people, earlier[:-1])
    if referent is None:
        return question
    words, relation = referent
    female = {w.casefold() for w in PRONOUN.findall(question)} & {"she", "her"}
    if relation in (MALE if female else FEMALE):
        return question
    return PRONOUN.sub(lambda m: _replaced(m, question, words), question)


def _replaced(match: re.Match[str], question: str, words: str) -> str:
    pronoun = match.group(0).casefold()
    if pronoun == "his":
        return f"{words}'s"
    if pronoun == "her":
        return f"{words}'s" if _whose(question, match) else words
    return words


def _names_someone(question: str, people: Mapping[str, str]) -> bool:
    said = {w.casefold() for w in _WORD.findall(question)}
    return bool(said & set(people)) or any(_relation(m) for m in _MY_RELATION.finditer(question))


def _relation(match: re.Match[str]) -> tuple[str, str] | None:
    """The relation "my ..." names and its word: ("sister", "sister") for "my big sister's"."""
    for word in match.groups():
        said = re.sub(r"['’]s$", "", word or "").casefold()
        if relation := RELATIONS.get(said) or PETS.get(said):
            return relation, said
    return None


def _one_person(message: str, people: Mapping[str, str]) -> tuple[str, str] | None:
    """The words for the one person ``message`` names, and their relation; None for none or
    for two."""
    named: dict[str, str] = {}  # relation -> the words for them
    for word in _WORD.findall(message):
        name = re.sub(r"['’]s$", "", word)
        lower = message == message.casefold()  # "when does mateo have swim class now?"
        if (name[:1].isupper() or lower) and (relation := people.get(name.casefold())):
            named.setdefault(relation, name)
    for match in _MY_RELATION.finditer(message):
        found = _relation(match)
        if found and found[0] not in ("kids", "parents", "twins"):
            named.setdefault(found[0], f"my {found[1]}")
    if len(named) != 1:
        return None
    relation, words = next(iter(named.items()))
    return words, relation


# A question that leans on the one before: "And what was it before the doctor changed it?"
_LEANING: Final = re.compile(
    r"^\s*(?:and|so|what\s+about|how\s+about)\b|\b(?:before|previously|originally|earlier|"
    r"at\s+first|first\s+(?:started|began|got))\b",
    re.IGNORECASE,
)
# ... and says what it asks of by pointing back: "what dose was I on before the doctor changed
# it?", "and which one did I have before that?", "what was I paying for it before the hike?"
_BACK_TO: Final = re.compile(
    r"\b(?:changed|moved|switched|raised|upped|started|for|on|of|with)\s+it\b|"
    r"\b(?:which|this|that)\s+one\b",
    re.I,
)


def following_up(question: str, before: str | None) -> str | None:
    """``question`` read with the question about the user before it, when it says nothing of
    the user itself and leans on that one ("and what was it before?"); None otherwise. Both
    questions together say what is asked and when."""
    if not before or not _LEANING.search(question):
        return None
    if (
        about_user(question) is not None
        and not _BACK_TO.search(question)
        and content_words(question)
    ):
        # "where was I living before Hamar?" says all it asks; "who were we with before?"
        # says nothing but whom
        return None
    if any(w[:1].isupper() and w != "I" for w in _WORD.findall(question)[1:]):
        return None  # "What did Gloria do before she retired?" says whom it asks about
    if about_user(before) is None:
        return None
    joined = f"{before.strip()} {question.strip()}"
    return joined if about_user(joined) is not None else None


# ---------------------------------------------------------------- follow-ups by pointing back

# A question that points back at what the question before asked of: "and what time is that?",
# "where is it?", "how much does it cost me?", "what breed is he again?", "where's her office?"
_POINTER: Final = re.compile(
    r"\b(?:it|there|he|she|him|her|his|they|them|their|its)\b|"
    # "that" as a thing, not as what joins ("the bakery that's my first client")
    r"\b(?:that|this)\b(?=(?:\s+(?:at|in|on|for|from|with|again|then|now))?\s*[?.!]*\s*$)",
    re.IGNORECASE,
)
# ... or says nothing but its frame: "what time?", "and where?", "how much?"
_ONLY_FRAME: Final = re.compile(
    r"^\s*(?:(?:and|so|ok|okay|also|oh)\b[\s,]*)*(?P<frame>(?:what|which|when|where|who|how)"
    r"(?:\s+(?:time|day|date|much|many|long|old|often|year|month))?)\s*(?:again|then|now)?"
    r"\s*[?.!]*\s*$",
    re.IGNORECASE,
)
_OPENING: Final = re.compile(r"^\s*(?:(?:and|so|ok|okay|also|oh|remind\s+me)\b[\s,]*)*", re.I)
_WH: Final = re.compile(r"(?P<wh>what|which|who|whose|when|where|how)\b", re.IGNORECASE)
_AUX_WORDS: Final = "is are was were do does did am will would has have had can could should"
_AUX: Final = re.compile(rf"(?:['’](?:s|re)\b|\s+(?:{'|'.join(_AUX_WORDS.split())})\b)", re.I)
# The kind of answer "what time is ..." asks, not a thing it points at.
_KIND_NOUNS: Final = frozenset(
    "time day days date year month kind type sort breed colour color size dose price age "
    "number much many long old often far name evening morning night week".split()
)
_AFTER_THING: Final = re.compile(
    r"(?:\s+(?:again|now|then|these\s+days|at\s+the\s+moment|right\s+now|currently|"
    r"nowadays|exactly))+\s*$",
    re.IGNORECASE,
)
_SUBJECT: Final = re.compile(r"^(?:i|we|you)\b", re.IGNORECASE)
# Whom "he" or "she" can mean in what was asked of: "the pup", "my grandma", "Ava"
_ONE_OF_US: Final = re.compile(
    r"(?:^|(?<=\s))(?:(?:my|our|the)\s+(?:[a-z][\w-]*\s+)??[a-z][\w-]*|[A-ZÀ-Ý][\w-]+)(?=['’]s\b|\s|$)"
)
_THE_NAME_OF: Final = re.compile(r"^the\s+name\s+of\s+", re.IGNORECASE)
# The past is asked by the questions ``following_up`` reads ("and who did I see before her?").
_PAST: Final = re.compile(
    r"\b(?:before|previously|originally|earlier|used\s+to|at\s+first)\b", re.IGNORECASE
)
_MAX_WORDS: Final = 10


def leaning_on(question: str, earlier: list[str]) -> str | None:
    """``question`` with what it points back at put in its place, from the question before it
    (``earlier``: the user's messages before, oldest first): "and what time is that?" after
    "when is the pup going in to get looked at?" -> "what time is the pup going in to get
    looked at?"; None when it does not lean on one."""
    if not earlier or len(_WORD.findall(question)) > _MAX_WORDS:
        return None
    if _PAST.search(question) or asks_the_past(question):
        # "how much rent was I paying back there?": the past, read by ``following_up``
        return None
    if any(w[:1].isupper() and w != "I" for w in _WORD.findall(question)[1:]):
        return None  # "where does Tomasz work?" says whom it asks of
    frame = _ONLY_FRAME.match(question)
    if frame is None and not _POINTER.search(question):
        return None
    before = leaning_on(earlier[-1], earlier[:-1]) or earlier[-1]
    if not asks_only(before) or about_user(before) is None and not _OURS.search(before):
        return None
    if asks_the_past(before) or re.search(r"\bback\s+(?:there|then)\b", question, re.I):
        return None  # "which area was I living in?" then "how much was I paying back there?"
    asked = _asked_of(before)
    if asked is None:
        return None
    thing, person = asked
    if frame is not None:
        return f"{frame.group('frame')} is {thing}?"
    text = _OPENING.sub("", question)
    pointer = _POINTER.search(text)
    assert pointer is not None  # the question had one, and the opening holds none
    word = pointer.group(0).casefold()
    if word in ("it", "that", "this"):
        put = thing
    elif word == "there":
        if _WHEN_DOES.match(before):
            # "when does my contract finish?" names no place: not "at my contract finish"
            return None
        put = f"at {thing}"
    elif word in ("his", "its", "their") or word == "her" and _whose(text, pointer):
        following = _WORD.match(text, pointer.end() + 1)
        if following is None:
            return None
        owned, rest = following.group(0), text[following.end() :]
        if " " in person and not _ONE_OF_US.fullmatch(person):
            return f"{text[: pointer.start()]}the {owned} of {person}{rest}"
        return f"{text[: pointer.start()]}{person}'s {owned}{rest}"  # "Ava's piano lesson"
    elif _PRONOUN_IN.search(person):
        return None  # "how much do we pay her an hour?" names no one "she" can be
    else:
        put = person
    return f"{text[: pointer.start()]}{put}{text[pointer.end() :]}"


# (one pointed at by a pronoun is no one "she" can mean: "whoever I pay rent to" can be)
_PRONOUN_IN: Final = re.compile(r"\b(?:he|she|him|her|they|them)\b", re.IGNORECASE)
_WHEN_DOES: Final = re.compile(r"\s*(?:and\s+|so\s+)?when\b", re.IGNORECASE)
# Asked of the user's own without "my": "when is the pup going in?", "what day is Ava's swimming?"
_OURS: Final = re.compile(
    r"\bthe\s+(?i:" + PET_WORDS + r")\b|"
    r"\b[A-ZÀ-Ý][\w-]+['’]s\s+(?-i:[a-z])"
)


def _whose(text: str, pointer: re.Match[str]) -> bool:
    """Whether "her" at ``pointer`` says whose ("her office"), not whom ("tell her about")."""
    following = _WORD.match(text, pointer.end() + 1)
    return following is not None and following.group(0).casefold() not in _AFTER_OBJECT


def _asked_of(question: str) -> tuple[str, str] | None:
    """(the thing, the one) a question asks of: "which drugstore do I go to for my
    prescriptions?" -> ("the drugstore I go to for my prescriptions", ...); "who takes care of
    my teeth these days?" -> ("whoever takes care of my teeth", the same)."""
    text = _OPENING.sub("", question).strip().rstrip("?!. ")
    wh = _WH.match(text)
    if wh is None:
        return None
    word, rest = wh.group("wh").casefold(), text[wh.end() :]
    noun = ""
    named = re.match(r"\s+([\w-]+)(?=" + _AUX.pattern + ")", rest, re.IGNORECASE)
    if word in ("what", "which", "whose", "how") and named:
        noun, rest = named.group(1), rest[named.end() :]
    aux = _AUX.match(rest)
    if aux is not None:
        rest = rest[aux.end() :]
    rest = _THE_NAME_OF.sub("", _AFTER_THING.sub("", rest).strip())
    if not rest:
        return None
    if noun and noun.casefold() not in _KIND_NOUNS:
        thing = f"the {noun} {rest}"  # "the drugstore I go to for my prescriptions"
    elif word == "who" and (aux is None or _SUBJECT.match(rest)):
        thing = f"whoever {rest}"  # "whoever takes care of my teeth", "whoever I pay rent to"
    elif word == "what" and _SUBJECT.match(rest):
        thing = f"what {rest}"  # "what I driving"
    else:
        thing = rest  # "the pup going in to get looked at", "Ava's swimming"
    if word == "who":
        return thing, thing
    one = _ONE_OF_US.search(thing)  # "the pup ...", or within: "what we call our cat"
    return thing, one.group(0) if one else thing
