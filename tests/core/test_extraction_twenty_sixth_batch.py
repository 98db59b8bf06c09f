"""Phrasings from the twenty-sixth batch of whole-chat scenarios (t297-t310), mostly corrections
said the way people say them: "Update: I work from home full-time now", "FYI my surname is now
Patel", "I told you kiwi, but it's actually mango", "she's given up netball and taken up
hockey", "my GP switched me to citalopram", "New favourite film: Past Lives", a keto diet, and a
child asked about by a name told only inside another fact."""

from __future__ import annotations

import pytest

from desktop_agent.core.assistant import Assistant
from desktop_agent.core.extraction_changes import read
from desktop_agent.core.revisions import substituted
from tests.core.conftest import facts, told_then_asked


@pytest.mark.parametrize(
    ("message", "key", "text"),
    [
        ("Update: I work from home full-time now.", "routine:commute",
         "User works from home full-time"),
        ("New favourite film: Past Lives.", "favorite:film", "User's favorite film is Past Lives"),
        ("I'm on a strict keto diet.", "diet", "User is on a keto diet"),
    ],
)  # fmt: skip
def test_the_twenty_sixth_batch(message: str, key: str, text: str) -> None:
    assert facts(message).get(key) == text


@pytest.mark.parametrize(
    ("message", "old", "new"),
    [
        ("I told you I'm allergic to kiwi, but it's actually mango.", "kiwi", "mango"),
        ("She's given up netball and taken up hockey.", "netball", "hockey"),
        ("My GP switched me to citalopram.", "medication", "citalopram"),
        ("FYI my surname is now Patel, I got married.", "surname", "Patel"),
    ],
)  # fmt: skip
def test_the_twenty_sixth_batchs_changes(message: str, old: str, new: str) -> None:
    assert ("replace", old, new) in [(c.kind, c.old, c.new) for c in read(message)]


def test_a_medicine_replaced_keeps_the_verb() -> None:
    assert substituted("User takes sertraline", "sertraline", "citalopram") == (
        "User takes citalopram"
    )
    assert read("My manager switched me to the night team.") == []


@pytest.mark.parametrize(
    ("told", "asked", "answer", "not_said"),
    [
        ("I commute to the office in Reading every day.|Update: I work from home full-time now.",
         "Do I still commute to the office?", "from home", "Reading"),
        ("My name is Sarah Jones.|FYI my surname is now Patel, I got married.",
         "What's my surname?", "Patel", "Jones"),
        ("My name is Sarah Jones.|FYI my surname is now Patel, I got married.",
         "What was my surname before?", "Jones", "don't know"),
        ("I'm allergic to kiwi.|I told you I'm allergic to kiwi, but it's actually mango.",
         "What fruit am I allergic to?", "mango", "kiwi"),
        ("My daughter plays netball.|She's given up netball and taken up hockey.",
         "What sport does my daughter play?", "hockey", "netball"),
        ("I take sertraline every morning.|My GP switched me to citalopram.",
         "What medication do I take?", "You take citalopram", "sertraline"),
        ("My favourite film is Inception.|New favourite film: Past Lives.",
         "What's my favourite film?", "Past Lives", "Inception"),
        ("I've got two kids: Ellie who's 9 and Sam who's 6.", "How old is Ellie?", "Ellie who's 9",
         "don't know"),
    ],
)  # fmt: skip
def test_the_twenty_sixth_batchs_questions(
    assistant: Assistant, told: str, asked: str, answer: str, not_said: str
) -> None:
    reply = told_then_asked(assistant, told, asked)
    assert answer in reply and not_said not in reply


@pytest.mark.parametrize(
    ("text", "old", "new", "result"),
    [
        ("User's daughter plays netball", "netball", "hockey", "User's daughter plays hockey"),
        ("User drives a red Toyota Corolla to work", "Corolla", "Nissan Leaf",
         "User drives a Nissan Leaf to work"),
        ("User's flat is on the 4th floor", "floor", "6th floor", "User's flat is on the 6th floor"),
    ],
)  # fmt: skip
def test_only_the_words_after_an_article_go_with_the_thing_replaced(
    text: str, old: str, new: str, result: str
) -> None:
    assert substituted(text, old, new) == result
