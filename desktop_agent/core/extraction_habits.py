"""What the user has, does and no longer does: pets and children, habits with their times,
plans with their dates, negations ("I don't eat pork"), jobs left, moves made.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Final

from desktop_agent.core import extraction_words as words
from desktop_agent.core.extraction_grammar import (
    Found,
    Token,
    Who,
    _conjuncts,
    _find_subject,
    _habitual,
    _is_time,
    _make,
    _object,
    _phrase,
    _place,
    _prep_object,
    _transient,
    _when,
    _words,
)
from desktop_agent.core.extraction_rules import _slug, normalise_object


def _user_has(head: Token, who: Who, tokens: list[Token], negated: bool) -> Iterator[Found]:
    when = _when(tokens)
    ahead = head.tag_ == "VBG" or any(c.lower_ in ("will", "'ll") for c in head.children)
    if ahead and not negated and head.lemma_.casefold() == "get" and re.fullmatch(r"[\d-]+", when):
        # "We're getting a puppy in May": a plan, not a pet yet
        yield _make(who, tokens, "plan", f"plan:{_slug(_words(tokens))}", _words(tokens), when=when)
        return
    found = list(_user_has_each(head, who, tokens, negated))
    yield from found
    if not found and not negated and ahead and re.fullmatch(r"[\d-]+", when):
        # "We're having a baby in March!"
        yield _make(who, tokens, "plan", f"plan:{_slug(_words(tokens))}", _words(tokens), when=when)


def _user_has_each(head: Token, who: Who, tokens: list[Token], negated: bool) -> Iterator[Found]:
    thing = next((c for c in head.children if c.dep_ == "dobj"), None)
    if thing is None:
        return
    items = _conjuncts(thing)
    # a pet named further on, which the parse hangs elsewhere: "we've got two cats, Miso and
    # Tofu, and as of TODAY a retired racing greyhound called Rocket!!!"
    items += [
        t
        for t in head.subtree
        if t.i > thing.i
        and t not in items
        and (words.PETS.get(t.lower_) or words.PETS.get(t.lemma_.casefold()))
        and _called(t)
    ]
    for item in items:
        lower, lemma = item.lower_, item.lemma_.casefold()
        species = words.PETS.get(lower) or words.PETS.get(lemma)
        if species:
            name = _called(item)
            if name and not negated:
                said = _phrase(item)
                text = f"User's {species} is named {name}" + (
                    # ("two cats, Miso and Tofu" says no more than the species)
                    f" (a {said})"
                    if said.casefold() != species and (said.casefold(), lemma) != (lower, species)
                    else ""
                )
                who_pet = Who("person", item, species, name, said)
                yield _make(who_pet, tokens, "fact", f"name_of:{species}", name, text,
                            confidence=0.85)  # fmt: skip
            elif not negated:
                who_pet = Who("person", item, species)
                yield _make(who_pet, tokens, "fact", f"pet:{species}", _phrase(item),
                            f"User has {_words(list(item.subtree)).split(',')[0]}")  # fmt: skip
        elif lower in ("pet", "pets") and negated:
            yield _make(who, tokens, "fact", "pet", "pets", "User has no pets", negated=True)
        elif lower in words.KIDS or lemma in words.KIDS:
            if item.i != thing.i and (thing.lower_ in words.KIDS or thing.lemma_ in words.KIDS):
                continue  # "a son and two daughters": one fact, read at the first
            said = _words(list(thing.subtree)) if item.i == thing.i else _words(list(item.subtree))
            text = "User has no children" if negated else f"User has {said}"
            yield _make(who, tokens, "fact", "children", said, text, negated=negated)
        elif lemma in words.EVENTS or any(c.lemma_ in words.EVENTS for c in item.children):
            when = _when(tokens)
            if when and not negated:
                yield _make(who, tokens, "plan", f"plan:{_slug(_phrase(item))}", _phrase(item),
                            when=when)  # fmt: skip
        elif negated and item.pos_ == "NOUN":
            key = f"have:{normalise_object(_phrase(item))}"
            yield _make(who, tokens, "fact", key, _phrase(item), negated=True)
        elif not negated and item.tag_ == "NNS" and _counted(item):
            # "I've got about forty houseplants": how many of something the user has
            said = _words(list(item.doc[item.left_edge.i : item.i + 1]))
            yield _make(who, tokens, "fact", f"have:{normalise_object(item.lemma_)}", said,
                        f"User has {said}", confidence=0.7)  # fmt: skip
        elif _habitual(head, tokens):  # "every Thursday I have band practice"
            what = _slug(f"have {normalise_object(_phrase(item))}", 3)
            yield _make(who, tokens, "fact", f"routine:{what}", _words(tokens), confidence=0.7,
                        when=_when(tokens))  # fmt: skip


def _counted(item: Token) -> bool:
    return any(c.dep_ == "nummod" and c.like_num for c in item.children)


def _called(item: Token) -> str:
    for child in item.children:
        if child.dep_ == "acl" and child.lemma_ in ("call", "name"):
            name = next((c for c in child.children if c.dep_ in ("oprd", "dobj", "attr")), None)
            if name is not None:
                return str(name.text)
        if child.dep_ == "appos" and child.pos_ == "PROPN":
            return str(child.text)
        if child.dep_ == "appos" and (name := _called(child)):
            return name  # "a dog, a cocker spaniel called Bramble"
    return ""


def _find(head: Token, who: Who, tokens: list[Token]) -> Iterator[Found]:
    """ "I find opera boring": the adjective says whether the user likes it."""
    feelings = words.POSITIVE_ADJ | words.NEGATIVE_ADJ
    adjective = next((t for t in head.subtree if t.i > head.i and t.lower_ in feelings), None)
    thing = next(
        (
            t
            for t in head.subtree
            if t.i > head.i and (t.pos_ in ("NOUN", "PROPN") or t.tag_ == "VBG")
        ),
        None,
    )
    if adjective is None or thing is None:
        return
    lower = adjective.lower_
    if lower in words.NEGATIVE_ADJ or lower in words.POSITIVE_ADJ:
        against = lower in words.NEGATIVE_ADJ
        yield _make(who, tokens, "preference", f"likes:{normalise_object(_phrase(thing))}",
                    _phrase(thing), negated=against)  # fmt: skip


def _left_job(head: Token, who: Who, tokens: list[Token]) -> Iterator[Found]:
    thing = _object(head)
    if thing is None or thing.lemma_ != "job":
        return
    place = _prep_object(thing, "at", "with") or _prep_object(head, "at", "with")
    if place is not None:
        employer = _words(list(place.subtree))
        text = f"User no longer works at {employer}"
        yield _make(who, tokens, "fact", "employer", employer, text, negated=True, correction=True)
        return
    role = _prep_object(thing, "as") or _prep_object(head, "as")
    value = _phrase(role) if role is not None else "job"
    text = f"User no longer works as {value}" if role is not None else "User left their job"
    yield _make(who, tokens, "fact", "job", value, text, negated=True, correction=True)


# Homes a move can be to: "moved to a flat in Leith" says the city after them.
_DWELLINGS: Final = frozenset(
    "apartment flat house home place bungalow cottage studio condo townhouse room "
    "village town suburb area neighbourhood neighborhood".split()
)


def _moved(head: Token, who: Who, tokens: list[Token]) -> Iterator[Found]:
    verb = head
    if head.lemma_ == "end":  # "we ended up moving to Cardiff", "we ended up staying in Bath"
        verb = next((c for c in head.children if c.dep_ == "xcomp"), None)
        if verb is None or verb.lemma_ not in ("move", "relocate", "stay"):
            return
    elif head.lemma_ == "stay":
        return  # "I stayed in Bath" is a visit, unless one "ended up staying"
    if any(c.dep_ == "dobj" and c.lower_ not in ("house", "home") for c in verb.children):
        return  # "we moved Isla to Greenfield Academy": someone, or something, else moved
    place = _prep_object(verb, "to", "in", "into")
    if place is not None and place.lemma_ in _DWELLINGS:  # "to a senior apartment in Hamar"
        place = _prep_object(place, "in") or place
    past = head.tag_ in ("VBD", "VBN")
    if place is None or not place.text[:1].isupper() or not past:
        when = _when(tokens)
        if head.lemma_ in ("move", "relocate") and not past and when:
            # "I'm moving to Leeds in June", "we're moving house next month"
            yield _make(who, tokens, "plan", f"plan:{_slug(_words(tokens))}",
                        _words(tokens), when=when)  # fmt: skip
        return
    if any(c.dep_ == "case" for c in place.children):
        return  # "I've moved to Sainsbury's": a shop or firm (a workplace), not a city
    city = _place(place)
    if re.match(r"(?i:(?:dr|mr|mrs|ms|prof|doctor)\b)", city):
        return  # "I've been moved over to a Dr. Okafor": a person, not a place
    yield _make(who, tokens, "fact", "home_city", city, f"User lives in {city}", correction=True)


def _gave_up(head: Token, who: Who, tokens: list[Token]) -> Iterator[Found]:
    """ "I gave up being vegan", "I quit smoking": the end of a diet or a habit."""
    for token in head.subtree:
        if token.lower_ in words.DIETS:
            diet = words.DIETS[token.lower_]
            yield _make(who, tokens, "fact", "diet", diet, f"User is no longer {diet}",
                        negated=True, correction=True)  # fmt: skip
            return
    habit = next(
        (c for c in head.children if c.dep_ in ("xcomp", "dobj") and c.tag_ == "VBG"), None
    )
    if habit is None:  # "I quit smoking": the parser may make "smoking" a noun
        habit = next(
            (
                c
                for c in head.children
                if c.dep_ in ("dobj", "xcomp") and c.lower_.endswith("ing") and len(c.lower_) > 5
            ),
            None,
        )
    if habit is None:
        return
    lemma = habit.lemma_.casefold() if habit.tag_ == "VBG" else words.verb_of(habit.lower_)
    thing = next((c for c in habit.children if c.dep_ == "dobj"), None)
    if lemma == "eat" and thing is not None and thing.lemma_ in _MEAT:
        yield _make(who, tokens, "fact", "diet", f"no {thing.text}",
                    f"User no longer eats {thing.text}", correction=True)  # fmt: skip
        return
    # A habit given up ends the routine of the same activity ("I smoke ten a day").
    key = f"{lemma}:{normalise_object(_phrase(thing))}" if thing is not None else f"routine:{lemma}"
    said = _words(list(habit.subtree))
    yield _make(who, tokens, "fact", key, said, f"User gave up {said}", negated=True,
                correction=True)  # fmt: skip


_MEAT = frozenset("meat fish chicken beef pork lamb dairy".split())


def _never(head: Token, who: Who, tokens: list[Token]) -> Iterator[Found]:
    """ "I don't eat pork", "I've never flown", "I can't swim": kept as negations."""
    lemma = head.lemma_.casefold()
    if lemma in words.NOT_A_HABIT or lemma in ("like", "love", "enjoy", "live", "work", "be"):
        return
    if (
        _transient(tokens)
        or head.tag_ == "VBD"
        and not any(c.lower_ == "never" for c in head.children)
    ):
        return
    thing = next((c for c in head.children if c.dep_ == "dobj"), None)
    if thing is not None and thing.pos_ == "PRON":
        return
    key = lemma
    if thing is None and lemma in ("go", "travel", "fly"):
        thing = _prep_object(head, "to")
    if thing is not None:
        key = f"{lemma}:{normalise_object(_phrase(thing))}"
    yield _make(who, tokens, "fact", key, _words(tokens), negated=True, confidence=0.65)


def _habit_or_plan(head: Token, who: Who, tokens: list[Token]) -> Iterator[Found]:
    lemma = head.lemma_.casefold()
    if lemma in words.STATIVE and lemma not in ("work", "get", "have"):
        return
    when = _when(tokens)
    habitual = _habitual(head, tokens)
    progressive = head.tag_ == "VBG" and any(
        c.dep_ == "aux" and c.lemma_ == "be" for c in head.children
    )
    future = any(c.lower_ in ("will", "'ll") for c in head.children)
    if habitual and head.tag_ in ("VBP", "VB"):
        # What one drinks is one slot, however often: "I only drink green tea now" replaces
        # "I drink about four coffees a day".
        slot = "drink" if lemma == "drink" else f"routine:{_activity(head)}"
        # How one gets to work is one slot too: "I take the bus to work now" replaces "I cycle
        # to work every day".
        slot = "routine:commute" if _commutes(head) else slot
        # Only this clause: "I cancelled the gym membership, I do yoga on Mondays now" says
        # nothing of the gym in the yoga fact (the gym ended).
        # How one gets there keeps what follows ("..., about 40 minutes each way"), not what
        # went before ("gave up my season ticket, I cycle to work now").
        own = (
            _own_clause(head, tokens, before_only=True)
            if slot == "routine:commute"
            else _own_clause(head, tokens)
        )
        yield _make(who, own, "fact", slot, _words(own), confidence=0.7, when=when)
        return
    if when and _present(head) and not future and _commutes(head):
        # "I get the 7:40 train into Oxford for work": a time said of the way to work is when
        # the user leaves every day, not a plan
        own = _own_clause(head, tokens, before_only=True)
        yield _make(who, own, "fact", "routine:commute", _words(own), confidence=0.7)
        return
    # "for twelve years" says how long, not when: no plan in "I've been a hairdresser for
    # twelve years, I run a salon"
    lasting = re.search(
        rf"\bfor\s+(?:about\s+|over\s+|almost\s+)?{re.escape(when)}\b", _words(tokens)
    )
    if when and not lasting and (progressive or future or head.tag_ in ("VBP",)) and not habitual:
        # "I'm now flying to Lisbon on the 2nd of April": with a date, "now" says it changed.
        dated = re.fullmatch(r"\d{4}(?:-\d\d){1,2}", when) is not None
        changed = dated and any(t.lower_ == "now" for t in tokens)
        if _transient([t for t in tokens if not (changed and t.lower_ == "now")]) and (
            "tomorrow" not in _words(tokens).casefold()
        ):
            return
        yield _make(who, tokens, "plan", f"plan:{_slug(_words(tokens))}", _words(tokens),
                    when=when, correction=changed)  # fmt: skip
        return
    if progressive and any(c.lemma_ in ("marry",) for c in [head]):
        yield _make(who, tokens, "plan", f"plan:{_slug(_words(tokens))}", _words(tokens))
        return
    thing = _object(head)
    commute = lemma in ("take", "catch", "get") and (
        (thing is not None and thing.lemma_ in _TRANSPORT) or _commutes(head)
    )
    if _present(head) and (lemma in words.ACTIVITIES or commute):
        slot = "routine:commute" if _commutes(head) else f"routine:{_activity(head)}"
        # the way to work is a slot of its own, not a generic reading of a clause a pattern
        # read ("I live in Didcot and | get the 7:40 train into Oxford for work")
        sure = 0.7 if slot == "routine:commute" else 0.6
        yield _make(who, tokens, "fact", slot, _words(tokens), confidence=sure, when=when)


def _present(head: Token) -> bool:
    """ "I cycle", and "I live in Didcot and | get the train": the present said of the user."""
    return head.tag_ == "VBP" or (
        head.tag_ == "VB"
        and head.dep_ == "conj"
        and head.head.tag_ == "VBP"
        # ("I get the train in now and | walk to the office": the way there is both)
        and head.head.lemma_ not in (*_TRAVELLING, "get", "take", "catch")
    )


_WORKPLACES = frozenset("work office school uni university college campus job".split())
_TRAVELLING = frozenset("cycle bike walk drive ride run jog scoot skate commute".split())


def _commutes(head: Token) -> bool:
    """ "I cycle to work", "I take the bus to the office": how the user gets to work."""
    lemma = head.lemma_.casefold()
    thing = _object(head)
    driven = next((c for c in head.children if c.dep_ == "dobj"), None)
    if driven is not None and (driven.lower_ in words.KIDS or driven.lemma_ in words.RELATIONS):
        return False  # "I drive my kids to school": the school run, not the user's commute
    # "take the bus to work" parses "to work" as a verb ("in order to work"); "get the train to
    # work" even as a clause of its own whose subject is the train
    to_work = [
        c for c in head.children if c.dep_ in ("xcomp", "advcl", "ccomp") and c.lemma_ == "work"
    ]
    ridden = [g for c in to_work for g in c.children if g.dep_ == "nsubj"]
    riding = lemma in ("take", "catch", "get", "use") and any(
        t is not None and t.lemma_ in _TRANSPORT for t in (thing, *ridden)
    )
    if not (lemma in _TRAVELLING or riding):
        return False
    place = _prep_object(head, "to", "into")
    if place is None and thing is not None:
        place = _prep_object(thing, "to")
    # "I get the 7:40 train into Oxford for work"
    purpose = _prep_object(head, "for") if riding else None
    return (
        lemma == "commute"
        or bool(to_work)
        or (place is not None and place.lemma_.casefold() in _WORKPLACES)
        or (purpose is not None and purpose.lemma_.casefold() in _WORKPLACES)
    )


def _activity(head: Token) -> str:
    """A habit's slot is its activity, not its times: "I swim every Tuesday" and "I swim on
    Fridays now" share "routine:swim"; "I go to the gym" is "routine:go gym"."""
    parts = [head.lemma_.casefold()]
    thing = next((c for c in head.children if c.dep_ == "dobj"), None)
    if thing is not None and thing.pos_ in ("NOUN", "PROPN") and not _is_time(thing):
        parts.append(normalise_object(_phrase(thing)))
    elif head.lemma_ in ("go", "walk", "cycle", "drive", "run"):
        place = _prep_object(head, "to")
        if place is not None and not _is_time(place):
            parts.append(normalise_object(_phrase(place)))
    return _slug(" ".join(parts), 3)


