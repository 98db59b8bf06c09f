"""Extraction rules for health and diet: allergies, conditions, medication and diets, the risks
a reply must respect.

Same contract as ``extraction_rules``: each rule reads one clause anchored at its subject.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from desktop_agent.core.extraction_phrases import I_AM, Match, _compile, _objects, normalise_object

_ALLERGY = _compile(
    rf"(?:{I_AM}\s+(?:(?:very|severely|mildly|really|also)\s+)?allergic\s+to\s+(?P<to>.+)$|"
    # "i have a peanut allergy", "i've got a bad shellfish allergy"
    r"i(?:\s+have|\s+have\s+got|['’]ve\s+got|\s+got)\s+an?\s+"
    r"(?:(?:severe|mild|serious|bad|nasty|slight|really\s+bad)\s+)?(?P<of>[\w -]+?)\s+allergy\b)"
)


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
    r"(?:blood\s+thinners|warfarin|apixaban|rivaroxaban|edoxaban|dabigatran|clopidogrel|"
    r"eliquis|xarelto|coumadin|heparin|insulin|metformin|statins|beta[\s-]+blockers|"
    r"antidepressants|lithium|chemo(?:therapy)?|steroids|immunosuppressants|the\s+pill|"
    r"(?:an?\s+)?(?:inhaler|epipen)|levothyroxine|methotrexate|ssris?|"
    r"(?:medication|medicine|tablets|pills)\s+for\s+(?:my\s+)?[\w -]{3,30}?)"
)
_MEDICATION = _compile(
    rf"(?:{I_AM}\s+(?:now\s+|currently\s+|still\s+)?on|i\s+(?:now\s+|still\s+)?(?:take|use|carry))\s+"
    rf"(?:my\s+)?(?P<what>{_MEDICINES})(?=\s*(?:[,.;!]|$|\s+(?:every|daily|each|twice|so|and|because|since|now|for|after)\b))"
)


def medication(clause: str) -> Iterator[Match]:
    """ "I'm on blood thinners", "I take insulin": a risk a recommendation must respect."""
    found = _MEDICATION.match(clause.strip())
    if found:
        what = re.sub(r"(?i)\bmy\b", "User's", " ".join(found.group("what").split()))
        key = normalise_object(re.sub(r"\s+for\s+.*$", "", what))
        yield Match("risk", f"medication:{key}", what, f"User takes {what}", 0.85)


_DIET = _compile(
    rf"(?:{I_AM}|i've been|i have been|i went|i became|i've become|i have become|i've gone|"
    r"i have gone|i turned|"
    # "I've gone back to being vegetarian", "I'm back to being vegan", "I switched to vegan"
    r"(?:i've|i\s+have|i)\s+(?:gone|went|switched|changed|moved)\s+(?:back\s+)?to(?:\s+being)?|"
    rf"{I_AM}\s+back\s+to(?:\s+being)?|(?P<on>{I_AM}\s+(?:now\s+)?on|i(?:'ve|\s+have)\s+(?:been|gone)\s+on))"
    r"\s+(?P<not>not\s+|no\s+longer\s+)?(?:an?\s+)?"
    r"(?:(?:strict|strictly|fully|full|completely|totally|now)\s+)?"
    r"(?P<diet>vegetarian|vegan|pescatarian|pescetarian|keto|teetotal|teetotaler|halal|kosher|"
    r"gluten[\s-]free|dairy[\s-]free|low[\s-](?:salt|sodium))\b"
    r"|i\s+(?:only\s+|strictly\s+)?(?:eat|keep)\s+(?P<diet2>halal|kosher)\b"
)


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
    if found.group("on"):  # "I'm on a strict keto diet"
        text = f"User is on a {value} diet"
    # "for" a time, not a reason: "for ten years", not "for my blood pressure"
    since = re.search(
        r"(?i)\s(since|for(?=\s+(?:\d|an?\s|about|over|almost|nearly|years|months|ages|"
        r"the\s+(?:last|past)|\w+\s+(?:years?|months?|weeks?|decades?)\b)))\s+([^,.;!?]+)",
        clause[found.end() :],
    )
    if since and text.startswith("User is "):  # "I've been vegetarian since I was 12"
        said = re.sub(r"(?i)\bI was\b", "User was", since.group(2).strip())
        being = f"on a {value} diet" if found.group("on") else value
        text = f"User has been {being} {since.group(1).casefold()} {said}"
    yield Match("fact", "diet", value, text, 0.9)
