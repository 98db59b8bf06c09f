"""The conversations of this process: those opened here and those memory remembers, each one
``Conversation`` object for as long as the process lives (the GUI lists them from its memory
thread while chatting on others, hence the lock)."""

from __future__ import annotations

import threading
from collections.abc import Sequence
from typing import TYPE_CHECKING

from desktop_agent.core.conversation import Conversation
from desktop_agent.llm import ChatMessage

if TYPE_CHECKING:
    from desktop_agent.core.conversation_index import ConversationSummary
    from desktop_agent.core.forget_rewrites import ForgetRewrites
    from desktop_agent.core.memory_model import MemoryItem


class OpenConversations:
    """Conversation objects by id, and the memories each keeps out of its prompts."""

    def __init__(self) -> None:
        self._by_id: dict[str, Conversation] = {}
        self._lock = threading.RLock()
        self._seen_remembered: set[str] = set()  # conversations the memory held when last read
        self._excluded: dict[str, set[str]] = {}

    def start(self, *, incognito: bool = False) -> Conversation:
        conversation = Conversation(incognito=incognito)
        with self._lock:
            self._by_id[conversation.id] = conversation
        return conversation

    def get(self, conversation_id: str) -> Conversation | None:
        return self._by_id.get(conversation_id)

    def drop(self, conversation_id: str) -> None:
        with self._lock:
            self._by_id.pop(conversation_id, None)

    def listed(self, remembered: Sequence[ConversationSummary] | None) -> list[Conversation]:
        """Open and remembered conversations, the most recent first. ``remembered``: what
        memory holds now, or None when memory is not in use."""
        with self._lock:
            for summary in remembered or ():
                if summary.id not in self._by_id:
                    self._by_id[summary.id] = Conversation(
                        id=summary.id,
                        title=summary.title,
                        started_at=summary.started_at,
                        pinned=summary.pinned,
                    )
            if remembered is not None:
                # Seen in memory before and gone now: forgotten (a conversation, or everything),
                # so it leaves the list too. Open chats not yet remembered stay.
                now = {s.id for s in remembered}
                for gone in self._seen_remembered - now:
                    self._by_id.pop(gone, None)
                self._seen_remembered = now
            listed = list(self._by_id.values())
        return sorted(listed, key=lambda c: c.started_at, reverse=True)

    def exclude(self, conversation_id: str, memory_id: str) -> None:
        """Keep one memory out of this conversation's prompts (from the memory lens)."""
        self._excluded.setdefault(conversation_id, set()).add(memory_id)

    def excluded(self, conversation_id: str) -> set[str]:
        return self._excluded.get(conversation_id, set())

    def take_rewrites(self, rewrites: ForgetRewrites) -> list[Conversation]:
        """Open conversations that showed an exchange a forget rewrote take its words as memory
        keeps them now; returns those that changed."""
        with self._lock:
            return [c for c in self._by_id.values() if rewrites.apply(c)]


def restore(conversation: Conversation, episodes: Sequence[MemoryItem]) -> None:
    """Fill a remembered conversation's messages from its episodes, with each reply's versions."""
    from desktop_agent.core.reply_versions import versions_of

    said = [(e.meta or {})["instructions"] for e in episodes if "instructions" in (e.meta or {})]
    if said:
        conversation.instructions = str(said[-1] or "")
    for episode in episodes:
        if episode.reply_text or (episode.meta or {}).get("source") == "chat":
            conversation.messages.append(ChatMessage("user", episode.user_text))
            conversation.messages.append(ChatMessage("assistant", episode.reply_text))
            conversation.versions[len(conversation.messages) - 1] = versions_of(episode)
