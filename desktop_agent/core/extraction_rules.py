"""The patterns behind ``extraction``: each rule reads one clause that starts at its subject.

A rule is a function from a clause ("I really love hiking in the mountains") to matches. Clauses
arrive with discourse markers ("actually", "no,") already stripped, so every pattern is anchored
at the start: "the assistant said I like coffee" never matches "I like".
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass

from desktop_agent.core.extraction_words import PETS, RELATIONS
from desktop_agent.search.tokenize import STOPWORDS


@dataclass(frozen=True, slots=True)
class Match:
    type: str
    key: str
    value: str
    text: str
    confidence: float
    negated: bool = False
    correction: bool = False
    inferred: bool = False  # not said but implied ("a nurse at a clinic in Porto": based there)


Rule = Callable[[str], Iterator[Match]]
RULES: list[Rule] = []


def rule(function: Rule) -> Rule:
    RULES.append(function)
    return function


def _compile(pattern: str) -> re.Pattern[str]:
    return re.compile(pattern, re.IGNORECASE)


I_AM = r"(?:i'm|i am|im|i’m)"
ADVERBS = (
    r"(?:(?:really|absolutely|truly|just|also|still|genuinely|totally|kind of|kinda|do|so)\s+)*"
)
# Objects end where a new idea starts: a preposition, a conjunction, a time word.
_OBJECT_END = re.compile(
    r"\s+(?:in|on|at|with|for|during|every|when|because|but|so|since|if|though|although|from|"
    r"over|than|to|as|while|after|before|whenever|these|nowadays|now|anymore|any more|too|"
    r"either|lately|especially|it|which|who|that|last|next|this|yesterday|today|tomorrow)\b.*$"
    r"|[.!?,;:].*$",
    re.IGNORECASE,
)
# "I like that idea", "I love it", "I hate when...": not a stable object.
_VAGUE = re.compile(
    r"^(?:it|that|this|these|those|them|you|him|her|us|when|how|what|where|the idea|the way|"
    r"being|doing|having|one|ones|all of (?:it|them)|everything|anything|nothing|some|lots|"
    r"a lot|very much|so much)\b",
    re.IGNORECASE,
)
_DETERMINERS = re.compile(
    r"^(?:the|a|an|my|our|some|any|all|most|those|these|a bit of|a little|a little bit of|"
    r"some|lots of|a lot of|fluent|basic|good|very)\s+",
    re.IGNORECASE,
)
_PLACE = r"([A-ZÀ-Ý][\w'’.-]*(?:\s+(?:de |do |da |am |on |upon )?[A-ZÀ-Ý][\w'’.-]*){0,3})"


def proper_noun(rest: str, clause: str) -> str | None:
    """A capitalised name at the start of ``rest``; in an all-lower-case message, up to three
    plain words (people type "i live in new york")."""
    rest = re.sub(r"^(?i:actually|really|now|still|just)\s+", "", rest)
    found = re.match(_PLACE, rest)
    if found:
        return found.group(1)
    # "I" and "I'm" are capitalised by normalisation; the rest of the message may be lower case.
    if re.sub(r"\bI(?=\b|'|’)", "i", clause) != clause.casefold():
        return None
    words = _OBJECT_END.sub("", rest.strip()).split()
    if not words or len(words) > 3 or words[0] in STOPWORDS:
        return None
    return " ".join(word.capitalize() for word in words)


def normalise_object(words: str) -> str:
    """A stable key part: lower case, no determiners, plural "s" dropped ("the Olives" -> "olive")."""
    text = words.strip().casefold()
    while True:
        stripped = _DETERMINERS.sub("", text)
        if stripped == text:
            break
        text = stripped
    return " ".join(_singular(word) for word in text.split())


def _singular(word: str) -> str:
    if len(word) > 3 and word.endswith("s") and not word.endswith(("ss", "us", "is", "'s")):
        return word[:-1]
    return word


def _object(text: str) -> str | None:
    """The object phrase at the start of ``text`` (at most five words), or None if vague."""
    text = _OBJECT_END.sub("", text.strip())
    text = re.sub(r"^to\s+", "", text, flags=re.IGNORECASE)
    if not text or _VAGUE.match(text):
        return None
    words = text.split()
    if len(words) > 5 or all(word.casefold() in STOPWORDS for word in words):
        return None
    return " ".join(words)


def _objects(text: str) -> list[str]:
    """Several objects joined by "and", "or" or commas: "jazz and old French films"."""
    text = re.sub(r"(?i)\s+(and|or)\s+to\s+", r" \1 ", text)  # "allergic to X and to Y"
    found: list[str] = []
    for index, piece in enumerate(text.split(",")):
        piece = re.sub(r"^\s*(?:and|or)\s+", "", piece, flags=re.IGNORECASE)  # Oxford comma
        head = _OBJECT_END.sub("", piece.strip())
        if index and (len(head.split()) > 5 or _NOT_LISTED.match(head)):
            break
        parts = re.split(r"\s+(?:and|or|&)\s+", head, flags=re.IGNORECASE)
        found += [obj for part in parts if part and (obj := _object(part))]
        if head != piece.strip():
            break  # the list ended inside this piece: "peanuts in summer, ..."
    return found


# After a comma, what starts a new clause rather than the next item of a list.
_NOT_LISTED = re.compile(
    r"^(?:i|i'm|i’m|my|we|our|you|he|she|it|they|this|that|there|but|so|then|please|also|"
    r"especially|except|not|which|who)\b",
    re.IGNORECASE,
)


def _slug(text: str, words: int = 4) -> str:
    content = [w for w in re.findall(r"[\w'-]+", text.casefold()) if w not in STOPWORDS]
    return " ".join(content[:words])


# --- who the user is -------------------------------------------------------------------------


@rule
def name(clause: str) -> Iterator[Match]:
    lead = re.match(
        r"(?i:my name is|my name's|my name’s|i'm called|i am called|"
        r"(?:you can )?call me|people call me|i go by)\s+",
        clause,
    )
    if lead:
        value = proper_noun(clause[lead.end() :], clause)
        if value:
            value = " ".join(value.split()[:3])
            yield Match("fact", "name", value, f"User's name is {value}", 0.95)


_HOME = _compile(
    rf"(?:{I_AM}\s+(?:now\s+)?(?:living|based|settled)\s+in|i\s+(?:now\s+|currently\s+|still\s+)?live\s+in|"
    rf"(?P<moved>(?:i|we)(?:'ve| have)?\s+(?:just\s+|recently\s+|finally\s+|since\s+|now\s+)?(?:moved|relocated)\s+(?:house\s+)?(?:to|into))|"
    rf"(?P<gone>i\s+(?:don't|do not|no longer)\s+live\s+in))\s+"
)


@rule
def home(clause: str) -> Iterator[Match]:
    lead = _HOME.match(clause)
    if not lead:
        return
    value = proper_noun(clause[lead.end() :], clause)
    if not value:
        return
    if lead.group("gone"):
        if (
            re.search(r"\b(?:anymore|any more)\b", clause, re.IGNORECASE)
            or "no longer" in clause.lower()
        ):
            yield Match(
                "fact", "home_city", value, f"User no longer lives in {value}", 0.85, True, True
            )
        return
    moved = bool(lead.group("moved"))
    now = bool(re.search(r"\bnow\b", clause, re.IGNORECASE))
    yield Match("fact", "home_city", value, f"User lives in {value}", 0.9, correction=moved or now)


_HOME_NOW = _compile(
    r"(?:(?:we're|we’re|we\s+are)\s+(?:now\s+)?(?:living\s+|based\s+|settled\s+)?|"
    r"(?:i'm|i’m|i\s+am|im)\s+(?:now\s+)?(?:living|based|settled)\s+)in\s+"
)


@rule
def home_now(clause: str) -> Iterator[Match]:
    """ "We moved house, we're in Leeds now": where the user is now, said with "now"."""
    lead = _HOME_NOW.match(clause)
    if not lead or not re.search(r"\b(?:now|these days|nowadays)\b", clause, re.IGNORECASE):
        return
    if re.search(r"\b(?:for|on|at|until|till|visiting|holiday|vacation|trip)\b", clause, re.I):
        return  # "I'm in Rome for the weekend now" is a visit
    value = proper_noun(clause[lead.end() :], clause)
    if value:
        yield Match("fact", "home_city", value, f"User lives in {value}", 0.85, correction=True)


_PARTNER_NOW = _compile(
    rf"{I_AM}\s+(?:now\s+)?(?:with|seeing|dating|going\s+out\s+with|engaged\s+to|married\s+to)\s+"
)


@rule
def partner_now(clause: str) -> Iterator[Match]:
    """ "I'm with Sam now", "I'm engaged to Priya": the user's partner, by name."""
    lead = _PARTNER_NOW.match(clause)
    found = lead and re.match(r"([A-ZÀ-Ý][\w'’-]+)(?=\s*(?:[,.!;]|$|\s+(?:now|and|these)\b))",
                              clause[lead.end() :])  # fmt: skip
    if found and found.group(1).casefold() not in _NOT_NAMES | {"it", "them", "him", "her"}:
        value = found.group(1)
        text = f"User's partner is {value}"
        correction = bool(re.search(r"\bnow\b", clause, re.IGNORECASE))
        yield Match("fact", "name_of:partner", value, text, 0.85, correction=correction)


