"""Names said in passing: "can you help me text my landlord, Mr Okafor?".

People tell an assistant who their people are inside requests and asides as often as in
statements ("help me draft a birthday wish for my elder brother Rohan", "my roommate Priyanka
is feeding my cat Mochi"). No sentence rule reads those (a request says no fact, and the
parse makes the name part of something else), so "what's my landlord called?" had no answer.
This reader needs no parse: "my/our [elder, little, ...] <relation or pet>[,] [Dr/Mr/...]
<Name>" anywhere in the message is that person's name, kept only where nothing else in the
message said a name for the same relation.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Final

from desktop_agent.core.extraction_relations import _RELATIONS
from desktop_agent.core.extraction_rules import Match
from desktop_agent.core.extraction_words import PET_WORDS, PETS, RELATIONS
from desktop_agent.core.timeparse import MONTHS, WEEKDAYS
from desktop_agent.search.tokenize import STOPWORDS

_MENTION: Final = re.compile(
    r"\b(?i:my|our)\s+"
    r"(?:(?i:elder|older|younger|little|big|baby|eldest|youngest|oldest|lovely|new)\s+)?"
    rf"(?P<rel>(?i:{_RELATIONS}|{PET_WORDS}))(?P<comma>\s*,)?\s+"
    r"(?P<name>(?:(?:Dr|Mr|Mrs|Ms|Mx|Prof)\.?\s+)?[A-ZÀ-Ý][a-zà-ÿ-]+(?:['’](?!s\b)[a-zà-ÿ]+)?"
    r"(?:\s+[A-ZÀ-Ý][a-zà-ÿ-]+(?:['’](?!s\b)[a-zà-ÿ]+)?)?)"
    # "Ruby's been scratching" is Ruby, and so is "my best mate Keanu's birthday" Keanu
    r"(?![\w-])"
)
# Capitalised words after a relation that are no name: "my mum Monday ...", "my dog Is".
_NOT_A_NAME: Final = frozenset(
    """i im i'm and but so or the a an is was has had who which that this it he she they we
    when while because if then just also still now""".split()
)


def mentions(text: str) -> Iterator[tuple[Match, tuple[int, int]]]:
    """(name fact, span) of each "my <relation> <Name>" in ``text``."""
    for found in _MENTION.finditer(text):
        name = found.group("name")
        first = re.sub(r"^(?:Dr|Mr|Mrs|Ms|Mx|Prof)\.?\s+", "", name).split()[0].casefold()
        if first in STOPWORDS or first in _NOT_A_NAME or first in MONTHS or first in WEEKDAYS:
            continue
        titled = name != re.sub(r"^(?:Dr|Mr|Mrs|Ms|Mx|Prof)\.?\s+", "", name)
        if found.group("comma") and not titled and not _closed(text, found.end()):
            continue  # "my sister, Monday she ..." is no apposition; "my roommate, Priya," is
        said = found.group("rel").casefold()
        relation = RELATIONS.get(said) or PETS.get(said) or said
        verb = "is" if titled else "is named"
        yield (
            Match("fact", f"name_of:{relation}", name, f"User's {said} {verb} {name}", 0.75),
            (found.start(), found.end()),
        )


# "dentist appt with dr patel march 12": whom an appointment is with names the professional
_APPOINTMENT: Final = re.compile(
    r"\b(?P<rel>dentist|doctor|gp|vet|physio|physiotherapist|therapist|hairdresser|barber|"
    r"optician|dermatologist|orthodontist|counsellor|counselor|osteopath|chiropractor)(?:'s)?\s+"
    r"(?:appt|appointment|check-?up|visit|session|consultation)\s+(?:is\s+)?with\s+"
    r"(?P<title>dr|mr|mrs|ms|mx|prof)\.?\s+(?P<name>[a-zà-ÿ][a-zà-ÿ'’-]+)\b",
    re.IGNORECASE,
)


def appointments(text: str) -> Iterator[tuple[Match, tuple[int, int]]]:
    """(name fact, span) of each "<professional> appointment with Dr <Name>" in ``text``."""
    for found in _APPOINTMENT.finditer(text):
        said = found.group("rel").casefold()
        relation = RELATIONS.get(said) or said
        name = f"{found.group('title').capitalize()} {found.group('name').capitalize()}"
        yield (
            Match("fact", f"name_of:{relation}", name, f"User's {said} is {name}", 0.75),
            (found.start(), found.end()),
        )


def _closed(text: str, end: int) -> bool:
    """Whether the name after a comma is closed like an apposition: ", Priya," or ", Priya."."""
    return bool(re.match(r"\s*(?:[,.;!?)]|$)", text[end:]))


__all__ = ["appointments", "mentions"]


# "at least my cat still likes me lol. her name's Pixel", "We got a puppy! His name is Bolt",
# "We adopted a cat! Named her Pickle":
# a name told by its pronoun, after the one relation or pet the message names.
_NAMED_BEFORE: Final = re.compile(
    # "a retired greyhound", "a ten week old beagle": a word or two saying what it is like
    # (not what someone is: "my sister has just qualified as a midwife")
    r"(?<!\bas\s)\b(?i:my|our|a|an|the)\s+(?:(?-i:[a-z][a-z-]*)\s+){0,3}?"
    rf"(?P<rel>(?i:{_RELATIONS}|{PET_WORDS}))\b"
)
_ITS_NAME: Final = re.compile(
    r"\b(?:(?i:his|her|their|its)\s+(?i:name)(?:['’]s|\s+is)|"
    # "We adopted a cat from the shelter today! Named her Pickle."
    r"(?i:named|called|calling|naming)\s+(?i:him|her|it))\s+(?P<name>[A-ZÀ-Ý][a-zà-ÿ-]+)\b"
)


def named_by_pronoun(text: str) -> Iterator[tuple[Match, tuple[int, int]]]:
    """(name fact, span) for "her name's Pixel" when exactly one relation or pet was named
    before it in ``text`` (two, and whose name it is is a guess)."""
    found = _ITS_NAME.search(text)
    if found is None or found.group("name").casefold() in _NOT_A_NAME | STOPWORDS:
        return
    said = {m.group("rel").casefold() for m in _NAMED_BEFORE.finditer(text, 0, found.start())}
    kinds = {RELATIONS.get(word) or PETS.get(word) or word for word in said}
    if len(kinds) != 1:
        return
    relation, name = kinds.pop(), found.group("name")
    word = next(iter(said))
    yield (
        Match("fact", f"name_of:{relation}", name, f"User's {word} is named {name}", 0.75),
        (found.start(), found.end()),
    )
