"""Changes told in passing: what the user no longer has, what replaced it, and plans moved.

"We had to rehome Rufus", "I left the startup", "I don't work at the bank anymore" end what was
remembered about Rufus, the startup, the bank, though they name no slot. "I sold the Corolla and
bought a Nissan Leaf", "we're going to Iceland instead of Japan" replace one thing by another in
whatever was remembered about it; "it's been pushed back to June" moves a plan's date; "the
Berlin race got cancelled" ends the plans naming Berlin (not the friend who lives there). Reading
them is the parser's job (here); applying them to what is remembered is ``revisions``.

Precision first, as for facts: only the user's own statements, only objects that name
something (never "it", "work", "home"), and a change that would touch many memories is dropped
by ``revisions`` as too vague to be meant.
"""

from __future__ import annotations

import re
from typing import Any, Final

from desktop_agent.core.extraction_change_phrases import PARTNER, VAGUE, Change, phrased
from desktop_agent.core.extraction_grammar import (
    _find_subject,
    _is_statement,
    _negated,
    _object,
    _prep_object,
)
from desktop_agent.core.extraction_normalise import normalise
from desktop_agent.core.timeparse import MONTHS, WEEKDAYS

# Verbs that end having something, done by the user ("I sold the Corolla").
_ENDING: Final = frozenset("sell rehome quit leave ditch divorce dump lose outgrow cancel".split())
# What one cancels is named by its compound: "the gym membership" ends the gym.
_AGREEMENTS: Final = frozenset("membership subscription contract pass account".split())
# Verb + particle endings: "gave Max away", "broke up with Sam", "gone off Radiohead".
_ENDING_PARTICLES: Final = {
    "give": ("away", "up"),
    "break": ("up",),
    "move": ("out",),
    "go": ("off",),
}
# Getting something new, after selling the old one: "sold the Corolla and bought a Leaf".
_GETTING: Final = frozenset("buy get lease adopt pick".split())
_SWAPPING: Final = frozenset("replace swap trade exchange".split())
_MOVING_DATE: Final = frozenset(
    "push move postpone reschedule delay bring shift switch change".split()
)
_STILL_LOST: Final = re.compile(r"\b(?:anymore|any more|no longer)\b", re.IGNORECASE)


def read(message: str) -> list[Change]:
    """The changes the user tells in ``message`` (none without the parser)."""
    from desktop_agent import nlp

    normalised = normalise(message)
    doc = nlp.parse(normalised.text)
    if doc is None:
        return []
    found: list[Change] = phrased(normalised.text)
    for sentence in doc.sents:
        if _is_statement(sentence):
            found.extend(_in_sentence(sentence))
    # What is replaced is not also merely ended.
    replaced = {c.old.casefold() for c in found if c.kind == "replace"}
    kept = [c for c in found if c.kind != "end" or c.old.casefold() not in replaced]
    # (a change to itself, told apart by an article, is none: "moving to the second wednesday"
    # read as "second Wednesday" -> "the second Wednesday"; a new date alone says its value as
    # both: "moved to August")
    kept = [c for c in kept if c.old == c.new or _bare(c.old) != _bare(c.new)]
    return [Change(c.kind, c.old, c.new, normalised.original_span(*c.span)) for c in _unique(kept)]


def _bare(said: str) -> str:
    return re.sub(r"^(?:the|a|an|my|our)\s+", "", said.strip().casefold())


def _unique(changes: list[Change]) -> list[Change]:
    seen: set[tuple[str, str, str]] = set()
    kept = []
    for change in changes:
        key = (change.kind, change.old.casefold(), change.new.casefold())
        if key not in seen:
            seen.add(key)
            kept.append(change)
    return kept


def _in_sentence(sentence: Any) -> list[Change]:
    span = (sentence.start_char, sentence.end_char)
    found: list[Change] = []
    for token in sentence:
        if token.lower_ == "instead":
            found.extend(_instead(token, span))
        if token.pos_ not in ("VERB", "AUX"):
            continue
        by_user = _by_user(token)
        lemma = token.lemma_.casefold()
        if by_user and lemma in _SWAPPING:
            old, new = _object(token), _prep_object(token, "with", "for")
            if _names(old) and _names(new):
                found.append(Change("replace", _head(old), _phrase_of(new), span))
        if by_user and lemma in ("switch", "change", "move", "go"):
            old, new = _prep_object(token, "from"), _prep_object(token, "to")
            if _names(old) and _names(new) and not _is_date(new):
                found.append(Change("replace", _head(old), _phrase_of(new), span))
        if lemma in _MOVING_DATE and (new := _date_target(token)) is not None:
            # "The pottery class moved to Thursdays": what moved, when it names something
            moved = _find_subject(token)
            if not _names(moved):  # "I've switched my gym days to Tuesdays": what the user moved
                moved = _what_moved(_object(token))
            named = moved is not None and _names(moved) and moved.pos_ in ("NOUN", "PROPN")
            what = _phrase_of(moved) if named else ""
            found.append(Change("redate", what, _date_words(new) + _time_with(token, new), span))
            continue
        if (called_off := _called_off(token, lemma)) is not None:
            found.append(Change("cancel", called_off, "", span))
            continue
        if (lost := _written_off(token, lemma)) is not None:
            found.append(Change("end", lost, "", span))
            continue
        if _broke_up(token, lemma):  # "we", or "Tom and I"
            found.append(Change("end", PARTNER, "", span))
            continue
        ended = _ended(token, lemma, by_user)
        if ended is None:
            continue
        bought = next(
            (
                c
                for c in token.conjuncts
                if c.i > token.i and c.lemma_.casefold() in _GETTING and _names(_object(c))
            ),
            None,
        )
        if bought is not None and lemma not in ("quit", "leave", "lose", "divorce", "dump"):
            # "sold the Corolla and bought a Leaf", "got rid of the Brompton and bought a Jazz"
            found.append(Change("replace", _head(ended), _phrase_of(_object(bought)), span))
        else:
            found.append(Change("end", _head(ended), "", span))
    return found


