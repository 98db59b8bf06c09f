"""Conversations as memory keeps them: one episode per exchange, a small index of titles, and
the conversations deleted in this process (a reply still streaming for one is not stored)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from desktop_agent.core.conversation_index import ConversationIndex, ConversationSummary
from desktop_agent.core.memory_changes import ConversationClosed, MemoryChange
from desktop_agent.core.memory_model import EPISODIC, MemoryItem, episode_text, item_from_record
from desktop_agent.core.questions import asks_only
from desktop_agent.errors import InputError

if TYPE_CHECKING:
    from desktop_agent.core.history_import import HistoryMessage
    from desktop_agent.core.memory_service import MemoryService
    from desktop_agent.core.memory_writes import MemoryWrites
    from desktop_agent.core.reply_versions import Change
    from desktop_agent.memory.model import ForgetReceipt


class Conversations:
    """The episode and conversation verbs of a ``MemoryService``."""

    def __init__(self, service: MemoryService, writes: MemoryWrites) -> None:
        self.service = service
        self.writes = writes
        # Conversations deleted in this process: a reply still in flight is not stored.
        self._closed: set[str] = set()
        self._index: ConversationIndex | None = None

    # --- the list ----------------------------------------------------------------------------
    def summaries(self) -> list[ConversationSummary]:
        """The remembered conversations, the most recent first, from the conversation index
        (every episode is decoded once, at warm-up or the first call; writes keep it current)."""
        with self.service.vault.lock:
            return self.index().summaries()

    def index(self) -> ConversationIndex:
        if self._index is None:
            self._index = ConversationIndex(
                item_from_record(r) for r in self.service.vault.list(EPISODIC)
            )
        return self._index

    def follow(self, change: MemoryChange) -> None:
        """Keep the index in step with a write (the caller holds the vault's lock)."""
        index = self._index
        if index is None:
            return
        if len(change.added) > 1000:
            self._index = None  # a bulk import: one rebuild costs no more
            return
        vault = self.service.vault
        for memory_id in change.forgotten:
            index.drop(memory_id)
        for memory_id in (*change.added, *change.edited):
            if memory_id in vault and vault.kind_of(memory_id) == EPISODIC:
                index.put(self.service.item(memory_id))  # a rename, or a redaction of its words
            else:
                index.drop(memory_id)

    # --- writes ------------------------------------------------------------------------------
    def record_episode(
        self,
        conversation_id: str,
        user: str,
        reply: str,
        *,
        title: str = "",
        intent: str = "",
        action: str = "",
        used: Sequence[str] = (),
        instructions: str = "",
    ) -> MemoryItem:
        """Store one exchange of a live chat as an episodic memory; ConversationClosed when
        the conversation was deleted meanwhile (the reply was still streaming)."""
        service = self.service
        with service.lane:
            if conversation_id in self._closed:
                raise ConversationClosed(f"conversation {conversation_id} was deleted")
            text, user_end = episode_text(user, reply)
            meta = {
                "title": title,
                "intent": intent,
                "action": action,
                "used": list(used),
                "user_end": user_end,
                "importance": 0.3,
                "source": "chat",
                "question_only": asks_only(user),
                # The chat's own instructions ride on each exchange, encrypted with it, so a
                # reopened chat follows them after a restart (the latest exchange says).
                "instructions": instructions,
            }
            vector = service.embedder.embed([text])[0]
            record = service.vault.add(
                EPISODIC, text, vector=vector, meta=meta, conversation_id=conversation_id
            )
            service.notify(MemoryChange(added=(str(record.id),)))
            return item_from_record(record)

    def update_reply(self, episode_id: str, change: Change) -> MemoryItem:
        """Rewrite one exchange's reply: a version added by Regenerate, or the one the user
        chose (``core/reply_versions.py``); read and written as one job."""
        service = self.service
        with service.lane:
            episode = service.item(episode_id)
            if episode.conversation_id in self._closed:
                raise ConversationClosed(f"conversation {episode.conversation_id} was deleted")
            text, meta = change(episode)
            vector = service.embedder.embed([text])[0]
            # One version kept: the meta holds every reply version, older rows would repeat them.
            record = service.vault.update(
                episode_id, text=text, meta=meta, vector=vector, keep_history=False
            )
            service.notify(MemoryChange(edited=(episode_id,)))
            return item_from_record(record)

    def rename(self, conversation_id: str, title: str) -> None:
        with self.service.lane:
            episodes = self.service.episodes(conversation_id)
            if episodes:
                self.writes.set_meta(episodes[-1].id, title=title)

    def pin(self, conversation_id: str, pinned: bool) -> None:
        """Keep a conversation at the top of the list (said on its latest episode, as a title
        is; a newer episode without the key keeps it)."""
        with self.service.lane:
            episodes = self.service.episodes(conversation_id)
            if episodes:
                self.writes.set_meta(episodes[-1].id, pinned=pinned)

    def set_instructions(self, conversation_id: str, instructions: str) -> None:
        """This chat's own instructions ("" for the ones in Settings), said on its latest
        episode as a title is; a chat with nothing stored yet carries them on its first."""
        with self.service.lane:
            episodes = self.service.episodes(conversation_id)
            if episodes:
                self.writes.set_meta(episodes[-1].id, instructions=instructions)

    def import_history(self, messages: Sequence[HistoryMessage]) -> list[MemoryItem]:
        """Store imported messages as episodes, one vault commit for the whole batch; each
        keeps its own id as the source id."""
        from desktop_agent.core.history_import import memory_text
        from desktop_agent.memory.model import NewMemory

        if not messages:
            return []
        service = self.service
        texts = [memory_text(m) for m in messages]
        vectors = service.embedder.embed(texts)
        rows = [
            NewMemory(
                EPISODIC,
                text,
                vector,
                meta={
                    "speaker": m.speaker,
                    "seq": m.line_number,
                    "source": "import",
                    "importance": 0.3,
                },
                conversation_id=m.conversation,
                source_id=m.id,
                created_at=m.timestamp,
            )
            for m, text, vector in zip(messages, texts, vectors, strict=True)
        ]
        with service.lane:
            records = service.vault.add_many(rows)
            service.notify(MemoryChange(added=tuple(str(r.id) for r in records)))
        return [item_from_record(r) for r in records]

    def close(self, conversation_id: str) -> None:
        """Nothing more is stored for this conversation in this process (it is being deleted;
        a reply still streaming for it must not bring it back)."""
        with self.service.lane:
            self._closed.add(conversation_id)

    def forget(self, conversation_id: str) -> ForgetReceipt:
        """Forget a conversation's episodes and everything learned only from them, and close
        it. A fact also learned elsewhere stays, with this conversation removed from its
        sources."""
        service = self.service
        with service.lane:
            self._closed.add(conversation_id)
            episodes = [e.id for e in service.episodes(conversation_id)]
            if not episodes:
                raise InputError(f"no remembered conversation with id {conversation_id}")
            doomed = list(episodes)
            for item in service.learned_from(episodes):
                remaining = [p for p in item.provenance if p.episode_id not in episodes]
                if remaining:
                    self.writes.set_meta(item.id, provenance=[p.to_json() for p in remaining])
                else:
                    doomed.append(item.id)
            return service.forget(doomed)
