"""Facts a whole sentence says across its commas.

Clause rules read one clause at a time, and commas cut these into pieces that say nothing
alone: "I'm seeing someone new, | his name is Felipe", "I'm Greta, | a carpenter from Bergen",
"I'm Rahul, | married to Anjali", "we have twin boys, | Dev and Arjun". Each rule here reads a
sentence; its match spans the whole sentence.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from typing import Final

from desktop_agent.core.extraction_grammar import KNOWN_PEOPLE
from desktop_agent.core.extraction_rules import (
    I_AM,
    Match,
    _job_phrase,
    _objects,
    normalise_object,
    proper_noun,
)
from desktop_agent.core.extraction_words import PET_WORDS, PETS
from desktop_agent.core.extraction_work import GYM
from desktop_agent.core.questions import SENTENCE

SentenceRule = Callable[[str], Iterator[Match]]
SENTENCE_RULES: list[SentenceRule] = []


def _rule(function: SentenceRule) -> SentenceRule:
    SENTENCE_RULES.append(function)
    return function


_NAME = r"[A-ZÀ-Ý][\w'’-]+"
_NEW_PARTNER = re.compile(
    # ("I'm seeing someone", "I've been seeing someone new", "i started seeing someone",
    # "been dating a guy called ...")
    rf"(?i:(?:(?:{I_AM}|(?:i(?:'ve|’ve|\s+have)\s+)?been|i\s+(?:started|began|have\s+started)|"
    r"i['’]ve\s+started)\s+(?:now\s+)?(?:seeing|dating|going\s+out\s+with)\s+(?:someone|somebody|"
    r"a\s+(?:guy|girl|man|woman|lad|lass))(?:\s+(?:new|now|else))*|"
    r"i(?:'ve|\s+have)\s+(?:got\s+)?a\s+new\s+(?:boyfriend|girlfriend|partner|fianc[eé]e?)|"
    r"i\s+(?:met|found)\s+someone(?:\s+new)?)"
    # ("someone 🙈 her name's Jo", "someone his name is Dev")
    r"(?:\s*[,;:–—-]*\s*(?:[^\w\s,;:.!?]+\s*)?(?:and\s+)?(?:his|her|their)\s+name(?:'s|’s|\s+is)|"
    r"\s+(?:called|named))\s+)"
    rf"(?P<name>{_NAME})"
)


@_rule
def new_partner(sentence: str) -> Iterator[Match]:
    """ "I'm seeing someone new, his name is Felipe", "I'm seeing someone called Theo now": the
    partner slot's new value."""
    found = _NEW_PARTNER.search(sentence)
    if found:
        name = found.group("name")
        yield Match(
            "fact",
            "name_of:partner",
            name,
            f"User's partner is named {name}",
            0.85,
            correction=True,
        )


# "We're adopting a rescue dog instead of a kitten, a beagle called Toffee": the pet's name
# said later in the sentence that tells of getting it.
_PET_NAMED_LATER = re.compile(
    r"(?i:\b(?:we|i)(?:'re|’re|'m|’m|\s+are|\s+am)?\s+(?:now\s+|just\s+|finally\s+)?"
    r"(?:have|got|adopted|adopting|getting|rescued|rescuing|bought|buying)\b[^.!?]*?"
    r"\ban?\s+(?:new\s+|little\s+|rescue\s+)?)(?P<pet>[a-z]+)\s+(?i:named|called)\s+"
    rf"(?P<name>{_NAME})"
)


# "Biscuit (our beagle) chewed through the charger", "Biscuit (my beagle, he's 4) has his
# shots": the user's animal, named with its kind in brackets
_PET_IN_BRACKETS = re.compile(
    rf"(?<![\w'’])(?P<name>{_NAME})\s*\((?i:our|my)\s+(?i:(?:new|little|old|rescue|"
    r"\w+-year-old)\s+)?(?P<pet>[a-z]+)\b"
)


@_rule
def pet_named_later(sentence: str) -> Iterator[Match]:
    for found in (_PET_NAMED_LATER.search(sentence), _PET_IN_BRACKETS.search(sentence)):
        if found and found.group("pet").casefold() in PETS:
            said, name = found.group("pet").casefold(), found.group("name")
            text = f"User's {said} is named {name}"
            yield Match("fact", f"name_of:{PETS[said]}", name, text, 0.8)
            return


# "my dog rides with me in the cabin, a beagle called Kielbasa", "my dog is a beagle called
# Rolo": the user's own animal, named later in the sentence by its breed or kind.
_MY_PET_NAMED_LATER = re.compile(
    r"(?i:\bmy\s+(?:new\s+|little\s+|old\s+)?)(?P<own>[a-z]+)\b"
    r"(?P<between>[^.!?]*?)(?i:\ban?\s+(?:new\s+|little\s+|rescue\s+|\w+-year-old\s+)?)"
    rf"(?P<pet>[a-z]+)\s+(?i:named|called)\s+(?P<name>{_NAME})"
)
# someone else's animal between them: "my dog loves my sister's dog, a beagle called Max"
_SOMEONE_ELSES = re.compile(r"(?i:['’]s\b|\b(?:my|his|her|their|your)\b)")


