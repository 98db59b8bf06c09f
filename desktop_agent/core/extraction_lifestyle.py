"""Extraction rules for how the user lives: what they drink and how much, what they are saving
for, and their faith. Each reads one clause anchored at its start, as ``extraction_rules`` do;
``RULES`` in ``extraction`` tries them after the everyday ones."""

from __future__ import annotations

import re
from collections.abc import Iterator

from desktop_agent.core.extraction_rules import Match, Rule
from desktop_agent.search.tokenize import STOPWORDS

LIFESTYLE_RULES: list[Rule] = []


def _rule(function: Rule) -> Rule:
    LIFESTYLE_RULES.append(function)
    return function


def _compile(pattern: str) -> re.Pattern[str]:
    return re.compile(pattern, re.IGNORECASE)


_DRINKS = _compile(
    r"(?:these\s+days,?\s+|nowadays,?\s+)?i\s+(?P<how>only\s+|mostly\s+|mainly\s+|usually\s+|just\s+)?"
    r"(?:now\s+)?drink\s+(?:(?:way\s+)?(?:too\s+much|so\s+much|a\s+lot\s+of|lots\s+of|loads\s+of)\s+)?"
)
_DRINK_END = re.compile(
    r"\s+(?:now|these\s+days|nowadays|anymore|every|each|in|at|with|when|because|but|"
    r"instead|since|all|a\s+day|daily)\b.*$|[.,;!?].*$",
    re.IGNORECASE,
)


@_rule
def drinks(clause: str) -> Iterator[Match]:
    """ "I drink way too much espresso", "I only drink green tea now": what the user drinks, one
    slot, changed by "now", "only" or "these days"."""
    body = clause.strip()
    lead = _DRINKS.match(body)
    if not lead:
        return
    what = _DRINK_END.sub("", body[lead.end() :]).strip()
    if not what or len(what.split()) > 4 or what.split()[0].casefold() in STOPWORDS | {"it"}:
        return
    changed = bool(
        lead.group("how") and lead.group("how").strip().casefold() in ("only", "mostly", "mainly")
    ) or bool(re.search(r"\b(?:now|these\s+days|nowadays)\b", body, re.IGNORECASE))
    yield Match("fact", "drink", what, f"User drinks {what}", 0.8, correction=changed)


_CUT_DOWN = _compile(
    r"i(?:'ve|’ve|\s+have)?\s+(?:now\s+)?(?:cut|cutting|gone)\s+(?:down|back)\s+to\s+"
    r"(?P<what>(?:\w+\s+){0,3}?(?:coffees?|teas?|espressos?|lattes?|beers?|pints?|glass(?:es)?|"
    r"cups?|cans?|drinks?)\b[^.!?,;]*)"
)


@_rule
def cut_down(clause: str) -> Iterator[Match]:
    """ "I've cut down to one coffee a day": how much the user drinks now."""
    found = _CUT_DOWN.match(clause.strip())
    if found:
        what = found.group("what").strip()
        yield Match("fact", "drink", what, f"User drinks {what}", 0.8, correction=True)


_SAVING = re.compile(
    r"^(?i:(?:i'm|i’m|im|i\s+am|we're|we’re|we\s+are)\s+(?:currently\s+|still\s+|now\s+)?saving\s+"
    r"(?:up\s+)?(?:for|towards|to\s+buy)\s+)(?P<what>[^,.!?;]+)"
)
_SPENDING_SAVINGS = re.compile(
    r"^(?i:(?:i|we)(?:'ve|’ve|\s+have)?\s+(?:decided\s+to\s+|going\s+to\s+)?(?:spend|put|use)\s+"
    r"(?:the|my|our)\s+(?:savings|money|nest\s+egg)\s+(?:on|towards|for)\s+)(?P<what>[^,.!?;]+?)"
    r"(?i:\s+instead)?\s*[.!]*$"
)


@_rule
def saving(clause: str) -> Iterator[Match]:
    """ "I'm saving up for a trip to Japan"; "I've decided to spend the savings on a new kitchen
    instead" replaces it: one goal, what the savings are for."""
    found = _SAVING.match(clause.strip())
    if found:
        what = found.group("what").strip()
        yield Match("fact", "goal:saving", what, f"User is saving up for {what}", 0.8)
        return
    spent = _SPENDING_SAVINGS.match(clause.strip())
    if spent:
        what = spent.group("what").strip()
        text = f"User is saving up for {what}"
        yield Match("fact", "goal:saving", what, text, 0.8, correction=True)


_FAITH = re.compile(
    r"^(?i:i'm|i’m|im|i\s+am)\s+(?P<said>(?:an?\s+)?(?:(?i:practising|practicing|lapsed|devout|"
    r"non-practising|non-practicing|proud|born-again)\s+)?(?P<faith>(?i:catholic|muslim|jewish|"
    r"hindu|buddhist|christian|sikh|protestant|anglican|mormon|atheist|agnostic|quaker|methodist|"
    r"baptist|pagan|jain)))\b"
)


@_rule
def faith(clause: str) -> Iterator[Match]:
    """ "I'm Catholic but I don't go to church much", "I'm a lapsed Methodist"."""
    found = _FAITH.match(clause.strip())
    if found:
        name = found.group("faith")
        said = found.group("said").replace(name, name.capitalize())
        yield Match("fact", "religion", name.capitalize(), f"User is {said}", 0.85)


__all__ = ["LIFESTYLE_RULES"]
