"""Core fixtures: a real vault (LanceDB + AES-GCM) with an in-memory keyring, the hashing
embedder and the scripted engine, so the agent loop runs end to end in well under a second."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from pathlib import Path

import keyring
import pytest

from desktop_agent.core.assistant import Assistant
from desktop_agent.core.memory_service import MemoryService
from desktop_agent.embed import HashingEmbedder
from desktop_agent.llm import ChatMessage, GenerationSettings
from desktop_agent.llm.fake import ScriptedEngine
from desktop_agent.memory import Vault
from desktop_agent.secrets import KeyringKeySource
from desktop_agent.secrets.memory_backend import InMemoryKeyring


@pytest.fixture
def key_source() -> Iterator[KeyringKeySource]:
    previous = keyring.get_keyring()
    backend = InMemoryKeyring()
    keyring.set_keyring(backend)
    yield KeyringKeySource(backend)
    keyring.set_keyring(previous)


@pytest.fixture(scope="module")
def embedder():  # noqa: ANN201
    """The app's real embedder, for the rules that read what is near in meaning (loaded once a
    module: it takes a second or two)."""
    from desktop_agent.embed import OnnxEmbedder

    return OnnxEmbedder(threads=1)


@pytest.fixture
def classifier(embedder) -> None:  # noqa: ANN001
    """The statement classifier on, as in the app: it learns statements no rule reads (the
    autouse fixture of tests/conftest.py turns it off after the test)."""
    from desktop_agent.core.extraction_fallback import use_embedder

    use_embedder(embedder)


@pytest.fixture
def by_meaning(
    tmp_path: Path,
    key_source: KeyringKeySource,
    embedder,  # noqa: ANN001
) -> Iterator[MemoryService]:
    """A real vault whose memory embeds with the real embedder."""
    with Vault.open(tmp_path / "vault", key_source) as vault:
        yield MemoryService(vault, embedder)


@pytest.fixture
def meaning(by_meaning: MemoryService) -> Assistant:
    """The assistant over ``by_meaning``, with the scripted engine."""
    return Assistant(ScriptedEngine(), GenerationSettings(max_tokens=48), memory=by_meaning)


@pytest.fixture
def open_memory(
    tmp_path: Path, key_source: KeyringKeySource
) -> Iterator[Callable[[], MemoryService]]:
    """Opens the same vault again and again, as successive app sessions would."""
    opened: list[Vault] = []

    def open_() -> MemoryService:
        for vault in opened:
            vault.close()
        opened.clear()
        vault = Vault.open(tmp_path / "vault", key_source)
        opened.append(vault)
        return MemoryService(vault, HashingEmbedder())

    yield open_
    for vault in opened:
        vault.close()


@pytest.fixture
def memory(open_memory: Callable[[], MemoryService]) -> MemoryService:
    return open_memory()


@pytest.fixture
def engine() -> ScriptedEngine:
    return ScriptedEngine()


@pytest.fixture
def assistant(memory: MemoryService, engine: ScriptedEngine) -> Assistant:
    return Assistant(engine, GenerationSettings(max_tokens=64), memory=memory)


def chat(assistant: Assistant, conversation, text: str):  # noqa: ANN001, ANN201
    """One complete turn: stream it to the end and return the Reply."""
    turn = assistant.send(conversation, text)
    for _ in turn:
        pass
    return turn.finish()


def said_in_turn(assistant: Assistant, conversations: Sequence[Sequence[str]], asked: str) -> str:
    """The reply to ``asked`` in a new conversation, after each of ``conversations`` (its
    messages said in turn in one conversation)."""
    for messages in conversations:
        conversation = assistant.start_conversation()
        for message in messages:
            chat(assistant, conversation, message)
    return str(chat(assistant, assistant.start_conversation(), asked).text)


def told_then_asked(assistant: Assistant, told: str, asked: str) -> str:
    """The reply to ``asked`` after each of ``told`` ("|" between messages) was said in a
    conversation of its own, as across sessions."""
    return str(told_then_replied(assistant, told, asked).text)


def told_then_replied(assistant: Assistant, told: str, asked: str):  # noqa: ANN201
    """``told_then_asked``, with the whole Reply (its memories used, ...)."""
    for message in told.split("|"):
        chat(assistant, assistant.start_conversation(), message)
    return chat(assistant, assistant.start_conversation(), asked)


def facts(message: str) -> dict[str, str]:
    """subject key -> text of each fact extracted from ``message``."""
    from desktop_agent.core.extraction import extract

    return {fact.subject_key: fact.text for fact in extract(message)}


def replying_in_turn(replies: Sequence[str]) -> tuple[ScriptedEngine, list[str]]:
    """An engine that gives ``replies`` one per call (the last again after them), and the
    system prompt of each call, as they come."""
    systems: list[str] = []

    def reply(messages: Sequence[ChatMessage]) -> str:
        systems.append(messages[0].content)
        return replies[min(len(systems), len(replies)) - 1]

    return ScriptedEngine(reply), systems
