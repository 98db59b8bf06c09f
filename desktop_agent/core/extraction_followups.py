"""Sentences that lean on the one before: "I've been reading Ursula Le Guin. She's my favourite
author." names her only through the pronoun, and "I'm allergic to latex. Kiwi too." says the
allergy only once. Each is read with what the sentence before it supplies: the person the
parser found there, or the fact it stated.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from dataclasses import replace
from typing import TYPE_CHECKING, Any, Final

from desktop_agent.core.extraction_rules import _RELATIONS, normalise_object
from desktop_agent.core.extraction_words import PETS, RELATIONS

if TYPE_CHECKING:
    from desktop_agent.core.extraction import ExtractedFact

_FAVOURITE: Final = re.compile(
    r"(?:^|(?<=[.!?]\s))(?P<pronoun>he|she|they|it)(?:'s|’s|\s+is|\s+are|\s+was)\s+"
    r"(?:definitely\s+|probably\s+|easily\s+|still\s+|now\s+)?my\s+(?:all-time\s+)?"
    r"(?:favou?rite|fave)\s+(?P<thing>[\w -]{2,30}?)\s*(?:[.!]+|$)",
    re.IGNORECASE,
)
# Which kinds of name each pronoun can stand for.
_REFERENTS: Final = {
    "he": ("PERSON",),
    "she": ("PERSON",),
    "they": ("PERSON", "ORG"),
    "it": ("WORK_OF_ART", "PRODUCT", "ORG"),
}
_TOO: Final = re.compile(
    r"(?:^|(?<=[.!?]\s))(?:oh,?\s+|and\s+|also\s+)?(?P<what>[A-Za-z][\w'’ -]{1,30}?)\s*,?\s+"
    r"(?:too|as well)\b[^.!?]*(?:[.!]+|$)",
    re.IGNORECASE,
)
_NOT_A_THING: Final = frozenset(
    "me you i we us it that this so same them him her same here mine yours".split()
)
# Slots that hold a list, so "X too" adds to them.
_LISTS: Final = ("allergy", "likes", "dislikes", "speaks")


def read(text: str, doc: Any, found: Sequence[ExtractedFact]) -> Iterator[ExtractedFact]:
    """Facts stated through a pronoun or an ellipsis in ``text`` (parsed as ``doc``), and the
    city a job is done in ("now I teach English in Seville": the user is based there)."""
    yield from _new_people(text, found)
    yield from _favourites(text, doc)
    yield from _additions(text, doc, found)
    yield from _work_city(doc, found)


def _work_city(doc: Any, found: Sequence[ExtractedFact]) -> Iterator[ExtractedFact]:
    from desktop_agent.core.extraction import ExtractedFact

    if any(f.subject_key == "home_city" for f in found):
        return
    for fact in found:
        if fact.subject_key not in ("job", "employer") or fact.negated:
            continue
        start, end = fact.span
        cities = [
            e
            for e in doc.ents
            # the small parser calls some cities people ("Valencia"): any name after "in" will do
            if (e.label_ in ("GPE", "LOC") or all(t.pos_ == "PROPN" for t in e))
            and e.label_ not in ("DATE", "TIME", "ORDINAL", "CARDINAL")
            and start <= e.start_char < end
            and e.start > 0
            and doc[e.start - 1].lower_ == "in"
        ]
        if cities:
            city = cities[0]
            yield ExtractedFact(
                text=f"User is based in {city.text}",
                type="fact",
                subject_key="home_city",
                value=city.text,
                confidence=0.7,
                span=(city.start_char, city.end_char),
                inferred=True,
            )
            return


_NEW_PERSON: Final = re.compile(
    rf"(?i:\bi(?:'ve|\s+have)?\s+(?:got\s+)?an?\s+new\s+(?P<rel>{_RELATIONS})\b[^.!?]*?"
    r"\b(?:(?:his|her|their)\s+name(?:'s|\s+is)|(?:he|she|they)(?:'s|\s+is|\s+are)\s+called|"
    r"called|named)\s+)(?P<name>[A-ZÀ-Ý][\w'’-]+(?:\s+[A-ZÀ-Ý][\w'’-]+)?)"
)


def _new_people(text: str, found: Sequence[ExtractedFact]) -> Iterator[ExtractedFact]:
    """ "I have a new boss now, her name is Priya": the relation's new name, across the comma
    that cuts the sentence into clauses."""
    from desktop_agent.core.extraction import ExtractedFact

    for match in _NEW_PERSON.finditer(text):
        said = match.group("rel").casefold()
        relation = RELATIONS.get(said) or PETS.get(said) or said
        key = f"name_of:{relation}"
        if any(f.subject_key == key for f in found):
            continue
        name = match.group("name")
        yield ExtractedFact(
            text=f"User's {said} is named {name}",
            type="fact",
            subject_key=key,
            value=name,
            confidence=0.85,
            span=(match.start(), match.end()),
            is_correction=True,
            person=relation,
        )


def _favourites(text: str, doc: Any) -> Iterator[ExtractedFact]:
    from desktop_agent.core.extraction import ExtractedFact

    for match in _FAVOURITE.finditer(text):
        labels = _REFERENTS[match.group("pronoun").casefold()]
        pronoun = match.group("pronoun").casefold()
        before = [e for e in doc.ents if e.end_char <= match.start() and e.label_ in labels]
        if not before and pronoun in ("he", "she"):
            # The small parser often calls a writer's name an organisation: any name will do.
            before = [
                e
                for e in doc.ents
                if e.end_char <= match.start()
                and e.label_ in ("ORG", "WORK_OF_ART", "NORP")
                and all(t.pos_ == "PROPN" for t in e)
            ]
        if not before:
            continue  # nobody to stand for: "she's my favourite author" alone says nothing
        name = before[-1].text
        thing = normalise_object(match.group("thing"))
        yield ExtractedFact(
            text=f"User's favorite {thing} is {name}",
            type="preference",
            subject_key=f"favorite:{thing}",
            value=name,
            confidence=0.8,
            span=(match.start(), match.end()),
        )


def _additions(text: str, doc: Any, found: Sequence[ExtractedFact]) -> Iterator[ExtractedFact]:
    for match in _TOO.finditer(text):
        what = match.group("what").strip()
        first = next((t for t in doc if t.idx == match.start("what")), None)
        if first is not None and first.pos_ != "PROPN":
            what = what[:1].lower() + what[1:]  # capitalised only as the sentence's first word
        words = what.casefold().split()
        if len(words) > 3 or words[0] in _NOT_A_THING or words[-1] in _NOT_A_THING:
            continue
        earlier = [
            f
            for f in found
            if f.span[1] <= match.start()
            and f.subject_key.split(":")[0] in _LISTS
            and not f.negated
            and f.value in f.text
        ]
        if not earlier:
            continue
        last = earlier[-1]
        family = last.subject_key.split(":")[0]
        yield replace(
            last,
            text=last.text.replace(last.value, what),
            subject_key=f"{family}:{normalise_object(what)}",
            value=what,
            span=(match.start(), match.end()),
            confidence=min(last.confidence, 0.8),
        )
