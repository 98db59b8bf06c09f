"""Phrasings from the eleventh batch of whole-chat scenarios (t111-t122), written before the
rules that read them: a membership cancelled, a habit said beside another clause, a count of
things owned, a relative's passion and wedding, a promotion, years spent in a city."""

from __future__ import annotations

import pytest

from desktop_agent.core.assistant import Assistant
from desktop_agent.core.extraction import extract
from desktop_agent.core.extraction_changes import read
from desktop_agent.core.grounding import second_person
from desktop_agent.core.memory_service import MemoryService
from tests.core.conftest import chat, facts


@pytest.mark.parametrize(
    ("message", "old"),
    [
        ("I cancelled the gym membership, I do yoga at home on Mondays now.", "gym"),
        ("I cancelled my Netflix subscription.", "Netflix"),
    ],
)
def test_a_cancelled_membership_ends_what_it_was_for(message: str, old: str) -> None:
    assert [(c.kind, c.old) for c in read(message)] == [("end", old)]


def test_cancelling_a_meeting_ends_nothing() -> None:
    assert read("I cancelled the meeting.") == []


def test_a_habit_says_only_its_own_clause() -> None:
    found = facts("I cancelled the gym membership, I do yoga at home on Mondays now.")
    assert found.get("routine:yoga") == "User does yoga at home on Mondays now"


def test_a_second_user_in_a_fact_agrees_with_you_too() -> None:
    said = second_person("User cancelled the gym, User does yoga on Mondays now")
    assert said == "You cancelled the gym, you do yoga on Mondays now"


@pytest.mark.parametrize(
    ("message", "key", "text"),
    [
        ("I've got about forty houseplants and a grumpy old cat named Mr Whiskers.",
         "have:houseplant", "User has about forty houseplants"),
        ("I have three bikes.", "have:bike", "User has three bikes"),
    ],
)  # fmt: skip
def test_how_many_of_something_the_user_has(message: str, key: str, text: str) -> None:
    assert facts(message).get(key) == text


def test_kids_are_still_children_not_a_count() -> None:
    assert "have:kid" not in facts("I have two kids.")


@pytest.mark.parametrize(
    ("message", "key", "text"),
    [
        ("My son Leo turns five next month and he's obsessed with dinosaurs.",
         "person:son:likes:dinosaur", "User's son Leo is obsessed with dinosaurs"),
        ("My dad is mad about golf.", "person:father:likes:golf", "User's dad is mad about golf"),
    ],
)  # fmt: skip
def test_a_relatives_passion(message: str, key: str, text: str) -> None:
    assert facts(message).get(key) == text


def test_a_relative_getting_married_on_a_date_is_their_plan() -> None:
    (plan,) = [
        f
        for f in extract("My sister Hannah is getting married on the 6th of September in York.")
        if f.subject_key.startswith("person:sister:plan:")
    ]
    assert plan.text.startswith("User's sister Hannah is getting married on the 6th of September")


@pytest.mark.parametrize(
    ("message", "job"),
    [
        ("Good news, I got promoted to senior developer!", "senior developer"),
        ("I was promoted to head chef last week.", "head chef"),
    ],
)
def test_a_promotion_is_the_new_job(message: str, job: str) -> None:
    (fact,) = [f for f in extract(message) if f.subject_key == "job"]
    assert fact.text == f"User works as a {job}"
    assert fact.is_correction


def test_years_in_a_city_say_where_the_user_lives() -> None:
    found = facts("I'm originally from Cork but I've been in Dublin for six years.")
    assert found.get("home_city") == "User lives in Dublin"
    assert found.get("origin") == "User is from Cork"
    assert "home_city" not in facts("i've been in bed for two days")


def test_a_promotion_keeps_the_workplace_of_the_job_it_replaces(
    assistant: Assistant, memory: MemoryService
) -> None:
    chat(assistant, assistant.start_conversation(), "I'm a junior developer at Ledgerly.")
    chat(
        assistant, assistant.start_conversation(), "Good news, I got promoted to senior developer!"
    )

    jobs = [i.text for i in memory.active_facts() if i.subject_key == "job"]
    assert jobs == ["User works as a senior developer at Ledgerly"]