_ORIGIN = _compile(
    rf"(?:{I_AM}\s+(?:originally\s+)?from|i\s+(?:originally\s+)?come\s+from|i\s+grew\s+up\s+in)\s+"
)


@rule
def origin(clause: str) -> Iterator[Match]:
    lead = _ORIGIN.match(clause)
    value = lead and proper_noun(clause[lead.end() :], clause)
    if value:
        yield Match("fact", "origin", value, f"User is from {value}", 0.85)


_AGE = _compile(rf"(?:{I_AM}|i\s+(?:just\s+)?turned)\s+(\d{{1,3}})(?:\s+years?\s+old|\s+now)?\s*$")


@rule
def age(clause: str) -> Iterator[Match]:
    found = _AGE.match(clause.strip(" .!"))
    if found and 3 <= int(found.group(1)) <= 120:
        yield Match("fact", "age", found.group(1), f"User is {found.group(1)} years old", 0.85)


_BIRTHDAY = _compile(
    r"(?:my\s+birthday(?:\s+is|'s|’s|\s+falls)|i\s+was\s+born\s+on)\s+(?:on\s+)?(.+)$"
)


@rule
def birthday(clause: str) -> Iterator[Match]:
    found = _BIRTHDAY.match(clause.strip(" .!"))
    if found and re.search(
        r"\d|january|february|march|april|may|june|july|august|september|"
        r"october|november|december",
        found.group(1),
        re.IGNORECASE,
    ):
        value = found.group(1).strip()
        yield Match("fact", "birthday", value, f"User's birthday is {value}", 0.9)


