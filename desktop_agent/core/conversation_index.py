"""The conversation list, kept by the core as writes happen instead of decoding every episode.

Listing conversations used to rebuild them from all episodes (217 ms at 10k memories, on the
GUI thread when the sidebar refreshed). The index holds, per episode, only what a list row
needs (its time, the title it carries, the opening words of its message) and each
conversation's summary, recomputed only when one of its episodes is written or forgotten.
It lives in RAM with the rest of the unlocked memory and goes with it at Lock.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime

from desktop_agent.core.memory_model import MemoryItem

OPENING_CHARS = 60  # an untitled conversation is named by its first message's start


@dataclass(frozen=True, slots=True)
class ConversationSummary:
    id: str
    title: str
    started_at: datetime
    last_at: datetime
    episodes: int
    pinned: bool = False


@dataclass(frozen=True, slots=True)
class _Row:
    at: datetime
    seq: int  # imported turns of one session share a time; their line order breaks the tie
    memory_id: str
    title: str
    opening: str
    pinned: bool | None  # set on the episode by a pin or unpin; None: not said there


class ConversationIndex:
    """Summaries of the remembered conversations, updated one episode at a time."""

    def __init__(self, episodes: Iterable[MemoryItem] = ()) -> None:
        self._rows: dict[str, dict[str, _Row]] = {}
        self._conversation_of: dict[str, str] = {}
        self._summaries: dict[str, ConversationSummary] = {}
        for episode in episodes:
            self.put(episode)

    def put(self, episode: MemoryItem) -> None:
        """An episode was stored or changed (a rename writes the title on the last one)."""
        conversation = episode.conversation_id
        if not conversation:
            return
        title = str((episode.meta or {}).get("title", "") or "")
        meta = episode.meta or {}
        seq = int(meta.get("seq", 0) or 0)
        pinned = bool(meta["pinned"]) if "pinned" in meta else None
        row = _Row(
            episode.created_at, seq, episode.id, title, episode.user_text[:OPENING_CHARS], pinned
        )
        self._rows.setdefault(conversation, {})[episode.id] = row
        self._conversation_of[episode.id] = conversation
        self._summaries.pop(conversation, None)

    def drop(self, memory_id: str) -> None:
        """A memory was forgotten (nothing happens if it was not an indexed episode)."""
        conversation = self._conversation_of.pop(memory_id, None)
        if conversation is None:
            return
        rows = self._rows.get(conversation, {})
        rows.pop(memory_id, None)
        if not rows:
            self._rows.pop(conversation, None)
        self._summaries.pop(conversation, None)

    def __contains__(self, memory_id: object) -> bool:
        return memory_id in self._conversation_of

    def summaries(self) -> list[ConversationSummary]:
        """Every conversation, the most recently active first."""
        for conversation in self._rows.keys() - self._summaries.keys():
            self._summaries[conversation] = self._summarise(conversation)
        return sorted(self._summaries.values(), key=lambda s: s.last_at, reverse=True)

    def _summarise(self, conversation: str) -> ConversationSummary:
        rows = sorted(self._rows[conversation].values(), key=lambda r: (r.at, r.seq, r.memory_id))
        title = next((r.title for r in reversed(rows) if r.title), "") or rows[0].opening
        pinned = next((r.pinned for r in reversed(rows) if r.pinned is not None), False)
        return ConversationSummary(conversation, title, rows[0].at, rows[-1].at, len(rows), pinned)
