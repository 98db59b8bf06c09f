"""Phrasings from the twenty-first batch of whole-chat scenarios (t229-t240), written before the
rules that read them: "vegetarian since I was 12" (no age of 12), a PhD's whole subject, born in
one place and raised in another, a child moved to a new school, renting and buying a home, "I
was a chef before I became a teacher"."""

from __future__ import annotations

import pytest

from desktop_agent.core.assistant import Assistant
from desktop_agent.core.extraction import extract
from desktop_agent.core.extraction_grammar import KNOWN_PEOPLE
from desktop_agent.core.questions import about_user
from tests.core.conftest import facts, told_then_asked


@pytest.mark.parametrize(
    ("message", "key", "text"),
    [
        ("I've been vegetarian since I was 12.", "diet",
         "User has been vegetarian since User was 12"),
        ("I have a PhD in marine biology from Plymouth.", "degree:phd",
         "User has a PhD in marine biology from Plymouth"),
        ("I was born in Nairobi but grew up in Leeds.", "origin:grew_up", "User grew up in Leeds"),
        ("I was born in Nairobi but grew up in Leeds.", "origin", "User was born in Nairobi"),
        ("I'm renting a flat in Leith.", "home_city", "User lives in Leith"),
        ("We've just bought a house in Portobello!", "home_city", "User lives in Portobello"),
        ("I was a chef for ten years before I became a teacher.", "job",
         "User works as a teacher"),
    ],
)  # fmt: skip
def test_the_twenty_first_batch(message: str, key: str, text: str) -> None:
    assert facts(message).get(key) == text


def test_an_age_long_past_is_no_age() -> None:
    assert "age" not in facts("I've been vegetarian since I was 12.")
    assert "age" not in facts("I was 12 when we moved.")
    assert facts("I'm 34.")["age"] == "User is 34 years old"


def test_what_the_user_was_is_the_past_of_the_slot() -> None:
    (chef,) = [f for f in extract("I was a chef before I became a teacher.") if f.past]
    assert (chef.subject_key, chef.text) == ("job", "User works as a chef")
    assert not [f for f in extract("I was a bit late today.") if f.subject_key == "job"]


def test_moving_a_child_to_a_school_is_their_school_not_the_users_home() -> None:
    known = KNOWN_PEOPLE.set({"isla": "daughter"})
    try:
        found = facts("We moved Isla to Greenfield Academy after half term.")
    finally:
        KNOWN_PEOPLE.reset(known)
    assert "home_city" not in found
    assert found["person:daughter:school"] == "User's daughter Isla goes to Greenfield Academy"


def test_growing_up_and_being_from_are_no_questions_about_the_past() -> None:
    for asked in ("Where did I grow up?", "Where am I originally from?"):
        question = about_user(asked)
        assert question is not None and not question.past, asked
    question = about_user("Where were we going to go originally?")
    assert question is not None and question.past


@pytest.mark.parametrize(
    ("told", "asked", "answer", "not_said"),
    [
        ("I've been vegetarian since I was 12.", "How long have I been vegetarian?",
         "since you were 12", "years old"),
        ("I was born in Nairobi but grew up in Leeds.", "Where did I grow up?", "Leeds",
         "earlier"),
        ("My daughter Isla goes to St Anne's Primary.|"
         "We moved Isla to Greenfield Academy after half term.",
         "Which school does Isla go to?", "Greenfield", "St Anne"),
        ("I was a chef for ten years before I became a teacher.",
         "What did I do before teaching?", "chef", "don't know"),
    ],
)  # fmt: skip
def test_the_twenty_first_batchs_questions(
    assistant: Assistant, told: str, asked: str, answer: str, not_said: str
) -> None:
    reply = told_then_asked(assistant, told, asked)
    assert answer in reply and not_said not in reply