_RELATIONS = (
    r"(?:best friend|friend|sister|brother|mother|mom|mum|father|dad|husband|wife|partner|son|"
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
    r"(?:best friend|friend|boss|manager|dentist|doctor|gp|landlord|landlady|trainer|"
    r"personal trainer|physio|physiotherapist|accountant|lawyer|solicitor|vet|hairdresser|"
    r"barber|therapist|mentor|tutor|coach|supervisor|midwife|optician|psychiatrist|"
    r"psychologist|counsell?or|partner|boyfriend|girlfriend|husband|wife|fiancée?)"
)
_ROLE_IS = re.compile(
    rf"(?i:my\s+(?:new\s+|current\s+|family\s+)?(?P<rel>{_NAMED_BY_ROLE})\s+is\s+(?:now\s+)?)"
    r"(?P<name>(?:(?:Dr|Mr|Mrs|Ms|Mx|Prof)\.?\s+)?[A-ZÀ-Ý][\w'’-]+(?:\s+[A-ZÀ-Ý][\w'’-]+)?)"
    r"(?=\s*(?:[,.!;]|$|\s+(?:and|but|who|now|these|at|from)\b))"
)
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


_AND_ANOTHER = re.compile(
    rf"(?i:\s+and\s+(?:an?|my|two|one)\s+(?P<rel>{_RELATIONS})\s+(?:called|named)\s+)"
    r"(?P<name>[A-ZÀ-Ý][\w'’-]+)"
)


@rule
def relation_name(clause: str) -> Iterator[Match]:
    lead = _RELATION_NAME.match(clause)
    value = lead and proper_noun(clause[lead.end() :], clause)
    by_role = None if value else _ROLE_IS.match(clause.strip())
    if by_role and by_role.group("name").split()[0].casefold() not in _NOT_NAMES:
        said = by_role.group("rel")
        value = by_role.group("name")
        relation = RELATIONS.get(said.casefold()) or said.casefold()
        yield Match("fact", f"name_of:{relation}", value, f"User's {said} is {value}", 0.85)
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


