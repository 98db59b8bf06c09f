"""A forget reaches the conversation still open: its messages on screen, its title, and the
history the model reads next (the stored exchanges are rewritten by the forget itself)."""

from __future__ import annotations

from collections.abc import Callable

from desktop_agent.core.assistant import Assistant
from desktop_agent.core.conversation import Conversation
from desktop_agent.core.memory_model import MemoryItem
from desktop_agent.core.memory_service import MemoryService
from desktop_agent.core.turn import Reply
from desktop_agent.llm import GenerationSettings
from desktop_agent.llm.fake import ScriptedEngine
from tests.core.conftest import chat


def _words(conversation: Conversation) -> str:
    return " ".join([conversation.title, *(m.content for m in conversation.messages)])


def _last_prompt(engine: ScriptedEngine) -> str:
    return "\n".join(m.content for m in engine.prompts[-1])


def test_a_chat_forget_erases_its_words_from_the_open_conversation_and_the_next_prompt(
    memory: MemoryService,
) -> None:
    # Given a chat that told a partner's name, then asked to forget him and said yes
    engine = ScriptedEngine(lambda messages: "Okay.")
    assistant = Assistant(engine, GenerationSettings(max_tokens=48), memory=memory)
    conversation = assistant.start_conversation()
    chat(assistant, conversation, "My boyfriend is called Luca. I work in Leeds.")
    offer = chat(assistant, conversation, "please forget everything about Luca").text
    assert "Luca" in offer
    chat(assistant, conversation, "yes")

    # Then the open conversation keeps no word of him, the title neither
    assert "luca" not in _words(conversation).casefold()
    assert "Leeds" in _words(conversation)  # (what was not forgotten stays)
    assert "[forgotten]" in conversation.messages[0].content

    # And the next prompt's history carries neither him nor the erased offer to the model
    chat(assistant, conversation, "Any plans for the weekend?")
    prompt = _last_prompt(engine)
    assert "luca" not in prompt.casefold()
    assert "[forgotten]" in prompt  # (the first message, as memory keeps it)
    assert "I found these memories" not in prompt and "Forgotten:" not in prompt


def test_a_commands_exchange_is_no_history_the_model_reads(memory: MemoryService) -> None:
    engine = ScriptedEngine(lambda messages: "Okay.")
    assistant = Assistant(engine, GenerationSettings(max_tokens=48), memory=memory)
    conversation = assistant.start_conversation()
    chat(assistant, conversation, "My cat is called Miso.")
    chat(assistant, conversation, "/remember I like green tea")
    chat(assistant, conversation, "Any plans for the weekend?")
    history = [m.content for m in engine.prompts[-1][1:]]
    assert history == ["My cat is called Miso.", "Okay.", "Any plans for the weekend?"]
    assert "I'll remember that" in conversation.messages[3].content  # (still on screen)


def test_a_cancelled_forget_keeps_the_request_and_the_offer(assistant: Assistant) -> None:
    conversation = assistant.start_conversation()
    chat(assistant, conversation, "My boyfriend is called Luca.")
    chat(assistant, conversation, "forget everything about Luca")
    chat(assistant, conversation, "no")
    request, offer = conversation.messages[2].content, conversation.messages[3].content
    assert "Luca" in request and "Luca" in offer


def test_a_forget_from_a_panel_reaches_every_open_conversation_that_showed_it(
    open_memory: Callable[[], MemoryService],
) -> None:
    # Given two open chats, one that told the job and one that did not
    memory = open_memory()
    engine = ScriptedEngine(lambda messages: "Noted.")
    assistant = Assistant(engine, GenerationSettings(max_tokens=48), memory=memory)
    told_here = assistant.start_conversation()
    told = chat(assistant, told_here, "I work as a veterinary nurse. My cat is called Miso.")
    elsewhere = assistant.start_conversation()
    chat(assistant, elsewhere, "What's a good name for a plant?")
    job = next(m for m in told.learned if m.subject_key == "job")

    # When the fact is forgotten outside the chat (the inspector, memory forget)
    rewrites = assistant.take_forget(memory.forget([job.id]))

    # Then the chat that showed it shows it erased, in its title too, and no other changed
    assert rewrites.conversations == (told_here.id,)
    assert "nurse" not in _words(told_here) and "veterinary" not in _words(told_here)
    assert "Miso" in _words(told_here)
    assert told_here.versions[1].text == "Noted."
    # and what the model reads next in that chat does not say it
    chat(assistant, told_here, "Any tips for a long weekend?")
    assert "nurse" not in _last_prompt(engine)


