"""App builds each part once; a setting, a Lock or an unlock give the assistant a new setup."""

from __future__ import annotations

from collections.abc import Iterator

import keyring
import pytest

from desktop_agent.app import App
from desktop_agent.core.null_memory import NullMemoryService
from desktop_agent.embed import HashingEmbedder
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
