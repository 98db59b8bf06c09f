"""Shapes seen in stop 42, worded apart from the tuning and blind scenarios."""

from __future__ import annotations

import pytest

from desktop_agent.core.assistant import Assistant
from desktop_agent.core.quote_now import said_as_now
from tests.core.conftest import said_in_turn


@pytest.mark.parametrize(
    ("sentence", "earlier", "asked", "now", "old"),
    [
        # "swapped X for Y", "traded X for Y": Y is so now
        (
            "we swapped tuesday for wednesday because his gran is free then",
            "Rohan does Tuesday and Friday at Sunbeams nursery",
            "which days is Rohan at nursery?",
            "wednesday",
            "tuesday",
        ),
        (
            "traded the Corsa for a Skoda Fabia estate last weekend",
            "my car is a Vauxhall Corsa",
            "what car do I drive?",
            "Fabia",
            "Corsa",
        ),
    ],
)
def test_a_swap_is_quoted_as_what_came_in(
    sentence: str, earlier: str, asked: str, now: str, old: str
) -> None:
    said = said_as_now(sentence, earlier, asked)
    assert now in said and old not in said, said


@pytest.fixture
def assistant(meaning: Assistant) -> Assistant:
    """With the app's real embedder: which sentence is quoted leans on nearness in meaning."""
    return meaning


def test_a_change_to_another_persons_plans_is_no_news_of_this_one(assistant: Assistant) -> None:
    told = [
        [
            "Busy term ahead. Priya starts Year 3 at Hillside, her teacher is Mr Adebayo and "
            "pickup is at 3pm. Rohan does two days at Sunbeams nursery, Tuesday and Friday."
        ],
        ["change of plan for rohan, we swapped tuesday for wednesday since his gran is free then"],
    ]
    reply = said_in_turn(assistant, told, "Who's Priya's teacher?")
    assert "Adebayo" in reply and "wednesday" not in reply.casefold(), reply


def test_days_said_short_answer_which_days(assistant: Assistant) -> None:
    told = [
        ["Kit goes to holiday club on Monday, Tuesday and Friday, drop off at 8"],
        ["change to kit's club days, we swapped monday for thursday. so its tue, thu, fri"],
    ]
    reply = said_in_turn(assistant, told, "Which days does Kit go to holiday club?")
    # (the days said short only in the sentence after the change)
    assert "tue, thu, fri" in reply and "monday" not in reply.casefold(), reply


def test_the_pets_vet_is_the_households(assistant: Assistant) -> None:
    told = [["we got a puppy!! a cocker spaniel called Bramble. her vet is Dr. Haines at Oakfield"]]
    reply = said_in_turn(assistant, told, "who's the dog's vet?")
    assert "Haines" in reply, reply


def test_an_ending_then_what_came_instead_quotes_what_came(assistant: Assistant) -> None:
    told = [
        ["my current account is with natwest, wages land on the 25th"],
        [
            "no longer with natwest!! moved it all over to starling last month, the switch "
            "service did the direct debits"
        ],
    ]
    reply = said_in_turn(assistant, told, "which bank is my current account with now?")
    assert "starling" in reply and "natwest" not in reply.casefold(), reply
