"""The user's instructions reach the prompt (a chat's own override them); a reasoning model's
thinking is kept out of memory and history."""

from __future__ import annotations

from desktop_agent.core.assistant import Assistant
from desktop_agent.core.memory_service import MemoryService
from desktop_agent.core.reasoning import split_thinking
from desktop_agent.llm import GenerationSettings
from desktop_agent.llm.fake import ScriptedEngine
from tests.core.conftest import chat


def test_instructions_reach_the_prompt_and_a_chat_may_override_them() -> None:
    engine = ScriptedEngine(lambda messages: "Ahoy.")
    assistant = Assistant(engine, GenerationSettings(), instructions="Talk like a pirate.")
    chat(assistant, assistant.start_conversation(), "Hello")
    assert "Talk like a pirate." in engine.prompts[-1][0].content
    own = assistant.start_conversation()
    own.instructions = "Answer in French."
    chat(assistant, own, "Hello")
    system = engine.prompts[-1][0].content
    assert "Answer in French." in system and "pirate" not in system


def test_thinking_is_shown_apart_and_never_remembered(memory: MemoryService) -> None:
    engine = ScriptedEngine(lambda messages: "<think>The user lives in Oslo?</think>Hello there!")
    assistant = Assistant(engine, GenerationSettings(), memory=memory)
    conversation = assistant.start_conversation()
    reply = chat(assistant, conversation, "I live in Bergen.")
    assert reply.text == "Hello there!" and reply.thinking == "The user lives in Oslo?"
    assert conversation.messages[-1].content == "Hello there!"
    stored = memory.item(reply.episode_id)
    assert "Oslo" not in stored.text and "think" not in stored.text
    assert all("Oslo" not in m.text for m in memory.items("semantic"))


def test_split_thinking_cases() -> None:
    assert split_thinking("Paris.") == ("", "Paris.")
    assert split_thinking("<think>a</think>\n\nParis.") == ("a", "Paris.")
    assert split_thinking("<think>still going") == ("still going", "")


def test_a_chats_own_instructions_are_kept_across_restarts(open_memory) -> None:  # noqa: ANN001
    memory = open_memory()
    engine = ScriptedEngine(lambda messages: "Bonjour.")
    assistant = Assistant(engine, GenerationSettings(), instructions="Be brief.", memory=memory)
    french = assistant.start_conversation()
    assistant.set_instructions(french.id, "Answer in French.")  # nothing stored yet: kept in RAM
    chat(assistant, french, "Hello")
    plain = assistant.start_conversation()
    chat(assistant, plain, "Hello")
    chat(assistant, french, "And again")  # the latest exchange carries them too

    engine = ScriptedEngine(lambda messages: "Bonjour.")
    again = Assistant(engine, GenerationSettings(), instructions="Be brief.", memory=open_memory())
    reopened = again.conversation(french.id)
    assert reopened.instructions == "Answer in French."
    assert again.conversation(plain.id).instructions == ""
    chat(again, reopened, "Hello once more")
    system = engine.prompts[-1][0].content
    assert "Answer in French." in system and "Be brief." not in system

    again.set_instructions(french.id, "")  # back to the ones in Settings, after a restart too
    third = Assistant(ScriptedEngine(), GenerationSettings(), memory=open_memory())
    assert third.conversation(french.id).instructions == ""
