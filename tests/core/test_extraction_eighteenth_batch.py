"""Phrasings from the eighteenth batch of whole-chat scenarios (t194-t205), written before the
rules that read them: how long a couple has been together, a faith, an event called off ("the
Berlin race got cancelled, so I'm running Amsterdam instead"), and a medicine that rules out
painkillers ("I'm on warfarin")."""

from __future__ import annotations

import pytest

from desktop_agent.core.assistant import Assistant
from desktop_agent.core.extraction_changes import Change, read
from desktop_agent.core.risks import risks_of, violations
from desktop_agent.llm.fake import ScriptedEngine
from tests.core.conftest import chat, facts, told_then_asked


@pytest.mark.parametrize(
    ("message", "key", "text"),
    [
        ("My partner's name is Sam and we've been together for six years.", "partner:together",
         "User and User's partner have been together for six years"),
        ("We've been married since 2015.", "partner:together",
         "User and User's partner have been married since 2015"),
        ("I'm Catholic but I don't go to church much.", "religion", "User is Catholic"),
        ("I'm a lapsed methodist.", "religion", "User is a lapsed Methodist"),
        ("The Berlin race got cancelled, so I'm running the Amsterdam marathon in October "
         "instead.", "plan:running amsterdam marathon",
         "User is running the Amsterdam marathon in October instead (2027-10)"),
    ],
)  # fmt: skip
def test_the_eighteenth_batch(message: str, key: str, text: str) -> None:
    assert facts(message).get(key) == text


def test_an_event_called_off_is_a_cancel_of_what_it_names() -> None:
    said = "The Berlin race got cancelled, so I'm running the Amsterdam marathon instead."
    assert read(said) == [Change("cancel", "Berlin", "", (0, len(said)))]
    assert read("I cancelled the meeting.") == []


def test_a_cancel_ends_the_plans_naming_it_and_nothing_else(assistant: Assistant) -> None:
    for told in (
        "My best friend lives in Berlin.",
        "I'm training for the Berlin marathon in September.",
        "The Berlin race got cancelled, so I'm running the Amsterdam marathon in October instead.",
    ):
        chat(assistant, assistant.start_conversation(), told)
    current = [i.text for i in assistant.memory.active_facts()]
    assert any("friend" in t and "Berlin" in t for t in current)
    assert not any("marathon" in t and "Berlin" in t for t in current)
    reply = chat(assistant, assistant.start_conversation(), "Which marathon am I running?").text
    assert "Amsterdam" in reply and "Berlin" not in reply


@pytest.mark.parametrize(
    ("asked", "answer", "not_said"),
    [
        ("How long have I been with my partner?", "six years", "Sam"),
        ("What's my partner called?", "Sam", "six years"),
    ],
)
def test_the_slot_a_question_names_most_answers_it(
    assistant: Assistant, asked: str, answer: str, not_said: str
) -> None:
    told = "My partner's name is Sam and we've been together for six years."
    reply = told_then_asked(assistant, told, asked)
    assert answer in reply and not_said not in reply


def test_a_blood_thinner_rules_out_the_painkillers_that_interact(assistant: Assistant) -> None:
    chat(assistant, assistant.start_conversation(), "I'm on warfarin.")
    (risk,) = risks_of(assistant.memory.active_facts())
    assert risk.drug == "warfarin" and risk.medical
    assert violations("Take two ibuprofen with water.", [risk]) == [risk]
    assert not violations("Try paracetamol and a glass of water.", [risk])


@pytest.mark.parametrize(
    ("said", "drug"),
    [
        ("I am on warfarin for my heart.", "warfarin"),
        ("I take apixaban after my stroke.", "apixaban"),
    ],
)
def test_a_blood_thinner_is_read_with_its_reason(said: str, drug: str) -> None:
    assert facts(said).get(f"medication:{drug}") == f"User takes {drug}"


def test_asking_about_a_painkiller_on_a_blood_thinner_names_the_blood_thinner(
    assistant: Assistant, engine: ScriptedEngine
) -> None:
    chat(assistant, assistant.start_conversation(), "I'm on warfarin.")
    engine.reply = lambda messages: "Rest in a dark room and drink some water."
    asked = "I've got a bad headache, should I take some ibuprofen?"
    reply = chat(assistant, assistant.start_conversation(), asked).text
    assert "Rest in a dark room" in reply
    assert "you take warfarin" in reply and "pharmacist" in reply
