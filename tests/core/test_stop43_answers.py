"""Stop 43: a move told by what happened to the old home, a pet named before its breed in
brackets, and a service that ended before the one that came."""

from __future__ import annotations

import pytest

from desktop_agent.core.assistant import Assistant
from tests.core.conftest import facts, said_in_turn


@pytest.mark.parametrize(
    ("message", "home"),
    [
        (
            "ugh. the landlord sold the house out from under us, gave us two months notice. "
            "after a mad scramble we're now in Gorgie, near the stadium.",
            "Gorgie",
        ),
        ("our tenancy ended in march. I'm now in Headingley, much closer to work", "Headingley"),
    ],
)
def test_a_new_home_told_after_losing_the_old_one(message: str, home: str) -> None:
    assert facts(message).get("home_city") == f"User lives in {home}"


@pytest.mark.parametrize(
    "message",
    [
        "we're now in Lisbon for the week, the rent a car place was shut",
        "the landlord fixed the boiler at last. I'm now in Bristol visiting mum",
    ],
)
def test_a_visit_beside_housing_words_is_no_new_home(message: str) -> None:
    assert "home_city" not in facts(message)


def test_a_pet_named_before_its_breed_in_brackets() -> None:
    found = facts("Pickle (my cocker spaniel) is the only one who likes the van")
    assert found.get("name_of:dog") == "User's cocker spaniel is named Pickle"


def test_what_came_after_a_service_that_ended_answers_what_is_used_now(
    assistant: Assistant,
) -> None:
    told = [
        ["for music streaming I've got Spotify Family that I split with my sister Ines"],
        ["so Ines got her own account and we killed the Spotify Family plan. I've gone over "
         "to Tidal, it came free with my phone contract"],
    ]  # fmt: skip
    reply = said_in_turn(assistant, told, "What do I use for music streaming these days?")
    assert "Tidal" in reply and "Spotify" not in reply, reply


def test_a_change_to_a_quote_found_by_its_meaning_is_found_too(meaning: Assistant) -> None:
    # (no word of the question is in the quote, so none of its clauses was "on" it)
    told = [
        [
            "sorting my subscriptions: Disney+, Spotify Family that I split with my sister "
            "Ines, and Audible",
            "honestly spotify is the one I use the most, audiobooks on the train every day",
        ],
        ["so Ines got her own account and we killed the Spotify Family plan. I've gone over "
         "to Tidal, it came free with my phone contract"],
    ]  # fmt: skip
    reply = said_in_turn(meaning, told, "What do I use for music streaming these days?")
    assert "Tidal" in reply and "Spotify" not in reply, reply


def test_an_ending_that_says_what_came_is_not_passed_over_for_the_sentence_after(
    assistant: Assistant,
) -> None:
    told = [
        ["Planning our anniversary trip! We're going to Seville for 5 nights in May."],
        ["change of plans - Seville hotels were way too pricey so we booked Valencia instead. "
         "still May, just 4 nights now"],
    ]  # fmt: skip
    reply = said_in_turn(assistant, told, "where are we going for our anniversary?")
    assert "Valencia" in reply, reply


def test_an_ex_boyfriends_name_is_not_the_users_own(assistant: Assistant) -> None:
    told = [["My name is Dana. I live in Porto."]]
    reply = said_in_turn(assistant, told, "what was my ex-boyfriend's name?")
    assert "Dana" not in reply, reply


def test_an_ex_boyfriends_name_is_the_boyfriend_before_the_break_up(assistant: Assistant) -> None:
    told = [["My name is Dana. My boyfriend is Tom."], ["Tom and I broke up, I'm single now"]]
    reply = said_in_turn(assistant, told, "what was my ex-boyfriend's name?")
    assert "Tom" in reply and "Dana" not in reply, reply
