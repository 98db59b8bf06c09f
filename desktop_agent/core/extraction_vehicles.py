"""Extraction rules for what the user gets about in: a car, a bike, a scooter.

Same contract as ``extraction_rules``: each rule reads one clause anchored at its subject.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from desktop_agent.core.extraction_phrases import Match, _a, _compile
from desktop_agent.core.extraction_words import KIDS, PETS, RELATIONS
from desktop_agent.search.tokenize import STOPWORDS

_VEHICLES = frozenset(
    """car van truck bike bicycle motorbike motorcycle scooter moped suv camper campervan
    hatchback estate pickup jeep ebike e-bike ute wagon minivan""".split()
)
_BIKE_MAKES = frozenset(
    "vanmoof gazelle brompton cannondale specialized bianchi cervelo orbea batavus raleigh".split()
)
# Makes of car, motorbike and bike: "I switched to a Tesla Model 3" names a vehicle by its make.
_MAKES = (
    frozenset(
        """tesla toyota ford honda bmw audi volkswagen vw kia hyundai nissan renault peugeot citroen
    fiat volvo skoda seat mazda subaru mercedes jeep mini porsche lexus dacia vauxhall opel
    chevrolet chevy dodge jaguar suzuki mitsubishi polestar rivian byd cupra yamaha ducati
    kawasaki triumph harley vespa prius ktm aprilia""".split()
    )
    | _BIKE_MAKES
)
_VEHICLE = _compile(
    # "I drive ...", "we've got ...", and the diary's "picked up a second hand Skoda Fabia"
    r"(?:(?:i|we)(?:'ve|\s+have)?\s+)?(?:now\s+|still\s+|currently\s+|since\s+|just\s+|"
    r"finally\s+)?"
    r"(?P<verb>drive|ride|own|have|have\s+got|got|bought|switched\s+to|upgraded\s+to|"
    r"changed\s+to|traded\s+up\s+to|went\s+for|went\s+with|leased|lease|picked\s+up)\s+"
    r"(?:(?<=got\s)myself\s+|(?<=bought\s)myself\s+)?"  # "got myself a secondhand Honda Jazz"
    r"(?:a|an|my|the|our)\s+(?:(?:second[\s-]hand|used|new|brand\s+new|secondhand)\s+)?"
    r"(?P<what>[\w'’-]+(?:\s+[\w'’-]+){0,3}?)"
    r"(?=\s+(?:to|for|and|but|which|that|it|every|most|at|into|around|because|last|this|next|"
    r"yesterday|today|in|on|ago|recently|now|since|instead|from|off|via)\b|\s*[,.;!]|\s*$)"
)
_THIRD = {"drive": "drives", "ride": "rides", "own": "owns", "have": "has", "have got": "has"}


def vehicle(clause: str) -> Iterator[Match]:
    """ "I drive a red Toyota Corolla", "I ride a blue Vespa scooter to work": one slot, so
    "I sold the Corolla and bought a Leaf" and "I drive a Leaf now" supersede it."""
    found = _VEHICLE.match(clause.strip())
    if not found:
        return
    made = any(w.casefold() in _MAKES for w in found.group("what").split())
    bare = found.group("verb").casefold() in ("drive", "ride", "own", "have", "have got", "lease")
    if bare and not made and not re.match(r"(?i:i\b|we\b)", clause.strip()):
        # without "I": news of getting one ("picked up a Skoda Fabia") or a make ("Drive a 2012
        # Vauxhall Corsa to get there"); "drive a hard bargain" is none
        return
    verb, what = " ".join(found.group("verb").casefold().split()), found.group("what")
    head = what.split()[-1].casefold()
    if verb not in ("drive", "ride") and head not in _VEHICLES and not made:
        return
    if verb in ("drive", "ride") and (head in STOPWORDS or head in ("lot", "bit", "way")):
        return
    if verb in ("drive", "ride") and (head in RELATIONS or head in KIDS or head in PETS):
        return  # "I drive my kids to school": who is driven, not the vehicle
    ridden = any(w.casefold() in _BIKE_MAKES for w in what.split())
    said = _THIRD.get(
        verb, "rides" if ridden else "drives" if made or head in ("car", "van", "suv") else "has"
    )
    changed = verb not in _THIRD or bool(re.search(r"\bnow\b", clause, re.IGNORECASE))
    yield Match("fact", "vehicle", what, f"User {said} {_a(what)}", 0.8, correction=changed)


_MY_VEHICLE = _compile(
    # (without "my" when the clause opens on it: "van is a 2017 ford transit")
    r"(?:my\s+|(?=(?:new\s+)?(?:car|van|bike|motorbike|scooter|truck)\s))(?:new\s+)?"
    r"(?P<kind>car|van|bike|motorbike|scooter|truck)\s+is\s+(?:now\s+)?(?:a|an)\s+"
    r"(?P<what>[\w'’-]+(?:\s+[\w'’-]+){0,3}?)\s*(?:[,.;!]|$|\s+(?:but|and|which|that|with|from)\b)"
)


def my_vehicle(clause: str) -> Iterator[Match]:
    """ "My car is a blue Ford Fiesta": what the user drives, by its make or kind."""
    found = _MY_VEHICLE.match(clause.strip())
    if not found:
        return
    kind, what = found.group("kind").casefold(), found.group("what")
    if (
        not any(w.casefold() in _MAKES for w in what.split())
        and what.split()[-1].casefold() != kind
    ):
        return  # "my car is a mess", "my bike is a bit rusty"
    said = "drives" if kind in ("car", "van", "truck") else "rides"
    yield Match("fact", "vehicle", what, f"User {said} {_a(what)}", 0.8, correction="new" in clause)
