"""Phrasings from the twenty-third batch of whole-chat scenarios (t255-t268), written before the
rules that read them, mostly corrections: a move to another shop is a new employer, "I meant the
6th floor", a partner split from and someone new, "we lived in Hong Kong when I was a kid", "I
moved from Manchester to Bath", a pet that is another species, a car resprayed, a class's day.
And the risk lines say the memory to the user ("you don't eat pork")."""

from __future__ import annotations

import pytest

from desktop_agent.core.assistant import Assistant
from desktop_agent.core.extraction import extract
from desktop_agent.core.extraction_changes import read
from tests.core.conftest import facts, told_then_asked


@pytest.mark.parametrize(
    ("message", "key", "text"),
    [
        ("Actually I've moved to Sainsbury's, started on Monday.", "employer",
         "User works at Sainsbury's"),
        ("My flat is on the 4th floor, no lift.", "home:floor",
         "User's flat is on the 4th floor"),
        ("I'm seeing someone called Theo now.", "name_of:partner",
         "User's partner is named Theo"),
        ("We lived in Hong Kong for five years when I was a kid.", "origin:grew_up",
         "User grew up in Hong Kong"),
        ("My yoga class is on Tuesday evenings.", "routine:yoga",
         "User's yoga class is on Tuesday evenings"),
    ],
)  # fmt: skip
def test_the_twenty_third_batch(message: str, key: str, text: str) -> None:
    assert facts(message).get(key) == text


def test_a_shop_moved_to_is_no_home() -> None:
    assert "home_city" not in facts("Actually I've moved to Sainsbury's, started on Monday.")
    assert facts("I've moved to Leeds.")["home_city"] == "User lives in Leeds"


def test_moving_from_one_place_to_another_keeps_the_first_as_the_past() -> None:
    found = extract("I moved from Manchester to Bath last spring.")
    assert {(f.subject_key, f.text, f.past) for f in found} >= {
        ("home_city", "User lives in Manchester", True),
        ("home_city", "User lives in Bath", False),
    }


@pytest.mark.parametrize(
    ("message", "kind", "old", "new"),
    [
        ("Oops, I meant the 6th floor.", "replace", "floor", "6th floor"),
        ("Sorry, Biscuit is actually a guinea pig, not a hamster.", "replace", "hamster",
         "guinea pig"),
        ("We had the Focus resprayed blue.", "replace", "Focus", "blue Focus"),
        ("Liam and I split up in the spring.", "end", "partner", ""),
    ],
)  # fmt: skip
def test_the_twenty_third_batchs_changes(message: str, kind: str, old: str, new: str) -> None:
    assert (kind, old, new) in [(c.kind, c.old, c.new) for c in read(message)]


def test_a_pet_said_to_be_another_species_is_no_breed() -> None:
    assert "person:hamster:breed" not in facts(
        "Sorry, Biscuit is actually a guinea pig, not a hamster."
    )


@pytest.mark.parametrize(
    ("told", "asked", "answer", "not_said"),
    [
        ("I work at Tesco on the tills.|Actually I've moved to Sainsbury's, started on Monday.",
         "Where do I work?", "Sainsbury", "Tesco"),
        ("My flat is on the 4th floor, no lift.|Oops, I meant the 6th floor.",
         "Which floor is my flat on?", "6th", "4th"),
        ("My boyfriend is called Liam.|"
         "Liam and I split up in the spring. I'm seeing someone called Theo now.",
         "Who am I dating?", "Theo", "Liam"),
        ("We lived in Hong Kong for five years when I was a kid.",
         "Where did I live as a child?", "Hong Kong", "don't know"),
        ("I moved from Manchester to Bath last spring.", "Where did I live before Bath?",
         "Manchester", "nothing earlier"),
        ("Our hamster is called Biscuit.|Sorry, Biscuit is actually a guinea pig, not a hamster.",
         "What kind of pet is Biscuit?", "guinea pig", "hamster"),
        ("I drive a silver Ford Focus.|We had the Focus resprayed blue.",
         "What colour is my car?", "blue", "silver"),
        ("My yoga class is on Tuesday evenings.|They've moved yoga to Thursdays.",
         "When is my yoga class?", "Thursday", "Tuesday"),
    ],
)  # fmt: skip
def test_the_twenty_third_batchs_questions(
    assistant: Assistant, told: str, asked: str, answer: str, not_said: str
) -> None:
    reply = told_then_asked(assistant, told, asked)
    assert answer in reply and not_said not in reply


def test_a_class_moved_to_another_day_keeps_its_time_of_day() -> None:
    from desktop_agent.core.revisions import redated

    moved = redated("User's yoga class is on Tuesday evenings", "Thursdays", resolve=False)
    assert moved == "User's yoga class is on Thursday evenings"
    assert redated("User swims on Mondays", "Fridays", resolve=False) == "User swims on Fridays"


def test_the_risk_line_says_the_memory_to_the_user() -> None:
    from datetime import UTC, datetime

    from desktop_agent.core.memory_model import MemoryItem
    from desktop_agent.core.risks import risks_of, warning

    now = datetime.now(UTC)
    pork = MemoryItem(id="m1", kind="semantic", text="User does not eat pork", created_at=now,
                      updated_at=now, type="risk", subject_key="diet")  # fmt: skip
    line = warning(risks_of([pork]))
    assert (
        line == "⚠ Careful: you don't eat pork, and this reply suggests something you should avoid."
    )