def _broke_up(verb: Any, lemma: str) -> bool:
    """ "We broke up", "we split up", "we separated", "we got divorced": no object, so the
    partnership itself ended."""
    subject = _find_subject(verb)
    if subject is None or _negated(verb):
        return False
    pair = {subject.lower_, *(c.lower_ for c in subject.conjuncts)}
    if subject.lower_ != "we" and not ("i" in pair and len(pair) > 1):
        return False  # "we", or "Tom and I"
    # an object ends something else ("we split the bill"); "in the spring" says when
    if any(c.dep_ == "dobj" for c in verb.children) or _prep_object(verb, "with") is not None:
        return False
    if lemma in ("break", "split") and _particle(verb) == "up":
        return True
    return lemma in ("separate", "divorce") or (
        lemma == "get" and any(c.lower_ in ("divorced", "separated") for c in verb.children)
    )


def _by_user(verb: Any) -> bool:
    subject = _find_subject(verb)
    if subject is None:
        # a chat drops the "I": "sold the mazda for parts and picked up a Kia Sportage"
        return bool(verb.dep_ == "ROOT" and verb.i == verb.sent.start and verb.tag_ == "VBD")
    return subject.lower_ in ("i", "we")


def _ended(verb: Any, lemma: str, by_user: bool) -> Any:
    """What ``verb`` says the user no longer has, or None."""
    if lemma == "die" or lemma == "pass" and _particle(verb) in ("away", "on"):
        subject = _find_subject(verb)  # "Rufus passed away": only a name says who
        if subject is not None and subject.pos_ != "PROPN":
            # "my cat Mochi died": the name hangs on the noun
            subject = next((c for c in subject.children if c.dep_ in ("appos", "compound")
                            and c.pos_ == "PROPN"), None)  # fmt: skip
        return subject
    if not by_user:
        return None
    no_longer = any(
        c.lower_ == "longer" and any(g.lower_ == "no" for g in c.children) for c in verb.children
    )
    if (_negated(verb) or no_longer) and (no_longer or _STILL_LOST.search(verb.sent.text)):
        thing = _object(verb)  # "I don't work at the bank anymore"
        return thing if _names(thing) else None
    particle = _particle(verb)
    if particle and particle in _ENDING_PARTICLES.get(lemma, ()):
        thing = _object(verb) or _prep_object(verb, "with", "of", "from")
        return thing if _names(thing) else None
    if lemma in ("get", "grow") and _particle(verb) in ("over", "out"):
        thing = _prep_object(verb, "of", "over") or _object(verb)  # "got over my fear of X"
        return thing if _names(thing) else None
    if lemma == "rid":  # "I got rid of the Brompton": the parser makes "rid" the verb
        thing = _prep_object(verb, "of")
        return thing if _names(thing) else None
    if lemma == "get" and any(c.lower_ == "rid" for c in verb.children):
        thing = next((g for c in verb.subtree if c.lower_ == "of" for g in c.children), None)
        return thing if _names(thing) else None
    if lemma in _ENDING and not _negated(verb):
        thing = next((c for c in verb.children if c.dep_ == "dobj"), None)
        if lemma == "lose" and (thing is None or thing.lower_ != "job"):
            return None  # "I lost my job" ends a job; "I lost my keys" ends nothing
        if lemma == "lose":
            return thing
        if thing is not None and thing.lemma_ in _AGREEMENTS:
            thing = next((c for c in thing.children if c.dep_ == "compound"), None)
        elif lemma == "cancel":
            return None  # "I cancelled the meeting" ends no fact
        return thing if _names(thing) else None
    return None


def _called_off(verb: Any, lemma: str) -> str | None:
    """ "The Berlin race got cancelled", "the concert was called off": the event named (by its
    proper noun, "Berlin", when it has one), which ends the plans and goals that name it."""
    if not (lemma == "cancel" or lemma == "call" and _particle(verb) == "off"):
        return None
    if not _names(event := _passive_subject(verb)):
        return None
    proper = [c for c in event.children if c.dep_ == "compound" and c.pos_ == "PROPN"]
    return str(proper[-1].text if proper else event.text)


