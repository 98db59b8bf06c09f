"""Phrasings from the seventeenth batch of whole-chat scenarios (t181-t193), written before the
rules that read them: two pets in one list, gym days switched, a phone named only by its make,
"now she's training to be a midwife", "what does Nadia do now?", "which herb do I hate?",
"which days do I work out?"."""

from __future__ import annotations

import pytest

from desktop_agent.core.assistant import Assistant
from desktop_agent.core.extraction_changes import Change, read
from desktop_agent.core.extraction_grammar import KNOWN_PEOPLE
from desktop_agent.core.revisions import redated
from tests.core.conftest import facts, told_then_asked


@pytest.mark.parametrize(
    ("message", "key", "text"),
    [
        ("We have a cat called Whiskers and a dog called Bruno.", "name_of:dog",
         "User's dog is named Bruno"),
        ("We have a cat called Whiskers and a dog called Bruno.", "name_of:cat",
         "User's cat is named Whiskers"),
        ("I finally upgraded to a Pixel 9.", "device:phone", "User's phone is a Pixel 9"),
        ("I switched to a Galaxy S24 last week.", "device:phone",
         "User's phone is a Galaxy S24"),
        ("My brother is training to be a pilot.", "person:brother:job",
         "User's brother is training to be a pilot"),
    ],
)  # fmt: skip
def test_the_seventeenth_batch(message: str, key: str, text: str) -> None:
    assert facts(message).get(key) == text


def test_a_new_phone_by_its_make_is_no_taste_for_it() -> None:
    assert not any(key.startswith("likes:") for key in facts("I switched to a Galaxy S24."))


def test_a_pronoun_after_now_is_the_persons() -> None:
    known = KNOWN_PEOPLE.set({"nadia": "sister"})
    try:
        found = facts("Nadia quit pharmacy and now she's training to be a midwife.")
    finally:
        KNOWN_PEOPLE.reset(known)
    assert found["person:sister:job"] == "User's sister Nadia is now training to be a midwife"


def test_switching_a_habits_days_moves_it_and_is_no_taste_for_the_day() -> None:
    message = "I've switched my gym days to Tuesdays and Thursdays."
    assert read(message) == [Change("redate", "gym", "Tuesdays and Thursdays", (0, 52))]
    assert not any(key.startswith("likes:") for key in facts(message))
    moved = redated("User goes to the gym on Mondays and Wednesdays", "Tuesdays and Thursdays")
    assert moved == "User goes to the gym on Tuesdays and Thursdays"


@pytest.mark.parametrize(
    ("told", "asked", "answer", "not_said"),
    [
        ("I go to the gym on Mondays and Wednesdays.|"
         "I've switched my gym days to Tuesdays and Thursdays.",
         "Which days do I work out?", "Tuesdays and Thursdays", "Monday"),
        ("My sister Nadia is a pharmacist in Glasgow.|"
         "Nadia quit pharmacy and now she's training to be a midwife.",
         "What does Nadia do now?", "midwife", "pharmacist"),
        ("I can't stand coriander, it tastes like soap to me.", "Which herb do I hate?",
         "coriander", "soap"),
        ("My phone is an old iPhone 8.|I finally upgraded to a Pixel 9.", "What phone do I have?",
         "Pixel 9", "iPhone"),
        ("We have a cat called Whiskers and a dog called Bruno.|Sadly Whiskers died last month.",
         "What pets do I have?", "Bruno", "Whiskers"),
    ],
)  # fmt: skip
def test_the_seventeenth_batchs_questions(
    assistant: Assistant, told: str, asked: str, answer: str, not_said: str
) -> None:
    reply = told_then_asked(assistant, told, asked)
    assert answer in reply and not_said not in reply