@_rule
def my_pet_named_later(sentence: str) -> Iterator[Match]:
    for found in _MY_PET_NAMED_LATER.finditer(sentence):
        own, said = found.group("own").casefold(), found.group("pet").casefold()
        species = PETS.get(own)
        if species is None or PETS.get(said) != species or _SOMEONE_ELSES.search(found["between"]):
            continue
        name = found.group("name")
        yield Match("fact", f"name_of:{species}", name, f"User's {own} is named {name}", 0.8)
        return


# "the greyhound is officially Biscuit now", "the kitten is now called Miso": a new name for
# the animal the family talks of (a name said as new: no one else's pet is renamed to the user)
_PET_RENAMED = re.compile(
    r"(?i:\bthe\s+(?:new\s+|little\s+|rescue\s+)?)(?P<pet>[a-z]+)"
    r"(?i:\s+is\s+(?:(?:now|officially)\s+){1,2}(?:(?:called|named)\s+)?)"
    rf"(?P<name>{_NAME})"
)


# "the rabbit is called Sprout now": the new name, then "now"
_PET_CALLED_NOW = re.compile(
    r"(?i:\bthe\s+(?:new\s+|little\s+|rescue\s+)?)(?P<pet>[a-z]+)"
    rf"(?i:(?:\s+is|['’]s)\s+(?:called|named)\s+)(?P<name>{_NAME})(?i:,?\s+now)\b"
)


@_rule
def pet_renamed(sentence: str) -> Iterator[Match]:
    found = _PET_RENAMED.search(sentence) or _PET_CALLED_NOW.search(sentence)
    if found and found.group("pet").casefold() in PETS:
        said, name = found.group("pet").casefold(), found.group("name")
        yield Match(
            "fact",
            f"name_of:{PETS[said]}",
            name,
            f"User's {said} is named {name}",
            0.8,
            correction=True,
        )


# "update on the dog: we renamed him Biscuit, he never answered to Rocket anyway": whose new
# name, by the animal the sentence names, or the old name the memory knows
_RENAMED = re.compile(
    r"(?i:\b(?:we|i)(?:['’]ve|\s+have)?\s+(?:just\s+|finally\s+|officially\s+)?renamed\s+)"
    rf"(?:(?i:him|her|it|the\s+(?P<pet>[a-z]+))|(?P<old>{_NAME}))(?i:\s+to)?\s+(?P<name>{_NAME})"
)


@_rule
def renamed(sentence: str) -> Iterator[Match]:
    found = _RENAMED.search(sentence)
    if not found:
        return
    known = KNOWN_PEOPLE.get()
    said = (found.group("pet") or "").casefold()
    kind = PETS.get(said) or known.get((found.group("old") or "").casefold())
    if not kind:
        pet = re.search(rf"(?i:\b({PET_WORDS})\b)", sentence)
        named = (known.get(w.casefold()) for w in re.findall(_NAME, sentence))
        kind = PETS[pet.group(1).casefold()] if pet else next((k for k in named if k), None)
    if kind and kind in PETS.values():
        name = found.group("name")
        text = f"User's {said or kind} is named {name}"
        yield Match("fact", f"name_of:{kind}", name, text, 0.8, correction=True)


# "For deliveries my address is 14 Harrow Lane, Leeds LS6 2AB", "new place is 9 Quarry Road,
# LS7 4DN": the user's street address (one slot, so a move replaces it)
_STREET: Final = (
    r"\d+[A-Za-z]?,?\s+(?:[A-ZÀ-Ý][\w'’-]+\s+){1,3}(?i:road|rd|street|st|lane|ln|avenue|ave|"
    r"close|drive|way|crescent|place|terrace|court|gardens|grove|square|row|walk|mews|"
    r"boulevard|blvd|parade)\b\.?"
    # the town and the postcode after it: ", Leeds LS6 2AB"
    r"(?:,?\s+(?!(?i:and|but|so)\b|[A-Z]{1,2}\d)[A-ZÀ-Ý][\w'’-]+)?(?:,?\s+[A-Z]{1,2}\d[A-Z\d]?\s*\d[A-Z]{2})?"
)
# "my address is 14 Kirkegata": said as the address, whatever the street is called
_SAID_ADDRESS = re.compile(
    r"(?i:\b(?:my|our)\s+(?P<new>new\s+)?(?:home\s+|postal\s+|delivery\s+|current\s+)?"
    r"address\s+(?:is|['’]s)\s+(?:now\s+)?)"
    r"(?P<address>(?=[^.!?;]*\d)[^.!?;]{3,60}?)(?=\s*(?:[.!?;]|$|,?\s+(?i:and|but|so|if)\b))"
)
_ADDRESS = re.compile(
    r"(?i:\b(?:my|our)\s+(?P<new>new\s+)?(?:home\s+|postal\s+|delivery\s+|current\s+)?"
    r"address\s+(?:is|['’]s)\s+(?:now\s+)?|"
    r"\b(?P<moved>new\s+(?:place|flat|house|address)\s+is|(?:we|i)(?:['’]re|\s+are|['’]m|\s+am)"
    r"\s+(?:now\s+)?at|moved\s+(?:in)?to|(?:we|i)\s+(?:now\s+)?live\s+at)\s+)"
    rf"(?P<address>{_STREET})"
)


