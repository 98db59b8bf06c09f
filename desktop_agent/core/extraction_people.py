"""Facts about the user's people and pets, read from a clause whose subject is one of them:
"my sister Ana lives in Rome", "my dad's birthday is on 2 March", "my son plays the violin".
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Final

from desktop_agent.core import extraction_words as words
from desktop_agent.core.extraction_grammar import (
    _LIKING,
    Found,
    Token,
    Who,
    _base,
    _conjuncts,
    _Context,
    _is_job,
    _make,
    _negated,
    _object,
    _phrase,
    _place,
    _prep_object,
    _transient,
    _when,
    _words,
)
from desktop_agent.core.extraction_rules import _slug, normalise_object
from desktop_agent.core.extraction_third_person import person_words

# --- the user's people and pets ---------------------------------------------------------------


def _named(attr: Token) -> bool:
    """ "is officially Biscuit now": a capitalised name with no article, said as new."""
    return (
        attr.pos_ == "PROPN"
        and attr.text[:1].isupper()
        and not any(c.dep_ == "det" for c in attr.children)
        and any(c.lower_ in ("now", "officially") for c in attr.head.children)
    )


def _person(head: Token, who: Who, tokens: list[Token], context: _Context) -> Iterator[Found]:
    relation = who.relation
    lemma = _base(head)
    negated = _negated(head)
    slot = f"person:{relation}"
    if who.name and relation not in context.named:
        context.named.add(relation)
        yield _make(
            who,
            tokens,
            "fact",
            f"name_of:{relation}",
            who.name,
            f"User's {who.said} is named {who.name}",
            confidence=0.85,
        )
    attr = next((c for c in head.children if c.dep_ in ("attr", "oprd")), None)
    acomp = next((c for c in head.children if c.dep_ == "acomp"), None)
    # "my new flatmate is called Ines": a new person in the slot, even beside the old one's name
    new = "new" in who.said.split()
    if lemma in ("call", "name") and attr is not None and attr.pos_ == "PROPN":
        if relation not in context.named or new:
            context.named.add(relation)
            yield _make(
                who, tokens, "fact", f"name_of:{relation}", attr.text,
                f"User's {who.said} is named {attr.text}", confidence=0.85, correction=new,
            )  # fmt: skip
        return
    if lemma == "be" and attr is not None and relation in _SPECIES and _named(attr) and not negated:
        # "the greyhound is officially Biscuit now": a name, with no "a" as a breed has
        context.named.add(relation)
        yield _make(
            who, tokens, "fact", f"name_of:{relation}", attr.text,
            f"User's {who.said or relation} is named {attr.text}", confidence=0.8, correction=True,
        )  # fmt: skip
        return
    if lemma == "be" and attr is not None and relation in _SPECIES and not negated:
        amount = next((c for c in attr.children if c.like_num), None)
        if attr.lower_ in _WEIGHT_UNITS and amount is not None:
            # "the vet says he's 7.4 kg": a weight, which the next one weighed replaces
            weight = f"{amount.text} {attr.text}"
            yield _make(who, tokens, "fact", f"{slot}:weight", weight,
                        f"User's {person_words(who)} weighs {weight}", correction=True)  # fmt: skip
            return
    if lemma == "be" and attr is not None:
        breed_like = attr.pos_ in ("NOUN", "PROPN") and attr.lemma_.casefold() not in _NOT_BREEDS
        # ("my dogs are Biscuit and Waffles": their names, no breed)
        breed_like = breed_like and not (attr.pos_ == "PROPN" and _conjuncts(attr)[1:])
        if relation in _SPECIES and breed_like and not _is_job(attr) and not negated:
            # "Our dog Pepper is a border collie" (and "Pepper is actually a whippet")
            breed = _phrase(attr)
            person = person_words(who)
            aged = next((c for c in attr.children if c.dep_ == "amod" and c.lower_ == "old"), None)
            years = (
                None
                if aged is None
                else next((t for t in aged.subtree if t.like_num or t.pos_ == "NUM"), None)
            )
            if aged is not None and years is not None:
                # "a 5 year old border collie": the age, and the breed after it
                breed = " ".join(t.text for t in attr.subtree if t.i > aged.i)
                if not breed:  # "a collie, 5 years old": the age after the breed
                    lefts = [t.text for t in attr.lefts if t.dep_ == "compound"]
                    breed = " ".join([*lefts, attr.text])
                yield _make(who, tokens, "fact", f"{slot}:age", years.text,
                            f"User's {person} is {years.text} years old")  # fmt: skip
            yield _make(who, tokens, "fact", f"{slot}:breed", breed,
                        f"User's {person} is {'an' if breed[:1].casefold() in 'aeiou' else 'a'} {breed}")  # fmt: skip
            return
        # ("my sister is the one who ...": "the one" is no age)
        if (attr.like_num or attr.pos_ == "NUM") and not any(
            c.dep_ == "det" for c in attr.children
        ):
            ages = " and ".join(t.text for t in _conjuncts(attr))
            yield _make(who, tokens, "fact", f"{slot}:age", ages, negated=negated)
            return
        if _is_job(attr):
            yield _make(who, tokens, "fact", f"{slot}:job", _phrase(attr), negated=negated)
            # "a chef at a restaurant in Lyon": where they are, kept when the job changes
            city = next((t for t in attr.subtree if t.pos_ == "PROPN" and t.dep_ == "pobj" and t.head.lower_ == "in"), None)  # fmt: skip
            if city is not None and not negated:
                where = _place(city)
                yield _make(who, tokens, "fact", f"{slot}:home_city", where,
                            f"User's {who.said} is based in {where}", confidence=0.7)  # fmt: skip
            return
    if lemma == "turn" and attr is None:
        number = next((c for c in head.children if c.like_num), None)
        if number is not None:
            yield _make(who, tokens, "fact", f"{slot}:age", number.text)
            return
    if lemma == "be" and acomp is not None:
        allergen = _prep_object(acomp, "to")
        if acomp.lower_ == "allergic" and allergen is not None:
            for item in _conjuncts(allergen):
                key = normalise_object(item.lemma_ if item.tag_ == "NNS" else item.text)
                yield _make(
                    who, tokens, "risk", f"{slot}:allergy:{key}", item.text,
                    negated=negated, confidence=0.85,
                )  # fmt: skip
            return
        if acomp.ent_type_ == "NORP" and acomp.text[:1].isupper():  # "my wife is Canadian"
            yield _make(who, tokens, "fact", f"{slot}:origin", acomp.text,
                        f"User's {who.said or who.relation} is {acomp.text}", negated=negated)  # fmt: skip
            return
        loved = _prep_object(acomp, "with", "about", "on")
        if acomp.lower_ in _TAKEN_WITH and loved is not None:  # "he's obsessed with dinosaurs"
            key = normalise_object(_phrase(loved))
            yield _make(who, tokens, "preference", f"{slot}:likes:{key}", _phrase(loved),
                        negated=negated)  # fmt: skip
            return
        if acomp.lower_ in words.DIETS:
            yield _make(who, tokens, "fact", f"{slot}:diet", acomp.lower_, negated=negated)
            return
    if lemma == "be" and attr is not None and attr.lower_ in words.DIETS:
        yield _make(who, tokens, "fact", f"{slot}:diet", attr.lower_, negated=negated)
        return
    became = next((c for c in head.children if c.lower_ in words.DIETS), None)
    if lemma in ("go", "become", "turn") and became is not None and not negated:
        # "she went fully vegan at the start of the month": a new diet, in place of the old
        yield _make(who, tokens, "fact", f"{slot}:diet", became.lower_, correction=True)
        return
    allergy = next((c for c in head.children if c.dep_ == "dobj" and c.lemma_ == "allergy"), None)
    if lemma == "have" and allergy is not None:
        allergen = [c for c in allergy.children if c.dep_ in ("compound", "amod", "nmod")]
        allergen = [c for c in allergen if c.lower_ not in ("severe", "mild", "bad", "serious")]
        if allergen:
            key = normalise_object(allergen[-1].text)
            yield _make(who, tokens, "risk", f"{slot}:allergy:{key}", allergen[-1].text,
                        negated=negated, confidence=0.85)  # fmt: skip
            return
    if head.tag_ == "VBN" and head.lower_ in _TAKEN_WITH:  # parsed as a passive verb
        loved = _prep_object(head, "with", "about")
        if loved is not None:
            key = normalise_object(_phrase(loved))
            yield _make(who, tokens, "preference", f"{slot}:likes:{key}", _phrase(loved),
                        negated=negated)  # fmt: skip
            return
    into = _prep_object(head, "into") if lemma == "be" else None
    if into is not None and into.pos_ in ("NOUN", "PROPN", "VERB"):  # "he's into cycling"
        for item in _conjuncts(into):
            what = _phrase(item) if item is into else item.text
            yield _make(who, tokens, "preference", f"{slot}:likes:{normalise_object(what)}",
                        what, f"User's {person_words(who)} is into {what}", negated=negated)  # fmt: skip
        return
    liking = next((c for c in head.children if c.dep_ == "aux" and _base(c) in _LIKING), None)
    if liking is not None and head.pos_ == "VERB":  # "my wife loves gardening", misparsed
        against = _base(liking) in ("hate", "dislike", "loathe")
        yield _make(who, tokens, "preference", f"{slot}:likes:{normalise_object(head.text)}",
                    head.text, negated=against)  # fmt: skip
        return
    if lemma in ("live", "move", "relocate"):
        place = _prep_object(head, "in", "to")
        if place is None and (into := _prep_object(head, "into")) is not None:
            # "Grandma moved into a care home in Catania": the city is the home's
            place = into if into.pos_ == "PROPN" else _prep_object(into, "in")
        if place is not None and place.pos_ != "PROPN" and not place.text[:1].isupper():
            # "a village near Norwich", "a flat in Leeds": the town the place is in or near
            place = _prep_object(place, "in", "near", "outside") or place
        if place is not None and (place.pos_ == "PROPN" or place.text[:1].isupper()):
            yield _make(
                who, tokens, "fact", f"{slot}:home_city", _place(place),
                negated=negated, correction=lemma != "live",
            )  # fmt: skip
            return
    offer = next((c for c in head.children if c.dep_ == "dobj" and c.lemma_ == "offer"), None)
    if lemma == "accept" and offer is not None and not negated:
        # "Rahul accepted an offer from Wipro": where they work now
        place = _prep_object(offer, "from", "at", "with") or _prep_object(head, "from", "at")
        if place is not None and place.pos_ == "PROPN":
            yield _make(who, tokens, "fact", f"{slot}:employer", _place(place),
                        f"User's {person_words(who)} works at {_place(place)}", correction=True)  # fmt: skip
            return
    settled = lemma == "be" and any(t.lower_ in ("now", "nowadays") for t in tokens)
    place = _prep_object(head, "in") if settled else None
    visit = any(t.lower_ in _VISITING for t in tokens)
    if place is not None and place.ent_type_ == "GPE" and not visit and not negated:
        # "she and the kids are in Accra now": where they live now (never "for a week")
        yield _make(who, tokens, "fact", f"{slot}:home_city", _place(place), correction=True)
        return
    if lemma == "be" or lemma == "come":
        origin = _prep_object(head, "from")
        if origin is not None and origin.pos_ == "PROPN":
            yield _make(who, tokens, "fact", f"{slot}:origin", _place(origin), negated=negated)
            return
    # "she's training to be a midwife", misparsed: "training" as what she is
    training = lemma == "be" and attr is not None and attr.lower_ in ("training", "retraining")
    if lemma in ("become", "retrain", "requalify", "qualify", "qualified", "train") or training:
        role = _prep_object(head, "as") or (None if training else attr)  # "... retrained as"
        to_be = next((c for c in head.children if c.dep_ == "xcomp" and c.lemma_ == "be"), None)
        if role is None and to_be is not None:  # "she's training to be a midwife"
            role = next((c for c in to_be.children if c.dep_ == "attr"), None)
        if role is not None and _is_job(role) and not negated:
            yield _make(who, tokens, "fact", f"{slot}:job", _phrase(role), correction=True)
            return
    if lemma == "work":
        role = _prep_object(head, "as")
        if role is not None:
            yield _make(who, tokens, "fact", f"{slot}:job", _phrase(role), negated=negated)
            return
        place = _prep_object(head, "at", "for")
        if place is not None:
            yield _make(who, tokens, "fact", f"{slot}:employer", _phrase(place), negated=negated)
            return
    if lemma in _LIKING:
        thing = _object(head) or next((c for c in head.children if c.dep_ == "xcomp"), None)
        if thing is not None:
            against = lemma in ("hate", "dislike", "loathe") or negated
            key = normalise_object(_phrase(thing))
            yield _make(
                who, tokens, "preference", f"{slot}:likes:{key}", _phrase(thing), negated=against
            )
            return
    when = _when(tokens)
    progressive = head.tag_ == "VBG" and any(c.lemma_ == "be" for c in head.children)
    # "is getting married on 6 September": the parser makes "married" the verb
    progressive = progressive or (
        head.tag_ == "VBN" and any(c.lower_ == "getting" for c in head.children)
    )
    dated = re.fullmatch(r"[\d-]+", when) and not _transient(tokens)
    if (progressive or head.tag_ == "VBZ" and lemma != "be") and dated:
        yield _make(who, tokens, "plan", f"{slot}:plan:{_slug(_words(tokens))}",
                    _words(tokens), when=when)  # fmt: skip
        return
    if _says_something_lasting(head, tokens):
        yield _make(who, tokens, "fact", f"{slot}:said:{_slug(_words(tokens))}", _words(tokens),
                    negated=negated, confidence=0.6)  # fmt: skip


_SPECIES = frozenset(words.PETS.values())
# What a pet "is" without being its breed: "my dog is a good boy", "she's a menace".
_WEIGHT_UNITS = frozenset("kg kgs kilo kilos lb lbs pounds stone".split())
_NOT_BREEDS = frozenset(
    "boy girl baby dog cat pet angel menace nightmare sweetheart darling rescue year month "
    "week lot bit star monster character kg kgs kilo kilos lb lbs pound pounds stone gram "
    "grams cm inch inches".split()  # ("he's 7.4 kg": a weight)
)
# Words that make "she's in Rome now" a visit, not where she lives.
_VISITING = frozenset("for on until till visiting holiday vacation trip week weekend".split())
_TAKEN_WITH = frozenset("obsessed mad crazy passionate keen nuts".split())


def _says_something_lasting(head: Token, tokens: list[Token]) -> bool:
    """ "My son is autistic", "my son plays the violin": yes. "My mum says hi", "my budgie died
    last week", "my sister asked me to...": news and messages, not facts about the person."""
    if len(tokens) < 3 or _transient(tokens) or _base(head) in words.MESSAGES:
        return False
    if any(t.lower_ in ("me", "you", "us") for t in tokens):
        return False
    if head.lemma_ == "be":
        return any(c.dep_ in ("attr", "acomp") for c in head.children)
    if head.tag_ == "VBG":  # "my sister is studying medicine", not "is cooking dinner"
        return _base(head) in words.LONG_ACTIVITIES
    if head.tag_ == "VB":  # "my brother doesn't eat meat"
        return any(c.dep_ == "aux" and c.lemma_ == "do" for c in head.children)
    return bool(head.tag_ == "VBZ" or head.tag_ == "VBP" and head.dep_ == "ROOT")


def _attribute(head: Token, who: Who, tokens: list[Token]) -> Iterator[Found]:
    """ "My dad's birthday is on 2 March" -> person:father:birthday."""
    noun = who.token.lemma_.casefold()
    if head.lemma_ != "be" or noun in ("name",):  # names: the patterns read them
        return
    value = _words(tokens[[t.i for t in tokens].index(head.i) + 1 :]) if head in tokens else ""
    person = Who("person", who.token, who.relation, who.name, who.said)
    if noun in ("birthday", "job", "age", "name", "address", "phone", "email"):
        yield _make(person, tokens, "fact", f"person:{who.relation}:{noun}", value)
    elif noun in _EVENTS and (when := _when(tokens)):
        # "My sister's wedding is on 14 June": a date in the user's diary, about one of theirs
        key = f"person:{who.relation}:plan:{noun}"
        yield _make(person, tokens, "plan", key, value, when=when)


# What happens to one of the user's people on a day: their plans the user keeps a date for.
_EVENTS: Final = frozenset(
    "wedding graduation christening funeral party operation surgery appointment exam "
    "interview retirement hen stag".split()
)
