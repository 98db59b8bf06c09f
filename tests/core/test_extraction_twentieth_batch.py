"""Phrasings from the twentieth batch of whole-chat scenarios (t217-t228), written before the
rules that read them: a brother-in-law by name, one allergy of two forgotten, "I used to live in
Glasgow before moving to London", "when is the baby due?", a car written off, brunch as food."""

from __future__ import annotations

import pytest

from desktop_agent.core.assistant import Assistant
from desktop_agent.core.extraction_changes import read
from desktop_agent.core.risks import relevant_risks, risks_of
from tests.core.conftest import chat, facts, told_then_asked


@pytest.mark.parametrize(
    ("message", "key", "text"),
    [
        ("My brother-in-law Dev is a firefighter in Leicester.", "person:brother-in-law:job",
         "User's brother-in-law Dev is a firefighter in Leicester"),
        ("My brother-in-law Dev is a firefighter in Leicester.", "name_of:brother-in-law",
         "User's brother-in-law is named Dev"),
        ("I used to live in Glasgow before moving to London.", "home_city", "User lives in London"),
        ("My car is a blue Ford Fiesta.", "vehicle", "User drives a blue Ford Fiesta"),
    ],
)  # fmt: skip
def test_the_twentieth_batch(message: str, key: str, text: str) -> None:
    assert facts(message).get(key) == text


def test_a_car_is_no_mess_and_written_off_ends_it() -> None:
    assert "vehicle" not in facts("My car is a mess.")
    assert [(c.kind, c.old) for c in read("It got written off in a crash.")] == [("end", "vehicle")]
    assert [(c.kind, c.old) for c in read("My bike was stolen last week.")] == [("end", "bike")]


def test_forgetting_one_allergy_keeps_the_other(assistant: Assistant) -> None:
    conversation = assistant.start_conversation()
    chat(assistant, conversation, "I'm allergic to shellfish and kiwi.")
    offer = chat(
        assistant, conversation, "Forget that I'm allergic to kiwi, I got tested and I'm fine."
    ).text
    assert "kiwi" in offer and "shellfish" not in offer
    chat(assistant, conversation, "yes")
    reply = chat(assistant, assistant.start_conversation(), "What am I allergic to?").text
    assert "shellfish" in reply and "kiwi" not in reply


def test_brunch_is_a_request_where_a_food_risk_matters(assistant: Assistant) -> None:
    chat(assistant, assistant.start_conversation(), "I can't have dairy, it makes me really ill.")
    risks = risks_of(assistant.memory.active_facts())
    assert relevant_risks("What could I serve for brunch?", risks) == risks != []


@pytest.mark.parametrize(
    ("told", "asked", "answer", "not_said"),
    [
        ("My brother-in-law Dev is a firefighter in Leicester.", "What does Dev do?",
         "firefighter", "You said"),
        ("I used to live in Glasgow before moving to London.", "Where did I live before London?",
         "Glasgow", "You said"),
        ("My wife is pregnant with our first child, due in March.", "When is the baby due?",
         "March", "You said"),
        ("My car is a blue Ford Fiesta.|It got written off in a crash, so now I get the bus.",
         "What car do I have?", "written off", "Fiesta"),
    ],
)  # fmt: skip
def test_the_twentieth_batchs_questions(
    assistant: Assistant, told: str, asked: str, answer: str, not_said: str
) -> None:
    reply = told_then_asked(assistant, told, asked)
    assert answer in reply and not_said not in reply


def test_how_a_thing_ended_is_quoted_only_when_it_does_not_name_it_again(
    assistant: Assistant,
) -> None:
    told = "We have a dog called Rufus.|We had to rehome Rufus."
    assert "Rufus" not in told_then_asked(assistant, told, "What's my dog called?")


def test_a_question_about_the_households_things_is_the_models_when_nothing_is_known(
    assistant: Assistant,
) -> None:
    chat(assistant, assistant.start_conversation(), "I like jazz.")
    reply = chat(assistant, assistant.start_conversation(), "When is the wedding?").text
    assert reply.startswith("You said:")  # the scripted model answered, not the memory
