"""What recall reads of a memory besides its vector and words (``MemoryFacts``), kept cheap.

Recall reads a few hundred candidates per query; each candidate's facts come from a cache of
text-less items (decoded once per version) and a map of conversation neighbours that writes
keep current instead of rebuilding.
"""

from __future__ import annotations

import re
from bisect import insort
from collections.abc import Callable
from dataclasses import replace
from datetime import datetime, timedelta
from typing import TYPE_CHECKING

from desktop_agent.core.memory_model import ACTIVE, EPISODIC, MemoryItem, item_from_record
from desktop_agent.core.questions import question_only
from desktop_agent.core.recall import MemoryFacts, neighbour_map

if TYPE_CHECKING:
    from desktop_agent.core.memory_changes import MemoryChange
    from desktop_agent.core.usage_counts import UsageCounts
    from desktop_agent.memory.vault import Vault


_FIRST_PERSON = re.compile(r"\b(?:i|me|my|mine|myself|we|us|our|ours|ourselves)\b", re.IGNORECASE)


def first_person(text: str) -> bool:
    """Whether ``text`` speaks in the first person ("I started pottery", "my kids", "we went"):
    a turn that tells something about its speaker, not only a reaction to the other."""
    return _FIRST_PERSON.search(text) is not None


def discloses(item: MemoryItem) -> bool:
    """What ``MemoryFacts.discloses`` says: any semantic memory, an episode in the first person
    (for a chat turn, the user's own message)."""
    return item.kind != EPISODIC or first_person(item.user_text)


class RecallFacts:
    """``facts(memory_id)`` for the Recaller; ``follow(change)`` after every write."""

    def __init__(self, vault: Vault, usage: UsageCounts, clock: Callable[[], datetime]) -> None:
        self.vault = vault
        self.usage = usage
        self.clock = clock
        self._neighbours: dict[str, tuple[str, ...]] | None = None
        # Episodes by conversation in time order, kept in step with writes (see ``follow``).
        self._turns: dict[str, list[tuple[datetime, str]]] = {}
        self._conversation_of: dict[str, str] = {}
        # What recall reads of a memory, decoded once per version (see ``_fact_item``).
        self._fact_items: dict[str, tuple[int, MemoryItem]] = {}

    def facts(self, memory_id: str) -> MemoryFacts | None:
        if memory_id not in self.vault:
            return None
        item = self._fact_item(memory_id)
        count, last = self.usage.get(memory_id)
        if self._neighbours is None:
            self._neighbours = self._build_neighbours()
        return MemoryFacts(
            kind=item.kind,
            created_at=item.created_at,
            # Episodes do not fade here: recency is its own recall signal, and decaying them too
            # cost 0.006 recall@10 on LoCoMo-dev (old sessions' answers ranked lower).
            importance=(
                item.importance
                if item.kind == EPISODIC
                else item.effective_importance(self.clock())
            ),
            use_count=count,
            last_used_at=last,
            pinned=item.pinned,
            superseded=item.status != ACTIVE,
            neighbours=self._neighbours.get(item.id, ()),
            speaker=(item.meta or {}).get("speaker"),
            question=bool((item.meta or {}).get("question_only")),
            discloses=bool((item.meta or {}).get("discloses")),
        )

    def warm(self) -> None:
        """Build the neighbour map now rather than on the first recall (the caller holds the
        vault's lock)."""
        if self._neighbours is None:
            self._neighbours = self._build_neighbours()

    def rewritten(self, memory_id: str) -> None:
        """A memory's words were rewritten in place (a redaction): decode it again."""
        self._fact_items.pop(memory_id, None)

    def _item(self, memory_id: str) -> MemoryItem:
        return item_from_record(self.vault.get(memory_id))

    def _fact_item(self, memory_id: str) -> MemoryItem:
        """The memory without its text, decoded once per version: recall reads a few hundred
        candidates per query, and decoding each every time cost ~10 ms a query at 100k."""
        version = self.vault.versions_of(memory_id)[-1][0]
        cached = self._fact_items.get(memory_id)
        if cached is None or cached[0] != version:
            item = self._item(memory_id)
            meta = item.meta or {}
            kept = {
                "speaker": meta.get("speaker"),
                "question_only": question_only(item),
                "discloses": discloses(item),
            }
            cached = (version, replace(item, text="", meta=kept))
            self._fact_items[memory_id] = cached
        return cached[1]

    def _build_neighbours(self) -> dict[str, tuple[str, ...]]:
        # Decodes every episode (seconds at 100k): done once, then ``follow`` keeps it current.
        self._turns, self._conversation_of = {}, {}
        for record in self.vault.list(EPISODIC):
            self._add_turn(item_from_record(record))
        neighbours: dict[str, tuple[str, ...]] = {}
        for conversation, turns in self._turns.items():
            turns.sort()
            neighbours.update(neighbour_map((i, conversation, t) for t, i in turns))
        return neighbours

    def _add_turn(self, episode: MemoryItem) -> str:
        # Imported turns of one session share a timestamp; their line order breaks the tie.
        seq = int((episode.meta or {}).get("seq", 0))
        conversation = episode.conversation_id or ""
        moment = episode.created_at + timedelta(microseconds=seq)
        insort(self._turns.setdefault(conversation, []), (moment, episode.id))
        self._conversation_of[episode.id] = conversation
        return conversation

    def follow(self, change: MemoryChange) -> None:
        """Update the neighbour map for a write's episodes instead of rebuilding it over all of
        them (a rebuild after every turn cost ~2.5 s at 100k memories). The caller holds the
        vault's lock."""
        for memory_id in change.forgotten:
            self._fact_items.pop(memory_id, None)
        if self._neighbours is None:
            return
        if len(change.added) > 1000:
            self._neighbours = None  # a bulk import: one rebuild costs no more
            return
        touched: set[str] = set()
        for memory_id in (*change.forgotten, *change.edited):
            episodic = memory_id in self.vault and self.vault.kind_of(memory_id) == EPISODIC
            conversation = self._conversation_of.get(memory_id)
            if conversation is not None and not episodic:  # forgotten, or no longer an episode
                del self._conversation_of[memory_id]
                turns = self._turns.get(conversation, [])
                self._turns[conversation] = [t for t in turns if t[1] != memory_id]
                self._neighbours.pop(memory_id, None)
                touched.add(conversation)
        for memory_id in (*change.added, *change.edited):
            if memory_id in self._conversation_of or memory_id not in self.vault:
                continue
            if self.vault.kind_of(memory_id) == EPISODIC:
                touched.add(self._add_turn(self._item(memory_id)))
        for conversation in touched:
            turns = self._turns.get(conversation, [])
            self._neighbours.update(neighbour_map((i, conversation, t) for t, i in turns))
