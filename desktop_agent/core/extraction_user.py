"""Facts the user states about themselves in a clause with "I" or "we" as subject: who they are
("I'm 40, married"), what they like ("I'm really into bouldering"), want ("I want to run a
marathon"), and the dispatch to habits, plans and negations (``extraction_habits``).
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from desktop_agent.core import extraction_words as words
from desktop_agent.core.extraction_grammar import (
    _LIKING,
    Found,
    Token,
    Who,
    _base,
    _conjuncts,
    _habitual,
    _is_job,
    _is_time,
    _make,
    _negated,
    _object,
    _phrase,
    _prep_object,
    _when,
    _words,
)
from desktop_agent.core.extraction_habits import (
    _MEAT,
    _NOT_A_WORKPLACE,
    _commutes,
    _find,
    _gave_up,
    _habit_or_plan,
    _left_job,
    _moved,
    _never,
    _own_clause,
    _user_has,
)
from desktop_agent.core.extraction_rules import _a, _slug, normalise_object

# --- the user ---------------------------------------------------------------------------------


def _misparsed_verb(head: Token) -> Token | None:
    """ "I don't eat gluten" parsed with "eat" as an auxiliary of "gluten": the real verb."""
    for child in head.children:
        if (
            child.dep_ == "aux"
            and child.pos_ in ("AUX", "VERB")
            and _base(child) not in _AUXILIARIES
        ):
            return child
    return None


_AUXILIARIES = frozenset(
    """be have do will would can could shall should may might must 'd 'll wo ca to get going
    ought need dare used""".split()
)


def _user(head: Token, who: Who, tokens: list[Token]) -> Iterator[Found]:
    lemma = _base(head)
    negated = _negated(head)
    verb = _misparsed_verb(head)
    if verb is not None:
        negated = _negated(verb)
        object_said = _words([t for t in head.subtree if t.i > verb.i])
        if _base(verb) in _LIKING:
            against = negated or _base(verb) in ("hate", "dislike", "loathe")
            yield _make(who, tokens, "preference", f"likes:{normalise_object(object_said)}",
                        object_said, negated=against)  # fmt: skip
        elif negated and _base(verb) not in words.NOT_A_HABIT:
            yield _make(who, tokens, "fact", f"{_base(verb)}:{normalise_object(object_said)}",
                        object_said, negated=True, confidence=0.65)  # fmt: skip
        return
    if _modal(head):
        yield from _wish(head, who, tokens)
        return
    if lemma == "be":
        yield from _user_is(head, who, tokens, negated)
        return
    has_object = any(c.dep_ == "dobj" for c in head.children)
    job = next((c for c in head.children if c.dep_ == "dobj" and c.lemma_ == "job"), None)
    if lemma in ("get", "land", "accept", "start") and job is not None and not negated:
        place = _prep_object(job, "at", "with") or _prep_object(head, "at", "with")
        if place is not None:  # "I got the job at Deloitte"
            workplace = _words(list(place.subtree))
            yield _make(who, tokens, "fact", "employer", workplace, f"User works at {workplace}",
                        correction=True)  # fmt: skip
            return
    enough = next((c for c in head.children if c.lower_ == "enough"), None)
    if lemma == "get" and negated and enough is not None:
        thing = _prep_object(enough, "of")
        if thing is not None:  # "I can't get enough of podcasts"
            what = _phrase(thing)
            yield _make(who, tokens, "preference", f"likes:{normalise_object(what)}", what,
                        f"User loves {what}")  # fmt: skip
        return
    rides = lemma == "get" and _commutes(head)  # "I get the 7:40 train into Oxford for work"
    # "I keep a budgie called Captain": a pet kept is a pet had
    kept = lemma == "keep" and (thing := _object(head)) is not None and thing.lower_ in words.PETS
    if (
        (lemma in ("have", "get", "adopt") or kept)
        and not _is_aux(head)
        and has_object
        and not rides
    ):
        yield from _user_has(head, who, tokens, negated)
        return
    if lemma in ("want", "hope", "aim", "plan", "intend", "try"):
        yield from _goal(head, who, tokens)
        return
    if lemma == "obsess":
        thing = _prep_object(head, "with")
        if thing is not None:
            yield _make(who, tokens, "preference", f"likes:{normalise_object(_phrase(thing))}",
                        _phrase(thing), f"User loves {_phrase(thing)}")  # fmt: skip
        return
    employer = _prep_object(head, "at", "for") if lemma == "work" and not negated else None
    if employer is not None and employer.lemma_ not in _NOT_A_WORKPLACE and not _is_time(employer):
        value = _words(list(employer.subtree))
        yield _make(who, tokens, "fact", "employer", value, f"User works at {value}")
        return
    if lemma == "work" and not negated and _prep_object(head, "at", "for", "as") is None:
        field = _prep_object(head, "in")
        place = field is not None and field.ent_type_ in ("GPE", "LOC", "FAC")
        if (
            field is not None
            and not place
            and (not field.text[:1].isupper() or field.text.isupper())
        ):
            yield _make(who, tokens, "fact", "job", f"in {_words(list(field.subtree))}",
                            f"User works in {_words(list(field.subtree))}")  # fmt: skip
            return
    if lemma == "eat" and any(c.lower_ in ("again", "back") for c in head.children):
        thing = _object(head)
        if thing is not None and thing.lemma_ in _MEAT:
            yield _make(who, tokens, "fact", "diet", f"eats {thing.text}", correction=True)
            return
    if lemma == "find":
        yield from _find(head, who, tokens)
        return
    thing = _object(head)
    if lemma in ("leave", "quit") and not negated and thing is not None and thing.lemma_ == "job":
        yield from _left_job(head, who, tokens)
        return
    gave_up = lemma == "give" and any(c.dep_ == "prt" and c.lower_ == "up" for c in head.children)
    if (gave_up or lemma in ("quit", "stop")) and not negated:
        yield from _gave_up(head, who, tokens)
        return
    if lemma == "switch" and not negated:
        thing = _prep_object(head, "to")
        # "switched my gym days to Tuesdays" moves a habit (``extraction_changes``): no taste
        # ("switched to a plumber called Imran": someone who does a job, no taste)
        someone = thing is not None and (
            _is_job(thing) or any(t.lower_ in ("called", "named") for t in thing.subtree)
        )
        if thing is not None and thing.ent_type_ != "DATE" and not someone:
            what = _phrase(thing)
            yield _make(who, tokens, "preference", f"likes:{normalise_object(what)}", what,
                        f"User now prefers {what}", correction=True)  # fmt: skip
            return
    teach = next((c for c in head.children if c.dep_ == "xcomp" and c.lemma_ == "teach"), None)
    if lemma in ("move", "step") and teach is not None and _object(teach) is not None:
        # "I've moved up to teach Year 6": the job changed, at the same school
        yield _make(who, tokens, "fact", "job", f"teaching {_phrase(_object(teach))}")
        return
    if lemma in ("move", "relocate", "end", "stay") and not negated:
        yield from _moved(head, who, tokens)
        return
    # "I picked up some Portuguese at uni" (a language, so capitalised), not "... the kids"
    picked_up = lemma == "pick" and any(c.dep_ == "prt" and c.lower_ == "up" for c in head.children)
    picked_up = picked_up and (_object(head) or head).text[:1].isupper()
    if lemma == "learn" or picked_up or (lemma == "study" and head.tag_ == "VBG"):
        thing = _object(head)
        if thing is not None:
            # Only this clause: in "I gave up the guitar, I'm learning piano now" the guitar
            # is ended, and a fact naming it would be ended with it.
            own = _own_clause(head, tokens)
            yield _make(who, own, "fact", f"learning:{normalise_object(_phrase(thing))}",
                        _phrase(thing))  # fmt: skip
        return
    if lemma == "study" and _object(head) is not None:
        yield _make(who, tokens, "fact", "studies", _phrase(_object(head)))
        return
    if lemma == "train" and _prep_object(head, "for") is not None:
        goal = _prep_object(head, "for")
        yield _make(who, tokens, "plan", f"goal:{_slug(_phrase(goal))}", _phrase(goal))
        return
    if lemma == "teach" and _object(head) is not None and not negated:
        yield _make(who, tokens, "fact", "job", f"teaching {_phrase(_object(head))}")
        return
    if negated:
        yield from _never(head, who, tokens)
        return
    yield from _habit_or_plan(head, who, tokens)


def _an_amount(number: Token) -> bool:
    """ "I'm at the gym now, only $29 a month": a price, not an age."""
    return any(c.tag_ == "$" or c.text in "$£€" for c in number.children) or any(
        c.lower_ in ("month", "week", "year", "hour", "day") and c.dep_ == "npadvmod"
        for c in number.children
    )


def _is_aux(token: Token) -> bool:
    return token.dep_ in ("aux", "auxpass")


def _modal(head: Token) -> bool:
    return any(
        c.dep_ == "aux" and c.lower_ in ("would", "'d", "could", "might", "should")
        for c in head.children
    )


def _wish(head: Token, who: Who, tokens: list[Token]) -> Iterator[Found]:
    """Only "I'd like to <do something>" is a goal; "I'd love a dog one day" is a wish."""
    if head.lemma_ in ("like", "love") and any(c.lower_ in ("'d", "would") for c in head.children):
        yield from _goal(head, who, tokens)


def _goal(head: Token, who: Who, tokens: list[Token]) -> Iterator[Found]:
    action = next((c for c in head.children if c.dep_ == "xcomp" and c.pos_ == "VERB"), None)
    if action is None or action.lemma_.casefold() in words.NOT_A_GOAL or _negated(head):
        return
    if any(t.lower_ in ("now", "right") for t in tokens):
        return
    rest = [t for t in action.subtree]
    what = _words(rest[1:] if rest and rest[0].lower_ == "to" else rest)
    what = re.sub(r"^to\s+", "", what)
    yield _make(who, tokens, "plan", f"goal:{_slug(what)}", what, when=_when(tokens))


def _user_is(head: Token, who: Who, tokens: list[Token], negated: bool) -> Iterator[Found]:
    children = list(head.children)
    # "I'm 40, married, two kids": every part of the list hangs on "be".
    for token in head.subtree:
        lower = token.lower_
        if (
            lower in words.MARITAL
            and token.pos_ in ("ADJ", "VERB")
            and token.head.i
            in (
                head.i,
                *[c.i for c in children],
            )
        ):
            text = f"User is {'not ' if negated else ''}{lower}"
            yield _make(who, tokens, "fact", "marital_status", lower, text, negated=negated)
        if lower in words.KIDS and token.i != head.i and _within(token, head):
            count = next((c.text for c in token.children if c.dep_ == "nummod"), "")
            if count and token.dep_ != "attr":
                text = f"User has {count} {token.text}"
                yield _make(who, tokens, "fact", "children", f"{count} {token.text}", text)
    attr = next((c for c in children if c.dep_ == "attr"), None)
    acomp = next((c for c in children if c.dep_ == "acomp"), None)
    into = _prep_object(head, "into")
    if into is not None:
        verb = "is not into" if negated else "likes"
        yield _make(who, tokens, "preference", f"likes:{normalise_object(_phrase(into))}",
                    _phrase(into), f"User {verb} {_phrase(into)}", negated=negated)  # fmt: skip
        return
    named = next((c for c in children if c.dep_ in ("attr", "acomp") and _a_name(c)), None)
    subject = next((c for c in children if c.dep_ in ("nsubj", "nsubjpass")), None)
    # (said by "I": "his teacher there is Mr Fogarty" names the teacher, whatever the parse)
    by_me = (subject is None or subject.lower_ in ("i", "me")) and not any(
        c.dep_ == "expl"
        for c in children  # ("there is Mr Fogarty")
    )
    if named is not None and not negated and named.pos_ == "PROPN" and by_me:
        # "I'm Sara, 27, and I live in Cork"; "I'm Dana Whitfield": the whole name
        first = min((c.i for c in named.children if c.dep_ == "compound" and c.pos_ == "PROPN"),
                    default=named.i)  # fmt: skip
        full = named.doc[first : named.i + 1].text
        yield _make(who, tokens, "fact", "name", full, f"User's name is {full}")
        for number in named.children:
            age = number.text.isdigit() and 3 <= int(number.text) <= 120
            if number.dep_ in ("appos", "conj", "npadvmod") and age:
                yield _make(who, tokens, "fact", "age", number.text,
                                f"User is {number.text} years old")  # fmt: skip
        return
    was = head.lower_ == "was" or head.dep_ == "advcl"  # "since I was 12": an age long past
    if attr is not None and attr.like_num and attr.text.isdigit() and 3 <= int(attr.text) <= 120:
        if was or _an_amount(attr):
            return
        yield _make(who, tokens, "fact", "age", attr.text, f"User is {attr.text} years old",
                    when=_when(tokens))  # fmt: skip
        return
    if acomp is not None and acomp.lower_ == "big" and _prep_object(acomp, "on") is not None:
        what = _phrase(_prep_object(acomp, "on"))
        verb = "is not big on" if negated else "likes"
        yield _make(who, tokens, "preference", f"likes:{normalise_object(what)}", what,
                    f"User {verb} {what}", negated=negated)  # fmt: skip
        return
    place = _prep_object(head, "at", "in")
    if place is not None and attr is None and acomp is None and _habitual(head, tokens):
        # "I'm at the gym every day after work"
        yield _make(who, tokens, "fact", f"routine:{normalise_object(_phrase(place))}",
                    _words(tokens), confidence=0.7, when=_when(tokens))  # fmt: skip
        return
    if (
        attr is not None
        and attr.lower_.endswith("er")
        and any(c.lower_ in ("big", "huge", "keen", "avid") for c in attr.children)
    ):
        activity = _activity_of(attr.lower_)  # "I'm not a big reader" -> reading
        verb = "is not a keen" if negated else "is a keen"
        yield _make(who, tokens, "preference", f"likes:{activity}", activity,
                    f"User {verb} {attr.lower_}", negated=negated)  # fmt: skip
        return
    when = _when(tokens)
    if attr is None and acomp is None and not negated and re.fullmatch(r"[\d-]+", when):
        # "I'm off to Greece on the 2nd", "I'm in Rome next week"
        yield _make(who, tokens, "plan", f"plan:{_slug(_words(tokens))}", _words(tokens), when=when)
        return
    if attr is not None and attr.lemma_ == "fan" and not negated:
        team = [c for c in attr.children if c.dep_ == "compound" or c.pos_ == "PROPN"]
        if team:
            what = " ".join(t.text for t in team)
            yield _make(who, tokens, "preference", f"likes:{normalise_object(what)}", what,
                        f"User is {_a(what)} fan")  # fmt: skip
            return
    if attr is not None and attr.lemma_ == "person":
        kind = next((c for c in attr.children if c.dep_ in ("compound", "amod")), None)
        if kind is not None:
            liked = normalise_object(kind.text)
            text = f"User is {'not ' if negated else ''}a {kind.text} person"
            yield _make(who, tokens, "preference", f"likes:{liked}", kind.text, text,
                        negated=negated)  # fmt: skip
        return
    for extra in _conjuncts(acomp)[1:] if acomp is not None else []:
        allergen = _prep_object(extra, "to")
        if extra.lower_ == "allergic" and allergen is not None and not negated:
            for item in _conjuncts(allergen):
                key = normalise_object(item.lemma_ if item.tag_ == "NNS" else item.text)
                yield _make(who, tokens, "risk", f"allergy:{key}", item.text,
                            f"User is allergic to {item.text}", confidence=0.85)  # fmt: skip
    if acomp is not None:
        lower = acomp.lower_
        if lower == "obsessed":
            thing = _prep_object(acomp, "with")
            if thing is not None:
                yield _make(who, tokens, "preference", f"likes:{normalise_object(_phrase(thing))}",
                            _phrase(thing), f"User loves {_phrase(thing)}")  # fmt: skip
            return
        if lower == "allergic" and negated:
            allergen = _prep_object(acomp, "to")
            for item in _conjuncts(allergen) if allergen is not None else []:
                key = normalise_object(item.lemma_ if item.tag_ == "NNS" else item.text)
                yield _make(who, tokens, "risk", f"allergy:{key}", item.text,
                            f"User is not allergic to {item.text}", negated=True,
                            correction=True)  # fmt: skip
            return
        if lower in words.WORK_STATES:
            yield _make(who, tokens, "fact", "job", lower, f"User is {lower}", negated=negated)
            return
    if attr is not None and attr.lower_ in words.WORK_STATES:
        yield _make(who, tokens, "fact", "job", attr.lower_, f"User is {attr.lower_}")


def _within(token: Token, head: Token) -> bool:
    """Whether ``token`` belongs to ``head``'s clause, with no other verb in between."""
    while token.i != head.i:
        token = token.head
        if token.i != head.i and token.pos_ in ("VERB", "AUX"):
            return False
        if token.head.i == token.i:
            return bool(token.i == head.i)
    return True


def _activity_of(agent: str) -> str:
    """ "reader" -> "reading", "runner" -> "running", "dancer" -> "dancing"."""
    return f"{agent[:-2]}ing"


def _a_name(token: Token) -> bool:
    """ "I'm Ahmed" (a PERSON to spaCy), and "I'm Priya", a capitalised proper noun its small
    model tags as no entity at all (a place or a creed is one: "I'm Canadian" is NORP)."""
    if token.ent_type_ == "PERSON":
        return True
    # Its small model also calls names places ("I'm Marta" is a GPE to it); a nationality or a
    # creed is NORP, and a diet said with a capital ("I'm Vegan") is no name either.
    return bool(
        token.ent_type_ not in ("NORP", "DATE", "TIME", "CARDINAL")
        and token.pos_ == "PROPN"
        and token.text[:1].isupper()
        and token.lower_ not in words.DIETS
    )