_SCHOOL = re.compile(
    rf"(?i:(?:(?P<user>i)|my\s+(?P<rel>{_RELATIONS}))(?:\s+(?P<name>[A-Z][\w'’-]+))?\s+"
    r"(?:now\s+|just\s+|recently\s+)?(?P<verb>go(?:es)?|started|starts|is\s+starting|attends?|"
    r"is\s+at|moved|switched|transferred|changed)\s+(?:schools?\s+)?(?:to|at)?\s*)"
    r"(?P<school>(?:[A-Z][\w'’.-]*\s+){0,4}(?i:school|primary|secondary|high|academy|college|"
    r"university|uni|nursery|kindergarten|grammar|elementary|montessori)(?:\s+(?i:school))?)\b"
)


@rule
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
    rf"(?i:(?:my\s+(?P<rel>{_RELATIONS})(?:\s+(?P<name>[A-Z][\w'’-]+))?\s+and\s+i|we|i(?=\s+(?:share|rent)\b))\s+"
    r"(?:now\s+|still\s+|currently\s+)?(?:live|share|rent|own|have|bought)\s+"
    r"(?:(?:a|an|the|our)\s+)?(?:[\w-]+\s+){0,2}?(?:flat|house|apartment|place|home|cottage|"
    r"studio|room)?\s*in)\s+"
)


@rule
def shared_home(clause: str) -> Iterator[Match]:
    """ "My boyfriend Lucas and I share a tiny flat in Lyon", "we live in Lyon"."""
    lead = _SHARED_HOME.match(clause)
    value = lead and proper_noun(clause[lead.end() :], clause)
    if not value or lead is None:
        return
    yield Match("fact", "home_city", value, f"User lives in {value}", 0.85)
    name = lead.group("name")
    if name and name[:1].isupper():
        said = lead.group("rel").casefold()
        relation = RELATIONS.get(said) or PETS.get(said) or said
        yield Match("fact", f"name_of:{relation}", name, f"User's {said} is named {name}", 0.85)


_LANGUAGES = _compile(r"i\s+(?:can\s+)?speak\s+(.+)$")


@rule
def languages(clause: str) -> Iterator[Match]:
    found = _LANGUAGES.match(clause.strip(" .!"))
    if not found:
        return
    for part in re.split(r"\s*,\s*|\s+(?:and|or)\s+", found.group(1)):
        words = normalise_object(part).split()
        original = part.split()
        if words and original and original[-1][:1].isupper():
            yield Match(
                "fact", f"speaks:{words[-1]}", original[-1], f"User speaks {original[-1]}", 0.85
            )


# --- health and diet: risks a reply must respect ----------------------------------------------

_ALLERGY = _compile(
    rf"(?:{I_AM}\s+(?:(?:very|severely|mildly|really|also)\s+)?allergic\s+to\s+(?P<to>.+)$|"
    r"i\s+have\s+an?\s+(?:(?:severe|mild|serious|bad)\s+)?(?P<of>[\w -]+?)\s+allergy\b)"
)


@rule
def allergy(clause: str) -> Iterator[Match]:
    found = _ALLERGY.match(clause.strip(" .!"))
    if not found:
        return
    objects = _objects(found.group("to")) if found.group("to") else [found.group("of")]
    for obj in objects:
        key = normalise_object(obj)
        yield Match("risk", f"allergy:{key}", obj, f"User is allergic to {obj}", 0.95)


