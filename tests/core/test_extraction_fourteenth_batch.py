"""Phrasings from the fourteenth batch of whole-chat scenarios (t147-t158, corrections),
written before the rules that read them: a pet's breed and its correction, a habit given up,
a new niece or nephew; and a yes/no question answered by a gerund ("do I smoke?")."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from desktop_agent.core.extraction import extract
from desktop_agent.core.extraction_grammar import KNOWN_PEOPLE
from desktop_agent.core.grounding import select_facts
from desktop_agent.core.memory_changes import listed
from desktop_agent.core.memory_model import MemoryItem
from desktop_agent.core.questions import about_user
from tests.core.conftest import facts


def test_a_pets_breed_and_its_correction_share_a_slot() -> None:
    assert facts("Our dog Pepper is a border collie.").get("person:dog:breed") == (
        "User's dog Pepper is a border collie"
    )
    token = KNOWN_PEOPLE.set({"pepper": "dog"})
    try:
        (fixed,) = [
            f
            for f in extract("I got that wrong before, Pepper is actually a whippet.")
            if f.subject_key == "person:dog:breed"
        ]
    finally:
        KNOWN_PEOPLE.reset(token)
    assert (fixed.value, fixed.is_correction) == ("whippet", True)


@pytest.mark.parametrize("message", ["My dog is a good boy.", "My cat is a menace."])
def test_what_a_pet_is_without_being_a_breed(message: str) -> None:
    assert not [key for key in facts(message) if key.endswith(":breed")]


@pytest.mark.parametrize(
    ("message", "key"),
    [
        ("Six months smoke-free today! I quit smoking completely.", "routine:smoke"),
        ("I quit vaping.", "routine:vape"),
        ("I gave up running after my knee op.", "routine:run"),
    ],
)
def test_a_habit_given_up_ends_its_routine(message: str, key: str) -> None:
    (ended,) = [f for f in extract(message) if f.subject_key == key]
    assert ended.is_correction and ended.text.startswith("User gave up")


def test_a_new_baby_in_the_family_is_named_with_whose_it_is() -> None:
    found = facts("My sister Leila just had a baby girl called Maryam.")
    assert found.get("name_of:niece") == (
        "User's niece (the baby of User's sister Leila) is named Maryam"
    )
    assert found.get("name_of:sister") == "User's sister is named Leila"
    assert facts("My brother and his wife had a boy, Theo.").get("name_of:nephew")


def test_do_i_smoke_is_answered_by_the_habit_given_up() -> None:
    now = datetime.now(UTC)
    items = [
        MemoryItem(id=key, kind="semantic", text=text, created_at=now, updated_at=now,
                   subject_key=key)
        for key, text in (("routine:smoke", "User gave up smoking completely"),
                          ("job", "User works as a nurse"))
    ]  # fmt: skip
    question = about_user("Do I smoke?")
    assert question is not None
    assert [r.item.id for r in select_facts(question, [listed(i) for i in items])] == [
        "routine:smoke"
    ]
