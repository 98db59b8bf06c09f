"""The patterns behind ``extraction``: each rule reads one clause that starts at its subject.

A rule is a function from a clause ("I really love hiking in the mountains") to matches. Clauses
arrive with discourse markers ("actually", "no,") already stripped, so every pattern is anchored
at the start: "the assistant said I like coffee" never matches "I like".

The rules live by noun (who the user is, their people, health and diet, work, vehicles) and the
phrases they share in ``extraction_phrases``; this module gathers them into ``RULES``, in the
order ``extraction`` tries them, and keeps the shared helpers importable from here.
"""

from __future__ import annotations

from desktop_agent.core.extraction_health import allergy, condition, diet, medication
from desktop_agent.core.extraction_phrases import (
    _OBJECT_END,
    ADVERBS,
    I_AM,
    Match,
    Rule,
    _a,
    _compile,
    _object,
    _objects,
    _slug,
    normalise_object,
    proper_noun,
    third_singular,
)
from desktop_agent.core.extraction_profile import (
    age,
    birthday,
    city_resident,
    home,
    home_in_dwelling,
    home_now,
    languages,
    name,
    new_home,
    nickname,
    origin,
    partner_now,
)
from desktop_agent.core.extraction_relations import (
    _NOT_NAMES,
    _RELATIONS,
    kin_lives_in,
    kin_moved_to,
    relation_name,
    reports_to,
    school,
    shared_home,
)
from desktop_agent.core.extraction_vehicles import vehicle
from desktop_agent.core.extraction_work import (
    _JOBS,
    _job_phrase,
    course,
    degree,
    employer,
    for_a_living,
    freelance,
    job,
    joined,
    new_role,
    not_working,
    studying,
    work_done_for,
)

# Each clause is tried against these in order, and their facts come out in this order.
RULES: list[Rule] = [
    # who the user is
    name,
    nickname,
    home,
    home_in_dwelling,
    home_now,
    city_resident,
    new_home,
    partner_now,
    origin,
    age,
    birthday,
    # the user's people
    relation_name,
    reports_to,
    school,
    shared_home,
    kin_lives_in,
    kin_moved_to,
    languages,
    # health and diet: risks a reply must respect
    allergy,
    condition,
    medication,
    diet,
    # work
    job,
    for_a_living,
    not_working,
    freelance,
    joined,
    new_role,
    employer,
    work_done_for,
    degree,
    course,
    studying,
    # what the user gets about in
    vehicle,
]


def rule(function: Rule) -> Rule:
    """Add ``function`` to the end of ``RULES``."""
    RULES.append(function)
    return function


__all__ = [
    "ADVERBS",
    "I_AM",
    "RULES",
    "_JOBS",
    "_NOT_NAMES",
    "_OBJECT_END",
    "_RELATIONS",
    "Match",
    "Rule",
    "_a",
    "_compile",
    "_job_phrase",
    "_object",
    "_objects",
    "_slug",
    "age",
    "allergy",
    "birthday",
    "condition",
    "diet",
    "employer",
    "for_a_living",
    "home",
    "home_now",
    "job",
    "joined",
    "languages",
    "medication",
    "name",
    "normalise_object",
    "not_working",
    "origin",
    "partner_now",
    "proper_noun",
    "relation_name",
    "reports_to",
    "rule",
    "school",
    "shared_home",
    "third_singular",
    "vehicle",
    "work_done_for",
]