_CONDITIONS = {
    "asthma": "asthma",
    "asthmatic": "asthma",
    "diabetes": "diabetes",
    "diabetic": "diabetes",
    "epilepsy": "epilepsy",
    "epileptic": "epilepsy",
    "celiac": "celiac disease",
    "coeliac": "celiac disease",
    "celiac disease": "celiac disease",
    "coeliac disease": "celiac disease",
    "high blood pressure": "high blood pressure",
    "migraines": "migraines",
    "adhd": "ADHD",
    "lactose intolerant": "lactose intolerance",
    "gluten intolerant": "gluten intolerance",
    "pregnant": "pregnancy",
    "hypertension": "high blood pressure",
    "a heart condition": "a heart condition",
    "heart disease": "heart disease",
    "ibs": "IBS",
    "crohn's": "Crohn's disease",
    "crohn's disease": "Crohn's disease",
    "anaemic": "anaemia",
    "anemic": "anaemia",
    "anaemia": "anaemia",
    "anemia": "anaemia",
    "gout": "gout",
    "kidney disease": "kidney disease",
}
# How a condition reads after "User": "User is pregnant", not "User has pregnancy".
_CONDITION_TEXT = {"pregnancy": "is pregnant", "anaemia": "is anaemic"}
_CONDITION = _compile(
    rf"(?:i\s+have|i've\s+got|i\s+have\s+got|i\s+got|i\s+suffer\s+from|{I_AM}|"
    r"i\s+was\s+diagnosed\s+with|i've\s+been\s+diagnosed\s+with|i\s+live\s+with|"
    rf"(?P<not>{I_AM}\s+(?:not|no\s+longer)|i\s+(?:don't|do\s+not|no\s+longer)\s+have))\s+"
    r"(?:an?\s+)?(?:type\s+(?:1|2|one|two|i|ii)\s+)?"  # "I'm type 1 diabetic"
    rf"({'|'.join(sorted(_CONDITIONS, key=len, reverse=True))})\b"
)


@rule
def condition(clause: str) -> Iterator[Match]:
    found = _CONDITION.match(clause)
    if found:
        name = _CONDITIONS[found.group(2).casefold()]
        if found.group("not"):
            # "Turns out I'm not lactose intolerant after all": taken back, by the same slot
            text = f"User does not have {name}"
            yield Match("risk", f"condition:{name}", name, text, 0.85, True, True)
            return
        said = _CONDITION_TEXT.get(name, f"has {name}")
        yield Match("risk", f"condition:{name}", name, f"User {said}", 0.9)


_MEDICINES = (
    r"(?:blood\s+thinners|warfarin|insulin|metformin|statins|beta[\s-]+blockers|"
    r"antidepressants|lithium|chemo(?:therapy)?|steroids|immunosuppressants|the\s+pill|"
    r"(?:an?\s+)?(?:inhaler|epipen)|levothyroxine|methotrexate|ssris?|"
    r"(?:medication|medicine|tablets|pills)\s+for\s+(?:my\s+)?[\w -]{3,30}?)"
)
_MEDICATION = _compile(
    rf"(?:{I_AM}\s+(?:now\s+|currently\s+|still\s+)?on|i\s+(?:now\s+|still\s+)?(?:take|use|carry))\s+"
    rf"(?:my\s+)?(?P<what>{_MEDICINES})(?=\s*(?:[,.;!]|$|\s+(?:every|daily|each|twice|so|and|because|since|now)\b))"
)


@rule
def medication(clause: str) -> Iterator[Match]:
    """ "I'm on blood thinners", "I take insulin": a risk a recommendation must respect."""
    found = _MEDICATION.match(clause.strip())
    if found:
        what = re.sub(r"(?i)\bmy\b", "User's", " ".join(found.group("what").split()))
        key = normalise_object(re.sub(r"\s+for\s+.*$", "", what))
        yield Match("risk", f"medication:{key}", what, f"User takes {what}", 0.85)


_DIET = _compile(
    rf"(?:{I_AM}|i've been|i have been|i went|i became|i've become|i have become|i've gone|"
    r"i have gone|i turned)\s+(?P<not>not\s+|no\s+longer\s+)?(?:an?\s+)?"
    r"(?:(?:strict|strictly|fully|full|completely|totally|now)\s+)?"
    r"(?P<diet>vegetarian|vegan|pescatarian|pescetarian|keto|teetotal|teetotaler|halal|kosher|"
    r"gluten[\s-]free|dairy[\s-]free)\b"
    r"|i\s+(?:only\s+|strictly\s+)?(?:eat|keep)\s+(?P<diet2>halal|kosher)\b"
)


