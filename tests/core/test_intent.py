"""Perceive: the kind of each user message."""

from __future__ import annotations

import pytest

from desktop_agent.core.intent import Intent, perceive


@pytest.mark.parametrize(
    ("message", "kind"),
    [
        ("What is my name?", "question"),
        ("where do I live", "question"),
        ("Is it going to rain tomorrow?", "question"),
        ("I love hiking in the Alps", "preference"),
        ("I can't stand loud music", "preference"),
        ("remind me to call mom", "task"),
        ("Write a short poem about autumn", "task"),
        ("I need to finish the report by Friday", "task"),
        ("Great idea, now write a haiku about it", "task"),
        ("My name is Ana", "statement"),
        ("I think so", "statement"),
        ("I like that idea", "statement"),
    ],
)
def test_kinds(message: str, kind: str) -> None:
    assert perceive(message).kind == kind


@pytest.mark.parametrize(
    ("message", "positive"),
    [
        ("thanks, that worked", True),
        ("Thank you!", True),
        ("Perfect, that is exactly what I needed", True),
        ("that's wrong", False),
        ("No, that's not what I asked", False),
        ("it didn't work", False),
    ],
)
def test_feedback_has_a_polarity(message: str, positive: bool) -> None:
    assert perceive(message) == Intent("feedback", positive=positive)


def test_a_question_about_correctness_is_not_feedback() -> None:
    assert perceive("Is that right?").kind == "question"


@pytest.mark.parametrize(
    ("message", "command", "argument"),
    [
        ("/remember I take my coffee black", "remember", "I take my coffee black"),
        ("/forget my old address", "forget", "my old address"),
        ("/FORGET", "forget", ""),
        ("forget that I live in Lisbon", "forget", "I live in Lisbon"),
        ("Please forget about my ex.", "forget", "my ex"),
    ],
)
def test_commands(message: str, command: str, argument: str) -> None:
    assert perceive(message) == Intent("command", command=command, argument=argument)
