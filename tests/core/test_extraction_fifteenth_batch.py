"""Phrasings from the fifteenth batch of whole-chat scenarios (t159-t168), written before the
rules that read them: how the user takes a drink, a goal replaced, a commute said with "these
days" (and misparsed), "how do I commute?"."""

from __future__ import annotations

import pytest

from desktop_agent.core.extraction import extract
from desktop_agent.core.questions import about_user


def found(message: str, key: str) -> tuple[str, bool]:
    (fact,) = [f for f in extract(message) if f.subject_key == key]
    return fact.text, fact.is_correction


@pytest.mark.parametrize(
    ("message", "key", "text", "replaces"),
    [
        ("I take my coffee with two sugars.", "how:coffee",
         "User takes their coffee with two sugars", False),
        ("I've cut out sugar, I have my coffee black now.", "how:coffee",
         "User has their coffee black", True),
        ("My goal is to run a marathon in under four hours.", "goal:main",
         "User's goal is to run a marathon in under four hours", False),
        ("I've changed my goal, I just want to finish a half marathon this year.", "goal:main",
         "User's goal is now to finish a half marathon this year", True),
        ("My new goal is to swim a mile.", "goal:main", "User's goal is now to swim a mile", True),
        ("These days I get the train to work instead, I can read on it.", "routine:commute",
         "These days User gets the train to work instead", True),
    ],
)  # fmt: skip
def test_the_fifteenth_batch(message: str, key: str, text: str, replaces: bool) -> None:
    assert found(message, key) == (text, replaces)


def test_a_bus_into_town_is_no_commute_and_goals_plural_are_not_the_goal() -> None:
    keys = {f.subject_key for f in extract("I get the bus to town on Saturdays.")}
    assert "routine:commute" not in keys
    assert "goal:main" not in {f.subject_key for f in extract("My goals are to travel more.")}


def test_how_do_i_commute_is_about_the_user() -> None:
    assert about_user("How do I commute?") is not None
