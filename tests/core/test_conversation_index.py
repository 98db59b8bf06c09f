"""The conversation list comes from an index the core keeps, not from decoding every episode
(issue 11, item 3), and it says exactly what a rebuild from the episodes would say."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from desktop_agent.core import memory_conversations, memory_service
from desktop_agent.core.assistant import Assistant
from desktop_agent.core.conversation_index import ConversationIndex
from desktop_agent.core.history_import import HistoryMessage
from desktop_agent.core.memory_service import MemoryService
from tests.core.conftest import chat


def rebuilt(memory: MemoryService) -> list:  # noqa: ANN001
    return ConversationIndex(memory.items("episodic")).summaries()


def test_the_index_follows_every_kind_of_write(assistant: Assistant, memory: MemoryService) -> None:
    memory.warm()  # built here, as the app does after unlock; writes keep it current
    garden = assistant.start_conversation()
    chat(assistant, garden, "Let's plan the garden. My phone number is 555 0100.")
    chat(assistant, garden, "I want tomatoes.")
    trip = assistant.start_conversation()
    chat(assistant, trip, "I live in Lisbon and I'm planning a trip.")
    assert memory.conversations() == rebuilt(memory)
    assert len(memory.conversations()) == 2

    assistant.rename_conversation(garden.id, "Garden plans")
    assert memory.conversations() == rebuilt(memory)
    assert {c.id: c.title for c in memory.conversations()}[garden.id] == "Garden plans"

    first = memory.episodes(garden.id)[0]
    start = first.user_text.index("My phone")
    memory.forget_words({first.id: [(start, len(first.user_text))]})
    assert memory.conversations() == rebuilt(memory)

    memory.import_history(
        [
            HistoryMessage(
                "imported", f"m{n}", "user", f"line {n}", datetime(2025, 1, 1, tzinfo=UTC), n
            )
            for n in range(3)
        ]
    )
    assert memory.conversations() == rebuilt(memory)
    assert len(memory.conversations()) == 3

    assistant.delete_conversation(trip.id)
    assert memory.conversations() == rebuilt(memory)
    assert trip.id not in {c.id for c in memory.conversations()}

    memory.forget_all()
    assert memory.conversations() == []


def test_listing_decodes_no_episode_once_the_index_is_built(
    assistant: Assistant, memory: MemoryService, monkeypatch: pytest.MonkeyPatch
) -> None:
    for n in range(5):
        chat(assistant, assistant.start_conversation(), f"Message number {n}.")
    memory.warm()
    decoded = []
    real = memory_service.item_from_record

    def counting(record):  # noqa: ANN001, ANN202
        decoded.append(record)
        return real(record)

    # The index is built in memory_conversations; a followed write decodes through the service.
    for module in (memory_service, memory_conversations):
        monkeypatch.setattr(module, "item_from_record", counting)
    assert len(memory.conversations()) == 5
    assert decoded == []
    chat(assistant, assistant.start_conversation(), "One more.")
    decoded.clear()
    assert len(memory.conversations()) == 6  # the new one, followed as it was written
    assert decoded == []


def test_a_reopened_vault_lists_the_same_conversations(open_memory) -> None:  # noqa: ANN001
    from desktop_agent.llm import GenerationSettings
    from desktop_agent.llm.fake import ScriptedEngine

    memory = open_memory()
    assistant = Assistant(ScriptedEngine(), GenerationSettings(max_tokens=32), memory=memory)
    chat(assistant, assistant.start_conversation(), "Hello there.")
    named = assistant.start_conversation()
    chat(assistant, named, "Second one.")
    assistant.rename_conversation(named.id, "Named")
    before = memory.conversations()
    again = open_memory()
    assert again.conversations() == before


def test_a_pinned_conversation_stays_pinned_across_restarts_and_new_messages(
    open_memory,  # noqa: ANN001
) -> None:
    from desktop_agent.llm import GenerationSettings
    from desktop_agent.llm.fake import ScriptedEngine

    memory = open_memory()
    assistant = Assistant(ScriptedEngine(), GenerationSettings(max_tokens=32), memory=memory)
    kept = assistant.start_conversation()
    chat(assistant, kept, "Plans for the garden.")
    other = assistant.start_conversation()
    chat(assistant, other, "Something else.")
    assistant.pin_conversation(kept.id)
    chat(assistant, kept, "More about the garden.")  # a newer episode keeps the pin

    again = Assistant(ScriptedEngine(), GenerationSettings(max_tokens=32), memory=open_memory())
    pinned = {c.id: c.pinned for c in again.conversations()}
    assert pinned == {kept.id: True, other.id: False}
    again.pin_conversation(kept.id, False)
    assert not {c.id: c.pinned for c in again.memory.conversations()}[kept.id]
