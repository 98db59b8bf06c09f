"""Phrasings from the twenty-second batch of whole-chat scenarios (t241-t254), written before the
rules that read them, mostly corrections and the past: a favourite "gone off" for "it's all X
for me", an entry upgraded to the full marathon, "just turned 35", "before I moved to Glasgow I
lived in Dundee", "I retired after 30 years as a postman", a birthday put right."""

from __future__ import annotations

import pytest

from desktop_agent.core.assistant import Assistant
from desktop_agent.core.extraction import extract
from desktop_agent.core.extraction_changes import read
from tests.core.conftest import facts, told_then_asked


@pytest.mark.parametrize(
    ("message", "old", "new"),
    [
        ("I've gone off Radiohead, these days it's all Fontaines D.C. for me.", "Radiohead",
         "Fontaines D.C."),
        ("I went off sushi, I'm more into ramen now.", "sushi", "ramen"),
        ("I've upgraded my entry to the full marathon.", "marathon", "full marathon"),
        ("I switched to the night shift in October.", "shift", "night shift"),
        ("I finally replaced my iPhone with a Pixel 8.", "iPhone", "Pixel 8"),
    ],
)  # fmt: skip
def test_the_twenty_second_batchs_changes(message: str, old: str, new: str) -> None:
    assert [(c.kind, c.old, c.new) for c in read(message)] == [("replace", old, new)]


def test_moving_to_a_place_is_no_upgrade() -> None:
    assert read("I moved to the spare room because of his snoring.") == []
    assert read("I switched to a new dentist.") == []


@pytest.mark.parametrize(
    ("message", "key", "text"),
    [
        ("Just turned 35 yesterday!", "age", "User is 35 years old"),
        ("I turned 40 last week.", "age", "User is 40 years old"),
        ("Before I moved to Glasgow I lived in Dundee for six years.", "home_city",
         "User lives in Glasgow"),
        ("I retired last year after 30 years as a postman.", "job", "User is retired"),
        ("My wife Priya's birthday is on the 12th of March.", "name_of:wife",
         "User's wife is named Priya"),
    ],
)  # fmt: skip
def test_the_twenty_second_batch(message: str, key: str, text: str) -> None:
    assert facts(message).get(key) == text


@pytest.mark.parametrize(
    ("message", "key", "text"),
    [
        ("Before I moved to Glasgow I lived in Dundee for six years.", "home_city",
         "User lives in Dundee"),
        ("Before moving to Leeds, I worked in Sheffield.", "home_city", None),
        ("I retired last year after 30 years as a postman.", "job", "User works as a postman"),
        ("I retired in March after a career as a nurse.", "job", "User works as a nurse"),
    ],
)  # fmt: skip
def test_what_came_before_is_the_slots_past(message: str, key: str, text: str | None) -> None:
    past = {f.subject_key: f.text for f in extract(message) if f.past}
    assert past.get(key) == text


def test_a_birthday_of_someone_named_with_a_possessive() -> None:
    found = facts("My wife Priya's birthday is on the 12th of March.")
    assert "12th of March" in found.get("person:wife:birthday", ""), found


@pytest.mark.parametrize(
    ("told", "asked", "answer", "not_said"),
    [
        ("My favourite band is Radiohead.|"
         "I've gone off Radiohead, these days it's all Fontaines D.C. for me.",
         "What's my favourite band?", "Fontaines", "Radiohead"),
        ("I'm training for a half marathon in April.|"
         "I've upgraded my entry to the full marathon.",
         "What race am I training for?", "full marathon", "half"),
        ("I'm 34 and I work in logistics.|Just turned 35 yesterday!", "How old am I?", "35",
         "34"),
        ("Before I moved to Glasgow I lived in Dundee for six years.",
         "Where did I live before Glasgow?", "Dundee", "nothing earlier"),
        ("I retired last year after 30 years as a postman.", "What did I do for work?",
         "postman", "nothing earlier"),
        ("I retired last year after 30 years as a postman.", "Am I still working?", "retired",
         "don't know"),
        ("My wife Priya's birthday is on the 12th of March.|"
         "Correction: Priya's birthday is the 21st of March, not the 12th.",
         "When is my wife's birthday?", "21st", "12th"),
        ("My phone is an iPhone 12.|I finally replaced my iPhone with a Pixel 8.",
         "What phone do I have?", "Pixel 8", "12"),
    ],
)  # fmt: skip
def test_the_twenty_second_batchs_questions(
    assistant: Assistant, told: str, asked: str, answer: str, not_said: str
) -> None:
    reply = told_then_asked(assistant, told, asked)
    assert answer in reply and not_said not in reply


def test_what_someone_used_to_do_is_said_in_the_past() -> None:
    from desktop_agent.core.grounding_wording import _used_to

    assert _used_to("User's sister Hannah lives in Bristol") == (
        "your sister Hannah used to live in Bristol"
    )
    assert _used_to("User's son Max goes to Oakfield Primary") == (
        "your son Max used to go to Oakfield Primary"
    )
    assert _used_to("User's dog is named Rufus") == "your dog was named Rufus"
