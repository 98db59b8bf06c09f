"""App builds each part once; a setting, a Lock or an unlock give the assistant a new setup."""

from __future__ import annotations

import logging
import threading
from collections.abc import Iterator

import keyring
import pytest

from desktop_agent.app import App
from desktop_agent.core.null_memory import NullMemoryService
from desktop_agent.embed import HashingEmbedder
from desktop_agent.embed.embedder import EmbedderError
from desktop_agent.secrets.memory_backend import InMemoryKeyring


@pytest.fixture(autouse=True)
def memory_keyring() -> Iterator[InMemoryKeyring]:
    previous = keyring.get_keyring()
    backend = InMemoryKeyring()
    keyring.set_keyring(backend)
    yield backend
    keyring.set_keyring(previous)


def test_settings_lock_and_unlock_keep_the_assistant_and_its_chats() -> None:
    # Given an app whose assistant has an open chat
    app = App(embedder=HashingEmbedder())
    try:
        assistant = app.assistant
        assert assistant.memory is app.memory and assistant.memory.is_open
        conversation = assistant.start_conversation(incognito=True)

        # When a setting changes
        app.apply_settings(app.settings.replace("memory", recall_limit=3))
        # Then the same assistant goes on with the new setup, the chat still open
        assert app.assistant is assistant and assistant.setup.recall_limit == 3
        assert assistant.conversation(conversation.id) is conversation

        # When memory is locked, then unlocked
        app.lock_memory()
        assert isinstance(assistant.memory, NullMemoryService)
        assert app.opened_memory() is None
        memory = app.unlock_memory()
        # Then the assistant remembers again, through the reopened service
        assert assistant.memory is memory and memory.is_open
        assert assistant.setup.recall_limit == 3
    finally:
        app.close()


def test_extraction_reads_the_embedder_once_an_assistant_has_memory() -> None:
    from desktop_agent.core import extraction_fallback

    # Given a memory command's app (search, list): its memory opens without extraction
    app = App(embedder=HashingEmbedder())
    try:
        assert app.memory.is_open
        assert extraction_fallback.classifier() is None
        # When its assistant is built, then extraction reads the same embedder
        assert app.assistant.memory is app.memory
        assert extraction_fallback.classifier() is not None
    finally:
        app.close()
    extraction_fallback.use_embedder(None)

    # Given the window's app: the assistant first, the memory unlocked later
    app = App(embedder=HashingEmbedder())
    app.memory_at_start = False
    try:
        assert isinstance(app.assistant.memory, NullMemoryService)
        assert extraction_fallback.classifier() is None
        # When memory is unlocked, then extraction reads the embedder
        app.unlock_memory()
        assert extraction_fallback.classifier() is not None
    finally:
        app.close()


class LoadingEmbedder(HashingEmbedder):
    """The hashing embedder with a load step that records its thread, or fails."""

    def __init__(self, error: Exception | None = None) -> None:
        super().__init__()
        self.error = error
        self.loaded_on: list[str] = []

    def load(self) -> None:
        self.loaded_on.append(threading.current_thread().name)
        if self.error is not None:
            raise self.error


def test_a_command_that_embeds_loads_the_embedder_beside_the_unlock(
    caplog: pytest.LogCaptureFixture,
) -> None:
    # Given an app whose embedder loads
    embedder = LoadingEmbedder()
    app = App(embedder=embedder)
    try:
        # When the command asks for it before opening memory
        app.load_embedder_soon()
        assert app.memory.is_open
        # Then it loaded once, on its own thread, which close waits for
        assert app.settle_background(timeout=30)
        assert embedder.loaded_on == ["embedder-load"]
    finally:
        app.close()

    # Given an embedder that cannot load: the thread logs it; the first embed raises it
    failing = LoadingEmbedder(EmbedderError("the exported embedder is missing"))
    app = App(embedder=failing)
    try:
        with caplog.at_level(logging.INFO, logger="desktop_agent.app"):
            app.load_embedder_soon()
            assert app.settle_background(timeout=30)
        assert failing.loaded_on == ["embedder-load"]
        assert "loading the embedder ahead failed" in caplog.text
    finally:
        app.close()