@_rule
def address(sentence: str) -> Iterator[Match]:
    found = _ADDRESS.search(sentence) or _SAID_ADDRESS.search(sentence)
    if found:
        where = found.group("address").rstrip(" ,.")
        changed = bool(found.group("new") or found.groupdict().get("moved"))
        text = f"User's address is {where}"
        yield Match("fact", "address", where, text, 0.85, correction=changed)


_MARRIED_TO = re.compile(rf"(?i:\bmarried\s+to)\s+(?P<name>{_NAME})")


@_rule
def married_to(sentence: str) -> Iterator[Match]:
    """ "I'm Rahul, married to Anjali": the partner's name, wherever it sits."""
    if re.search(r"(?i:\b(?:not|never|no longer)\s+married)", sentence):
        return
    found = _MARRIED_TO.search(sentence)
    if found and re.search(r"(?i:\b(?:i|i'm|im|i’m|we're|we)\b)", sentence[: found.start()]):
        name = found.group("name")
        yield Match("fact", "name_of:partner", name, f"User's partner is {name}", 0.85)


_INTRODUCED = re.compile(
    # "Quick intro: I'm Amara, 38, a GP in Leeds, ...": a label and the age may come first
    rf"^(?:[A-Za-z][\w ]{{0,20}}:\s*)?(?i:(?:hi|hello|hey|evening|morning)[,!.\s]+)?"
    rf"(?i:{I_AM})\s+{_NAME}\s*,\s*(?:\d{{1,3}}\s*,\s*)?"
    r"(?P<rest>(?i:an?)\s+.+?)\s*[.!]*$"
)
_FROM = re.compile(rf"\s+(?i:from)\s+(?P<place>{_NAME}(?:\s+{_NAME})?)")
# ("based in Pune" says where the job is: that stays the job's, as before)
_LIVING_IN = re.compile(
    rf"\s+(?i:living|who\s+lives)\s+(?i:in)\s+(?P<place>{_NAME}(?:\s+{_NAME})?)"
)


@_rule
def introduced(sentence: str) -> Iterator[Match]:
    """ "I'm Greta, a carpenter from Bergen": the job (and where from) after the name."""
    found = _INTRODUCED.match(sentence.strip())
    if not found:
        return
    rest = found.group("rest")
    # "a retired English teacher living in Sapporo": where they live, after the job
    living = _LIVING_IN.search(rest)
    said = rest[: living.start()] if living else rest
    phrase = _job_phrase(re.sub(r"(?i)^an?\s+", "", said), named_as=True)
    if living:
        city = living.group("place")
        yield Match("fact", "home_city", city, f"User lives in {city}", 0.8)
    if not phrase:
        return
    article = "an" if phrase[:1].casefold() in "aeiou" else "a"
    verb = "is" if phrase.casefold().startswith("retired ") else "works as"
    yield Match("fact", "job", phrase, f"User {verb} {article} {phrase}", 0.85)
    place = _FROM.search(rest[rest.find(phrase) + len(phrase) :])
    if place:
        value = place.group("place")
        yield Match("fact", "origin", value, f"User is from {value}", 0.8)


_PLURAL: Final = {
    "boys": "sons",
    "sons": "sons",
    "girls": "daughters",
    "daughters": "daughters",
    "kids": "children",
    "children": "children",
}
_CHILDREN_NAMED = re.compile(
    r"(?i:\b(?:we|i)\s+(?:have|'ve\s+got|have\s+got)\s+(?:(?:twin|two|three|four|2|3|4)\s+)?"
    r"(?:little\s+|young\s+|grown-up\s+|old\s+)?(?P<who>boys|sons|girls|daughters|kids|children|"
    r"twins|[a-z]+s))"
    r"\s*[,:;-]*\s*(?i:(?:called|named)\s+)?"
    rf"(?P<names>{_NAME}(?:\s*,\s*{_NAME})*,?\s+(?i:and)\s+{_NAME})\b"
)


@_rule
def children_named(sentence: str) -> Iterator[Match]:
    """ "We have twin boys, Dev and Arjun": one fact naming them all (one slot per relation
    would let the second name supersede the first)."""
    found = _CHILDREN_NAMED.search(sentence)
    if not found:
        return
    said = found.group("who").casefold()
    names = re.sub(r",?\s+and\s+", " and ", found.group("names").strip(), flags=re.I)
    if said in _PLURAL or said == "twins":
        who = _PLURAL.get(said, "children")
        yield Match("fact", f"name_of:{who}", names, f"User's {who} are called {names}", 0.85)
    elif species := PETS.get(said[:-1]) or PETS.get(said):
        # "We have two spaniels, Bramble and Hazel": the dogs, by their names
        kind = f" ({said})" if said != f"{species}s" else ""
        text = f"User's {species}s are called {names}{kind}"
        yield Match("fact", f"name_of:{species}s", names, text, 0.85)