VEHICLE: Final = "vehicle"


def _written_off(verb: Any, lemma: str) -> str | None:
    """ "It got written off", "my bike was stolen": gone ("it" is the vehicle talked of)."""
    if not (lemma in ("steal", "scrap", "total") or lemma == "write" and _particle(verb) == "off"):
        return None
    thing = _passive_subject(verb)
    if thing is not None and thing.lower_ == "it":
        return VEHICLE
    return _head(thing) if _names(thing) else None


def _passive_subject(verb: Any) -> Any:
    """What a passive verb was done to ("the race" got cancelled), or None if not passive."""
    passive = any(c.dep_ == "auxpass" for c in verb.children)
    return next((c for c in verb.children if c.dep_ == "nsubjpass"), None) if passive else None


def _particle(verb: Any) -> str:
    """ "away" in "gave Max away", "passed away" (the parser makes it a particle or an adverb)."""
    return next(
        (c.lower_ for c in verb.children if c.dep_ in ("prt", "advmod") and c.i > verb.i), ""
    )


def _date_target(verb: Any) -> Any:
    """The new date in "pushed back to June", "moved to 3 May", "postponed until Friday"."""
    holders = [verb, *(c for c in verb.children if c.lower_ in ("back", "forward", "out"))]
    for holder in holders:
        for child in holder.children:
            if child.dep_ == "prep" and child.lower_ in ("to", "until", "till"):
                date = next((g for g in child.children if g.dep_ == "pobj"), None)
                if date is not None and _is_date(date):
                    return date
    return None


def _time_with(verb: Any, date: Any) -> str:
    """The time said after the new date: "shifted me to Monday | at 11 am" (else the old time
    would stay beside the new day)."""
    for holder in (date, verb):
        for child in holder.children:
            if child.dep_ == "prep" and child.lower_ == "at" and child.i > date.i:
                said = "".join(t.text_with_ws for t in child.subtree).strip()
                if any(c.isdigit() for c in said):
                    return f" {said}"
    return ""


# A habit's times: in "my gym days" the gym is what moved.
_TIMES_OF: Final = frozenset("day days time times slot slots session sessions night nights".split())


def _what_moved(thing: Any) -> Any:
    times = thing is not None and thing.lower_ in _TIMES_OF
    return next((c for c in thing.children if c.dep_ == "compound"), None) if times else thing


def _instead(token: Any, span: tuple[int, int]) -> list[Change]:
    """ "going to Iceland instead of Japan": read by word order, which the small parser's
    trees for "instead of" do not follow reliably."""
    doc, sent = token.doc, token.sent
    if token.i + 2 >= sent.end or doc[token.i + 1].lower_ != "of":
        # "Change of plan, we're going to Sicily instead": a new place for the trip planned
        going = re.search(r"(?i:\bgoing\s+to)\s+([A-Z][\w'’-]+(?:\s+[A-Z][\w'’-]+)?)", sent.text)
        return [Change("replace", "", going.group(1), span)] if going else []
    old = next((t for t in doc[token.i + 2 : sent.end] if t.pos_ in ("NOUN", "PROPN")), None)
    new = next(
        (t for t in reversed(doc[sent.start : token.i]) if t.pos_ in ("NOUN", "PROPN")), None
    )
    if not _names(old) or not _names(new):
        return []
    return [Change("replace", _head(old), _phrase_of(new), span)]


def _phrase_of(token: Any) -> str:
    """The name with the words before it that belong to it ("Nissan Leaf", "second-hand Honda
    Jazz"), without its determiner."""
    start = token.left_edge.i
    while start < token.i and token.doc[start].dep_ in ("det", "poss", "predet", "case"):
        start += 1
    end = token.i + 1
    if end < len(token.doc) and token.doc[end].dep_ == "nummod" and token.doc[end].head == token:
        end += 1  # a model number: "a Pixel 8"
    return str(token.doc[start:end].text)


def _names(token: Any) -> bool:
    """Whether ``token`` names a thing a memory could be about (not "it", "work", "early")."""
    if token is None or token.pos_ not in ("NOUN", "PROPN"):
        return False
    return token.lower_ not in VAGUE and token.lemma_.casefold() not in VAGUE


# Nouns that name a kind of thing, not the thing: in "my walnut allergy" the walnut is named.
_KIND_NOUNS: Final = frozenset("allergy intolerance habit addiction phobia fear job".split())


def _head(token: Any) -> str:
    if token.lemma_.casefold() in _KIND_NOUNS:
        named = [c for c in token.children if c.dep_ in ("compound", "amod") and c.i < token.i]
        if named:
            return str(named[-1].text)
    return str(token.text)


def _is_date(token: Any) -> bool:
    return any(
        t.ent_type_ == "DATE" or t.lower_ in MONTHS or t.lower_.removesuffix("s") in WEEKDAYS
        for t in token.subtree
    )


def _date_words(token: Any) -> str:
    return "".join(t.text_with_ws for t in token.subtree).strip()


__all__ = ["PARTNER", "VEHICLE", "Change", "read"]
