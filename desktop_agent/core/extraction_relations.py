"""Extraction rules for the user's people: their names, their schools, a home shared with them.

Same contract as ``extraction_rules``: each rule reads one clause anchored at its subject.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterator
from typing import Final

from desktop_agent.core.extraction_phrases import Match, _compile, proper_noun
from desktop_agent.core.extraction_subjects import KNOWN_PEOPLE
from desktop_agent.core.extraction_words import PETS, RELATIONS

_RELATIONS = (
    r"(?:(?:brother|sister|mother|father|son|daughter)-in-law|best\s+(?:friend|mate|pal|bud)|friend|"
    r"grandson|granddaughter|stepson|stepdaughter|stepbrother|stepsister|stepmum|stepmom|"
    r"stepdad|team\s+lead|team\s+leader|line\s+manager|sister|brother|mother|mom|mum|father|dad|husband|wife|partner|son|"
    r"daughter|boyfriend|girlfriend|fiancée?|boss|manager|dog|cat|puppy|kitten|horse|bird|"
    r"parrot|rabbit|hamster|grandma|grandmother|grandpa|grandfather|aunt|uncle|cousin|"
    r"niece|nephew|roommate|flatmate|therapist|doctor|baby|dentist|gp|landlord|landlady|"
    r"trainer|personal trainer|physio|physiotherapist|accountant|lawyer|solicitor|vet|"
    r"hairdresser|barber|neighbou?r|colleague|coworker|mentor|tutor|coach|teacher|"
    r"supervisor|midwife|optician|pharmacist|psychiatrist|psychologist|counsell?or|"
    r"husband|wife|fiancée?|partner)"
)
# "My dentist is Dr Okafor", "my boss is Karen": people the user sees by what they do, named
# with a bare "is" (for family, "my dad is French" says no name, so they need "called").
_NAMED_BY_ROLE = (
    r"(?:best friend|closest friend|friend|boss|manager|dentist|doctor|gp|landlord|landlady|trainer|"
    r"personal trainer|physio|physiotherapist|accountant|lawyer|solicitor|vet|hairdresser|"
    r"barber|therapist|mentor|tutor|coach|supervisor|midwife|optician|psychiatrist|"
    r"psychologist|counsell?or|partner|boyfriend|girlfriend|husband|wife|fiancée?|"
    r"team\s+lead|team\s+leader|line\s+manager|dog\s+walker|cleaner|nanny|babysitter|"
    r"childminder|carer|driving\s+instructor|instructor|(?:(?:piano|guitar|cello|violin|singing|"
    r"maths|math|english|french|spanish|yoga|swimming|tennis|golf)\s+)?teacher|roommate|flatmate|"
    r"housemate|neighbou?r|colleague|co-?worker|surgeon|consultant|mechanic|contractor)"
)
_ROLE_IS = re.compile(
    # ("GP is Dr. Okeke, he's great": the user's, said first without "my")
    # ("Her vet is Dr. Okafor": the pet's vet is the household's)
    rf"(?i:(?:^(?:(?:also|and|oh\s+and)\s+)?|(?:my|our)\s+(?:new\s+|current\s+|family\s+)?|(?:her|his|their)\s+(?=vet\s)|(?:(?<![\w'’])the\s+)?(?<!['’]s\s)(?<!his\s)(?<!her\s)(?<!their\s)new\s+)"
    rf"(?P<rel>{_NAMED_BY_ROLE})\s+(?:now\s+)?"
    # "new manager from Monday is Tomasz": when it starts, between
    r"(?:(?i:from|as\s+of|starting)\s+(?i:today|tomorrow|monday|tuesday|wednesday|thursday|"
    r"friday|saturday|sunday|next\s+\w+|this\s+\w+|the\s+\d{1,2}(?:st|nd|rd|th)?)\s+)?is\s+"
    # "our new landlord is a woman called Sandra", "... is some company called Harlow Lettings"
    r"(?:now\s+)?(?:(?:an?|some|this)\s+(?:man|woman|guy|lady|bloke|chap|girl|fella|company|"
    r"firm|agency|outfit|practice)\s+(?:called|named)\s+)?)"
    r"(?P<name>(?:(?:Dr|Mr|Mrs|Ms|Mx|Prof)\.?\s+)?(?:(?:de|van|von|der|den|da|di|du|del|la|le)\s+)?"
    r"[A-ZÀ-Ý][\w'’-]+(?:\s+[A-ZÀ-Ý][\w'’-]+)?)"
    r"(?=\s*(?:[,.!;]|$|\s+(?:and|but|who|now|these|at|from|on|in|near)\b))"
)
# Only the user is moved without a word for whom ("switched Biscuit over to Dr Osei" is the dog's).
_MOVED_TO_DOCTOR = re.compile(
    r"(?i:\b(?:moved|switched|transferred|changed|referred)\s+(?:me\s+)?(?:over\s+)?to\s+"
    r"(?:a\s+|an\s+)?)(?P<name>(?:Dr|Doctor)\.?\s+[A-ZÀ-Ý][\w'’-]+)"
)
# Who treats the user, whom a doctor's name may stand for.
_CARERS: Final = frozenset(
    "doctor dentist physio physiotherapist therapist optician psychiatrist psychologist "
    "counsellor counselor surgeon consultant midwife orthodontist dermatologist".split()
)


def carer_named(words: str) -> str | None:
    """The relation of someone the user told of by name, named in ``words``, who treats them."""
    known = {_folded(name): relation for name, relation in KNOWN_PEOPLE.get().items()}
    for word in re.findall(r"[A-ZÀ-Ý][\w'’-]+", words):
        relation = known.get(_folded(re.sub(r"['’]s$", "", word)))
        if relation in _CARERS:
            return relation
    return None


def _folded(name: str) -> str:
    """ "Søndergaard", "Wiśniewska" as typed without accents ("sondergaard", "wisniewska")."""
    plain = name.casefold().translate(_UNACCENTED)
    return "".join(c for c in unicodedata.normalize("NFKD", plain) if not unicodedata.combining(c))


# letters no accent-stripping splits
_UNACCENTED: Final = str.maketrans({"ø": "o", "æ": "ae", "ß": "ss", "ł": "l", "đ": "d", "œ": "oe"})


# Nationalities and the like after "is": not names.
_NOT_NAMES = frozenset(
    """american british english french german spanish italian dutch irish scottish welsh polish
    portuguese brazilian mexican canadian australian indian chinese japanese korean russian
    greek turkish swedish danish norwegian finnish belgian swiss austrian african nigerian
    kenyan egyptian catholic muslim jewish christian hindu great amazing awesome lovely nice
    away here there""".split()
)
_RELATION_NAME = _compile(
    rf"(?:my\s+(?P<rel>{_RELATIONS})(?:'s|’s)?\s+(?:name\s+is|is\s+called|is\s+named|called|named)|"
    rf"i\s+have\s+an?\s+(?P<rel2>{_RELATIONS})\s+(?:called|named))\s+"
)


# "I've got a tutor on italki called Beatriz", "found a new dog walker through Rover called
# Kemi": someone who does something for the user, named with "called"
_HAVE_ROLE = re.compile(
    r"(?i:\b(?:(?:i|we)(?:['’]ve|\s+have)?\s+)?(?:got|have|found|hired|booked)\s+"
    r"(?:(?:myself|ourselves)\s+)?an?\s+(?P<new>new\s+)?)"
    rf"(?P<rel>(?i:{_NAMED_BY_ROLE}))"
    r"(?:\s+(?i:on|at|from|through|via|in)\s+[\w'’-]+(?:\s+[\w'’-]+){0,2}?)?"
    r"\s+(?i:called|named)\s+(?P<name>[A-ZÀ-Ý][\w'’-]+(?:\s+[A-ZÀ-Ý][\w'’-]+)?)"
)


_AND_ANOTHER = re.compile(
    rf"(?i:\s+and\s+(?:an?|my|two|one)\s+(?P<rel>{_RELATIONS})\s+(?:called|named)\s+)"
    r"(?P<name>[A-ZÀ-Ý][\w'’-]+)"
)


def relation_name(clause: str) -> Iterator[Match]:
    lead = _RELATION_NAME.match(clause)
    value = lead and proper_noun(clause[lead.end() :], clause)
    by_role = None if value else _ROLE_IS.search(clause.strip())
    if by_role and by_role.group("name").split()[0].casefold() not in _NOT_NAMES:
        said = " ".join(by_role.group("rel").split())
        value = by_role.group("name")
        relation = RELATIONS.get(said.casefold()) or said.casefold()
        relation = "best friend" if relation == "closest friend" else relation
        relation = "team lead" if relation == "team leader" else relation
        relation = "doctor" if relation == "gp" else relation  # one slot: "my GP", "my doctor"
        new = bool(re.search(r"(?i:\bnew\s+" + re.escape(said) + ")", by_role.group(0)))
        yield Match(
            "fact", f"name_of:{relation}", value, f"User's {said} is {value}", 0.85, correction=new
        )
        return
    if not value and (had := _HAVE_ROLE.search(clause)):
        said = " ".join(had.group("rel").casefold().split())
        relation = RELATIONS.get(said) or said
        relation = "doctor" if relation == "gp" else relation
        name = had.group("name")
        yield Match(
            "fact",
            f"name_of:{relation}",
            name,
            f"User's {said} is {name}",
            0.85,
            correction=bool(had.group("new")),
        )
        return
    if not value and (moved := _MOVED_TO_DOCTOR.search(clause)):
        # "I've been moved over to a Dr. Okafor at the same surgery": the user's new doctor (or
        # the carer left, named before it: ``carer_named``)
        name = moved.group("name").replace(".", "")
        yield Match(
            "fact", "name_of:doctor", name, f"User's doctor is {name}", 0.8, correction=True
        )
        return
    if value and lead is not None:
        said = (lead.group("rel") or lead.group("rel2")).casefold()
        # One slot per relation whatever the word: "my mum's name" and "my mother is called".
        relation = RELATIONS.get(said) or PETS.get(said) or said
        yield Match("fact", f"name_of:{relation}", value, f"User's {said} is named {value}", 0.9)
        # "... a dog called Rex and a cat called Miso": the next one of the list
        for more in _AND_ANOTHER.finditer(clause, lead.end()):
            other = more.group("rel").casefold()
            name = more.group("name")
            kind = RELATIONS.get(other) or PETS.get(other) or other
            if kind != relation:
                yield Match(
                    "fact", f"name_of:{kind}", name, f"User's {other} is named {name}", 0.85
                )


# "now I report to a guy called Daniel Okafor": the user's boss, by whom they report to.
_REPORT_TO = re.compile(
    r"(?i:\bi\s+(?P<now>now\s+)?report\s+(?:directly\s+)?(?:to|into)\s+(?:(?:an?|this|some)\s+"
    r"(?:man|woman|guy|lady|bloke|chap|girl|fella)\s+(?:called|named)\s+)?)"
    r"(?P<name>(?:(?:Dr|Mr|Mrs|Ms|Mx|Prof)\.?\s+)?[A-ZÀ-Ý][\w'’-]+(?:\s+[A-ZÀ-Ý][\w'’-]+)?)"
)


def reports_to(clause: str) -> Iterator[Match]:
    found = _REPORT_TO.search(clause)
    if found is None or found.group("name").split()[0].casefold() in _NOT_NAMES:
        return
    name = found.group("name")
    new = bool(found.group("now") or re.search(r"\bnow\b", clause, re.IGNORECASE))
    yield Match("fact", "name_of:boss", name, f"User's boss is {name}", 0.85, correction=new)


_SCHOOL = re.compile(
    rf"(?i:(?:(?P<user>i)|my\s+(?P<rel>{_RELATIONS}))(?:\s+(?P<name>[A-Z][\w'’-]+))?\s+"
    r"(?:now\s+|just\s+|recently\s+)?(?P<verb>go(?:es)?|started|starts|is\s+starting|attends?|"
    r"is\s+at|moved|switched|transferred|changed)\s+(?:schools?\s+)?(?:to|at)?\s*)"
    r"(?P<school>(?:[A-Z][\w'’.-]*\s+){0,4}(?i:school|primary|secondary|high|academy|college|"
    r"university|uni|nursery|kindergarten|grammar|elementary|montessori)(?:\s+(?i:school))?)\b"
)


def school(clause: str) -> Iterator[Match]:
    """ "My son started at Hillcrest Secondary": which school, one slot per person."""
    found = _SCHOOL.match(clause.strip())
    if not found or not found.group("school")[:1].isupper():
        return
    where, verb = found.group("school"), found.group("verb").casefold()
    changed = verb.split()[0] in ("started", "starts", "is", "moved", "switched", "transferred")
    changed = changed or bool(re.search(r"\bnow\b", clause, re.IGNORECASE))
    if found.group("user"):
        yield Match("fact", "school", where, f"User goes to {where}", 0.8, correction=changed)
        return
    said = found.group("rel").casefold()
    relation = RELATIONS.get(said) or said
    who = f"{said} {found.group('name')}" if found.group("name") else said
    text = f"User's {who} goes to {where}"
    yield Match("fact", f"person:{relation}:school", where, text, 0.8, correction=changed)


_SHARED_HOME = re.compile(
    rf"(?i:(?:my\s+(?P<rel>{_RELATIONS})(?:\s+(?P<name>[A-Z][\w'’-]+))?\s+and\s+i|"
    # "we've just bought a house in", "I'm renting a flat in"
    r"we(?:'ve|’ve|\s+have|'re|’re|\s+are)?|i(?:'ve|’ve|\s+have|'m|’m|\s+am)?"
    r"(?=\s+(?:now\s+|still\s+|currently\s+|finally\s+|just\s+|recently\s+)?"
    r"(?:share|rent|renting|sharing|bought|moved\s+into|live\s+in\s+(?:a|an|the|our)\s)\b))\s+"
    r"(?:now\s+|still\s+|currently\s+|(?P<news>finally\s+|just\s+|recently\s+))?"
    r"(?P<verb>live|living|share|sharing|rent|renting|own|have|bought|moved\s+into)\s+"
    # "we live in a two-bed flat in Hackney": the home described, then where it is
    r"(?:in\s+(?=(?:a|an|the|our)\s+(?:[\w-]+\s+){0,2}?(?:flat|house|apartment|place|home|"
    r"cottage|studio|room)\b))?"
    r"(?:(?:a|an|the|our)\s+)?(?:[\w-]+\s+){0,2}?(?:flat|house|apartment|place|home|cottage|"
    r"studio|room)?"
    # "a tiny flat above a bakery in Bristol": where in the city, then the city
    r"(?:\s+(?:above|below|near|by|behind|off|opposite|overlooking|next\s+to|close\s+to)"
    r"(?:\s+[\w'’-]+){1,3}?)?\s*in)\s+"
)


def shared_home(clause: str) -> Iterator[Match]:
    """ "My boyfriend Lucas and I share a tiny flat in Lyon", "we live in Lyon"."""
    lead = _SHARED_HOME.match(clause)
    value = lead and proper_noun(clause[lead.end() :], clause)
    if not value or lead is None:
        return
    # "we finally bought a house in Bath": a move, so it replaces the city before
    moved = bool(lead.group("news")) or lead.group("verb").casefold().startswith(
        ("bought", "moved")
    )
    yield Match("fact", "home_city", value, f"User lives in {value}", 0.85, correction=moved)
    name = lead.group("name")
    if name and name[:1].isupper():
        said = lead.group("rel").casefold()
        relation = RELATIONS.get(said) or PETS.get(said) or said
        yield Match("fact", f"name_of:{relation}", name, f"User's {said} is named {name}", 0.85)


# "my boyfriend Tiago lives in Porto so we do the train ...": where one of the user's people
# lives, read by pattern too (the parser loses it after a sentence it misreads)
_KIN_LIVES = re.compile(
    rf"(?i:my\s+(?:(?:older|younger|little|big|baby|twin)\s+)?(?P<rel>{_RELATIONS}))"
    r"(?:\s+(?P<name>(?-i:[A-ZÀ-Ý])[\w'’-]+))?\s+(?i:(?P<now>now\s+)?(?:still\s+)?"
    r"(?:lives|is\s+living|is\s+based|lives\s+over)\s+in)\s+"
)


def kin_lives_in(clause: str) -> Iterator[Match]:
    found = _KIN_LIVES.match(clause.strip())
    place = found and proper_noun(clause.strip()[found.end() :], clause)
    if not found or not place:
        return
    after = clause.strip()[found.end() + len(place) :]
    if re.match(r"\s*,?\s+and\s+(?!i\b|we\b)\w", after, re.IGNORECASE):
        return  # "... lives in Utrecht and works as a midwife": the parse reads both
    said = " ".join(found.group("rel").casefold().split())
    relation = RELATIONS.get(said) or PETS.get(said) or said
    who = f"{said} {found.group('name')}" if found.group("name") else said
    text = f"User's {who} lives in {place}"
    yield Match(
        "fact", f"person:{relation}:home_city", place, text, 0.8, correction=bool(found["now"])
    )


# "my brother just moved to newcastle", "annika's moved to gothenburg": where one of the user's
# people lives now, by relation or by a name the memory knows (the parser reads a lower-case
# place as no place; ``proper_noun`` takes one only in an all-lower-case message)
_KIN_MOVED = re.compile(
    rf"(?:(?i:my\s+(?P<rel>{_RELATIONS}))(?:\s+(?P<name>(?-i:[A-ZÀ-Ý])[\w'’-]+))?|"
    r"(?P<known>[^\W\d_][\w-]+))"
    r"(?i:(?:['’]s|\s+has|\s+have)?\s+(?:just\s+|finally\s+|now\s+|officially\s+)?"
    r"(?:moved|relocated)\s+(?:over\s+|back\s+)?to)\s+"
)


def kin_moved_to(clause: str) -> Iterator[Match]:
    found = _KIN_MOVED.match(clause.strip())
    if not found:
        return
    if found["known"]:
        said = KNOWN_PEOPLE.get().get(found["known"].casefold(), "")
        if not said or said in PETS:
            return
        name = found["known"][:1].upper() + found["known"][1:]
    else:
        said = " ".join(found["rel"].casefold().split())
        name = found["name"] or ""
    # (a lower-case place only in a message typed in lower case: its names are capitalised by
    # normalisation, "annika's moved to gothenburg" reads "Annika's moved to gothenburg")
    named = found["known"] or found["name"] or ""
    lowered = clause.replace(named, named.casefold()) if named else clause
    rest = clause.strip()[found.end() :]
    if rest[:1].isupper():
        return  # (a place in capitals is the parser's: "Ines has moved to Valencia")
    place = proper_noun(rest, lowered)
    if not place or not place[:1].isupper():
        return
    relation = RELATIONS.get(said) or said
    who = f"{said} {name}".strip()
    text = f"User's {who} lives in {place}"
    yield Match("fact", f"person:{relation}:home_city", place, text, 0.8, correction=True)
