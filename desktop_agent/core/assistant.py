"""The core service the CLI and the GUI both drive: one turn at a time, streamed."""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field

from desktop_agent.core.conversation import Conversation
from desktop_agent.errors import InputError
from desktop_agent.llm import (
    ChatEngine,
    ChatMessage,
    Generation,
    GenerationResult,
    GenerationSettings,
)

SYSTEM_PROMPT = (
    "You are a helpful, honest assistant running privately on the user's own computer. "
    "Answer clearly and briefly."
)


@dataclass(frozen=True, slots=True)
class Reply:
    conversation_id: str
    text: str
    result: GenerationResult
    memories_used: tuple[object, ...] = field(default=())


class Turn:
    """One streamed reply. Iterate for text pieces (from any one thread), ``cancel()`` from any
    thread, then ``finish()`` for the Reply; the conversation is updated exactly once."""

    def __init__(
        self, generation: Generation, on_finish: Callable[[GenerationResult], Reply]
    ) -> None:
        self._generation = generation
        self._on_finish = on_finish
        self._reply: Reply | None = None
        self._lock = threading.Lock()

    def __iter__(self) -> Iterator[str]:
        return iter(self._generation)

    def cancel(self) -> None:
        self._generation.cancel()

    @property
    def cancelled(self) -> bool:
        return self._generation.cancelled

    def finish(self) -> Reply:
        with self._lock:
            if self._reply is None:
                self._reply = self._on_finish(self._generation.result())
            return self._reply


class Assistant:
    """Conversations with the chat engine."""

    def __init__(
        self,
        engine: ChatEngine,
        generation_settings: GenerationSettings,
        *,
        system_prompt: str = SYSTEM_PROMPT,
    ) -> None:
        self.engine = engine
        self.generation_settings = generation_settings
        self.system_prompt = system_prompt
        self._conversations: dict[str, Conversation] = {}

    # --- conversations ---------------------------------------------------------------------
    def start_conversation(self, *, incognito: bool = False) -> Conversation:
        conversation = Conversation(incognito=incognito)
        self._conversations[conversation.id] = conversation
        return conversation

    def conversations(self) -> list[Conversation]:
        """All conversations, the most recently started first."""
        return sorted(self._conversations.values(), key=lambda c: c.started_at, reverse=True)

    def conversation(self, conversation_id: str) -> Conversation:
        try:
            return self._conversations[conversation_id]
        except KeyError:
            raise InputError(f"no conversation with id {conversation_id}") from None

    def rename_conversation(self, conversation_id: str, title: str) -> Conversation:
        if not title.strip():
            raise InputError("a conversation title cannot be empty")
        conversation = self.conversation(conversation_id)
        conversation.title = title.strip()
        return conversation

    def delete_conversation(self, conversation_id: str) -> None:
        self.conversation(conversation_id)
        del self._conversations[conversation_id]

    # --- turns -------------------------------------------------------------------------------

    def send(self, conversation: Conversation, text: str) -> Turn:
        """Start the reply to ``text``; raises InputError for an empty message."""
        if not text or not text.strip():
            raise InputError("the message is empty: type something to send")
        messages = self._prompt(conversation.messages, text)
        generation = self.engine.chat(messages, self.generation_settings)

        def on_finish(result: GenerationResult) -> Reply:
            conversation.add("user", text)
            if result.text:
                conversation.add("assistant", result.text)
            return Reply(conversation.id, result.text, result)

        return Turn(generation, on_finish)

    def regenerate(self, conversation: Conversation) -> Turn:
        """Drop the last reply and answer the same message again."""
        last = conversation.drop_last_exchange()
        if last is None:
            raise InputError("nothing to regenerate: the conversation has no message yet")
        return self.send(conversation, last)

    def edit_and_resend(self, conversation: Conversation, text: str) -> Turn:
        """Replace the last user message with ``text`` and answer it."""
        if conversation.drop_last_exchange() is None:
            raise InputError("nothing to edit: the conversation has no message yet")
        return self.send(conversation, text)

    def _prompt(self, history: Sequence[ChatMessage], text: str) -> list[ChatMessage]:
        return [ChatMessage("system", self.system_prompt), *history, ChatMessage("user", text)]