# "My older brothers are Sam, Luke and Owen": people of one kind named in a list, one fact for
# them all (the parse reads only the first name, as if it were the one brother's).
_PEOPLE = {"kids": "children", "siblings": "siblings"}
_PEOPLE_NAMED = re.compile(
    r"(?i:\b(?:my|our)\s+(?P<said>(?:(?:two|three|four|five|older|younger|elder|big|little|twin|step|"
    r"half|grown-up)[\s-]+){0,2}(?P<who>brothers|sisters|siblings|sons|daughters|kids|children|"
    r"grandchildren|grandsons|granddaughters|cousins|nieces|nephews|parents|grandparents|"
    r"flatmates|housemates|roommates|best\s+friends|cats|dogs|rabbits|hamsters|horses|"
    r"chickens|guinea\s+pigs|kittens|puppies))\s+are\s+(?:called\s+|named\s+)?)"
    rf"(?P<names>{_NAME}(?:\s*,\s*{_NAME})*,?\s+(?i:and)\s+{_NAME})\b"
)


@_rule
def people_named(sentence: str) -> Iterator[Match]:
    found = _PEOPLE_NAMED.search(sentence)
    if not found:
        return
    said, who = found.group("said").casefold(), found.group("who").casefold()
    names = re.sub(r",?\s+and\s+", " and ", found.group("names").strip(), flags=re.I)
    if species := PETS.get(who.split()[0].removesuffix("s")) or PETS.get(who.split()[0]):
        # "our cats are called Miso and Tofu": the cats, by their names (as ``children_named``)
        text = f"User's {species}s are called {names}"
        yield Match("fact", f"name_of:{species}s", names, text, 0.85)
        return
    key = _PEOPLE.get(who) or _PLURAL.get(who) or " ".join(who.split())
    yield Match("fact", f"name_of:{key}", names, f"User's {said} are called {names}", 0.85)


_KNOWN_WILL_BE = re.compile(
    r"^(?i:it's|it’s|it\s+is)\s+(?P<name>[A-ZÀ-Ý][\w'’-]+)(?:'s|’s)\s+birthday\b.*?,\s*"
    r"(?i:(?:she|he|they)(?:'ll|’ll|\s+will)\s+be|(?:she|he|they)(?:'s|’s|\s+is)\s+turning)\s+"
    r"(?P<age>\d{1,3}|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|thirteen|"
    r"fourteen|fifteen|sixteen|seventeen|eighteen|nineteen|twenty|thirty|forty|fifty|sixty|"
    r"seventy|eighty|ninety)\b"
)


@_rule
def known_birthday(sentence: str) -> Iterator[Match]:
    """ "It's Isla's birthday on Sunday, she'll be seven": the age of one of the user's people,
    by the name they told."""
    aged = _KNOWN_WILL_BE.match(sentence.strip())
    relation = aged and KNOWN_PEOPLE.get().get(aged.group("name").casefold())
    if aged and relation:
        name, age = aged.group("name"), aged.group("age")
        text = f"User's {relation} {name} will be {age}"
        yield Match("fact", f"person:{relation}:age", age, text, 0.8)


# "I'm in Bath now, moved over the summer", "I've left Siemens, I'm at Bosch now": a bare
# "I'm in/at X now" is a visit unless the sentence says the user moved or changed jobs.
_NOW_IN = re.compile(rf"(?i:\b{I_AM}\s+(?:now\s+)?(?P<prep>in|at)\s+)(?P<rest>.+)")
_MOVED = re.compile(r"(?i:\b(?:moved|relocated|move|live|living|settled)\b)")
_CHANGED_JOBS = re.compile(r"(?i:\b(?:left|quit|joined|job|work|working|started)\b)")


@_rule
def now_somewhere(sentence: str) -> Iterator[Match]:
    for prep, value in _now_places(sentence):
        if prep == "at" and GYM.search(value):
            # "I'm at Anytime Fitness near the office now": the gym the user goes to
            yield Match(
                "fact", "name_of:gym", value, f"User's gym is {value}", 0.8, correction=True
            )
        elif prep == "in" and _MOVED.search(sentence):
            yield _lives_in(value)
        elif prep == "at" and _CHANGED_JOBS.search(sentence):
            yield _works_at(value)


# "moved my membership over to Anytime Fitness on Oxford Road": the new gym
_MEMBERSHIP_MOVED = re.compile(
    r"(?i:\b(?:moved|switched|transferred|changed)\s+(?:my|our)\s+(?:gym\s+)?membership\s+"
    r"(?:over\s+)?to\s+)(?P<rest>.+)"
)


@_rule
def membership_moved(sentence: str) -> Iterator[Match]:
    found = _MEMBERSHIP_MOVED.search(sentence)
    value = found and proper_noun(found.group("rest"), sentence)
    if value:
        yield Match("fact", "name_of:gym", value, f"User's gym is {value}", 0.8, correction=True)


def _now_places(sentence: str, lead: re.Pattern[str] = _NOW_IN) -> Iterator[tuple[str, str]]:
    """("in" or "at", the place) of each "I'm in/at X now" that is no visit."""
    for found in lead.finditer(sentence):
        rest = found.group("rest")
        if not re.search(r"(?i:\bnow\b)", sentence) or re.search(
            r"(?i:\b(?:for|visiting|holiday|vacation|trip|weekend)\b)", rest
        ):
            continue
        value = proper_noun(rest, sentence)
        if value:
            yield found.group("prep").casefold(), value


