"""The agent loop end to end: perceive, recall, respond, reflect, over a real vault."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from desktop_agent.core.assistant import Assistant
from desktop_agent.core.memory_service import MemoryService
from desktop_agent.errors import InputError
from desktop_agent.llm import GenerationSettings
from desktop_agent.llm.fake import ScriptedEngine
from tests.core.conftest import chat


def system_prompt(engine: ScriptedEngine) -> str:
    return engine.prompts[-1][0].content


def test_facts_told_in_one_session_shape_replies_in_the_next(
    open_memory: Callable[[], MemoryService],
) -> None:
    # Given a first session where the user says who they are
    first = Assistant(ScriptedEngine(), GenerationSettings(), memory=open_memory())
    reply = chat(first, first.start_conversation(), "Hi, my name is Ana and I live in Lisbon.")
    assert {m.subject_key for m in reply.learned} >= {"name", "home_city"}

    # When a new session (the vault reopened) is asked about it
    engine = ScriptedEngine()
    second = Assistant(engine, GenerationSettings(), memory=open_memory())
    answer = chat(second, second.start_conversation(), "Where do I live?")

    # Then the reply states the fact and the memory lens says why, with its scores
    assert answer.text == "You live in Lisbon."
    lens = {r.item.text: r.hit for r in answer.memories_used}
    assert "User lives in Lisbon" in lens
    assert lens["User lives in Lisbon"].keyword_score > 0

    # And a message that is not a question about the user puts the fact in the model's prompt
    chat(second, second.start_conversation(), "Any tips for living in Lisbon?")
    assert "The user lives in Lisbon" in system_prompt(engine)


def test_learned_memories_link_to_the_words_they_came_from(assistant: Assistant) -> None:
    message = "By the way, I'm allergic to peanuts."
    reply = chat(assistant, assistant.start_conversation(), message)

    (fact,) = reply.learned
    (source,) = fact.provenance
    assert source.episode_id == reply.episode_id
    assert "allergic to peanuts" in message[source.start : source.end]
    episode = assistant.memory.item(reply.episode_id)
    assert episode.user_text == message


def test_a_correction_supersedes_and_the_old_fact_stays_in_history(assistant: Assistant) -> None:
    conversation = assistant.start_conversation()
    chat(assistant, conversation, "I live in Lisbon.")
    chat(assistant, conversation, "Actually, I moved to Porto last month.")

    facts = [m for m in assistant.memory.items("semantic") if m.subject_key == "home_city"]
    current = [m for m in facts if m.active]
    old = [m for m in facts if not m.active]
    assert [m.text for m in current] == ["User lives in Porto"]
    assert [m.status for m in old] == ["superseded"]
    assert old[0].superseded_by == current[0].id
    assert current[0].supersedes == old[0].id


def test_the_assistants_own_words_are_never_learned(memory: MemoryService) -> None:
    engine = ScriptedEngine(lambda messages: "My name is Bob and I live in Paris.")
    assistant = Assistant(engine, GenerationSettings(), memory=memory)
    chat(assistant, assistant.start_conversation(), "Tell me something.")
    assert memory.items("semantic") == []


def test_incognito_writes_nothing(assistant: Assistant) -> None:
    before = len(assistant.memory.vault)
    chat(assistant, assistant.start_conversation(incognito=True), "My name is Ana.")
    assert len(assistant.memory.vault) == before


def test_memory_off_neither_recalls_nor_writes(memory: MemoryService) -> None:
    memory.remember("User lives in Lisbon", subject_key="home_city")
    before = len(memory.vault)
    engine = ScriptedEngine()
    assistant = Assistant(engine, GenerationSettings(), memory=memory, memory_enabled=False)
    reply = chat(assistant, assistant.start_conversation(), "Where do I live? My name is Ana.")
    assert reply.memories_used == ()
    assert "Lisbon" not in system_prompt(engine)
    assert len(memory.vault) == before


def test_remember_command_stores_without_the_model(
    assistant: Assistant, engine: ScriptedEngine
) -> None:
    reply = chat(assistant, assistant.start_conversation(), "/remember my passport expires in 2031")
    assert reply.text.startswith("I'll remember that")
    assert engine.prompts == []
    (fact,) = [m for m in assistant.memory.items("semantic")]
    assert fact.text == "my passport expires in 2031"
    assert fact.provenance and fact.reviewed


def test_forget_command_asks_then_forgets(assistant: Assistant) -> None:
    memory = assistant.memory
    kept = memory.remember("User likes green tea", subject_key="likes:green tea")
    doomed = memory.remember("User has a dog named Rex", subject_key="pet")
    conversation = assistant.start_conversation()

    proposal = chat(assistant, conversation, "/forget dog Rex")
    assert "User has a dog named Rex" in proposal.text and "yes or no" in proposal.text
    assert doomed.id in memory.vault  # nothing forgotten before the answer

    done = chat(assistant, conversation, "yes")
    assert done.receipt is not None and doomed.id in done.receipt.ids
    assert doomed.id not in memory.vault
    assert kept.id in memory.vault


def test_forget_command_cancelled_keeps_everything(assistant: Assistant) -> None:
    fact = assistant.memory.remember("User has a dog named Rex", subject_key="pet")
    conversation = assistant.start_conversation()
    chat(assistant, conversation, "/forget Rex")
    reply = chat(assistant, conversation, "no")
    assert "nothing was forgotten" in reply.text
    assert fact.id in assistant.memory.vault


def test_length_feedback_teaches_another_answer_style(
    assistant: Assistant, engine: ScriptedEngine
) -> None:
    conversation = assistant.start_conversation()
    chat(assistant, conversation, "How do I boil an egg?")
    assert "Answer briefly and directly." in system_prompt(engine)

    # about the length, not the content: "that's wrong" would leave the styles alone
    chat(assistant, conversation, "That's far too short, not helpful at all.")
    chat(assistant, conversation, "How do I make tea?")

    assert {(s.context, s.action, s.successes, s.total) for s in assistant.memory.strategies()} == {
        ("question", "concise", 0, 1),
        ("question", "detailed", 1, 1),
    }
    assert "Answer thoroughly, with explanations and examples." in system_prompt(engine)
    first_episode = assistant.memory.episodes(conversation.id)[0]
    assert (first_episode.meta or {}).get("outcome") == "too_short"


def test_excluded_memory_stays_out_of_this_conversation(
    assistant: Assistant, engine: ScriptedEngine
) -> None:
    fact = assistant.memory.remember("User lives in Lisbon", subject_key="home_city")
    conversation = assistant.start_conversation()
    assistant.exclude_memory(conversation.id, fact.id)
    reply = chat(assistant, conversation, "Where do I live?")
    assert fact.id not in {r.item.id for r in reply.memories_used}
    assert "Lisbon" not in reply.text
    chat(assistant, conversation, "Tell me about living in Lisbon")
    assert "The user lives in Lisbon" not in system_prompt(engine)


def test_conversations_survive_a_restart(open_memory: Callable[[], MemoryService]) -> None:
    first = Assistant(ScriptedEngine(), GenerationSettings(), memory=open_memory())
    conversation = first.start_conversation()
    chat(first, conversation, "Plan a trip to Japan")
    first.rename_conversation(conversation.id, "Japan trip")

    second = Assistant(ScriptedEngine(), GenerationSettings(), memory=open_memory())
    (restored,) = second.conversations()
    assert restored.title == "Japan trip"
    messages = second.conversation(restored.id).messages
    assert [m.role for m in messages] == ["user", "assistant"]
    assert messages[0].content == "Plan a trip to Japan"


def test_deleting_a_conversation_forgets_what_was_learned_only_there(assistant: Assistant) -> None:
    memory = assistant.memory
    one, two = assistant.start_conversation(), assistant.start_conversation()
    chat(assistant, one, "I'm allergic to peanuts.")
    chat(assistant, two, "I'm allergic to peanuts, remember.")
    chat(assistant, one, "My name is Ana.")

    receipt = assistant.delete_conversation(one.id)

    assert receipt is not None
    remaining = {m.subject_key: m for m in memory.items("semantic")}
    assert "name" not in remaining  # learned only in the deleted conversation
    allergy = remaining["allergy:peanut"]  # also learned in the other one: kept
    assert {p.conversation_id for p in allergy.provenance} == {two.id}
    assert memory.episodes(one.id) == []


def test_regenerate_and_edit_check_before_dropping(assistant: Assistant) -> None:
    conversation = assistant.start_conversation()
    chat(assistant, conversation, "Hello there")
    with pytest.raises(InputError):
        assistant.edit_and_resend(conversation, "   ")
    assert [m.content for m in conversation.messages][0] == "Hello there"

    turn = assistant.regenerate(conversation)
    list(turn)
    turn.finish()
    assert [m.role for m in conversation.messages] == ["user", "assistant"]


def test_a_commands_answer_is_not_regenerated(assistant: Assistant, memory: MemoryService) -> None:
    conversation = assistant.start_conversation()
    chat(assistant, conversation, "/remember my locker code is 9930")
    remembered = len(memory.items("semantic"))
    with pytest.raises(InputError, match="answered a command"):
        assistant.regenerate(conversation)
    assert [m.role for m in conversation.messages] == ["user", "assistant"]
    assert len(memory.items("semantic")) == remembered  # not remembered twice
    chat(assistant, conversation, "Hello there")  # a model's reply can be, as before
    turn = assistant.regenerate(conversation)
    list(turn)
    assert turn.finish().versions is not None


def test_long_conversations_keep_a_summary_of_older_turns(memory: MemoryService) -> None:
    engine = ScriptedEngine(lambda messages: "ok " * 50)
    assistant = Assistant(engine, GenerationSettings(max_tokens=64), memory=memory, n_ctx=600)
    conversation = assistant.start_conversation()
    chat(assistant, conversation, "Help me plan a garden with tomatoes.")
    for i in range(12):
        chat(assistant, conversation, f"Question number {i} about watering the plants every day.")

    prompt = engine.prompts[-1]
    assert len(prompt) < len(conversation.messages)
    assert "Earlier in this conversation" in prompt[0].content
    assert "The user's current goal: Help me plan a garden" in prompt[0].content


def test_episodes_that_taught_a_superseded_fact_stay_out_of_the_prompt(
    assistant: Assistant, engine: ScriptedEngine
) -> None:
    conversation = assistant.start_conversation()
    chat(assistant, conversation, "I live in Lisbon.")
    chat(assistant, conversation, "Actually, I moved to Porto.")

    reply = chat(assistant, assistant.start_conversation(), "Where do I live? Lisbon or Porto?")
    assert reply.text == "You live in Porto."
    assert all("Lisbon" not in r.item.text for r in reply.memories_used)

    chat(assistant, assistant.start_conversation(), "Good day trips from where I live")
    prompt = system_prompt(engine)
    assert "The user lives in Porto" in prompt
    assert "Lisbon" not in prompt


def test_learning_something_starts_a_background_consolidation(assistant: Assistant) -> None:
    chat(assistant, assistant.start_conversation(), "My name is Ana and I love hiking.")

    assert assistant.settle(timeout=30)  # the background run is done

    assert assistant.last_consolidation_error is None
    assert {t.topic for t in assistant.memory.items("topic")} == {"About you", "Likes and dislikes"}
    assert all(item.topic for item in assistant.memory.items("semantic"))


def test_unrelated_messages_inject_no_memories(
    assistant: Assistant, engine: ScriptedEngine
) -> None:
    assistant.memory.remember("User lives in Lisbon", subject_key="home_city")
    assistant.memory.remember("User is allergic to peanuts", subject_key="allergy:peanut")

    reply = chat(assistant, assistant.start_conversation(), "Write a palindrome checker function.")

    assert reply.memories_used == ()
    assert "Facts you remember" not in system_prompt(engine)


def test_a_stopped_reply_is_remembered_with_what_the_user_said(memory: MemoryService) -> None:
    engine = ScriptedEngine(lambda messages: "word " * 60, delay=0.01)
    assistant = Assistant(engine, GenerationSettings(max_tokens=60), memory=memory)
    conversation = assistant.start_conversation()
    turn = assistant.send(conversation, "My name is Ana.")
    for _ in turn:
        turn.cancel()

    reply = turn.finish()

    assert reply.result.cancelled
    assert reply.episode_id is not None
    assert [m.subject_key for m in reply.learned] == ["name"]


def test_natural_forget_that_asks_then_forgets(assistant: Assistant) -> None:
    fact = assistant.memory.remember("User lives in Porto", subject_key="home_city")
    conversation = assistant.start_conversation()

    proposal = chat(assistant, conversation, "Please forget that I live in Porto.")
    assert "User lives in Porto" in proposal.text
    done = chat(assistant, conversation, "yes")

    assert done.receipt is not None and fact.id in done.receipt.ids
    assert fact.id not in assistant.memory.vault
