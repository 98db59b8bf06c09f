"""Reply versions after Regenerate (issue 12, part 3): every version of a reply is kept,
encrypted, on its one episode; the version the user chose is what memory keeps (the stored
exchange, recall, the history sent back to the model, the export, the conversation after a
restart); forgetting reaches every version."""

from __future__ import annotations

import itertools
from collections.abc import Callable
from pathlib import Path

import pytest

from desktop_agent.core.assistant import Assistant, Reply
from desktop_agent.core.conversation import Conversation
from desktop_agent.core.memory_service import MemoryService
from desktop_agent.core.reply_versions import versions_of
from desktop_agent.core.transcript import render
from desktop_agent.errors import InputError
from desktop_agent.llm import GenerationSettings
from desktop_agent.llm.fake import ScriptedEngine
from tests.core.conftest import chat

# Words only one version says, so a search or a prompt shows which version it saw.
DISHES = ("zebrafish ramen", "quokka tempura", "narwhal curry")


def dishes_engine() -> ScriptedEngine:
    """Each reply suggests the next dish, so every version is told apart by its words."""
    dishes = itertools.cycle(DISHES)
    return ScriptedEngine(lambda messages: f"Try the {next(dishes)} tonight.")


def regenerate(assistant: Assistant, conversation: Conversation) -> Reply:
    turn = assistant.regenerate(conversation)
    for _ in turn:
        pass
    return turn.finish()


@pytest.fixture
def dinner(open_memory: Callable[[], MemoryService]) -> tuple[Assistant, Conversation]:
    """A conversation whose one reply was regenerated once: version 1 says zebrafish ramen,
    version 2 (shown) quokka tempura."""
    assistant = Assistant(dishes_engine(), GenerationSettings(), memory=open_memory())
    conversation = assistant.start_conversation()
    chat(assistant, conversation, "What should I cook for dinner?")
    regenerate(assistant, conversation)
    return assistant, conversation


def reopen(open_memory: Callable[[], MemoryService], conversation_id: str) -> Assistant:
    """The next session of the app: the same vault opened again."""
    assistant = Assistant(dishes_engine(), GenerationSettings(), memory=open_memory())
    assistant.conversation(conversation_id)
    return assistant


def test_regenerate_keeps_both_versions_on_one_episode_and_shows_the_new_one(
    open_memory: Callable[[], MemoryService],
) -> None:
    # Given a reply
    assistant = Assistant(dishes_engine(), GenerationSettings(), memory=open_memory())
    conversation = assistant.start_conversation()
    first = chat(assistant, conversation, "What should I cook for dinner?")

    # When it is regenerated
    second = regenerate(assistant, conversation)

    # Then both versions are kept, the new one shown, on the same stored exchange
    assert second.versions is not None
    assert second.versions.texts == (first.text, second.text)
    assert second.versions.chosen == 1 and second.versions.count == 2
    assert second.episode_id == first.episode_id
    assert [m.content for m in conversation.messages] == [
        "What should I cook for dinner?",
        "Try the quokka tempura tonight.",
    ]
    (episode,) = assistant.memory.episodes(conversation.id)  # no second exchange stored
    assert episode.reply_text == "Try the quokka tempura tonight."


def test_the_chosen_version_is_what_memory_keeps_after_a_restart(
    dinner: tuple[Assistant, Conversation], open_memory: Callable[[], MemoryService]
) -> None:
    assistant, conversation = dinner

    # When the user goes back to version 1
    chosen = assistant.choose_reply_version(conversation, 1, 0)

    # Then it is shown and stored, and both versions survive a restart
    assert chosen.chosen == 0 and chosen.text == "Try the zebrafish ramen tonight."
    assert conversation.messages[1].content == "Try the zebrafish ramen tonight."
    later = reopen(open_memory, conversation.id)
    restored = later.conversation(conversation.id)
    assert restored.messages[1].content == "Try the zebrafish ramen tonight."
    versions = restored.versions[1]
    assert versions.texts == ("Try the zebrafish ramen tonight.", "Try the quokka tempura tonight.")
    assert versions.chosen == 0
    (episode,) = later.memory.episodes(conversation.id)
    assert episode.reply_text == "Try the zebrafish ramen tonight."
    markdown = render(restored, "markdown")
    assert "zebrafish ramen" in markdown and "quokka tempura" not in markdown

    # When the user switches back to version 2 in that later session
    later.choose_reply_version(restored, 1, 1)

    # Then the next session shows and exports version 2
    again = reopen(open_memory, conversation.id).conversation(conversation.id)
    assert again.messages[1].content == "Try the quokka tempura tonight."
    assert again.versions[1].chosen == 1
    exported = render(again, "json")
    assert "quokka tempura" in exported and "zebrafish ramen" not in exported


def test_a_third_version_and_choosing_between_them(
    dinner: tuple[Assistant, Conversation], open_memory: Callable[[], MemoryService]
) -> None:
    assistant, conversation = dinner
    third = regenerate(assistant, conversation)
    assert third.versions is not None and third.versions.count == 3
    assert third.text == "Try the narwhal curry tonight."

    assistant.choose_reply_version(conversation, 1, 1)

    restored = reopen(open_memory, conversation.id).conversation(conversation.id)
    assert restored.versions[1].texts == tuple(f"Try the {d} tonight." for d in DISHES)
    assert restored.messages[1].content == "Try the quokka tempura tonight."