# "i left Riverside last month, the night shifts were killing me. i'm at Clearwater Dialysis
# Center now": the change of job is told in the sentence before the new place.
_LEFT_A_JOB = re.compile(
    r"\b(?i:left|quit|resigned\s+from)\s+(?:(?-i:[A-ZÀ-Ý])|(?i:my\s+(?:old\s+)?job|"
    r"the\s+(?:company|firm|hospital|bank|school|council|practice|agency|office|clinic)))|"
    r"(?i:\b(?:resigned|handed\s+in\s+my\s+notice|new\s+job|got\s+hired|laid\s+off|"
    r"made\s+redundant|accepted\s+(?:the|an|their)\s+offer)\b)"
)


# "Fairbairn sold the flat out from under us, gave us the two months notice ... so after a mad
# scramble we're now in Leith": the move is told in the sentences around the new place.
_LEFT_A_HOME = re.compile(
    r"(?i:\b(?:sold\s+the\s+(?:flat|house|place)|(?:months?|weeks?)['’]?\s+notice|notice\s+to\s+"
    r"(?:leave|quit)|evict(?:ed|ion)|landlord|lease|tenancy|new\s+(?:flat|place|house|home)|"
    r"(?:un)?packing|(?:the|our|my)\s+rent|rent\s+is|rent['’]s)\b)"
)


def now_at_work(message: str) -> Iterator[tuple[Match, tuple[int, int]]]:
    """(employer, span) of "I'm at X now" in a message that says the user left a job, and
    (home, span) of "we're now in X" in one that says they left a home."""
    left_a_job, left_a_home = _LEFT_A_JOB.search(message), _LEFT_A_HOME.search(message)
    if not (left_a_job or left_a_home):
        return
    for told in SENTENCE.finditer(message):
        sentence = told.group(0)
        for prep, value in _now_places(sentence):
            if prep == "at" and left_a_job and not _CHANGED_JOBS.search(sentence):
                yield _works_at(value), told.span()  # (else the sentence rule reads it)
        if left_a_home and not _MOVED.search(sentence):
            for _prep, value in _now_places(sentence, _WE_NOW_IN):
                yield _lives_in(value), told.span()


# (a home is the household's: "we're now in Leith" as much as "I'm now in Leith")
_WE_NOW_IN = re.compile(
    rf"(?i:\b(?:{I_AM}|we['’]re|we\s+are)\s+(?:now\s+)?(?P<prep>in)\s+)(?P<rest>.+)"
)


def _lives_in(value: str) -> Match:
    return Match("fact", "home_city", value, f"User lives in {value}", 0.8, correction=True)


def _works_at(value: str) -> Match:
    return Match("fact", "employer", value, f"User works at {value}", 0.8, correction=True)


# "the results say I'm no longer allergic to strawberries": taken back inside a report.
_NO_LONGER_ALLERGIC = re.compile(
    rf"(?i:\b{I_AM}\s+(?:not|no\s+longer)\s+allergic\s+to\s+)(?P<what>[^.!?;]+)"
)


@_rule
def allergy_taken_back(sentence: str) -> Iterator[Match]:
    found = _NO_LONGER_ALLERGIC.search(sentence)
    if not found or found.start() == 0:
        return  # said outright at the start, the clause rules read it
    for obj in _objects(found.group("what")):
        key = f"allergy:{normalise_object(obj)}"
        text = f"User is not allergic to {obj}"
        yield Match("risk", key, obj, text, 0.85, negated=True, correction=True)


_PET_IS_A = re.compile(
    r"(?i:\bmy\s+(?P<pet>[a-z]+)(?:\s+is\s+(?:called|named)|\s+(?:called|named))?)\s+"
    rf"(?P<name>{_NAME})\s*,\s*(?i:(?:he|she|it)(?:'s|’s|\s+is)\s+an?\s+)"
    r"(?P<kind>[\w-]+(?:\s+[\w-]+)?)\s*[.!]*$"
)


@_rule
def pet_kind(sentence: str) -> Iterator[Match]:
    """ "My dog is called Bruno, he's a beagle": what kind of animal (a breed)."""
    found = _PET_IS_A.search(sentence.strip())
    if found and found.group("pet").casefold() in PETS:
        pet, name, kind = found.group("pet").casefold(), found.group("name"), found.group("kind")
        article = "an" if kind[:1].casefold() in "aeiou" else "a"
        text = f"User's {pet} {name} is {article} {kind}"
        yield Match("fact", f"person:{PETS[pet]}:kind", kind, text, 0.8)


# "Beatriz had to stop teaching so I found someone new, Rafael": a known person's successor,
# in the same role (whom the user told of by name before)
_SOMEONE_NEW = re.compile(
    rf"^(?P<name>{_NAME})\b[^.!?]*?\b(?i:found|got|have|hired|booked|switched\s+to|moved\s+to|"
    r"went\s+with|going\s+with)\s+(?i:someone|somebody|a\s+new\s+one)(?i:\s+new)?"
    r"(?:\s*,\s*|\s+(?i:called|named)\s+)"
    rf"(?P<new>{_NAME})"
)