@rule
def diet(clause: str) -> Iterator[Match]:
    found = _DIET.match(clause)
    if not found:
        return
    value = (found.group("diet") or found.group("diet2")).casefold().replace(" ", "-")
    if found.group("not"):
        ended = re.search(r"\b(?:anymore|any more)\b", clause, re.IGNORECASE)
        if ended or "no longer" in found.group("not").casefold():
            yield Match("fact", "diet", value, f"User is no longer {value}", 0.85, True, True)
        return
    text = f"User eats {value}" if value in ("halal", "kosher") else f"User is {value}"
    yield Match("fact", "diet", value, text, 0.9)


# --- work --------------------------------------------------------------------------------------

_JOBS = frozenset(
    """accountant actor actress analyst architect artist assistant attorney baker barista
    bartender biologist builder butcher carpenter cashier chef chemist cleaner clerk coach
    consultant cook counselor counsellor designer developer dentist doctor driver economist editor
    electrician engineer farmer firefighter freelancer gardener hairdresser illustrator intern
    journalist judge lawyer lecturer librarian manager mechanic midwife musician nurse officer
    painter paramedic pharmacist photographer physician physicist physiotherapist pilot plumber
    policeman policewoman professor programmer psychologist receptionist researcher salesman
    scientist secretary singer soldier student surgeon tailor teacher technician therapist
    translator tutor veterinarian vet waiter waitress writer director founder ceo cto
    administrator mathematician statistician dancer sailor nanny caregiver carer paralegal
    solicitor barrister courier postman postwoman paramedic porter janitor caretaker
    firefighter detective pharmacist optician dietitian nutritionist midwife radiographer
    sonographer hygienist surveyor auditor bookkeeper cashier ranger guide
    animator copywriter""".split()
)


def _job_phrase(text: str, *, named_as: bool = False) -> str | None:
    """The job at the start of ``text``. After "as" ("work as a fundraiser") any noun of a
    person's role will do; elsewhere ("I'm a ...") only a known job."""
    phrase = _OBJECT_END.sub("", text.strip())
    phrase = re.sub(r"^(?:an?|the)\s+", "", phrase, flags=re.IGNORECASE)
    words = phrase.split()
    if not words or len(words) > 4:
        return None
    head = words[-1].casefold()
    if head in _JOBS or head.endswith(("ologist", "ician")):
        return phrase
    role = head.endswith(("er", "or", "ist", "ant", "ent", "ian", "eer")) and len(head) > 4
    vague = {"whatever", "other", "another", "either", "neither", "never", "together", "forever"}
    if named_as and role and head not in STOPWORDS | vague:
        return phrase
    return None


_JOB = _compile(
    rf"(?:i\s+(?:now\s+|currently\s+)?work\s+as|my\s+job\s+is|"
    r"i(?:'ve|\s+have)?\s+(?:just\s+|recently\s+|finally\s+)?(?:became|become|retrained\s+as|"
    rf"qualified\s+as|requalified\s+as)(?=\s)|{I_AM}\s+(?:now\s+)?(?:working\s+as\s+)?"
    r"(?=an?\s)|(?P<ended>i\s+no\s+longer\s+work\s+as|i\s+(?:quit|left)\s+my\s+job\s+as|"
    rf"{I_AM}\s+(?:not|no\s+longer)\s+(?=an?\s)))\s*"
)


@rule
def job(clause: str) -> Iterator[Match]:
    lead = _JOB.match(clause)
    if lead:
        rest = clause[lead.end() :]
        phrase = _job_phrase(rest, named_as=bool(re.search(r"(?i)\bas\s*$", lead.group(0))))
        if phrase is None and re.match(r"(?i:my\s+job\s+is)", clause):
            phrase = _object(rest)  # "my job is teaching maths" needs no job noun
        if phrase is None:
            return
        if lead.group("ended"):
            if lead.group("ended").casefold().startswith(("i'm", "i am", "im", "i’m")) and not (
                re.search(r"\b(?:anymore|any more)\b", clause, re.IGNORECASE)
                or "no longer" in lead.group("ended").casefold()
            ):
                return
            yield Match(
                "fact", "job", phrase, f"User no longer works as {_a(phrase)}", 0.85, True, True
            )
            return
        now = bool(re.search(r"\bnow\b", clause, re.IGNORECASE))
        place, city = _workplace(rest[rest.find(phrase) + len(phrase) :])
        # One statement, one memory: forgetting "my job as a vet nurse" takes the hospital too.
        at = f" {place[0]} {place[1]}" if place else ""
        yield Match("fact", "job", phrase, f"User works as {_a(phrase)}{at}", 0.85, correction=now)
        if city:
            yield Match("fact", "home_city", city, f"User is based in {city}", 0.7, inferred=True)


