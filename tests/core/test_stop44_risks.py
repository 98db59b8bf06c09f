"""Risks, stop 44 (cases written before the rules).

A reply that says a remembered risk is not so ("The user has no allergies to peanuts") breaks it
as much as one that recommends the allergen. Found in the `gui --screenshot` sample chat: the
bundled model said exactly that beside the remembered peanut allergy, and no warning was added.
Looking into it: "i've got a bad shellfish allergy" was not learned, and a remembered "peanut
allergy" (a note, "User has a peanut allergy") ruled nothing out."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import UTC, datetime

import pytest

from desktop_agent.core.assistant import Assistant
from desktop_agent.core.memory_model import MemoryItem
from desktop_agent.core.memory_service import MemoryService
from desktop_agent.core.risks import denials, risks_of
from desktop_agent.llm import GenerationSettings
from tests.core.conftest import chat, replying_in_turn


def fact(text: str, subject_key: str = "") -> MemoryItem:
    now = datetime.now(UTC)
    return MemoryItem(
        id=text,
        kind="semantic",
        text=text,
        created_at=now,
        updated_at=now,
        type="risk",
        subject_key=subject_key,
    )


PEANUTS = risks_of([fact("User is allergic to peanuts")])
VEGAN = risks_of([fact("User is vegan")])
HEIGHTS = risks_of([fact("User is afraid of heights", "fear:heights")])
LACTOSE = risks_of([fact("User is lactose intolerant")])


@pytest.mark.parametrize(
    "reply",
    [
        "The user has no allergies to peanuts.",
        "Good news: you're not allergic to peanuts, so a satay works.",
        "You don't have any allergies, so anything goes!",
        "Since you have no known allergies, try a Thai curry.",
        "You are not allergic to peanuts at all.",
    ],
)
def test_a_reply_denying_the_allergy_contradicts_it(reply: str) -> None:
    assert denials(reply, PEANUTS) == PEANUTS


@pytest.mark.parametrize(
    "reply",
    [
        "Since you're allergic to peanuts, try a lentil curry.",
        "A peanut-free stir fry; no peanuts at all.",
        "You have no other allergies I know of, so a lentil curry is fine.",
        "This dish has no allergens besides sesame.",
        "Your friend is not allergic to peanuts, but you are, so skip the satay.",
        "Pasta with tomato sauce.",
    ],
)
def test_a_reply_keeping_the_allergy_does_not(reply: str) -> None:
    assert denials(reply, PEANUTS) == []


def test_diets_intolerances_and_fears_are_denied_too() -> None:
    assert denials("Since you're not vegan, grill a steak.", VEGAN) == VEGAN
    assert denials("You aren't vegan anymore, right?", VEGAN) == VEGAN
    assert denials("As a vegan, try the tofu.", VEGAN) == []
    assert denials("You're not lactose intolerant, so have the cheese.", LACTOSE) == LACTOSE
    assert denials("You are not afraid of heights, so try the zip line!", HEIGHTS) == HEIGHTS
    assert denials("Since you're afraid of heights, stay on the ground.", HEIGHTS) == []


def _cook(memory: MemoryService, replies: Sequence[str], message: str) -> tuple[str, list[str]]:
    memory.remember("User is allergic to peanuts", type="risk", subject_key="allergy:peanut")
    engine, systems = replying_in_turn(replies)
    assistant = Assistant(engine, GenerationSettings(), memory=memory)
    return chat(assistant, assistant.start_conversation(), message).text, systems


def test_a_denying_reply_is_regenerated_with_the_risk_stated(memory: MemoryService) -> None:
    text, systems = _cook(
        memory,
        [
            "The user has no allergies to peanuts. Try a stir fry.",
            "Since you're allergic to peanuts, try a lentil curry.",
        ],
        "What should I cook tonight? Keep in mind my peanut allergy.",
    )
    assert text == "Since you're allergic to peanuts, try a lentil curry."
    assert len(systems) == 2 and "allergic to peanuts" in systems[1].split("\n\n")[0]


def test_a_reply_still_denying_it_gets_a_warning_saying_so(memory: MemoryService) -> None:
    text, _ = _cook(
        memory,
        ["The user has no allergies to peanuts."],
        "What should I cook tonight? Keep in mind my peanut allergy.",
    )
    assert text.startswith("The user has no allergies to peanuts.")
    assert text.splitlines()[-1] == (
        "⚠ Careful: you are allergic to peanuts, and this reply says otherwise."
    )


def test_a_streamed_reply_denying_a_risk_outside_food_gets_the_warning(
    memory: MemoryService,
) -> None:
    # not a request the risk matters for, so the reply streams; the warning follows it
    text, systems = _cook(
        memory, ["You have no allergies, so you're all set for the trip!"], "any tips for packing?"
    )
    assert len(systems) == 1
    assert text.startswith("You have no allergies, so you're all set for the trip!")
    assert text.splitlines()[-1] == (
        "⚠ Careful: you are allergic to peanuts, and this reply says otherwise."
    )
    plain, _ = _cook(memory, ["Yes, you're all set for the trip!"], "any tips for packing?")
    assert plain == "Yes, you're all set for the trip!"


@pytest.mark.parametrize(
    ("told", "allergen"),
    [
        ("i've got a bad shellfish allergy", "shellfish"),
        ("I have got a mild penicillin allergy", "penicillin"),
        ("i have a peanut allergy", "peanut"),
    ],
)
def test_an_allergy_told_with_got_is_learned(told: str, allergen: str) -> None:
    from tests.core.conftest import facts

    assert facts(told) == {f"allergy:{allergen}": f"User is allergic to {allergen}"}


@pytest.mark.parametrize(
    ("remembered", "ruled_out"),
    [
        ('User asked to remember: "my peanut allergy"', "peanuts"),
        ("User has a severe shellfish allergy", "prawns"),
        ("User has a tree nut allergy", "cashew"),
    ],
)
def test_an_allergy_named_before_the_word_rules_out_the_allergen(
    remembered: str, ruled_out: str
) -> None:
    risks = risks_of([fact(remembered)])
    assert len(risks) == 1 and ruled_out in risks[0].terms
    assert risks_of([fact("User has no allergies")]) == []