@_rule
def someone_new(sentence: str) -> Iterator[Match]:
    found = _SOMEONE_NEW.match(sentence.strip())
    relation = found and KNOWN_PEOPLE.get().get(found.group("name").casefold())
    if found and relation and found.group("new") != found.group("name"):
        new = found.group("new")
        yield Match(
            "fact",
            f"name_of:{relation}",
            new,
            f"User's {relation} is {new}",
            0.8,
            correction=True,
        )


# "Pickle is now called Mochi", "Pickle's called Mochi now", "we renamed Pickle to Mochi": a
# new name for one the user named before
_KNOWN_RENAMED = re.compile(
    rf"\b(?P<name>{_NAME})(?i:(?:\s+is|['’]s)\s+(?:now\s+)?(?:called|named|renamed)\s+)"
    rf"(?P<new>{_NAME})|\b(?i:renamed)\s+(?P<old>{_NAME})\s+(?i:to|as)\s+(?P<to>{_NAME})"
)


@_rule
def known_renamed(sentence: str) -> Iterator[Match]:
    found = _KNOWN_RENAMED.search(sentence)
    if found is None:
        return
    old, new = found.group("name") or found.group("old"), found.group("new") or found.group("to")
    relation = KNOWN_PEOPLE.get().get(old.casefold())
    now = found.group("old") or re.search(r"(?i:\bnow\b)", sentence)  # a new name, not a nickname
    if relation and now and new.casefold() != old.casefold():
        text = f"User's {relation} is named {new}"
        yield Match("fact", f"name_of:{relation}", new, text, 0.8, correction=True)


# "finally switched dentists, I'm with Dr. Sofia Lindqvist at the Brightsmile clinic now": the
# new one, of the kind switched
_SWITCHED_CARER = re.compile(
    r"(?i:\b(?:switched|changed|swapped|moved)\s+(?P<role>dentist|doctor|gp|vet|physio|"
    r"therapist|hairdresser|barber|optician)s?\b[^.!?]*?\b(?:(?:i['’]m|i\s+am|we['’]re)\s+"
    r"(?:now\s+)?(?:with|seeing|registered\s+with)|now\s+(?:with|seeing)|to|new\s+one\s+is)\s+"
    r"(?:an?\s+)?)"
    rf"(?P<name>(?:(?:Dr|Mr|Mrs|Ms|Mx)\.?\s+)?{_NAME}(?:\s+{_NAME})?)"
)


@_rule
def switched_carer(sentence: str) -> Iterator[Match]:
    found = _SWITCHED_CARER.search(sentence)
    if found:
        role = found.group("role").casefold()
        relation = "doctor" if role == "gp" else role
        name = found.group("name").replace(".", "")
        yield Match(
            "fact",
            f"name_of:{relation}",
            name,
            f"User's {role} is {name}",
            0.85,
            correction=True,
        )


# "Gemma moved to Spain, so her colleague Rhys is training me now", "Dr Lowe does my fillings
# now": someone doing for the user, now, what a role does; the role as the user named it
# before ("personal trainer"), if they did.
_DOING_NOW = re.compile(
    rf"(?P<name>(?:(?:Dr|Mr|Mrs|Ms|Mx)\.?\s+)?{_NAME}(?:\s+{_NAME})?)\s+"
    r"(?i:(?:is|['’]s)\s+(?:now\s+)?(?P<ing>training|coaching|teaching|tutoring|walking|"
    r"cutting|doing|cleaning)|(?:now\s+)?(?P<does>trains|coaches|teaches|tutors|walks|cuts|"
    r"does|cleans))\s+(?P<what>me|us|[\w'’]+(?:\s+[\w'’]+)?)\b(?P<rest>[^.!?]*)"
)
_ROLE_OF_DOING: Final = (
    (re.compile(r"^train"), r"me|us", "trainer"),
    (re.compile(r"^coach"), r"me|us|\w+", "coach"),
    (re.compile(r"^teach"), r"me|us", "teacher"),
    (re.compile(r"^tutor"), r"me|us|\w+", "tutor"),
    (re.compile(r"^walk"), r"the\s+dogs?|\w+", "dog walker"),
    (re.compile(r"^(?:cut|do)"), r"my\s+hair", "hairdresser"),
    (re.compile(r"^do"), r"my\s+(?:teeth|fillings|crown)", "dentist"),
    (re.compile(r"^do"), r"my\s+(?:books|accounts|taxes|tax\s+return)", "accountant"),
    (re.compile(r"^clean"), r"for\s+(?:us|me)|the\s+house", "cleaner"),
)


@_rule
def doing_now(sentence: str) -> Iterator[Match]:
    found = _DOING_NOW.search(sentence)
    if found is None or not re.search(
        r"(?i:\b(?:now|instead|these\s+days|took\s+over)\b)", sentence
    ):
        return
    verb = (found.group("ing") or found.group("does")).casefold()
    what = found.group("what") + found.group("rest")
    role = next(
        (r for v, obj, r in _ROLE_OF_DOING if v.match(verb) and re.match(rf"(?i:{obj})\b", what)),
        None,
    )
    name = found.group("name").replace(".", "")
    if role is None or name.split()[0].casefold() in {"he", "she", "it", "they", "i"}:
        return
    head = role.split()[-1]
    # the role's words as the user named it: "my personal trainer is Gemma"
    known = {r for r in KNOWN_PEOPLE.get().values() if r.split()[-1] == head}
    relation = min(known, key=len) if known else role
    if any(KNOWN_PEOPLE.get().get(w.casefold()) == relation for w in name.split()):
        return  # told of them before as that one: no change
    yield Match(
        "fact", f"name_of:{relation}", name, f"User's {relation} is {name}", 0.8, correction=True
    )


