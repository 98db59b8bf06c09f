"""Phrasings from the twenty-seventh batch of whole-chat scenarios (t311-t322): several facts in
one chatty message. A job remembered at one workplace moves with the user to the one they
joined, a sister "at uni in Leeds", a pet's age said after its name, a teacher who left
teaching, "a learning designer" (a job, not an activity), and "forget my salary" taking only the
clause that says it."""

from __future__ import annotations

import pytest

from desktop_agent.core.assistant import Assistant
from desktop_agent.core.extraction_phrases import _a
from tests.core.conftest import chat, facts, told_then_asked


@pytest.mark.parametrize(
    ("message", "key", "text"),
    [
        ("My mum Linda lives in Cardiff, my brother Jack is a firefighter in Swansea, and my "
         "sister Amy is at uni in Leeds.", "person:sister:study",
         "User's sister Amy studies at uni in Leeds"),
        ("We've got a rescue greyhound called Bolt, he's 6 and terrified of thunder.",
         "person:dog:age", "User's greyhound Bolt is 6"),
        ("After eight years I've left teaching, I'm now a learning designer at Pearson.", "job",
         "User works as a learning designer at Pearson"),
    ],
)  # fmt: skip
def test_the_twenty_seventh_batch(message: str, key: str, text: str) -> None:
    assert facts(message).get(key) == text


def test_an_activity_has_no_article_but_a_job_does() -> None:
    assert _a("teaching maths") == "teaching maths"
    assert _a("nursing assistant") == "a nursing assistant"


@pytest.mark.parametrize(
    ("told", "asked", "answer", "not_said"),
    [
        ("Quick intro: I'm Tom, I'm a software engineer at Monzo and I live in Bristol with my "
         "dog Pip.|Big news, I've moved to Edinburgh and joined Skyscanner!", "Who do I work for?",
         "software engineer at Skyscanner", "Monzo"),
        ("My sister Amy is at uni in Leeds.", "Where is my sister studying?", "Leeds",
         "don't know"),
        ("We've got a rescue greyhound called Bolt, he's 6 and terrified of thunder.",
         "How old is my dog?", "6", "don't know"),
        ("We've got a rescue greyhound called Bolt, he's 6 and terrified of thunder.",
         "What breed is Bolt?", "greyhound", "You said"),
        ("I teach Year 6 at Oakfield Primary.|"
         "After eight years I've left teaching, I'm now a learning designer at Pearson.",
         "Where did I teach before?", "Oakfield", "nothing earlier"),
        ("I teach Year 6 at Oakfield Primary.|"
         "After eight years I've left teaching, I'm now a learning designer at Pearson.",
         "What's my job now?", "learning designer", "Oakfield"),
    ],
)  # fmt: skip
def test_the_twenty_seventh_batchs_questions(
    assistant: Assistant, told: str, asked: str, answer: str, not_said: str
) -> None:
    reply = told_then_asked(assistant, told, asked)
    assert answer in reply and not_said not in reply


def test_forgetting_a_clause_keeps_the_rest_of_the_sentence(assistant: Assistant) -> None:
    told = "I work at Barclays, my salary is 52k, and I live in Croydon."
    chat(assistant, assistant.start_conversation(), told)
    asking = assistant.start_conversation()
    offer = chat(assistant, asking, "Please forget my salary.")
    assert "“my salary is 52k”" in offer.text
    chat(assistant, asking, "yes")
    earn = chat(assistant, assistant.start_conversation(), "How much do I earn?")
    assert "52k" not in earn.text
    home = chat(assistant, assistant.start_conversation(), "Where do I live?")
    assert "Croydon" in home.text


def test_a_fact_about_one_person_does_not_cover_another_persons() -> None:
    found = facts(
        "My mum Linda lives in Cardiff, my brother Jack is a firefighter in Swansea, and my "
        "sister Amy is at uni in Leeds."
    )
    assert found["person:mother:home_city"] == "User's mum Linda lives in Cardiff"
    assert found["person:brother:job"] == "User's brother Jack is a firefighter in Swansea"


@pytest.mark.parametrize(
    ("asked", "answer"),
    [("Who am I dating?", "Sam"), ("Who was I dating before Alex?", "Sam")],
)
def test_a_boyfriend_named_is_the_partner_asked_about(
    assistant: Assistant, asked: str, answer: str
) -> None:
    told = (
        "My boyfriend is called Sam."
        if "before" not in asked
        else ("My boyfriend is called Sam.|Sam and I broke up, I'm with Alex now.")
    )
    assert answer in told_then_asked(assistant, told, asked)
