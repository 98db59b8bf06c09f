"""Phrasings from the twenty-fourth batch of whole-chat scenarios (t269-t282), written before the
rules that read them: a wife who "has just qualified as a barrister", "I lived in Berlin ... but
moved back to Dublin", a sister's wedding and its new date, a weekly swim dropped to one day, a
third cat counted with the first two, "you don't smoke"; and the risks a sauce or a cold remedy
must respect (sesame, high blood pressure)."""

from __future__ import annotations

import pytest

from desktop_agent.core.assistant import Assistant
from desktop_agent.core.extraction import extract
from desktop_agent.core.extraction_changes import read
from desktop_agent.core.memory_service import MemoryService
from desktop_agent.core.risks import relevant_risks, risks_of
from desktop_agent.llm import GenerationSettings
from desktop_agent.llm.fake import ScriptedEngine
from tests.core.conftest import chat, facts, told_then_asked


@pytest.mark.parametrize(
    ("message", "key", "text"),
    [
        ("My wife has just qualified as a barrister.", "person:wife:job",
         "User's wife has just qualified as a barrister"),
        ("I lived in Berlin for three years but moved back to Dublin in 2022.", "home_city",
         "User lives in Dublin"),
        ("My sister's wedding is on 14 June.", "person:sister:plan:wedding",
         "User's sister's wedding is on 14 June"),
    ],
)  # fmt: skip
def test_the_twenty_fourth_batch(message: str, key: str, text: str) -> None:
    assert facts(message).get(key, "").startswith(text)


def test_where_the_user_lived_is_the_past() -> None:
    found = extract("I lived in Berlin for three years but moved back to Dublin in 2022.")
    assert [f.text for f in found if f.past] == ["User lives in Berlin"]
    assert "sister is wedding" not in str(facts("My sister's wedding is on 14 June."))


def test_a_day_dropped_from_a_routine() -> None:
    changes = read("I've dropped the Wednesday swim, just Mondays now.")
    assert [(c.kind, c.old, c.new) for c in changes] == [("redate", "Wednesday", "Mondays")]


@pytest.mark.parametrize(
    ("told", "asked", "answer", "not_said"),
    [
        ("I'm a smoker, about ten a day.|I don't smoke anymore, quit in August.", "Do I smoke?",
         "don't smoke", "ten a day"),
        ("I go swimming on Mondays and Wednesdays.|"
         "I've dropped the Wednesday swim, just Mondays now.",
         "When do I go swimming?", "Mondays", "Wednesday"),
        ("My wife is a solicitor.|My wife has just qualified as a barrister.",
         "What does my wife do?", "barrister", "solicitor"),
        ("I lived in Berlin for three years but moved back to Dublin in 2022.",
         "Where do I live?", "Dublin", "Berlin"),
        ("I lived in Berlin for three years but moved back to Dublin in 2022.",
         "Where did I live before Dublin?", "Berlin", "nothing earlier"),
        ("My sister's wedding is on 14 June.|The wedding has been moved to 21 June.",
         "When is my sister's wedding?", "21 June", "14 June"),
        ("We have two cats, Salt and Pepper.|We adopted a third cat, Paprika!",
         "How many cats do we have?", "three cats", "two"),
    ],
)  # fmt: skip
def test_the_twenty_fourth_batchs_questions(
    assistant: Assistant, told: str, asked: str, answer: str, not_said: str
) -> None:
    reply = told_then_asked(assistant, told, asked)
    assert answer in reply and not_said not in reply


@pytest.mark.parametrize(
    ("risk", "asked"),
    [
        ("User is allergic to sesame", "Can you suggest a sauce for a stir fry?"),
        ("User has high blood pressure", "What can I take for a cold?"),
    ],
)
def test_a_risk_matters_for_a_sauce_and_a_cold(
    memory: MemoryService, risk: str, asked: str
) -> None:
    item = memory.remember(risk, type="risk", subject_key="condition")
    assert relevant_risks(asked, risks_of([item]))


def test_a_decongestant_suggested_to_someone_with_high_blood_pressure_is_caught(
    memory: MemoryService,
) -> None:
    memory.remember("User has high blood pressure", type="fact", subject_key="condition")
    engine = ScriptedEngine(lambda messages: "Try Sudafed and plenty of rest.")
    assistant = Assistant(engine, GenerationSettings(), memory=memory)
    reply = chat(assistant, assistant.start_conversation(), "What can I take for a cold?")
    assert reply.text.splitlines()[-1].startswith("⚠ Careful: you have high blood pressure")