# "we moved house so Pepper is registered with Dr. Ito at Hillview Animal Hospital now": a new
# vet for a pet, a new GP for the user
_REGISTERED_WITH = re.compile(
    rf"(?i:\b(?:(?P<me>i['’]m|i\s+am|we['’]re|we\s+are)|(?P<pet>{_NAME})\s+is|(?:he|she)['’]s|"
    r"(?:he|she)\s+is)\s+(?:now\s+)?(?:(?:registered|signed\s+up)\s+(?:with|at)|"
    # "Biscuit is with Dr. Haddad at Paws & Claws now": a pet's vet, by title
    r"(?P<bare>with)(?=\s+dr\b))\s+)"
    rf"(?P<name>(?:(?:Dr|Mr|Mrs|Ms)\.?\s+)?{_NAME}(?:\s+{_NAME})?)"
)


@_rule
def registered_with(sentence: str) -> Iterator[Match]:
    found = _REGISTERED_WITH.search(sentence)
    if found is None or not re.search(r"(?i:\b(?:now|new|moved|switched|changed)\b)", sentence):
        return
    pet = found.group("pet")
    if found.group("bare") and not (
        pet and KNOWN_PEOPLE.get().get(pet.casefold()) in PETS.values()
    ):
        return
    animal = re.search(r"(?i:\b(?:vets?|veterinary|animal)\b)", sentence) or (
        pet and KNOWN_PEOPLE.get().get(pet.casefold(), "") in PETS.values()
    )
    if not found.group("me") and not animal:
        return  # someone else registered with their doctor: not the user's
    role = "vet" if animal else "doctor"
    name = found.group("name").replace(".", "")
    if not name.startswith(("Dr", "Mr", "Mrs", "Ms")) and len(name.split()) > 1 and not animal:
        return
    said = "vet" if animal else "GP"
    yield Match("fact", f"name_of:{role}", name, f"User's {said} is {name}", 0.8, correction=True)


# "Piotr quit the bakery, he drives a tram now": a known person's new work.
_KNOWN_NEW_WORK = re.compile(
    rf"^(?P<name>{_NAME})\s+(?i:quit|left|gave\s+up|lost|changed)\b[^,.;]*[,;]\s*(?i:and\s+)?"
    r"(?i:he|she|they)(?:'s|’s|\s+is|\s+are)?\s+(?i:now\s+)?"
    r"(?P<what>(?i:works?\s+(?:as|at|in)|drives|teaches|runs|is\s+an?|an?|does)\s+[\w' -]{2,40}?)"
    r"(?:\s+(?i:now))?\s*[.!]*$"
)


@_rule
def known_new_work(sentence: str) -> Iterator[Match]:
    found = _KNOWN_NEW_WORK.match(sentence.strip())
    relation = found and KNOWN_PEOPLE.get().get(found.group("name").casefold())
    if found and relation:
        what = re.sub(r"(?i)^(?:an?)\s+", "is a ", found.group("what"))
        text = f"User's {relation} {found.group('name')} {what}"
        yield Match("fact", f"person:{relation}:job", what, text, 0.8, correction=True)


# "Favourite film: Amélie." The colon ends a clause, so the clause rules see "Favourite film"
# and "Amélie" apart.
_FAVOURITE_LABEL = re.compile(
    r"^(?i:(?:my\s+)?(?P<new>new\s+)?(?:all-time\s+)?(?:favou?rite|fave))\s+"
    # "My new favourite band is Wet Leg": with "new", "is" labels it too
    r"(?P<thing>[a-z]+(?:\s+[a-z]+)?)(?:\s*(?::|\s-|=)|(?(new)\s+is\b|(?!)))"
    r"\s*(?P<value>[^.!?;:]{1,40}?)\s*[.!]*$",
    re.IGNORECASE,
)


@_rule
def favourite_label(sentence: str) -> Iterator[Match]:
    found = _FAVOURITE_LABEL.match(sentence.strip())
    if found:
        thing, value = found.group("thing").casefold(), found.group("value").strip()
        text = f"User's favorite {thing} is {value}"
        # "New favourite film: Past Lives.": told as news, it replaces the one before
        yield Match(
            "preference", f"favorite:{thing}", value, text, 0.85, correction=bool(found["new"])
        )


_LANGUAGE_LIST = re.compile(
    rf"(?i:\bi\s+grew\s+up\s+(?:bilingual|trilingual|speaking)|{I_AM}\s+(?:bilingual|trilingual))"
    rf"(?:\s+in)?\s*[,:-]?\s*(?P<list>{_NAME}(?:\s*,\s*{_NAME})*(?:\s*,?\s+(?i:and)\s+{_NAME}))"
)


