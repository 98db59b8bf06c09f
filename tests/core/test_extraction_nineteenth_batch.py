"""Phrasings from the nineteenth batch of whole-chat scenarios (t206-t216, corrections), written
before the rules that read them: a pet's breed put right by its name, a new landlord "a woman
called Sandra", a trip's place changed "instead", a teacher moved up a year, a new baby and the
count of children, savings spent on something else, a favourite gone off, coffees cut down."""

from __future__ import annotations

import pytest

from desktop_agent.core.assistant import Assistant
from desktop_agent.core.extraction_changes import Change, read
from desktop_agent.core.extraction_grammar import KNOWN_PEOPLE
from desktop_agent.core.grounding_wording import _used_to
from tests.core.conftest import facts, told_then_asked


@pytest.mark.parametrize(
    ("message", "key", "text"),
    [
        ("We've moved flats, and our new landlord is a woman called Sandra.", "name_of:landlord",
         "User's landlord is Sandra"),
        ("We had another baby last month, a girl called Rosie, so now we have three kids.",
         "children", "User has three kids"),
        ("We had another baby last month, a girl called Rosie, so now we have three kids.",
         "name_of:baby", "User's youngest, a baby daughter, is named Rosie"),
        ("I'm saving up for a trip to Japan.", "goal:saving", "User is saving up for a trip to Japan"),
        ("I've decided to spend the savings on a new kitchen instead.", "goal:saving",
         "User is saving up for a new kitchen"),
        ("I've cut down to one coffee a day.", "drink", "User drinks one coffee a day"),
    ],
)  # fmt: skip
def test_the_nineteenth_batch(message: str, key: str, text: str) -> None:
    assert facts(message).get(key) == text


def test_a_pets_kind_said_by_its_name_is_its_breed_and_a_correction() -> None:
    known = KNOWN_PEOPLE.set({"max": "dog"})
    try:
        from desktop_agent.core.extraction import extract

        said = "Sorry, I got that wrong, Max is a golden retriever, not a labrador."
        (fact,) = [f for f in extract(said) if f.subject_key.startswith("person:dog")]
    finally:
        KNOWN_PEOPLE.reset(known)
    assert (fact.subject_key, fact.text) == (
        "person:dog:breed",
        "User's dog Max is a golden retriever",
    )
    assert fact.is_correction


@pytest.mark.parametrize(
    ("message", "change"),
    [
        ("I've gone off sushi a bit, pizza's my favourite now.", ("replace", "sushi", "pizza")),
        ("I went off Radiohead, and Blur is my favourite now.", ("replace", "Radiohead", "Blur")),
        ("Change of plan, we're going to Sicily instead.", ("replace", "", "Sicily")),
    ],
)
def test_the_nineteenth_batchs_changes(message: str, change: tuple[str, str, str]) -> None:
    assert [(c.kind, c.old, c.new) for c in read(message)] == [change]
    assert all(isinstance(c, Change) for c in read(message))


def test_a_plan_in_the_past_is_what_the_user_was_going_to_do() -> None:
    assert _used_to("User is going to Crete in June") == "you were going to Crete in June"
    assert _used_to("User lives in Leeds") == "you used to live in Leeds"


@pytest.mark.parametrize(
    ("told", "asked", "answer", "not_said"),
    [
        ("We're going to Crete for our holiday in June.|"
         "Change of plan, we're going to Sicily instead.",
         "Where are we going on holiday?", "Sicily", "Crete"),
        ("I teach Year 4 at Millbrook Primary.|I've moved up to teach Year 6 this year.",
         "Which school do I teach at?", "Millbrook", "Year 4"),
        ("I have two kids, Ollie and Mae.|"
         "We had another baby last month, a girl called Rosie, so now we have three kids.",
         "How many kids do I have?", "three kids", "two"),
        ("We had another baby last month, a girl called Rosie.", "What's my youngest called?",
         "Rosie", "Ollie"),
        ("I'm saving up for a trip to Japan.|"
         "I've decided to spend the savings on a new kitchen instead.",
         "What am I saving for?", "kitchen", "Japan"),
        ("My favourite food is sushi.|I've gone off sushi a bit, pizza's my favourite now.",
         "What's my favourite food?", "pizza", "sushi"),
        ("I drink about four coffees a day.|I've cut down to one coffee a day.",
         "How many coffees do I drink a day?", "one coffee", "four"),
        ("My landlord is called Mr Patel.|"
         "We've moved flats, and our new landlord is a woman called Sandra.",
         "What's my landlord's name?", "Sandra", "Patel"),
    ],
)  # fmt: skip
def test_the_nineteenth_batchs_questions(
    assistant: Assistant, told: str, asked: str, answer: str, not_said: str
) -> None:
    reply = told_then_asked(assistant, told, asked)
    assert answer in reply and not_said not in reply
