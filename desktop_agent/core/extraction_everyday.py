"""More patterns for ``extraction``: everyday ways of saying who the user is.

A fresh batch of whole-chat scenarios, written before these rules, showed facts said and never
learned: "name's Oskar", "I've lived in Berlin for ten years", "Sam and I moved in together in
Edinburgh", "I work from home as a translator", "my gym is called Iron Temple", "with my
parrot Kiwi", "in my spare time I restore fountain pens", "I'm five months pregnant", "I only
drink green tea now". Each rule reads one clause anchored at its start, as in
``extraction_rules``; the ones that find a name inside a clause say why.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Final

from desktop_agent.core.extraction_grammar import KNOWN_PEOPLE
from desktop_agent.core.extraction_rules import (
    _RELATIONS,
    I_AM,
    Match,
    Rule,
    _job_phrase,
    _object,
    normalise_object,
    proper_noun,
    third_singular,
)
from desktop_agent.core.extraction_words import PETS, RELATIONS
from desktop_agent.search.tokenize import STOPWORDS

EVERYDAY_RULES: list[Rule] = []


def _rule(function: Rule) -> Rule:
    EVERYDAY_RULES.append(function)
    return function


def _compile(pattern: str) -> re.Pattern[str]:
    return re.compile(pattern, re.IGNORECASE)


_NAME = re.compile(
    r"(?i:(?:the\s+)?name(?:'s|’s|\s+is))\s+(?P<name>[A-ZÀ-Ý][\w'’-]+)(?=\s*(?:[,.!;]|$|\s+(?:by|btw|and|but|here)\b))"
)


@_rule
def name_said_short(clause: str) -> Iterator[Match]:
    """ "name's Oskar", "the name's Birgit", "Name is Tobias by the way"."""
    found = _NAME.match(clause.strip())
    if found and found.group("name").casefold() not in STOPWORDS:
        value = found.group("name")
        yield Match("fact", "name", value, f"User's name is {value}", 0.9)


_LIVED_IN = _compile(
    r"(?:i've|i’ve|i\s+have)\s+(?:now\s+)?(?:lived|been\s+living|(?P<been>been))\s+in\s+"
)
# How long, or since when: "for ten years", "since 2015", "all my life".
_SO_FAR = _compile(
    r"\b(?:for\s+(?:\w+\s+){0,2}(?:years?|months?|decades?)|since\b|all\s+my\s+life)"
)


@_rule
def lived_in(clause: str) -> Iterator[Match]:
    """ "I've lived in Berlin for ten years": home, said with how long it has been."""
    lead = _LIVED_IN.match(clause)
    if not lead or not _SO_FAR.search(clause):
        return
    if lead.group("been") and not clause[lead.end() : lead.end() + 1].isupper():
        return  # "I've been in Dublin for six years", not "i've been in bed for two days"
    value = proper_noun(clause[lead.end() :], clause)
    if value:
        yield Match("fact", "home_city", value, f"User lives in {value}", 0.85)


_MOVED_WITH = re.compile(
    rf"(?i:(?:(?:[A-ZÀ-Ý][\w'’-]+|my\s+{_RELATIONS})\s+and\s+)?(?:i|we))\s+"
    r"(?i:(?:have\s+|'ve\s+)?(?:just\s+|recently\s+|finally\s+)?moved\s+"
    r"(?:in\s+together\s+in|in\s+together\s+to|in\s+together\s+into|to|into|in\s+to))\s+"
)


@_rule
def moved_together(clause: str) -> Iterator[Match]:
    """ "Sam and I moved in together in Edinburgh", "my wife and I moved to Bristol": a new
    home (a change of the home slot)."""
    lead = _MOVED_WITH.match(clause.strip())
    if not lead:
        return
    value = proper_noun(clause.strip()[lead.end() :], clause)
    if value:
        yield Match("fact", "home_city", value, f"User lives in {value}", 0.85, correction=True)


_WORK_AS = _compile(
    r"i\s+(?:now\s+|currently\s+)?work\s+(?P<how>from\s+home|remotely|part[-\s]time|full[-\s]time|"
    r"freelance|online|nights|shifts)\s+as\s+"
)


@_rule
def job_done_somehow(clause: str) -> Iterator[Match]:
    """ "I work from home as a translator": the job, however it is done."""
    lead = _WORK_AS.match(clause)
    phrase = lead and _job_phrase(clause[lead.end() :], named_as=True)
    if phrase and lead is not None:
        article = "an" if phrase[:1].casefold() in "aeiou" else "a"
        how = lead.group("how").casefold()
        yield Match("fact", "job", phrase, f"User works as {article} {phrase} ({how})", 0.85)


_NAMED_PLACE = re.compile(
    r"(?:\s+(?:now\s+|currently\s+)?(?:at|for)\s+)(?P<place>(?:[A-ZÀ-Ý][\w'’&.-]*)(?:\s+[A-ZÀ-Ý][\w'’&.-]*){0,3})"
    r"(?=\s*(?:[,.!;]|$|\s+(?:in|on|and|but|as|since|for|now|here|there|over|near)\b))"
)
_JOB_LEAD = _compile(
    rf"(?:{I_AM}\s+(?:now\s+)?(?:an?\s+)|i\s+(?:now\s+|currently\s+)?work\s+as\s+(?:an?\s+)?)"
)


@_rule
def named_employer(clause: str) -> Iterator[Match]:
    """ "I'm a junior accountant at Deloitte": the employer is a slot of its own when it has a
    name, so a promotion ("I'm now a senior auditor") leaves it known. An unnamed place ("at an
    animal hospital") stays inside the job fact: forgetting the job takes it too."""
    lead = _JOB_LEAD.match(clause.strip())
    if not lead:
        return
    rest = clause.strip()[lead.end() :]
    phrase = _job_phrase(rest, named_as=True)
    if not phrase:
        return
    place = _NAMED_PLACE.match(rest[rest.find(phrase) + len(phrase) :])
    if place and place.group("place").split()[0].casefold() not in STOPWORDS:
        value = place.group("place").rstrip(".")
        yield Match("fact", "employer", value, f"User works at {value}", 0.8)


# "I work from home full-time now": how the user gets to work, which ends a commute.
_FROM_HOME = _compile(
    r"i\s+(?:now\s+|currently\s+)?work\s+(?:from|at)\s+home"
    r"(?P<how>(?:\s+(?:full[-\s]time|part[-\s]time|permanently|every\s+day|most\s+days|now))*)\s*$"
)


@_rule
def works_from_home(clause: str) -> Iterator[Match]:
    found = _FROM_HOME.match(clause.strip(" .!"))
    if found:
        how = re.sub(r"\s+now$", "", found.group("how")).strip()
        text = f"User works from home {how}".strip()
        yield Match("fact", "routine:commute", "home", text, 0.8, correction=True)


# Things a user names: "my gym is called Iron Temple", "our boat is named Sea Biscuit".
_THING_NAMED = re.compile(
    r"(?i:(?:my|our)\s+(?P<thing>[a-z][a-z-]{1,20})\s+is\s+(?P<how>called|named)?)\s*"
    r"(?P<name>(?:The\s+)?[A-ZÀ-Ý][\w'’-]*(?:\s+[A-ZÀ-Ý][\w'’-]*){0,3})"
)
# Places named without "called": "my gym is PureGym", "my bank is Monzo".
_PLACES = frozenset("gym bank club team church surgery pub supermarket salon barber choir".split())


@_rule
def thing_named(clause: str) -> Iterator[Match]:
    found = _THING_NAMED.match(clause.strip())
    if not found:
        return
    thing = found.group("thing").casefold()
    if thing in RELATIONS or thing in PETS or thing in STOPWORDS or thing == "name":
        return  # people and pets: ``relation_name``
    how = found.group("how")
    if how is None and thing not in _PLACES:
        return
    value = found.group("name")
    text = f"User's {thing} is {how.casefold() + ' ' if how else ''}{value}"
    yield Match("fact", f"name_of:{thing}", value, text, 0.85)


# Details the user keeps to hand: "my gym locker code is 9930", "my shoe size is 42", "my
# work email is lena@example.org and my shoe size is 39". The value must carry a digit or an @
# (a code, a number, a size, an address), so "my phone is broken" is no detail; favourites are
# read by ``favourite_label``.
_DETAIL = re.compile(
    r"(?i:(?:^|\band\s+)(?:my|our)\s+(?P<thing>(?:[a-z][\w-]*\s+){0,3}?(?:code|number|pin|"
    r"passcode|password|combination|size|postcode|zip\s+code|id|email|e-mail|email\s+address|"
    r"username|handle))\s+is\s+)"
    r"(?P<value>[\w+#/.@-]*[\d@][\w+#/.@-]*(?:\s\d[\w-]*){0,3})(?=[.!,;]*(?:\s|$))"
)


_PHONE_WORDS = frozenset({"number", "mobile", "mobile number", "phone", "mobile phone number"})


@_rule
def detail(clause: str) -> Iterator[Match]:
    for found in _DETAIL.finditer(clause.strip()):
        if found.group("thing").casefold().startswith(("favourite", "favorite")):
            continue
        thing, value = found.group("thing"), found.group("value").rstrip(".")
        # "my new number is ...": the phone number, put right
        new = thing.casefold().startswith("new ")
        thing = thing[4:] if new else thing
        thing = "phone number" if thing.casefold() in _PHONE_WORDS else thing
        key = "detail:" + " ".join(thing.casefold().split())
        yield Match("fact", key, value, f"User's {thing} is {value}", 0.85, correction=new)


# "... with my parrot Kiwi", "... and my brother Anders": a named relation inside a clause that
# says something else (the rules anchored at the start read only "My brother Anders is ...").
_INNER_RELATION = re.compile(
    rf"(?i:\b(?:with|and|to|for|visiting|visited|see|saw|met|meet)\s+my\s+(?P<rel>{_RELATIONS}))\s+"
    r"(?P<name>[A-ZÀ-Ý][\w'’-]+)\b"
)
_NOT_A_NAME: Final = frozenset("i i'm im".split())


# "My boyfriend Lucas | and I share a flat": the clause break before "and I" leaves the named
# relation alone in its clause.
_RELATION_ALONE = re.compile(rf"^(?i:my\s+(?P<rel>{_RELATIONS}))\s+(?P<name>[A-ZÀ-Ý][\w'’-]+)\s*$")


@_rule
def relation_inside(clause: str) -> Iterator[Match]:
    for found in [*_INNER_RELATION.finditer(clause), _RELATION_ALONE.match(clause.strip())]:
        if found is None:
            continue
        name = re.sub(r"['’]s$", "", found.group("name"))  # "to my sister Ama's place"
        if name.casefold() in STOPWORDS or name.casefold() in _NOT_A_NAME:
            continue
        said = found.group("rel").casefold()
        relation = RELATIONS.get(said) or PETS.get(said) or said
        yield Match("fact", f"name_of:{relation}", name, f"User's {said} is named {name}", 0.8)


_SPARE_TIME = _compile(
    r"(?:(?:in|during)\s+my\s+(?:spare|free|down)\s+time,?|for\s+fun,?|as\s+a\s+hobby,?|"
    r"on\s+(?:the\s+)?weekends?,?\s+i\s+(?:like|love)\s+to)\s+(?:i\s+)?(?:(?:like|love)\s+to\s+|"
    r"(?:really\s+|mostly\s+|usually\s+|often\s+)?)"
)
_MY_HOBBY = _compile(r"my\s+(?:main\s+|favou?rite\s+)?hobb(?:y|ies)\s+(?:is|are|has\s+been)\s+")


@_rule
def hobby(clause: str) -> Iterator[Match]:
    """ "In my spare time I restore old fountain pens", "my hobby is birdwatching"."""
    body = clause.strip().rstrip(".!")
    lead = _MY_HOBBY.match(body)
    if lead:
        what = re.split(r"\s*[,;]\s*|\s+(?:but|because|since)\s+", body[lead.end() :])[0]
        if what and what.split()[0].casefold() not in STOPWORDS:
            key = normalise_object(what)
            yield Match("fact", f"hobby:{key}", what, f"User's hobby is {what}", 0.85)
        return
    lead = _SPARE_TIME.match(body)
    if not lead:
        return
    verb, _, rest = body[lead.end() :].partition(" ")
    rest = re.split(r"\s*[,;]\s*|\s+(?:but|because|since|when)\s+", rest)[0]
    if not verb.isalpha() or verb.casefold() in STOPWORDS or not rest:
        return
    what = f"{third_singular(verb.casefold())} {rest}"
    key = normalise_object(rest)
    yield Match("fact", f"hobby:{key}", f"{verb} {rest}", f"User {what} as a hobby", 0.8)


_PREGNANT = _compile(
    rf"(?:{I_AM}|we're|we\s+are)\s+(?:now\s+)?(?:about\s+|nearly\s+|almost\s+)?"
    r"(?:\w+|\d+)\s+(?:months?|weeks?)\s+pregnant\b"
)


@_rule
def pregnant(clause: str) -> Iterator[Match]:
    """ "I'm five months pregnant": the condition with how far along (``condition`` reads the
    bare "I'm pregnant")."""
    if _PREGNANT.match(clause.strip()):
        yield Match("risk", "condition:pregnancy", "pregnancy", "User is pregnant", 0.9)


_OFF_ALCOHOL = _compile(
    rf"(?:{I_AM}|i've\s+been|i\s+have\s+been)\s+(?:now\s+|completely\s+|totally\s+)?"
    r"(?:sober|off\s+(?:the\s+)?(?:alcohol|booze|drink|drinking))\b"
)


@_rule
def off_alcohol(clause: str) -> Iterator[Match]:
    """ "I'm off alcohol and soft cheese", "I'm sober": the slot "I don't drink alcohol" fills,
    read by ``risks`` as a rule against alcoholic suggestions."""
    if _OFF_ALCOHOL.match(clause.strip()):
        yield Match(
            "fact", "drink:alcohol", "alcohol", "User does not drink alcohol", 0.85, negated=True
        )


_TEAM = _compile(r"i\s+(?:now\s+|still\s+|actually\s+|really\s+|also\s+)?support\s+")


@_rule
def team(clause: str) -> Iterator[Match]:
    """ "I support Celtic": the team, one slot ("I'm a huge Arsenal fan" is a like)."""
    lead = _TEAM.match(clause.strip())
    if not lead:
        return
    value = proper_noun(clause.strip()[lead.end() :], clause)
    if value and value.casefold() not in STOPWORDS:
        yield Match("fact", "team", value, f"User supports {value}", 0.85)


_BORN_IN = _compile(r"i\s+was\s+born\s+(?:and\s+(?:raised|bred)\s+)?in\s+")


@_rule
def born_in(clause: str) -> Iterator[Match]:
    lead = _BORN_IN.match(clause.strip())
    value = lead and proper_noun(clause.strip()[lead.end() :], clause)
    if value:
        yield Match("fact", "origin", value, f"User was born in {value}", 0.85)


_INCOME = _compile(
    r"i\s+(?:now\s+|currently\s+)?(?P<verb>earn|make|take\s+home)\s+(?P<what>(?:about\s+|around\s+|roughly\s+)?"
    r"(?:[$£€]\s?)?\d[\d,.]*\s*(?:k|grand|thousand|dollars|pounds|euros|an?\s+hour|per\s+hour)?"
    r"(?:\s+(?:a|per|an)\s+(?:year|month|week|hour))?)"
)


@_rule
def income(clause: str) -> Iterator[Match]:
    """ "I earn about 52k a year": what the user earns (forgetting "my salary" finds it)."""
    found = _INCOME.match(clause.strip())
    if found:
        verb = third_singular(found.group("verb").split()[0].casefold())
        rest = found.group("verb").split()[1:]
        what = " ".join([*rest, found.group("what").strip()])
        yield Match("fact", "income", what, f"User {verb} {what}", 0.85)


# A drug by its name's ending, or one of the common ones without a telling ending.
_DRUG = (
    r"[a-z]+(?:ine|ol|in|am|ide|pril|sartan|statin|zole|pam|lam|mab|xetine|pine|one|ate)|"
    r"aspirin|ibuprofen|paracetamol|prozac|zoloft|lexapro|adderall|ritalin|xanax"
)
_TAKES_DRUG = _compile(
    rf"i\s+(?:now\s+|still\s+)?take\s+(?P<drug>{_DRUG})\s+(?=(?:every|each|daily|twice|once|"
    r"three\s+times|in\s+the\s+(?:morning|evening)|at\s+night|for)\b)"
)


@_rule
def takes_drug(clause: str) -> Iterator[Match]:
    """ "I take sertraline every morning for anxiety": a medication (a risk for advice)."""
    found = _TAKES_DRUG.match(clause.strip())
    if found:
        drug = found.group("drug")
        yield Match("risk", f"medication:{drug.casefold()}", drug, f"User takes {drug}", 0.85)


_LEARNING = _compile(
    r"i(?:'ve|\s+have)?\s+(?:just\s+|recently\s+)?(?:started|begun|began|taken\s+up)\s+"
    r"(?:learning|studying|to\s+learn)\s+"
)


@_rule
def started_learning(clause: str) -> Iterator[Match]:
    """ "I've started learning Japanese on Duolingo", "I started learning the cello"."""
    lead = _LEARNING.match(clause.strip())
    what = lead and _object(clause.strip()[lead.end() :])
    if what:
        key = normalise_object(what)
        yield Match("fact", f"learning:{key}", what, f"User is learning {what}", 0.8)


_KNOWN_IS = re.compile(
    r"^(?P<name>[A-ZÀ-Ý][\w'’-]+)(?:'s|’s|\s+is)\s+(?:now\s+|still\s+)?(?=an?\s)(?P<rest>.+)$"
)


@_rule
def known_person(clause: str) -> Iterator[Match]:
    """What is said of one of the user's people by the name they told ("Anjali's a dentist");
    a name nobody told says nothing."""
    known = KNOWN_PEOPLE.get()
    body = clause.strip().rstrip(".!")
    found = _KNOWN_IS.match(body)
    relation = found and known.get(found.group("name").casefold())
    if found and relation:
        if relation in PETS.values():
            return  # "Max is a golden retriever": a pet's breed, never a job (the parse reads it)
        phrase = _job_phrase(re.sub(r"(?i)^an?\s+", "", found.group("rest")), named_as=True)
        if phrase:
            name = found.group("name")
            text = f"User's {relation} {name} is {'an' if phrase[:1].casefold() in 'aeiou' else 'a'} {phrase}"
            yield Match("fact", f"person:{relation}:job", phrase, text, 0.8)


_NEW_PET = re.compile(
    r"^(?i:(?:we|i|they|the\s+kids|my\s+kids|the\s+children)\s+(?:now\s+|just\s+|finally\s+)?"
    r"(?:have|has|got|adopted|rescued|bought|took\s+in)\s+(?:now\s+)?an?\s+(?:new\s+|little\s+)?)"
    r"(?P<pet>guinea\s+pig|[a-z]+)\s+(?i:named|called)\s+(?P<name>[A-ZÀ-Ý][\w'’-]+)"
)


@_rule
def new_pet(clause: str) -> Iterator[Match]:
    """ "The kids now have a guinea pig named Pip", "we adopted a kitten called Mochi"."""
    found = _NEW_PET.match(clause.strip())
    if not found:
        return
    said = found.group("pet").casefold()
    if said.split()[0] not in PETS:
        return
    name = found.group("name")
    species = PETS[said.split()[0]]  # one slot per species: "beagle" is the dog's
    yield Match("fact", f"name_of:{species}", name, f"User's {said} is named {name}", 0.85)
    # "... a cat called Whiskers and a dog called Bruno": the next of the list
    for more in _AND_A_PET.finditer(clause, found.end()):
        other, name = more.group("pet").casefold(), more.group("name")
        kind = PETS.get(other.split()[0])
        if kind and kind != species:
            yield Match("fact", f"name_of:{kind}", name, f"User's {other} is named {name}", 0.85)


_AND_A_PET = re.compile(
    r"(?i:,?\s+and\s+(?:an?|one|our|my)\s+(?:new\s+|little\s+)?)(?P<pet>guinea\s+pig|[a-z]+)\s+"
    r"(?i:named|called)\s+(?P<name>[A-ZÀ-Ý][\w'’-]+)"
)


__all__ = ["EVERYDAY_RULES"]
