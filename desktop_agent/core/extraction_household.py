"""Sentence rules for the user's household and life story, read across commas as
``extraction_sentences`` does: a child's new school, a new baby by name, where the user was born
and raised, how long a couple has been together."""

from __future__ import annotations

import re
from collections.abc import Iterator

from desktop_agent.core.extraction_grammar import KNOWN_PEOPLE
from desktop_agent.core.extraction_rules import Match, Rule
from desktop_agent.core.extraction_sentences import _NAME
from desktop_agent.core.extraction_words import PETS, RELATIONS
from desktop_agent.core.timeparse import WEEKDAYS

HOUSEHOLD_RULES: list[Rule] = []


def _rule(function: Rule) -> Rule:
    HOUSEHOLD_RULES.append(function)
    return function


# "We moved Isla to Greenfield Academy after half term": a child's new school, by name or relation.
_SCHOOL_MOVED = re.compile(
    r"(?i:\b(?:we|i)(?:'ve|’ve|\s+have)?\s+(?:moved|switched|transferred|changed)\s+)"
    rf"(?:(?i:my|our)\s+(?P<rel>[a-z]+)\s+(?:{_NAME}\s+)?|(?P<name>{_NAME})\s+)(?i:to)\s+"
    rf"(?P<school>(?:{_NAME}\s+){{0,3}}(?:School|Academy|Primary|College|High|Nursery|Grammar)"
    r"(?:\s+School)?)\b"
)


@_rule
def school_moved(sentence: str) -> Iterator[Match]:
    found = _SCHOOL_MOVED.search(sentence)
    if not found:
        return
    said = (found.group("rel") or "").casefold()
    relation = RELATIONS.get(said) or KNOWN_PEOPLE.get().get((found.group("name") or "").casefold())
    if relation:
        who = f"{said or relation} {found.group('name') or ''}".strip()
        school = found.group("school")
        text = f"User's {who} goes to {school}"
        yield Match("fact", f"person:{relation}:school", school, text, 0.8, correction=True)


# "We lived in Hong Kong for five years when I was a kid": where the user grew up.
_LIVED_AS_A_CHILD = re.compile(
    rf"(?i:\b(?:i|we)\s+lived\s+in\s+)(?P<place>{_NAME}(?:\s+{_NAME})?)\b[^.!?]*?"
    r"(?i:\bwhen\s+i\s+was\s+(?:a\s+(?:kid|child|boy|girl|toddler|baby)|little|young|small))"
)


# "I was born in Nairobi but grew up in Leeds": two places, so where the user grew up has a slot
# of its own beside where they were born (alone, "I grew up in Cork" is where they are from).
_BORN_AND_RAISED = re.compile(
    rf"(?i:\bi\s+was\s+born\s+in\s+){_NAME}(?:\s+{_NAME})?\s*,?\s+(?i:but|and)\s+"
    rf"(?i:(?:i\s+)?(?:grew\s+up|was\s+raised|was\s+brought\s+up)\s+in\s+)(?P<place>{_NAME}(?:\s+{_NAME})?)"
)


@_rule
def grew_up(sentence: str) -> Iterator[Match]:
    """Where the user grew up, beside where they were born or said as where they lived."""
    for pattern, confidence in ((_BORN_AND_RAISED, 0.85), (_LIVED_AS_A_CHILD, 0.8)):
        if found := pattern.search(sentence):
            place = found.group("place")
            yield Match("fact", "origin:grew_up", place, f"User grew up in {place}", confidence)
            return


# "We had another baby last month, a girl called Rosie": the newest child, by name.
_OUR_BABY = re.compile(
    r"(?i:\b(?:we|i)\s+(?:just\s+)?(?:had|have\s+had|welcomed)\s+(?:a|another|our\s+\w+)\s+"
    r"(?:new\s+)?baby\b[^.!?]*?\b(?:a\s+)?(?:baby\s+|little\s+)?(?P<sex>girl|boy)\s+"
    rf"(?:called|named)\s+)(?P<name>{_NAME})"
)


@_rule
def our_baby(sentence: str) -> Iterator[Match]:
    found = _OUR_BABY.search(sentence)
    if found:
        child = "daughter" if found.group("sex").casefold() == "girl" else "son"
        name = found.group("name")
        text = f"User's youngest, a baby {child}, is named {name}"
        yield Match("fact", "name_of:baby", name, text, 0.85)


# "We've been together for six years", "we've been married since 2015": how long the user and
# their partner have been a couple.
_TOGETHER = re.compile(
    r"(?i:\bwe(?:'ve|’ve|\s+have)\s+been\s+(?P<how>together|married|dating|going\s+out)\s+"
    r"(?P<long>(?:for\s+)?(?:almost\s+|nearly\s+|over\s+|about\s+|just\s+over\s+)?"
    r"(?:\d+|an?|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|fifteen|twenty|"
    r"thirty|forty|fifty)\s+(?:years?|months?|weeks?)|since\s+\d{4}))"
)


@_rule
def together_for(sentence: str) -> Iterator[Match]:
    found = _TOGETHER.search(sentence)
    if found:
        how, long = " ".join(found.group("how").casefold().split()), found.group("long")
        text = f"User and User's partner have been {how} {long}"
        yield Match("fact", "partner:together", long, text, 0.8)