_NOT_A_WORKPLACE = frozenset("home night nights weekend weekends moment".split())


_TRANSPORT = frozenset("bus train tube metro tram ferry subway underground car bike".split())


def _owned(head: Token, who: Who, tokens: list[Token]) -> Iterator[Found]:
    """ "My goal is to read 30 books", "Our wedding is on 20 August"."""
    subject = _find_subject(head)
    if subject is None or head.lemma_ != "be":
        return
    noun = subject.lemma_.casefold()
    if noun in ("goal", "aim", "dream", "ambition", "resolution", "plan"):
        action = next((c for c in head.children if c.dep_ == "xcomp"), None)
        if action is not None:
            what = re.sub(r"^to\s+", "", _words(list(action.subtree)))
            kind = "plan" if noun == "plan" else "goal"
            # "My goal is ...": the user's one stated goal, which a new one replaces
            key = (
                "goal:main" if noun == "goal" and subject.tag_ == "NN" else f"{kind}:{_slug(what)}"
            )
            yield _make(who, tokens, "plan", key, what, when=_when(tokens))
        return
    if noun in words.EVENTS or any(c.lemma_ in words.EVENTS for c in subject.children):
        when = _when(tokens)
        if when:
            yield _make(who, tokens, "plan", f"plan:{_slug(_phrase(subject))}",
                        _phrase(subject), when=when)  # fmt: skip


def _own_clause(head: Token, tokens: list[Token], *, before_only: bool = False) -> list[Token]:
    """``tokens`` without the clauses hanging off ``head`` ("I gave up the guitar, ..."), or
    with ``before_only`` without those before it."""
    other = {
        t.i
        for child in head.children
        if child.dep_ in ("ccomp", "advcl", "parataxis", "conj")
        and child.pos_ in ("VERB", "AUX")
        and (not before_only or child.i < head.i)
        for t in child.subtree
    }
    own = [t for t in tokens if t.i not in other]
    while own and own[0].is_punct:
        own.pop(0)
    return own or tokens
