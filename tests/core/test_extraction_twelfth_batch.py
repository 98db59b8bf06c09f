"""Phrasings from the twelfth batch of whole-chat scenarios (t123-t134), written before the
rules that read them: devices and their replacements, a new person in a named slot, years in a
job, a duration that is no plan, pets named in a list, a relative's nationality and the town
near their village, what the user studied and the degrees they hold."""

from __future__ import annotations

import pytest

from desktop_agent.core.extraction import extract
from desktop_agent.core.extraction_grammar import KNOWN_PEOPLE
from tests.core.conftest import facts


@pytest.mark.parametrize(
    ("message", "key", "text", "replaces"),
    [
        ("My phone is an old iPhone 8, the battery barely lasts a day.", "device:phone",
         "User's phone is an old iPhone 8", False),
        ("Finally replaced my phone, I've got a Pixel 9 now.", "device:phone",
         "User's phone is a Pixel 9", True),
        ("I upgraded my laptop to a MacBook Air.", "device:laptop",
         "User's laptop is a MacBook Air", True),
        ("My new phone is a Samsung Galaxy S24.", "device:phone",
         "User's phone is a Samsung Galaxy S24", True),
    ],
)  # fmt: skip
def test_a_device_and_its_replacement(message: str, key: str, text: str, replaces: bool) -> None:
    (found,) = [f for f in extract(message) if f.subject_key == key]
    assert (found.text, found.is_correction) == (text, replaces)


@pytest.mark.parametrize(
    "message", ["My phone is broken.", "I replaced my phone screen last week."]
)
def test_a_device_named_by_no_make_is_no_device_fact(message: str) -> None:
    assert not [key for key in facts(message) if key.startswith("device")]


def test_a_new_person_in_a_slot_is_named_beside_the_old_ones_news() -> None:
    token = KNOWN_PEOPLE.set({"tobias": "flatmate"})
    try:
        found = [f for f in extract("Tobias moved out, my new flatmate is called Ines.")]
    finally:
        KNOWN_PEOPLE.reset(token)
    named = [f for f in found if f.subject_key == "name_of:flatmate"]
    assert [(f.value, f.is_correction) for f in named] == [("Ines", True)]


def test_years_in_a_job_are_the_job_and_no_plan() -> None:
    found = facts("I've been a hairdresser for twelve years, I run a small salon in Margate.")
    assert found.get("job", "").startswith("User works as a hairdresser")
    assert not [key for key in found if key.startswith("plan")]


@pytest.mark.parametrize(
    ("message", "key", "text"),
    [
        ("We have two spaniels, Bramble and Hazel.", "name_of:dogs",
         "User's dogs are called Bramble and Hazel (spaniels)"),
        ("I have two cats, Miso and Tofu.", "name_of:cats", "User's cats are called Miso and Tofu"),
        ("We live in Toronto, my wife is Canadian.", "person:wife:origin",
         "User's wife is Canadian"),
        ("My parents live in a village near Norwich.", "person:parents:home_city",
         "User's parents live in a village near Norwich"),
        ("I studied chemistry at Leeds and did a PhD in Manchester.", "studies",
         "User studied chemistry at Leeds"),
        ("I studied chemistry at Leeds and did a PhD in Manchester.", "degree:phd",
         "User did a PhD in Manchester"),
        ("I have a master's in law from Edinburgh.", "degree:masters",
         "User has a master's in law from Edinburgh"),
    ],
)  # fmt: skip
def test_the_twelfth_batch(message: str, key: str, text: str) -> None:
    assert facts(message).get(key) == text


def test_the_town_near_a_relatives_village_is_where_they_live() -> None:
    (home,) = [
        f
        for f in extract("My parents live in a village near Norwich.")
        if f.subject_key == "person:parents:home_city"
    ]
    assert home.value == "Norwich"


def test_studying_now_is_still_learning() -> None:
    assert facts("I'm studying law at UCL.").get("learning:law") == "User is studying law at UCL"
