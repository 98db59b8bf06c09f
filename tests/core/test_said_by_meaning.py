"""What the user said in other words than the question's: "What car have I got now?" shares no
word with "I went with a grey Honda Civic instead". Answered with the real parts: the app's
ONNX all-MiniLM-L6-v2 embedder and a real vault.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import UTC, datetime

import numpy as np

from desktop_agent.core.assistant import Assistant
from desktop_agent.core.memory_changes import listed
from desktop_agent.core.memory_model import EPISODIC, MemoryItem
from desktop_agent.core.memory_service import Recollection
from desktop_agent.core.said_by_meaning import closest_statement
from tests.core.conftest import chat, told_then_asked, told_then_replied


def test_a_sentence_in_other_words_answers(meaning: Assistant) -> None:
    told = "Bit of a saga with the dealer last week.|I went with a grey Honda Civic instead."
    reply = told_then_asked(meaning, told, "What car have I got now?")
    assert "Honda Civic" in reply
    assert "saga" not in reply


def test_a_newer_sentence_that_says_as_much_wins(meaning: Assistant) -> None:
    told = (
        "My dentist appointment is on March 12.|"
        "they rang, pushed the dentist back a week to March 19."
    )
    reply = told_then_replied(meaning, told, "when's my next dental appointment")
    assert "19" in reply.text
    assert len(reply.memories_used) == 1


def test_nothing_close_in_meaning_is_not_quoted(meaning: Assistant) -> None:
    told = "I went with a grey Honda Civic instead."
    reply = told_then_asked(meaning, told, "What is my blood type?")
    assert "Civic" not in reply


def test_what_is_near_a_forgotten_thing_is_not_quoted(meaning: Assistant) -> None:
    # Given a salary told, then forgotten, and a pay rise said in other words
    told = "My salary is 52k a year.|Money-wise I clear 4,400 a month."
    told_then_asked(meaning, told, "Thanks!")
    conversation = meaning.start_conversation()
    assert "salary" in str(chat(meaning, conversation, "Please forget my salary.").text).lower()
    chat(meaning, conversation, "yes")
    # When asked in words neither sentence says, what is only near in meaning is not quoted
    reply = chat(meaning, meaning.start_conversation(), "How much do I earn?").text
    assert "52k" not in reply
    assert "4,400" not in reply


def _episode(text: str, day: int) -> Recollection:
    when = datetime(2026, 11, day, tzinfo=UTC)
    return listed(MemoryItem(f"e{day}", EPISODIC, f"User: {text}", when, when))


def _by_words(texts: Sequence[str]) -> np.ndarray:
    """Vectors that say which of three topics a text is on: near in meaning, without a model."""
    topics = ("live", "city", "drive")
    rows = [[1.0 if t in text.casefold() else 0.1 for t in topics] for text in texts]
    return np.array([np.array(r) / np.linalg.norm(r) for r in rows], dtype=np.float32)


def test_a_superseded_value_is_never_quoted_by_meaning() -> None:
    episodes = [_episode("I live in Leeds, a city I love.", 1), _episode("I drive a Skoda now.", 2)]
    question = "Which city is home?"
    assert closest_statement(question, episodes, _by_words) is not None
    assert closest_statement(question, episodes, _by_words, no_longer_so={"leeds"}) is None
    # ... but a question about the past may have it
    found = closest_statement(question, episodes, _by_words, past=True, no_longer_so={"leeds"})
    assert found is not None and "Leeds" in found.sentence


def test_what_is_asked_of_someone_known_by_name_is_their_sentence(meaning: Assistant) -> None:
    """ "Where is Anya coming from?" shares no word but her name with "My granddaughter Anya is
    flying in from Singapore": the memory knows her name only, and her sentence answers."""
    told = (
        "Namaste, I am Ravi, retired bank manager in Pune.|"
        "My granddaughter Anya is flying in from Singapore for Diwali, can you suggest sweets?"
    )
    assert "Singapore" in told_then_asked(meaning, told, "Where is Anya coming from?")
    # a count is the facts', never a sentence's
    counted = told_then_asked(
        meaning, "We have two cats, Salt and Pepper.", "How many cats do we have?"
    )
    assert "You told me" not in counted


def test_a_change_said_since_what_is_near_in_meaning_is_quoted(meaning: Assistant) -> None:
    told = (
        "my younger sister Adaeze is getting married in december!! the wedding is gonna be in "
        "Enugu, at our family church.|"
        "Quick update on the wedding: Adaeze and her fiance ended up going with Abuja instead of "
        "Enugu."
    )
    reply = told_then_asked(meaning, told, "remind me, what city is my sister's wedding in?")
    assert "Abuja" in reply
    assert "Enugu" not in reply


def test_a_name_alone_does_not_answer_what_else_is_asked(meaning: Assistant) -> None:
    told = (
        "Could you help me word a card for my grandson Cian? He's off to study engineering at "
        "University College Cork in September, we're all so proud."
    )
    reply = told_then_asked(meaning, told, "Which university is my grandson going to?")
    assert "Cork" in reply
