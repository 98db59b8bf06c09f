"""What the user said in other words than the question's: "What car have I got now?" shares no
word with "I went with a grey Honda Civic instead". Answered with the real parts: the app's
ONNX all-MiniLM-L6-v2 embedder and a real vault.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from desktop_agent.core.assistant import Assistant
from desktop_agent.core.memory_service import MemoryService
from desktop_agent.llm import GenerationSettings
from desktop_agent.llm.fake import ScriptedEngine
from desktop_agent.memory import Vault
from desktop_agent.secrets import KeyringKeySource
from tests.core.conftest import told_then_asked, told_then_replied


@pytest.fixture(scope="module")
def embedder():  # noqa: ANN201
    from desktop_agent.embed import OnnxEmbedder

    return OnnxEmbedder(threads=1)


@pytest.fixture
def meaning(tmp_path: Path, key_source: KeyringKeySource, embedder) -> Iterator[Assistant]:  # noqa: ANN001
    with Vault.open(tmp_path / "vault", key_source) as vault:
        memory = MemoryService(vault, embedder)
        yield Assistant(ScriptedEngine(), GenerationSettings(max_tokens=48), memory=memory)


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
