"""The assistant without memory: a NullMemoryService that finds nothing and stores nothing."""

from __future__ import annotations

import pytest

from desktop_agent.core.assistant import Assistant
from desktop_agent.core.null_memory import NullMemoryService
from desktop_agent.errors import InputError
from desktop_agent.llm import GenerationSettings
from desktop_agent.llm.fake import ScriptedEngine
from tests.core.conftest import chat


def test_an_assistant_without_memory_chats_and_keeps_nothing() -> None:
    # Given an assistant built without a memory service
    assistant = Assistant(ScriptedEngine(), GenerationSettings(max_tokens=32))
    assert isinstance(assistant.memory, NullMemoryService)
    assert not assistant.memory.is_open

    # When the user chats, asks it to remember, and deletes the chat
    conversation = assistant.start_conversation()
    reply = chat(assistant, conversation, "My name is Ana.")
    remembered = chat(assistant, conversation, "/remember I like tea")
    listed = [c.id for c in assistant.conversations()]
    receipt = assistant.delete_conversation(conversation.id)

    # Then it answered, stored nothing, and the chat was listed until deleted
    assert reply.text and reply.episode_id is None and reply.learned == ()
    assert remembered.text == "Memory is off, so there is nothing to remember or forget."
    assert listed == [conversation.id]
    assert receipt is None
    assert assistant.conversations() == []
    assert assistant.consolidate_in_background() is None


def test_the_null_service_reads_nothing_and_refuses_writes() -> None:
    memory = NullMemoryService()
    assert memory.items() == [] and memory.conversations() == [] and memory.episodes("c") == []
    assert memory.search("anything") == [] and memory.active_facts() == ()
    assert memory.outdated_episodes() == frozenset() and memory.usage("m") == (0, None)
    memory.mark_used(["m"])  # bookkeeping is ignored
    memory.flush()
    with memory.lane:
        memory.close_conversation("c")
    with pytest.raises(InputError, match="memory is locked"):
        memory.remember("User likes tea")
    with pytest.raises(InputError, match="memory is locked"):
        memory.forget(["m"])