# "My flat is on the 4th floor, no lift": which floor the user's home is on.
_FLOOR = re.compile(
    r"(?i:\bmy\s+(?P<home>flat|apartment|place|room|house)\s+is\s+on\s+the\s+)"
    r"(?P<floor>\w+(?i:\s+floor)|(?i:ground|top|first|second|third)\s+floor)"
)


@_rule
def home_floor(sentence: str) -> Iterator[Match]:
    found = _FLOOR.search(sentence)
    if found:
        home, floor = found.group("home").casefold(), found.group("floor")
        yield Match("fact", "home:floor", floor, f"User's {home} is on the {floor}", 0.8)


# "My yoga class is on Tuesday evenings", "my pottery class is every Wednesday": a weekly
# class, said as the class's day rather than as something the user does.
_DAYS = "|".join(WEEKDAYS)
_CLASS_DAY = re.compile(
    r"(?i:\bmy\s+(?P<what>[a-z]+(?:\s+[a-z]+)?)\s+(?P<kind>class|lesson|lessons|practice|"
    r"session|club|group|training)\s+(?:is|are)\s+(?P<when>(?:on|every)\s+"
    rf"(?:{_DAYS})s?(?:\s+(?:and\s+)?(?:{_DAYS})s?)*(?:\s+(?:evenings?|mornings?|afternoons?|nights?))?))\b"
)


@_rule
def class_day(sentence: str) -> Iterator[Match]:
    found = _CLASS_DAY.search(sentence)
    if found:
        what, kind, when = (found.group(g) for g in ("what", "kind", "when"))
        verb = "are" if re.search(r"[^s]s$", kind.casefold()) else "is"
        text = f"User's {what.casefold()} {kind.casefold()} {verb} {when}"
        yield Match("fact", f"routine:{what.casefold()}", when, text, 0.75)


# "My daughter Mia is in Year 3", "Mia's moved up to Year 4 now": a child's school year.
_SCHOOL_YEAR = re.compile(
    rf"(?:(?i:my|our)\s+(?P<rel>[a-z]+)\s+(?:(?P<named>{_NAME})\s+)?|(?P<name>{_NAME})\s+|"
    rf"(?P<own>{_NAME})(?:'s|’s)\s+)"
    r"(?P<how>(?i:is\s+(?:now\s+)?in|(?:has\s+)?moved\s+up\s+(?:in)?to|(?:is\s+)?going\s+into|"
    r"started|is\s+starting))\s+(?P<year>(?i:year|grade)\s+\d{1,2}|(?i:reception|sixth\s+form))\b"
)


@_rule
def school_year(sentence: str) -> Iterator[Match]:
    found = _SCHOOL_YEAR.search(sentence)
    if not found:
        return
    said = (found.group("rel") or "").casefold()
    name = re.sub(
        r"['’]s$", "", found.group("named") or found.group("name") or found.group("own") or ""
    )
    relation = RELATIONS.get(said) or KNOWN_PEOPLE.get().get(name.casefold())
    if relation not in ("son", "daughter", "child", "stepson", "stepdaughter", "grandson",
                        "granddaughter", "nephew", "niece"):  # fmt: skip
        return
    who = f"{said or relation} {name}".strip()
    year = found.group("year")
    moved = not found.group("how").casefold().startswith("is")
    text = f"User's {who} is in {year}"
    yield Match("fact", f"person:{relation}:school_year", year, text, 0.8, correction=moved)


# "my sister Amy is at uni in Leeds": where one of the user's people studies.
_AT_UNI = re.compile(
    rf"(?i:\bmy\s+)(?P<rel>[a-z]+)\s+(?:(?P<name>{_NAME})\s+)?(?i:is|'s|’s)\s+(?i:now\s+)?"
    r"(?i:at|studying\s+at|studying\s+in|in\s+\w+\s+year\s+at)\s+"
    r"(?P<what>(?i:uni|university|college))\s+(?i:in|at)\s+"
    rf"(?P<place>{_NAME}(?:\s+{_NAME})?)"
)


@_rule
def studies_at(sentence: str) -> Iterator[Match]:
    for found in _AT_UNI.finditer(sentence):
        said = found.group("rel").casefold()
        relation = RELATIONS.get(said)
        if relation:
            who = f"{said} {found.group('name') or ''}".strip()
            place = found.group("place")
            text = f"User's {who} studies at {found.group('what').casefold()} in {place}"
            yield Match("fact", f"person:{relation}:study", place, text, 0.8)


# "a rescue greyhound called Bolt, he's 6 and terrified of thunder": the age said just after the
# name, of a pet or one of the user's people.
_NAMED_THEN_AGE = re.compile(
    rf"(?i:\b(?P<rel>[a-z]+)\s+(?:called|named)\s+)(?P<name>{_NAME})\s*,\s*"
    r"(?i:(?:he|she)(?:'s|’s|\s+is)\s+(?:now\s+)?)(?P<age>\d{1,2})\b(?!\s*(?:kg|cm|%|am|pm))"
)


@_rule
def named_then_age(sentence: str) -> Iterator[Match]:
    for found in _NAMED_THEN_AGE.finditer(sentence):
        said = found.group("rel").casefold()
        relation = PETS.get(said) or RELATIONS.get(said)
        if relation:
            name, age = found.group("name"), found.group("age")
            text = f"User's {said} {name} is {age}"
            yield Match("fact", f"person:{relation}:age", age, text, 0.8)


__all__ = ["HOUSEHOLD_RULES"]
