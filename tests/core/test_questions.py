"""Which messages only ask, which ask about the user, and how facts are said back."""

from __future__ import annotations

import pytest

from desktop_agent.core.grounding import second_person
from desktop_agent.core.questions import about_user, asks_only


@pytest.mark.parametrize(
    "message",
    [
        "What is my name and which city do I live in?",
        "where do i live",
        "Hi! What's my sister's name?",
        "Can you remind me what I'm allergic to?",
        "Do I have any pets?",
    ],
)
def test_messages_that_only_ask(message: str) -> None:
    assert asks_only(message)


@pytest.mark.parametrize(
    "message",
    [
        "My name is Dana.",
        "I live in Ghent, do you know any bakeries there?",
        "What should I cook tonight? Keep in mind my peanut allergy",
        "Thanks!",
    ],
)
def test_messages_that_tell_something(message: str) -> None:
    assert not asks_only(message)


@pytest.mark.parametrize(
    ("message", "everything", "past"),
    [
        ("What am I allergic to?", False, False),
        ("Where do I live now?", False, False),
        ("What's my sister's name?", False, False),
        ("What do you know about me?", True, False),
        ("Who am I?", True, False),
        ("Where did I live before I moved?", False, True),
        ("What was my old job?", False, True),
        ("Do you remember my name?", False, False),
        ("What do I do for a living?", False, False),
    ],
)
def test_questions_about_the_user(message: str, everything: bool, past: bool) -> None:
    found = about_user(message)
    assert found is not None
    assert (found.everything, found.past) == (everything, past)


@pytest.mark.parametrize(
    "message",
    [
        "What is the capital of France?",
        "What should I cook tonight?",
        "How do I reverse a list in Python?",
        "Can you help me write an email to my boss?",
        "Tell me about living in Lisbon",
        "Do you know where I could buy shoes?",
        "My name is Dana.",
    ],
)
def test_other_messages_are_not_questions_about_the_user(message: str) -> None:
    assert about_user(message) is None


@pytest.mark.parametrize(
    ("fact", "said"),
    [
        ("User is allergic to peanuts", "You are allergic to peanuts"),
        ("User lives in Porto", "You live in Porto"),
        ("User's sister is called Ana", "Your sister is called Ana"),
        ("User does not eat pork", "You do not eat pork"),
        ("User has a dog called Pickle", "You have a dog called Pickle"),
        ("User watches films with User's sister", "You watch films with your sister"),
        ("User studies law", "You study law"),
        ("buy milk on Friday", "You told me: “buy milk on Friday”"),
        (
            "Every Sunday User plays cricket with User's cousins",
            "Every Sunday you play cricket with your cousins",
        ),
    ],
)
def test_facts_are_said_back_in_the_second_person(fact: str, said: str) -> None:
    assert second_person(fact) == said
