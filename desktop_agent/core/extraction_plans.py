"""Extraction rules for what the user likes and intends: preferences, plans, decisions, tasks.

Same contract as ``extraction_rules``: each rule reads one clause anchored at its subject.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from desktop_agent.core.extraction_rules import (
    ADVERBS,
    I_AM,
    Match,
    Rule,
    _compile,
    _object,
    _objects,
    _slug,
    normalise_object,
)

PLAN_RULES: list[Rule] = []


def rule(function: Rule) -> Rule:
    PLAN_RULES.append(function)
    return function


# verb -> (third-person verb, negated)
_LIKE_VERBS = {
    "love": ("loves", False),
    "like": ("likes", False),
    "enjoy": ("enjoys", False),
    "adore": ("adores", False),
    "prefer": ("prefers", False),
    "hate": ("hates", True),
    "dislike": ("dislikes", True),
    "detest": ("detests", True),
    "loathe": ("loathes", True),
    "can't stand": ("can't stand", True),
    "can’t stand": ("can't stand", True),
    "cannot stand": ("can't stand", True),
    "don't like": ("doesn't like", True),
    "don't enjoy": ("doesn't enjoy", True),
    "don't love": ("doesn't love", True),
    "no longer like": ("no longer likes", True),
    "no longer enjoy": ("no longer enjoys", True),
    "no longer love": ("no longer loves", True),
}
_LIKE = _compile(
    rf"i\s+(?:(?P<neg>don't|don’t|do\s+not|no\s+longer|never)\s+)?{ADVERBS}"
    rf"(?P<verb>{'|'.join(sorted(_LIKE_VERBS, key=len, reverse=True))})\s+"
    rf"|{I_AM}\s+(?:a\s+)?(?P<fan>not\s+(?:a\s+|the\s+)?|no\s+)?(?:(?:big|huge|massive|great)\s+)?"
    r"fan\s+of\s+"
)


@rule
def likes(clause: str) -> Iterator[Match]:
    lead = _LIKE.match(clause)
    if not lead:
        return
    if lead.group("verb"):
        said = re.sub(r"\s+", " ", lead.group("verb").casefold())
        if lead.group("neg"):
            if said not in ("like", "enjoy", "love"):
                return
            negation = "no longer" if "longer" in lead.group("neg") else "don't"
            said = f"{negation} {said}"
        verb, negated = _LIKE_VERBS[said]
    else:
        negated = bool(lead.group("fan"))
        verb = "is not a fan of" if negated else "is a fan of"
    ended = bool(re.search(r"\b(?:anymore|any more|no longer)\b", clause, re.IGNORECASE))
    rest = clause[lead.end() :]
    infinitive = re.match(r"(?i:to)\s+(\w+)", rest)
    if infinitive and infinitive.group(1).casefold() in _NOT_A_HOBBY:
        return  # "I hate to say it", "I'd like to ask"
    objects = _objects(rest)
    for obj in objects:
        said = f"to {obj}" if infinitive else obj
        # "I love my coffee black" is said of the user: "User loves their coffee black".
        theirs = re.sub(r"(?i)\bmy\b", "their", said)
        # "I love hiking in the Peak District": where, kept in the words (not in the slot)
        after = rest[rest.find(obj) + len(obj) :] if len(objects) == 1 and obj in rest else ""
        if where := _NAMED_PLACE.match(after):
            theirs = f"{theirs}{where.group(0).rstrip()}"
        yield Match(
            "preference",
            f"likes:{normalise_object(obj)}",
            said,
            f"User {verb} {theirs}",
            0.85,
            negated=negated,
            correction=ended,
        )


_NAMED_PLACE = re.compile(
    r"\s+(?:in|at|around|on|by)\s+(?:the\s+)?[A-ZÀ-Ý][\w'’-]*(?:\s+[A-ZÀ-Ý][\w'’-]*){0,3}"
)
_TAKEN = _compile(
    r"i\s+(?:now\s+|usually\s+|always\s+|only\s+)?(?P<verb>take|have|drink)\s+my\s+"
    r"(?P<drink>coffee|tea|latte|espresso)\s+(?P<how>(?:with|without|black|white|strong|weak|"
    r"no|milky|sweet|plain)\b.*?)\s*(?:\bnow\b)?[.!]*$"
)


@rule
def drink_taken(clause: str) -> Iterator[Match]:
    """ "I take my coffee with two sugars", "I have my coffee black now": one slot per drink."""
    found = _TAKEN.match(clause.strip())
    if not found:
        return
    drink, how = found.group("drink").casefold(), found.group("how").strip(" ,")
    verb = {"take": "takes", "have": "has", "drink": "drinks"}[found.group("verb").casefold()]
    now = re.search(r"\bnow\b", clause, re.IGNORECASE) is not None
    text = f"User {verb} their {drink} {how}"
    yield Match("preference", f"how:{drink}", how, text, 0.85, correction=now)


_NOT_A_HOBBY = frozenset(
    "say admit ask bother interrupt think hear see tell break be know point mention disagree "
    "disappoint complain trouble repeat".split()
)

_FAVORITE = _compile(
    r"my\s+(?:all-time\s+)?(?:favou?rite|fave)\s+([\w -]{2,30}?)"
    # "my favourite band these days is...": the time is not part of the slot
    r"(?:\s+(?:these\s+days|nowadays|right\s+now|at\s+the\s+moment|now|lately|currently|"
    r"of\s+all\s+time|ever))?\s+(?:is|are)\s+"
)


@rule
def favorite(clause: str) -> Iterator[Match]:
    lead = _FAVORITE.match(clause)
    if not lead:
        return
    value = re.split(r"[.!?,;]", clause[lead.end() :])[0].strip()
    if value and len(value.split()) <= 6 and not re.match(r"(?i:it|that|this)\b", value):
        thing = normalise_object(lead.group(1))
        yield Match(
            "preference", f"favorite:{thing}", value, f"User's favorite {thing} is {value}", 0.9
        )


# --- what the user means to do ----------------------------------------------------------------

_TASK = _compile(
    r"(?:please\s+)?(?:remind\s+me\s+to|don't\s+let\s+me\s+forget\s+to|do\s+not\s+let\s+me\s+"
    r"forget\s+to|i\s+need\s+to\s+remember\s+to|i\s+must\s+remember\s+to|add\s+a\s+reminder\s+to)\s+"
    r"(.+)$"
)


@rule
def task(clause: str) -> Iterator[Match]:
    found = _TASK.match(clause.strip(" .!"))
    if found:
        what = found.group(1).strip()
        yield Match("task", f"task:{_slug(what)}", what, f"Remind User to {what}", 0.9)


# Things one is "going to" do right now are not plans worth remembering.
_IMMEDIATE = re.compile(
    r"^(?:go\s+to\s+)?(?:bed|sleep|head|grab|take\s+a|try|check|have\s+a\s+look|look|think|"
    r"go\s+now|leave|be\s+honest|ask|say|need|get\s+some|make\s+(?:some\s+)?(?:tea|coffee))\b",
    re.IGNORECASE,
)
# "We're planning a trip to Japan in April with my friend Aiko": a plan named by its noun, so a
# later change ("we're going to Iceland instead") finds it by the same slot.
_PLANNED = _compile(
    rf"(?:{I_AM}|we're|we\s+are)\s+(?:planning|organi[sz]ing|booking|arranging)\s+"
    r"(?:a|an|our|my|the)\s+(?:(?:big|little|short|long|small|week-long|weekend)\s+)?"
    r"(trip|holiday|vacation|visit|party|wedding|move|honeymoon|road\s+trip|getaway|tour)\b(.*)$"
)


@rule
def planned(clause: str) -> Iterator[Match]:
    found = _PLANNED.match(clause.strip(" .!"))
    if not found:
        return
    noun = found.group(1).casefold()
    rest = _third(found.group(2).strip())
    what = f"{_a_or_an(noun)} {noun}" + (f" {rest}" if rest else "")
    yield Match("plan", f"plan:{noun}", what, f"User is planning {what}", 0.8)


def _third(words: str) -> str:
    words = re.sub(r"\b(?:my|our)\b", "User's", words, flags=re.IGNORECASE)
    return re.sub(r"\b(?:me|us)\b", "User", words, flags=re.IGNORECASE)


def _a_or_an(noun: str) -> str:
    return "an" if noun[:1] in "aeiou" else "a"


_PLAN = _compile(
    rf"(?:{I_AM}\s+(?:planning|going|intending)\s+to|i\s+(?:plan|intend)\s+to|"
    r"i'?ll\s+be|i\s+will\s+be|my\s+plan\s+is\s+to|i've\s+got\s+plans\s+to)\s+(.+)$"
)


@rule
def plan(clause: str) -> Iterator[Match]:
    found = _PLAN.match(clause.strip(" .!"))
    if not found:
        return
    what = found.group(1).strip()
    if _IMMEDIATE.match(what) or re.search(r"\bnow\b", what, re.IGNORECASE) or len(what) < 4:
        return
    if clause.casefold().startswith(("i'll be", "i will be")) and not re.match(
        r"(?i:travel|visit|mov|start|go|fly|leav|work)", what
    ):
        return
    if clause.casefold().startswith(("i'm going", "i am going", "im going")) and re.match(
        r"[A-ZÀ-Ý]", what
    ):
        # "I'm going to Japan in April": a trip, not "plans to Japan"
        what = _third(what)
        yield Match("plan", "plan:trip", what, f"User is going to {what}", 0.75)
        return
    yield Match("plan", f"plan:{_slug(what)}", what, f"User plans to {what}", 0.75)


_DECISION = _compile(
    r"(?:i(?:'ve|\s+have)?\s+(?:finally\s+)?(?:decided|chosen|chose|resolved|made\s+up\s+my\s+mind)"
    r"\s+(?:to\s+|on\s+|that\s+i'?l?l?\s*)?|i'm\s+going\s+with\s+|i'll\s+go\s+with\s+)(.+)$"
)


@rule
def decision(clause: str) -> Iterator[Match]:
    found = _DECISION.match(clause.strip(" .!"))
    if found and len(found.group(1).strip()) >= 3 and not _object_is_vague(found.group(1)):
        what = found.group(1).strip()
        yield Match("decision", f"decision:{_slug(what)}", what, f"User decided to {what}", 0.8)


def _object_is_vague(text: str) -> bool:
    return _object(text) is None and not re.match(r"(?i:go|stay|keep|stop|quit)\b", text)


def note(text: str) -> Match:
    """What "remember that ..." keeps when no finer rule reads it: the user's words, verbatim."""
    what = text.strip().rstrip(".!")
    return Match("fact", f"note:{_slug(what)}", what, f'User asked to remember: "{what}"', 0.9)


__all__ = ["PLAN_RULES", "note"]
