"""Phrasings from the twenty-fifth batch of whole-chat scenarios (t283-t296), mostly corrections
and the past: a new job ends the old workplace, "New number: ...", a home described before its
place ("a two-bed flat in Hackney"), a gym joined is no employer, a child's school year, "grew up
on a farm in Devon", "my closest friend now is Raj"; and a diet taken back in the message itself
is not held against the reply to it."""

from __future__ import annotations

import pytest

from desktop_agent.core.assistant import Assistant
from desktop_agent.core.extraction_changes import read
from desktop_agent.core.extraction_grammar import KNOWN_PEOPLE
from desktop_agent.core.memory_service import MemoryService
from desktop_agent.llm import GenerationSettings
from desktop_agent.llm.fake import ScriptedEngine
from tests.core.conftest import chat, facts, told_then_asked


@pytest.mark.parametrize(
    ("message", "key", "text"),
    [
        ("I got a new job as a sous chef.", "job", "User works as a sous chef"),
        ("New number: 07700 900456.", "detail:phone number",
         "User's phone number is 07700 900456"),
        ("My new number is 07700 900456.", "detail:phone number",
         "User's phone number is 07700 900456"),
        ("We live in a two-bed flat in Hackney.", "home_city", "User lives in Hackney"),
        ("We've moved into a house in Walthamstow.", "home_city", "User lives in Walthamstow"),
        ("My gym is PureGym.", "name_of:gym", "User's gym is PureGym"),
        ("I cancelled PureGym and joined The Gym Group.", "name_of:gym",
         "User's gym is The Gym Group"),
        ("My daughter Mia is in Year 3.", "person:daughter:school_year",
         "User's daughter Mia is in Year 3"),
        ("I grew up on a farm in Devon, but I've lived in London for 20 years.", "origin",
         "User is from Devon"),
        ("Tom moved to Canada, so my closest friend now is Raj.", "name_of:best friend",
         "User's closest friend is Raj"),
    ],
)  # fmt: skip
def test_the_twenty_fifth_batch(message: str, key: str, text: str) -> None:
    assert facts(message).get(key) == text


def test_a_gym_joined_is_no_workplace_and_a_new_job_ends_the_old_one() -> None:
    assert "employer" not in facts("I cancelled PureGym and joined The Gym Group.")
    assert [(c.kind, c.old) for c in read("I got a new job as a sous chef.")] == [("end", "job")]
    assert read("I got a new job at Google.") == []


def test_a_school_year_moved_up_by_a_known_name() -> None:
    known = KNOWN_PEOPLE.set({"mia": "daughter"})
    try:
        found = facts("Mia's moved up to Year 4 now.")
    finally:
        KNOWN_PEOPLE.reset(known)
    assert found["person:daughter:school_year"] == "User's daughter Mia is in Year 4"


@pytest.mark.parametrize(
    ("told", "asked", "answer", "not_said"),
    [
        ("I work as a barista at Blue Bottle.|I got a new job as a sous chef.", "What's my job?",
         "sous chef", "barista"),
        ("My phone number is 07700 900123.|New number: 07700 900456.", "What's my phone number?",
         "900456", "900123"),
        ("We live in a two-bed flat in Hackney.|We've moved into a house in Walthamstow.",
         "Where do we live now?", "Walthamstow", "Hackney"),
        ("My daughter Mia is in Year 3.|Mia's moved up to Year 4 now.", "What year is Mia in?",
         "Year 4", "Year 3"),
        ("My best friend is Tom.|Tom moved to Canada, so my closest friend now is Raj.",
         "Who is my best friend?", "Raj", "Tom"),
    ],
)  # fmt: skip
def test_the_twenty_fifth_batchs_questions(
    assistant: Assistant, told: str, asked: str, answer: str, not_said: str
) -> None:
    reply = told_then_asked(assistant, told, asked)
    assert answer in reply and not_said not in reply


def test_a_diet_taken_back_in_the_message_is_not_held_against_its_reply(
    memory: MemoryService,
) -> None:
    memory.remember("User is vegetarian", type="risk", subject_key="diet")
    engine = ScriptedEngine(lambda messages: "Great, roast chicken with lemon is lovely.")
    assistant = Assistant(engine, GenerationSettings(), memory=memory)
    said = "I'm not vegetarian anymore, I eat chicken now. What should I cook for dinner?"
    reply = chat(assistant, assistant.start_conversation(), said)
    assert "⚠" not in reply.text
    again = chat(assistant, assistant.start_conversation(), "What should I cook for dinner?")
    assert "⚠" not in again.text  # the diet ended when the message was learned