# "... at a fintech startup in Accra": where the job is done, and the city the user is based in.
_WORKPLACE = re.compile(
    r"^\s+(?P<prep>at|for|with)\s+(?P<place>(?:(?:a|an|the)\s+)?[\w'’&-]+(?:\s+[\w'’&-]+){0,3}?)"
    r"(?=\s+in\s|\s*[,.;!]|\s*$)(?:\s+in\s+(?P<city>[A-ZÀ-Ý][\w'’.-]*(?:\s+[A-ZÀ-Ý][\w'’.-]*)?))?"
)


def _workplace(after: str) -> tuple[tuple[str, str] | None, str]:
    """(("at", "a fintech startup") or None, "Accra" or "") from the words after a job."""
    found = _WORKPLACE.match(after)
    if not found:
        return None, ""
    place = found.group("place")
    if place.split()[-1].casefold() in STOPWORDS | {"home", "moment", "least", "night", "weekends"}:
        return None, ""
    return (found.group("prep"), place), found.group("city") or ""


_FOR_A_LIVING = _compile(r"i\s+(?P<what>(?!do\b)\w+(?:\s+[\w'’-]+){0,4}?)\s+for\s+a\s+living\b")


@rule
def for_a_living(clause: str) -> Iterator[Match]:
    """ "I bake bread for a living": the job, in the user's words."""
    found = _FOR_A_LIVING.match(clause.strip())
    if found:
        verb, _, rest = found.group("what").partition(" ")
        what = f"{third_singular(verb)} {rest}".strip()
        yield Match("fact", "job", found.group("what"), f"User {what} for a living", 0.8)


def third_singular(verb: str) -> str:
    """ "bake" -> "bakes", "fix" -> "fixes", "study" -> "studies", "have" -> "has"."""
    lower = verb.casefold()
    irregular = {"be": "is", "have": "has", "do": "does", "go": "goes", "am": "is", "are": "is"}
    if lower in irregular:
        return irregular[lower]
    if lower.endswith(("s", "sh", "ch", "x", "z", "o")):
        return verb + "es"
    if lower.endswith("y") and len(lower) > 1 and lower[-2] not in "aeiou":
        return verb[:-1] + "ies"
    return verb + "s"


_NOT_WORKING = _compile(
    rf"(?:i(?:'ve|\s+have)?\s+(?:just\s+|recently\s+|finally\s+|now\s+)?(?P<retired>retired)|"
    rf"{I_AM}\s+(?:now\s+|currently\s+)?(?P<state>retired|unemployed|between\s+jobs|out\s+of\s+work))\b"
)


@rule
def not_working(clause: str) -> Iterator[Match]:
    """ "I retired last year", "I'm between jobs": the job slot's new value."""
    found = _NOT_WORKING.match(clause.strip())
    if found:
        state = " ".join((found.group("retired") or found.group("state")).casefold().split())
        yield Match("fact", "job", state, f"User is {state}", 0.85, correction=True)


_JOINED = _compile(
    r"i(?:'ve| have)?\s+(?:just\s+|recently\s+|finally\s+)?(?:joined|started\s+(?:working\s+)?at|"
    r"got\s+a\s+job\s+(?:at|with))\s+"
)


@rule
def joined(clause: str) -> Iterator[Match]:
    """ "I joined Shopify as a product manager": a new employer, and with "as" a new job."""
    lead = _JOINED.match(clause)
    if not lead:
        return
    rest = clause[lead.end() :]
    place = proper_noun(rest, clause)
    if not place:
        return
    yield Match("fact", "employer", place, f"User works at {place}", 0.85, correction=True)
    role = re.match(r"\s+as\s+(.+)$", rest[len(place) :])
    phrase = _job_phrase(role.group(1), named_as=True) if role else None
    if phrase:
        yield Match("fact", "job", phrase, f"User works as {_a(phrase)}", 0.85, correction=True)


def _a(phrase: str) -> str:
    if re.match(r"(?i:teaching|working|doing|running|\w+ing\b)", phrase):
        return phrase
    return f"{'an' if phrase[:1].casefold() in 'aeiou' else 'a'} {phrase}"