def test_recall_and_the_next_prompt_see_only_the_chosen_version(
    dinner: tuple[Assistant, Conversation],
) -> None:
    assistant, conversation = dinner
    memory = assistant.memory
    engine = assistant.engine
    assert isinstance(engine, ScriptedEngine)

    def found(words: str) -> bool:
        return any(words in r.item.text for r in memory.search(words, kinds=("episodic",)))

    # Version 2 is shown: version 1's words are in no searchable text
    assert found("quokka tempura") and not found("zebrafish ramen")

    assistant.choose_reply_version(conversation, 1, 0)
    assert found("zebrafish ramen") and not found("quokka tempura")

    # The next turn's history holds the chosen version only
    chat(assistant, conversation, "And for dessert?")
    prompt = " ".join(m.content for m in engine.prompts[-1])
    assert "zebrafish ramen" in prompt and "quokka tempura" not in prompt


def test_regenerating_does_not_learn_from_the_turn_again(
    open_memory: Callable[[], MemoryService],
) -> None:
    assistant = Assistant(dishes_engine(), GenerationSettings(), memory=open_memory())
    conversation = assistant.start_conversation()
    told = chat(assistant, conversation, "I'm allergic to peanuts.")
    (fact,) = [m for m in assistant.memory.items("semantic") if "peanut" in m.text]

    again = regenerate(assistant, conversation)

    assert again.learned == ()
    (same,) = [m for m in assistant.memory.items("semantic") if "peanut" in m.text]
    assert same.importance == fact.importance  # not "heard again"
    assert [p.episode_id for p in same.provenance] == [told.episode_id]


def test_a_rating_belongs_to_the_version_it_was_given_to(
    dinner: tuple[Assistant, Conversation], open_memory: Callable[[], MemoryService]
) -> None:
    assistant, conversation = dinner
    episode_id = conversation.versions[1].episode_id
    assert episode_id is not None
    assistant.rate(episode_id, False)  # thumbs down on version 2

    assistant.choose_reply_version(conversation, 1, 0)
    assert "outcome" not in (assistant.memory.item(episode_id).meta or {})

    assistant.choose_reply_version(conversation, 1, 1)
    later = reopen(open_memory, conversation.id)
    assert (later.memory.item(episode_id).meta or {}).get("outcome") == "negative"


def test_every_version_is_encrypted_and_deleting_the_conversation_forgets_them_all(
    dinner: tuple[Assistant, Conversation], tmp_path: Path
) -> None:
    assistant, conversation = dinner
    memory = assistant.memory

    def on_disk(words: str) -> bool:
        return any(
            words.encode() in path.read_bytes()
            for path in (tmp_path / "vault").rglob("*")
            if path.is_file()
        )

    assert not on_disk("zebrafish") and not on_disk("quokka")  # sealed, not plain text

    assistant.delete_conversation(conversation.id)

    assert memory.episodes(conversation.id) == []
    kept = " ".join(f"{m.text} {m.meta}" for m in memory.items())
    assert "zebrafish" not in kept and "quokka" not in kept


def test_forgetting_a_fact_erases_its_words_from_every_version(
    open_memory: Callable[[], MemoryService],
) -> None:
    count = itertools.count(1)
    engine = ScriptedEngine(lambda m: f"Version {next(count)}. You said: {m[-1].content}")
    assistant = Assistant(engine, GenerationSettings(), memory=open_memory())
    conversation = assistant.start_conversation()
    chat(assistant, conversation, "I work as a veterinary nurse.")
    regenerate(assistant, conversation)
    (job,) = [m for m in assistant.memory.items("semantic") if "veterinary" in m.text]

    assistant.memory.forget([job.id])

    (episode,) = assistant.memory.episodes(conversation.id)
    stored = versions_of(episode)
    assert stored.texts == ("Version 1. [forgotten]", "Version 2. [forgotten]")
    assert "veterinary" not in episode.text
    assistant.choose_reply_version(conversation, 1, 0)  # the earlier version stays erased too
    (episode,) = assistant.memory.episodes(conversation.id)
    assert episode.reply_text == "Version 1. [forgotten]"
    assert conversation.messages[1].content == "Version 1. [forgotten]"


def test_versions_without_memory_live_in_the_conversation_only() -> None:
    assistant = Assistant(dishes_engine(), GenerationSettings())
    conversation = assistant.start_conversation()
    chat(assistant, conversation, "What should I cook for dinner?")
    regenerate(assistant, conversation)

    assistant.choose_reply_version(conversation, 1, 0)

    assert conversation.messages[1].content == "Try the zebrafish ramen tonight."
    assert conversation.versions[1].count == 2


def test_choosing_a_version_that_does_not_exist_is_an_input_error(
    dinner: tuple[Assistant, Conversation],
) -> None:
    assistant, conversation = dinner
    with pytest.raises(InputError, match="no version 3"):
        assistant.choose_reply_version(conversation, 1, 2)
    with pytest.raises(InputError, match="no reply versions"):
        assistant.choose_reply_version(conversation, 0, 0)
    assert conversation.messages[1].content == "Try the quokka tempura tonight."


def test_a_new_message_after_regenerate_starts_a_new_exchange(
    dinner: tuple[Assistant, Conversation],
) -> None:
    assistant, conversation = dinner
    chat(assistant, conversation, "And for dessert?")
    regenerate(assistant, conversation)

    assert len(assistant.memory.episodes(conversation.id)) == 2
    assert conversation.versions[1].count == 2 and conversation.versions[3].count == 2


def test_a_regenerated_reply_is_not_answered_from_its_own_exchange(
    open_memory: Callable[[], MemoryService],
) -> None:
    assistant = Assistant(dishes_engine(), GenerationSettings(), memory=open_memory())
    conversation = assistant.start_conversation()
    first = chat(assistant, conversation, "I love cooking Japanese food at home.")

    again = regenerate(assistant, conversation)

    assert first.episode_id not in {r.item.id for r in again.memories_used}
