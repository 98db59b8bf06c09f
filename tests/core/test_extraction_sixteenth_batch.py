"""Phrasings from the sixteenth batch of whole-chat scenarios (t169-t180), written before the
rules that read them: a job told after a time ("three years ago I retrained as a paramedic"), a
house bought "finally", brothers named in a list, a forget that names a person, a firm changed
for the same work, and "when am I seeing the dentist?"."""

from __future__ import annotations

import pytest

from desktop_agent.core.assistant import Assistant
from tests.core.conftest import chat, facts, told_then_asked


@pytest.mark.parametrize(
    ("message", "key", "text"),
    [
        ("I used to be a bank teller, but three years ago I retrained as a paramedic.", "job",
         "User works as a paramedic"),
        ("Last year I retrained as a paramedic.", "job", "User works as a paramedic"),
        ("In 2019 I became a nurse.", "job", "User works as a nurse"),
        ("We finally bought a house in Bath and moved in last month!", "home_city",
         "User lives in Bath"),
        ("My older brothers are Sam, Luke and Owen.", "name_of:brothers",
         "User's older brothers are called Sam, Luke and Owen"),
        ("I'm the youngest of four, my older brothers are Sam, Luke and Owen.",
         "name_of:brothers", "User's older brothers are called Sam, Luke and Owen"),
        ("My brothers are called Sam, Luke and Owen.", "name_of:brothers",
         "User's brothers are called Sam, Luke and Owen"),
        ("My two sisters are Ana and Bea.", "name_of:sisters",
         "User's two sisters are called Ana and Bea"),
    ],
)  # fmt: skip
def test_the_sixteenth_batch(message: str, key: str, text: str) -> None:
    assert facts(message).get(key) == text


def test_a_list_of_brothers_is_not_one_brother_named_by_the_first() -> None:
    found = facts("My brothers are called Sam, Luke and Owen.")
    assert "name_of:brother" not in found
    assert not any(key.startswith("person:brother:said") for key in found)


def test_forgetting_a_person_by_name_keeps_the_others_said_the_same_way(
    assistant: Assistant,
) -> None:
    conversation = assistant.start_conversation()
    chat(assistant, conversation, "My ex-husband is called Mark and he lives in Leeds.")
    chat(assistant, conversation, "I have two daughters, Ruby and Jade.")
    offer = chat(assistant, conversation, "Can you forget that my ex-husband is called Mark?").text
    assert "Mark" in offer and "Ruby" not in offer
    chat(assistant, conversation, "yes")
    texts = " ".join(i.text for i in assistant.memory.active_facts())
    assert "Mark" not in texts and "Ruby and Jade" in texts


def test_leaving_a_firm_for_another_keeps_the_job(assistant: Assistant) -> None:
    chat(assistant, assistant.start_conversation(), "I'm an auditor at Deloitte.")
    chat(
        assistant,
        assistant.start_conversation(),
        "I've left Deloitte, I'm at KPMG now doing the same kind of work.",
    )
    reply = chat(assistant, assistant.start_conversation(), "What do I do for a living?").text
    assert "auditor" in reply and "Deloitte" not in reply
    current = " ".join(i.text for i in assistant.memory.active_facts())
    assert "Deloitte" not in current and "KPMG" in current


def test_leaving_a_firm_with_no_new_one_ends_the_job_there(assistant: Assistant) -> None:
    chat(assistant, assistant.start_conversation(), "I'm an auditor at Deloitte.")
    chat(assistant, assistant.start_conversation(), "I've left Deloitte.")
    current = " ".join(i.text for i in assistant.memory.active_facts())
    assert "Deloitte" not in current and "auditor" not in current


@pytest.mark.parametrize(
    ("told", "asked", "answer"),
    [
        ("My dentist appointment is on the 4th of March.", "When am I seeing the dentist?",
         "4th of March"),
        ("I'm the youngest of four, my older brothers are Sam, Luke and Owen.",
         "How many brothers do I have?", "three"),
        ("I'm the youngest of four, my older brothers are Sam, Luke and Owen.",
         "What are my brothers' names?", "Sam, Luke and Owen"),
        ("Three years ago I retrained as a paramedic.", "What's my job?", "paramedic"),
    ],
)  # fmt: skip
def test_the_sixteenth_batchs_questions(
    assistant: Assistant, told: str, asked: str, answer: str
) -> None:
    assert answer in told_then_asked(assistant, told, asked)


# --- told as the past: "I used to ..." ---------------------------------------------------------


def test_used_to_is_the_slots_past_and_now_its_value(assistant: Assistant) -> None:
    chat(
        assistant, assistant.start_conversation(), "I used to live in Leeds but now I live in York."
    )
    memory = assistant.memory
    assert [i.text for i in memory.active_facts() if i.subject_key == "home_city"] == [
        "User lives in York"
    ]
    before = chat(assistant, assistant.start_conversation(), "Where did I live before?").text
    now = chat(assistant, assistant.start_conversation(), "Where do I live?").text
    assert "Leeds" in before and "York" in now and "Leeds" not in now


def test_a_past_told_later_never_replaces_what_is_current(assistant: Assistant) -> None:
    chat(assistant, assistant.start_conversation(), "I'm a paramedic.")
    chat(assistant, assistant.start_conversation(), "I used to be a bank teller.")
    reply = chat(assistant, assistant.start_conversation(), "What's my job?").text
    assert "paramedic" in reply and "teller" not in reply
    earlier = chat(assistant, assistant.start_conversation(), "What was my old job?").text
    assert "bank teller" in earlier


def test_when_only_the_past_was_told_the_answer_says_it_is_the_past(
    assistant: Assistant,
) -> None:
    chat(assistant, assistant.start_conversation(), "I used to drive a Golf.")
    reply = chat(assistant, assistant.start_conversation(), "What car do I drive?").text
    assert "used to drive a Golf" in reply and "don't know about now" in reply
