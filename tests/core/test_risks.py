"""What a remembered risk rules out, and which replies break it (cases written before the rules)."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from desktop_agent.core.memory_model import MemoryItem
from desktop_agent.core.risks import relevant_risks, risks_of, violations


def fact(text: str, type: str = "fact") -> MemoryItem:
    now = datetime.now(UTC)
    return MemoryItem(
        id=text, kind="semantic", text=text, created_at=now, updated_at=now, type=type
    )


PEANUTS = risks_of([fact("User is allergic to peanuts", "risk")])
VEGETARIAN = risks_of([fact("User is vegetarian")])
PORK = risks_of([fact("User does not eat pork")])


@pytest.mark.parametrize(
    "reply",
    [
        "Try peanut butter sandwiches.",
        "If you're allergic to peanuts, the best way to cook is usually peanut butter.",
        "A chicken satay with rice is quick.",
        "Make a Thai noodle salad topped with crushed peanuts.",
        "No peanuts in the sauce, but add peanut butter to the dressing.",
        "Skip the satay and have peanut noodles.",
    ],
)
def test_replies_that_recommend_the_allergen_break_the_risk(reply: str) -> None:
    assert violations(reply, PEANUTS) == PEANUTS


@pytest.mark.parametrize(
    "reply",
    [
        "A peanut-free stir fry with tofu.",
        "Since you're allergic to peanuts, try a lentil curry.",
        "Make pad thai without peanuts.",
        "Roast vegetables with rice; no peanuts at all.",
        "- Avoid using peanut butter or peanuts for any dish",
        "Pasta with tomato sauce and basil.",
    ],
)
def test_replies_that_exclude_it_or_never_name_it_are_fine(reply: str) -> None:
    assert violations(reply, PEANUTS) == []


def test_diets_rule_out_what_they_exclude() -> None:
    assert violations("Grill some chicken thighs.", VEGETARIAN) == VEGETARIAN
    assert violations("A bean chili, no meat.", VEGETARIAN) == []
    assert violations("Bacon and eggs!", PORK) == PORK
    assert violations("Eggs on toast.", PORK) == []


def test_a_risk_matters_for_the_requests_it_concerns() -> None:
    drugs = risks_of([fact("User is allergic to penicillin", "risk")])
    assert relevant_risks("What should I cook tonight?", PEANUTS) == PEANUTS
    assert relevant_risks("Write a haiku about autumn", PEANUTS) == []
    assert relevant_risks("What should I cook tonight?", drugs) == []
    assert relevant_risks("Which antibiotic is usually given for strep?", drugs) == drugs


def test_diabetes_rules_out_sugary_suggestions_and_a_taken_back_risk_nothing() -> None:
    (diabetes,) = risks_of([fact("User has diabetes", "risk")])
    assert violations("Try a slice of chocolate cake with ice cream.", [diabetes])
    assert not violations("Try fresh berries with plain yoghurt.", [diabetes])
    taken_back = [fact("User is not allergic to cats", "risk"), fact("User does not have diabetes")]
    assert risks_of(taken_back) == []


@pytest.mark.parametrize(
    "told",
    ["User is pregnant", "User does not drink alcohol", "User is off alcohol", "User is sober"],
)
def test_pregnancy_and_not_drinking_rule_out_alcoholic_drinks(told: str) -> None:
    risks = risks_of([fact(told, "risk")])
    assert len(risks) == 1
    asked = "Can you recommend a cocktail for Friday night?"
    assert relevant_risks(asked, risks) == risks
    assert violations("Try a classic margarita, or a glass of prosecco.", risks) == risks
    assert violations("Try a virgin mojito without alcohol.", risks) == []
