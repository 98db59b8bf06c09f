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
from collections.abc import Mapping
from typing import Final

from desktop_agent.core.extraction_words import FEMALE, MALE, PETS, RELATIONS
from desktop_agent.core.grounding_words import content_words
from desktop_agent.core.questions import about_user

PRONOUN: Final = re.compile(r"\b(?:he|she|him|his|her)\b", re.IGNORECASE)
# "my sister", "my little brother's", "our dog": the relation is the first or second word
_MY_RELATION: Final = re.compile(r"\b(?:my|our)\s+([\w'’-]+)(?:\s+([\w'’-]+))?", re.I)
# After "her", these say it is the object ("tell her about"), not whose ("her job").
_AFTER_OBJECT: Final = frozenset(
    "to for about with at from into on in before after up now again these lately".split()
)
_WORD: Final = re.compile(r"[\w'’-]+")


def resolved(question: str, before: str | None, people: Mapping[str, str]) -> str:
    """``question`` with its pronoun replaced by the person ``before`` named, when sure.
    ``people``: the names the memory knows -> their relation ("ana" -> "sister")."""
    if not before or not PRONOUN.search(question) or _names_someone(question, people):
        return question
    referent = _one_person(before, people)
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
        following = _WORD.match(question, match.end() + 1)
        whose = following is not None and following.group(0).casefold() not in _AFTER_OBJECT
        return f"{words}'s" if whose else words
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