_EMPLOYER = _compile(
    r"(?:i\s+(?P<ended>no\s+longer\s+|don't\s+|do\s+not\s+)?(?:now\s+|currently\s+)?work|"
    rf"{I_AM}\s+(?:now\s+|currently\s+)?(?:working|employed|(?=at\s+\S+(?:\s+\S+){{0,2}}?\s+(?:now\s+)?as\s)))"
    r"\s*(?:at|for)\s+"
)


@rule
def employer(clause: str) -> Iterator[Match]:
    lead = _EMPLOYER.match(clause)
    value = lead and proper_noun(clause[lead.end() :], clause)
    if not value or lead is None:
        return
    if lead.group("ended"):
        if "no longer" in lead.group("ended") or re.search(r"\banymore\b", clause, re.I):
            yield Match(
                "fact", "employer", value, f"User no longer works at {value}", 0.85, True, True
            )
        return
    now = bool(re.search(r"\bnow\b", clause, re.IGNORECASE))
    yield Match("fact", "employer", value, f"User works at {value}", 0.85, correction=now)
    # "I'm working at Siemens as an engineer": the job too.
    role = re.match(r"\s+(?:now\s+)?as\s+(.+)$", clause[lead.end() + len(value) :])
    phrase = _job_phrase(role.group(1), named_as=True) if role else None
    if phrase:
        yield Match(
            "fact", "job", phrase, f"User works as {_a(phrase)} at {value}", 0.85, correction=now
        )


# --- what the user gets about in -------------------------------------------------------------

_VEHICLES = frozenset(
    """car van truck bike bicycle motorbike motorcycle scooter moped suv camper campervan
    hatchback estate pickup jeep ebike e-bike""".split()
)
# Makes of car and motorbike: "I switched to a Tesla Model 3" names a vehicle by its make.
_MAKES = frozenset(
    """tesla toyota ford honda bmw audi volkswagen vw kia hyundai nissan renault peugeot citroen
    fiat volvo skoda seat mazda subaru mercedes jeep mini porsche lexus dacia vauxhall opel
    chevrolet chevy dodge jaguar suzuki mitsubishi polestar rivian byd cupra yamaha ducati
    kawasaki triumph harley vespa prius""".split()
)
_VEHICLE = _compile(
    r"i(?:'ve|\s+have)?\s+(?:now\s+|still\s+|currently\s+|since\s+|just\s+|finally\s+)?"
    r"(?P<verb>drive|ride|own|have|have\s+got|got|bought|switched\s+to|upgraded\s+to|"
    r"changed\s+to|traded\s+up\s+to|went\s+for|leased|lease)\s+"
    r"(?:a|an|my|the)\s+(?P<what>[\w'’-]+(?:\s+[\w'’-]+){0,3}?)"
    r"(?=\s+(?:to|for|and|but|which|that|it|every|most|at|into|around|because|last|this|next|"
    r"yesterday|today|in|on|ago|recently|now|since|instead)\b|\s*[,.;!]|\s*$)"
)
_THIRD = {"drive": "drives", "ride": "rides", "own": "owns", "have": "has", "have got": "has"}


@rule
def vehicle(clause: str) -> Iterator[Match]:
    """ "I drive a red Toyota Corolla", "I ride a blue Vespa scooter to work": one slot, so
    "I sold the Corolla and bought a Leaf" and "I drive a Leaf now" supersede it."""
    found = _VEHICLE.match(clause.strip())
    if not found:
        return
    verb, what = " ".join(found.group("verb").casefold().split()), found.group("what")
    head = what.split()[-1].casefold()
    made = any(w.casefold() in _MAKES for w in what.split())
    if verb not in ("drive", "ride") and head not in _VEHICLES and not made:
        return
    if verb in ("drive", "ride") and (head in STOPWORDS or head in ("lot", "bit", "way")):
        return
    said = _THIRD.get(verb, "drives" if made or head in ("car", "van", "suv") else "has")
    changed = verb not in _THIRD or bool(re.search(r"\bnow\b", clause, re.IGNORECASE))
    yield Match("fact", "vehicle", what, f"User {said} {_a(what)}", 0.8, correction=changed)
