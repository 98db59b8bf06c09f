"""A conversation: its id, its messages so far, and whether it is incognito."""

from __future__ import annotations

import secrets
from dataclasses import dataclass, field
from datetime import UTC, datetime

from desktop_agent.core.reply_versions import ReplyVersions
from desktop_agent.core.turn import QUOTE_OPENING
from desktop_agent.errors import InputError
from desktop_agent.llm import ChatMessage

ConversationId = str


def new_conversation_id() -> ConversationId:
    return "c_" + secrets.token_hex(8)


def opening_words(message: str) -> str:
    """The title a conversation gets from its first message when the user gave none."""
    return message.strip().splitlines()[0][:60] if message.strip() else ""


@dataclass(slots=True)
class Conversation:
    """The messages of one chat. Mutable on purpose: it grows turn by turn."""

    id: ConversationId = field(default_factory=new_conversation_id)
    title: str = ""
    incognito: bool = False
    started_at: datetime = field(default_factory=lambda: datetime.now(UTC))
    messages: list[ChatMessage] = field(default_factory=list)
    # Working memory: what the user is trying to get done in this conversation.
    goal: str = ""
    # Instructions for this chat only; empty means the ones in the settings.
    instructions: str = ""
    # Kept at the top of the conversation list.
    pinned: bool = False
    # Index of a reply in ``messages`` -> its versions (Regenerate adds one) and stored exchange.
    versions: dict[int, ReplyVersions] = field(default_factory=dict)

    def add(self, role: str, content: str) -> None:
        self.messages.append(ChatMessage(role, content))  # type: ignore[arg-type]
        if not self.title and role == "user":
            self.title = opening_words(content)

    def chosen_title(self) -> str:
        """The title the user gave, or "" when it is only the first message's opening words
        (stored with every exchange, those words would outlive forgetting them)."""
        return "" if self.title == opening_words(self.first_user_message()) else self.title

    def first_user_message(self) -> str:
        return next((m.content for m in self.messages if m.role == "user"), "")

    def history_for_the_model(self) -> list[ChatMessage]:
        """The messages the model reads back: a command's exchange ("/remember ...", a forget's
        offer and the yes to it) is no part of the conversation, and after a forget its erased
        list only taught a small model to answer with lists of "[forgotten]". Nor is a quote
        of the user's words the core answered with: the bundled model copied its opening into
        the next reply ("what should I cook tonight?" -> "You told me ..."), which the guard
        against made-up quotes then replaced with "I don't know that yet"."""
        kept: list[ChatMessage] = []
        for index, message in enumerate(self.messages):
            quote = message.role == "assistant" and message.content.startswith(QUOTE_OPENING)
            if message.role == "assistant" and (index not in self.versions or quote):
                if kept and kept[-1].role == "user":
                    kept.pop()  # (the command or the question it answered)
                continue
            kept.append(message)
        return kept

    def last_user_message(self) -> str | None:
        return next((m.content for m in reversed(self.messages) if m.role == "user"), None)

    def message_to_regenerate(self) -> str:
        """The last user message, to answer again; InputError when there is none, or when a
        command answered it (regenerating "/remember ..." or a forget would do it twice)."""
        last = self.last_user_message()
        if last is None:
            raise InputError("nothing to regenerate: the conversation has no message yet")
        answered = bool(self.messages) and self.messages[-1].role == "assistant"
        if answered and self.reply_index() not in self.versions:
            raise InputError("that reply answered a command: type the command again to repeat it")
        return last

    def reply_index(self) -> int:
        """Where the reply to the last message is, or would go, in ``messages``."""
        answered = bool(self.messages) and self.messages[-1].role == "assistant"
        return len(self.messages) - 1 if answered else len(self.messages)

    def drop_last_exchange(self) -> str | None:
        """Remove the last user message and any reply to it (for regenerate / edit and resend);
        returns that user message."""
        while self.messages and self.messages[-1].role == "assistant":
            self.messages.pop()
        said = None
        if self.messages and self.messages[-1].role == "user":
            said = self.messages.pop().content
        for index in [i for i in self.versions if i >= len(self.messages)]:
            del self.versions[index]
        return said
