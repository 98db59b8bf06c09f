"""Phrasings from the tenth batch of whole-chat scenarios (t99-t110), written before the rules
that read them: fears, how the user gets to work, a rented home, a diet gone back to, languages
listed after a comma, a relative's move said without "my"."""

from __future__ import annotations

import pytest

from desktop_agent.core.extraction import extract
from desktop_agent.core.extraction_grammar import KNOWN_PEOPLE
from tests.core.conftest import facts


@pytest.mark.parametrize(
    ("message", "key", "text"),
    [
        ("I'm terrified of flying, so I always take the train.", "fear:flying",
         "User is terrified of flying"),
        ("I have a phobia of spiders.", "fear:spider", "User is afraid of spiders"),
        ("Heights scare me to death.", "fear:height", "User is scared of heights"),
        ("I've always been afraid of deep water.", "fear:deep water",
         "User is afraid of deep water"),
    ],
)  # fmt: skip
def test_a_fear_is_its_own_slot(message: str, key: str, text: str) -> None:
    assert facts(message).get(key) == text


@pytest.mark.parametrize(
    "message", ["I'm scared of missing the train tomorrow.", "I'm afraid I can't come."]
)
def test_a_worry_of_the_day_or_a_politeness_is_no_fear(message: str) -> None:
    assert not [key for key in facts(message) if key.startswith("fear")]


@pytest.mark.parametrize(
    "message",
    [
        "I cycle to work every day, it's about 8 km along the canal.",
        "I hurt my ankle so I take the bus to work now.",
        "I walk to the office most days.",
        "I usually catch the tram to uni.",
        "I commute by train.",
    ],
)
def test_how_the_user_gets_to_work_is_one_slot(message: str) -> None:
    assert "routine:commute" in facts(message)


def test_a_new_way_to_work_replaces_the_old_one() -> None:
    (bus,) = [
        f for f in extract("I take the bus to work now.") if f.subject_key == "routine:commute"
    ]
    assert bus.is_correction


@pytest.mark.parametrize(
    "message",
    ["I drive my kids to school.", "I cycle every weekend.", "I take the train to Leeds."],
)
def test_the_school_run_and_other_trips_are_not_the_commute(message: str) -> None:
    found = facts(message)
    assert "routine:commute" not in found
    assert "vehicle" not in found  # "User drives a kids" was once learned from the first


@pytest.mark.parametrize(
    ("message", "city"),
    [
        ("We rent a tiny flat above a bakery in Bristol.", "Bristol"),
        ("I rent a room near the station in Leeds.", "Leeds"),
    ],
)
def test_a_rented_home_says_where_the_user_lives(message: str, city: str) -> None:
    assert facts(message).get("home_city") == f"User lives in {city}"


@pytest.mark.parametrize(
    "message",
    [
        "Update: I've gone back to being vegetarian, I missed cheese too much.",
        "I'm back to being vegetarian.",
    ],
)
def test_a_diet_gone_back_to(message: str) -> None:
    assert facts(message).get("diet") == "User is vegetarian"


def test_languages_listed_after_a_comma_and_one_picked_up() -> None:
    found = facts(
        "I grew up bilingual, Spanish and English, and I picked up some Portuguese at uni."
    )
    assert found.get("speaks:spanish") == "User speaks Spanish"
    assert found.get("speaks:english") == "User speaks English"
    assert found.get("learning:portuguese") == "User picked up some Portuguese at uni"
    assert facts("I'm fluent in German.").get("speaks:german") == "User speaks German"
    assert facts("I picked up the kids at five.") == {}


def test_a_second_verb_of_a_relative_says_whose_it_is() -> None:
    found = facts("My grandma Rosa is 94 and still lives on her own in Palermo.")
    assert (
        found.get("person:grandmother:home_city")
        == "User's grandma Rosa still lives on her own in Palermo"
    )


def test_a_relative_moved_into_a_home_in_a_city_said_without_my() -> None:
    token = KNOWN_PEOPLE.set({"rosa": "grandmother"})
    try:
        (moved,) = [
            f
            for f in extract("Grandma Rosa moved into a care home in Catania last week.")
            if f.subject_key == "person:grandmother:home_city"
        ]
    finally:
        KNOWN_PEOPLE.reset(token)
    assert moved.value == "Catania"
    assert moved.text.startswith("User's grandma Rosa moved into a care home in Catania")
    assert moved.is_correction


def test_twins_are_children() -> None:
    assert facts("We have twins, Otto and Greta.").get("children") == (
        "User has twins, Otto and Greta"
    )