@_rule
def languages_listed(sentence: str) -> Iterator[Match]:
    """ "I grew up bilingual, Spanish and English, and ...": the languages after the comma."""
    found = _LANGUAGE_LIST.search(sentence)
    if not found:
        return
    for language in re.split(r"\s*,\s*|\s+(?i:and)\s+", found.group("list")):
        if language:
            key = f"speaks:{language.casefold()}"
            yield Match("fact", key, language, f"User speaks {language}", 0.85)


_CARERS = r"dentist|doctor|gp|vet|therapist|hairdresser|barber|accountant|physio|optician|lawyer"
_CHANGED_CARER = re.compile(
    rf"(?i:\b(?:changed|switched|moved)\s+(?P<who>{_CARERS})s?\b).*?"
    r"(?i:\b(?:i\s+(?:now\s+)?(?:go\s+to|see|use|am\s+with|'m\s+with|registered\s+with)|"
    r"(?:my\s+new\s+(?:one|(?:" + _CARERS + r"))\s+is)))\s+"
    r"(?P<name>(?:Dr\.?\s+|Mr\.?\s+|Mrs\.?\s+|Ms\.?\s+)?[A-ZÀ-Ý][\w'’-]+(?:\s+[A-ZÀ-Ý][\w'’-]+)?)"
)


@_rule
def changed_carer(sentence: str) -> Iterator[Match]:
    """ "I changed dentists, I go to Dr Lindqvist now": the new one, in the slot of the old."""
    found = _CHANGED_CARER.search(sentence)
    if found:
        who, name = found.group("who").casefold(), found.group("name")
        yield Match(
            "fact", f"name_of:{who}", name, f"User's {who} is {name}", 0.85, correction=True
        )


_NEW_BABY = re.compile(
    rf"(?i:\bmy\s+(?P<parent>sister|brother|cousin|best\s+friend|friend))(?:\s+(?P<pname>{_NAME}))?"
    r"(?:\s+and\s+(?:her|his)\s+\w+)?\s+(?i:(?:has\s+)?(?:just\s+)?(?:had|welcomed|gave\s+birth\s+to))\s+"
    r"(?i:an?\s+(?:(?:beautiful|healthy|little|baby)\s+)*(?P<kind>girl|boy|daughter|son|baby))"
    rf"\s*,?\s*(?i:(?:called|named)\s+)?(?P<name>{_NAME})"
)
_CHILD_OF: Final = {
    ("sister", "girl"): "niece",
    ("sister", "daughter"): "niece",
    ("brother", "girl"): "niece",
    ("brother", "daughter"): "niece",
    ("sister", "boy"): "nephew",
    ("sister", "son"): "nephew",
    ("brother", "boy"): "nephew",
    ("brother", "son"): "nephew",
}


@_rule
def new_baby(sentence: str) -> Iterator[Match]:
    """ "My sister Leila just had a baby girl called Maryam": the niece, and whose she is."""
    found = _NEW_BABY.search(sentence)
    if not found:
        return
    parent = " ".join(found.group("parent").casefold().split())
    kind, name = found.group("kind").casefold(), found.group("name")
    relation = _CHILD_OF.get((parent, kind), f"{parent}'s baby")
    whose = f"{parent} {found.group('pname')}" if found.group("pname") else parent
    text = f"User's {relation} (the baby of User's {whose}) is named {name}"
    yield Match("fact", f"name_of:{relation}", name, text, 0.85)
    if found.group("pname"):  # the parent's name, which the parse would read but for this
        said = found.group("pname")
        yield Match("fact", f"name_of:{parent}", said, f"User's {parent} is named {said}", 0.85)


_NEW_GOAL = re.compile(
    r"(?i:\b(?:i've|i\s+have|i)\s+(?:changed|revised|updated|lowered|raised)\s+my\s+goal|"
    r"\bmy\s+(?:new|revised|updated)\s+goal\b)[^.!?]*?"
    r"(?i:\b(?:i\s+(?:just\s+|now\s+|only\s+)?want\s+to|is\s+(?:now\s+)?to|it's\s+(?:now\s+)?to|"
    r"now\s+it's\s+to|:\s*to))\s+(?P<what>[^.!?,;]+)"
)


@_rule
def new_goal(sentence: str) -> Iterator[Match]:
    """ "I've changed my goal, I just want to finish a half marathon": the goal replaced."""
    found = _NEW_GOAL.search(sentence)
    if found:
        what = found.group("what").strip()
        yield Match(
            "plan", "goal:main", what, f"User's goal is now to {what}", 0.85, correction=True
        )


# "New number: 07700 900456": a phone number, told as news (across the colon).
_NEW_NUMBER = re.compile(
    r"^(?i:(?:my\s+)?new\s+(?:phone\s+|mobile\s+)?number)\s*[:-]\s*(?P<value>\+?\d[\d ]{4,}\d)\b"
)


@_rule
def new_number(sentence: str) -> Iterator[Match]:
    if found := _NEW_NUMBER.match(sentence.strip()):
        value = found.group("value")
        text = f"User's phone number is {value}"
        yield Match("fact", "detail:phone number", value, text, 0.85, correction=True)


__all__ = ["SENTENCE_RULES"]