def test_a_replys_lens_and_learned_line_lose_a_forgotten_memory(assistant: Assistant) -> None:
    conversation = assistant.start_conversation()
    told = chat(assistant, conversation, "I work as a veterinary nurse. My cat is called Miso.")
    job = next(m for m in told.learned if m.subject_key == "job")
    asked = chat(assistant, conversation, "what do you know about my work?")
    assert any(r.item.id == job.id for r in asked.memories_used)

    rewrites = assistant.take_forget(assistant.memory.forget([job.id]))

    assert job.id not in {m.id for m in rewrites.reply(told).learned}
    assert any("Miso" in m.text for m in rewrites.reply(told).learned)
    assert job.id not in {r.item.id for r in rewrites.reply(asked).memories_used}


def _name_repeated_elsewhere(
    memory: MemoryService, repeating: str
) -> tuple[Assistant, Conversation, Reply, MemoryItem]:
    """A partner's name learned in one exchange and repeated by the model (``repeating``) in
    the next: the assistant, the conversation, that later reply and the fact learned."""
    replies = iter(["Okay.", repeating])
    engine = ScriptedEngine(lambda messages: next(replies))
    assistant = Assistant(engine, GenerationSettings(max_tokens=48), memory=memory)
    conversation = assistant.start_conversation()
    told = chat(assistant, conversation, "My boyfriend is called Luca.")
    later = chat(assistant, conversation, "Any tips for a long weekend away?")
    partner = next(m for m in told.learned if "Luca" in m.text)
    return assistant, conversation, later, partner


def test_a_reply_elsewhere_that_repeated_a_forgotten_name_loses_that_sentence(
    memory: MemoryService,
) -> None:
    # Given a name learned in one exchange and repeated by the model in another
    assistant, conversation, later, partner = _name_repeated_elsewhere(
        memory, "You may want to rest. Enjoy your time in Seville with Luca!"
    )

    # When the fact is forgotten
    receipt = memory.forget([partner.id])

    # Then that reply no longer says the name, and keeps what did not say it
    assert later.episode_id in receipt.redacted
    episode = memory.item(later.episode_id)
    assert "Luca" not in episode.text
    assert "You may want to rest." in episode.reply_text  # ("may" is no month here)
    assert episode.user_text == "Any tips for a long weekend away?"
    # and the open conversation shows it so
    assistant.take_forget(receipt)
    assert "luca" not in _words(conversation).casefold()


def test_a_forget_of_him_and_a_thing_erases_the_thing_from_the_request(
    assistant: Assistant,
) -> None:
    conversation = assistant.start_conversation()
    chat(assistant, conversation, "my boyfriend Luca and I are going to Seville in May.")
    chat(assistant, conversation, "well that's over. Luca and I broke up last night.")
    chat(
        assistant, conversation, "can you forget everything about him please? and the Seville trip"
    )
    chat(assistant, conversation, "yes")
    words = _words(conversation).casefold()
    assert "seville" not in words and "luca" not in words, words


def test_a_reply_that_only_repeated_the_name_is_counted_apart_from_where_it_came_from(
    memory: MemoryService,
) -> None:
    # Given a name learned in one exchange and repeated by the model in another
    _, _, later, partner = _name_repeated_elsewhere(memory, "Enjoy your time in Seville with Luca!")

    # Then the forget says, before and after, one message it came from and one reply
    preview = memory.forget_preview([partner.id])
    said = "and 1 message it came from and 1 reply that repeated it"
    assert preview.describe().startswith(said)  # (then the topic summary that quoted it)
    assert preview.repeated == (later.episode_id,)
    receipt = memory.forget([partner.id])
    assert receipt.repeated == (later.episode_id,) and len(receipt.redacted) == 2
    from desktop_agent.core.memory_service import receipt_touched

    assert receipt_touched(receipt).startswith(said)
    assert receipt.to_json()["repeated"] == [later.episode_id]
