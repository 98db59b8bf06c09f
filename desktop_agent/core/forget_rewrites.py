"""What a forget rewrote, for the copies a process holds of it: the open conversations' messages
(what the screen shows and the next prompt's history holds) and the replies' memory lenses.

The vault's exchanges are rewritten by the forget itself; these copies were read before it, so
"forget it, the words erased from the conversation too" would not hold for the chat still open.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

from desktop_agent.core.conversation import Conversation, opening_words
from desktop_agent.llm import ChatMessage

if TYPE_CHECKING:
    from desktop_agent.core.memory_model import MemoryItem
    from desktop_agent.core.turn import Reply


@dataclass(frozen=True, slots=True)
class ForgetRewrites:
    """Memory id -> the memory as stored after the forget, None for one it forgot."""

    stored: Mapping[str, MemoryItem | None]
    conversations: tuple[str, ...] = ()  # open conversations that changed (once applied)

    def apply(self, conversation: Conversation) -> bool:
        """Put the stored words of each rewritten exchange in ``conversation`` (and an untitled
        chat's title, its first message's opening words); True if anything changed."""
        from desktop_agent.core.redaction import MARK
        from desktop_agent.core.reply_versions import ReplyVersions, versions_of

        untitled = not conversation.chosen_title()
        changed = False
        for index, versions in list(conversation.versions.items()):
            if versions.episode_id is None or versions.episode_id not in self.stored:
                continue
            episode = self.stored[versions.episode_id]
            if episode is None:
                user, now = MARK, ReplyVersions((MARK,))
            else:
                user, now = episode.user_text, versions_of(episode)
            messages = conversation.messages
            if 0 < index <= len(messages) and messages[index - 1].role == "user":
                messages[index - 1] = ChatMessage("user", user)
            if index < len(messages) and messages[index].role == "assistant":
                messages[index] = ChatMessage("assistant", now.text)
            conversation.versions[index] = now
            changed = True
        if changed and untitled:
            conversation.title = opening_words(conversation.first_user_message())
        return changed

    def reply(self, reply: Reply) -> Reply:
        """``reply`` with its lens and "memory updated" line as memory holds them now: a
        forgotten memory gone, a rewritten one in its new words."""
        used = tuple(
            replace(r, item=now)
            for r in reply.memories_used
            if (now := self.stored.get(r.item.id, r.item)) is not None
        )
        learned = tuple(
            now for item in reply.learned if (now := self.stored.get(item.id, item)) is not None
        )
        if used == reply.memories_used and learned == reply.learned:
            return reply
        return replace(reply, memories_used=used, learned=learned)
