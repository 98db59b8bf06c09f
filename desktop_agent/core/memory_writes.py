"""Writing facts: remember (with supersession by subject), end, edit and meta changes.

Every write here runs in the service's write lane and tells the service what it changed.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from desktop_agent.core.memory_changes import MemoryChange
from desktop_agent.core.memory_model import (
    ACTIVE,
    EPISODIC,
    PROCEDURAL,
    SEMANTIC,
    SUPERSEDED,
    TOPIC,
    MemoryItem,
    Provenance,
    item_from_record,
)
from desktop_agent.errors import InputError
from desktop_agent.memory.model import thaw

if TYPE_CHECKING:
    from desktop_agent.core.memory_service import MemoryService

logger = logging.getLogger(__name__)


class MemoryWrites:
    """The fact-writing verbs of a ``MemoryService``."""

    def __init__(self, service: MemoryService) -> None:
        self.service = service

    def remember(
        self,
        text: str,
        *,
        kind: str = SEMANTIC,
        type: str = "fact",
        importance: float = 0.6,
        subject_key: str = "",
        provenance: Sequence[Provenance] = (),
        reviewed: bool = True,
        conversation_id: str | None = None,
        topic: str = "",
        extra: Mapping[str, Any] | None = None,
    ) -> MemoryItem:
        """Store a memory; one with the same ``subject_key`` is superseded (kept, marked)."""
        text = text.strip()
        if not text:
            raise InputError("a memory cannot be empty")
        if kind not in (SEMANTIC, EPISODIC, PROCEDURAL, TOPIC):
            raise InputError(
                f"unknown memory kind {kind!r}: use semantic, episodic, procedural or topic"
            )
        service = self.service
        now = service.clock()
        # Told as the past ("I used to be a bank teller"): on record in its slot's history at
        # once, and what the slot holds now stays.
        past = bool((extra or {}).get("past"))
        with service.lane:
            same = self._same_fact(text, subject_key) if kind == SEMANTIC else None
            if same is not None and past and provenance:
                self.end([same.id], provenance[0])  # what was current is the past now
                return same
            if same is not None:
                return self._reinforce(same, provenance)
            older = self._current_for(subject_key) if subject_key and kind == SEMANTIC else []
            older = [] if past else older
            meta: dict[str, Any] = {
                "type": type,
                "importance": importance,
                "status": SUPERSEDED if past else ACTIVE,
                "reviewed": reviewed,
                "subject_key": subject_key,
                "topic": topic,
                "provenance": [p.to_json() for p in provenance],
                "valid_from": now.isoformat(),
                "confirmed_at": now.isoformat(),
                **(extra or {}),
            }
            if older:
                meta["supersedes"] = older[0].id
            vector = service.embedder.embed([text])[0]
            record = service.vault.add(
                kind, text, vector=vector, meta=meta, conversation_id=conversation_id
            )
            for old in older:
                self.set_meta(
                    old.id,
                    status=SUPERSEDED,
                    superseded_by=str(record.id),
                    valid_to=now.isoformat(),
                )
            service.notify(MemoryChange(added=(str(record.id),), edited=tuple(o.id for o in older)))
            logger.info("remembered %s %s (%s)", kind, record.id, "replaces" if older else "new")
            return item_from_record(record)

    def end(self, memory_ids: Sequence[str], provenance: Provenance) -> None:
        """These facts stopped being true ("we had to rehome Rufus"): superseded with the date,
        kept as the past, and linked to the words that ended them."""
        now = self.service.clock().isoformat()
        with self.service.lane:
            for memory_id in memory_ids:
                self.set_meta(
                    memory_id,
                    status=SUPERSEDED,
                    valid_to=now,
                    ended_by=[provenance.to_json()],
                )

    def said_outright(self, subject_key: str) -> bool:
        """Whether a current fact of this slot was said, not inferred."""
        return any(not (item.meta or {}).get("inferred") for item in self._current_for(subject_key))

    def _same_fact(self, text: str, subject_key: str) -> MemoryItem | None:
        wanted = " ".join(text.casefold().split())
        for item in self.service.items(SEMANTIC, include_inactive=False):
            if " ".join(item.text.casefold().split()) == wanted and (
                not subject_key or item.subject_key == subject_key
            ):
                return item
        return None

    def _current_for(self, subject_key: str) -> list[MemoryItem]:
        return [
            i
            for i in self.service.items(SEMANTIC, include_inactive=False)
            if i.subject_key == subject_key
        ]

    def _reinforce(self, item: MemoryItem, provenance: Sequence[Provenance]) -> MemoryItem:
        """Hearing a fact again: more important, and one more source."""
        sources = [p.to_json() for p in item.provenance] + [p.to_json() for p in provenance]
        return self.set_meta(
            item.id,
            importance=min(1.0, item.importance + 0.1),
            provenance=sources,
            confirmed_at=self.service.clock().isoformat(),
        )

    def set_meta(self, memory_id: str, /, **changes: Any) -> MemoryItem:
        """Change some of a memory's meta keys (a new version of it)."""
        service = self.service
        with service.lane:
            record = service.vault.get(memory_id)
            meta = {**thaw(record.meta), **changes}
            updated = service.vault.update(memory_id, meta=meta)
            service.notify(MemoryChange(edited=(memory_id,)))
            return item_from_record(updated)

    def edit(
        self,
        memory_id: str,
        *,
        text: str | None = None,
        kind: str | None = None,
        type: str | None = None,
        importance: float | None = None,
        pinned: bool | None = None,
        reviewed: bool | None = None,
    ) -> MemoryItem:
        """Change a memory; the previous version stays in its history."""
        with self.service.lane:
            return self._edit(memory_id, text, kind, type, importance, pinned, reviewed)

    def _edit(
        self,
        memory_id: str,
        text: str | None,
        kind: str | None,
        type: str | None,
        importance: float | None,
        pinned: bool | None,
        reviewed: bool | None,
    ) -> MemoryItem:
        from desktop_agent.core.memory_forget import rebuild_topics

        service = self.service
        record = service.vault.get(memory_id)
        meta = thaw(record.meta)
        if type is not None:
            meta["type"] = type
        if importance is not None:
            if not 0.0 <= importance <= 1.0:
                raise InputError("importance must be between 0 and 1")
            meta["importance"] = importance
        if pinned is not None:
            meta["pinned"] = pinned
        if reviewed is not None:
            meta["reviewed"] = reviewed
        vector = None
        if text is not None:
            text = text.strip()
            if not text:
                raise InputError("a memory cannot be empty: use forget to remove it")
            vector = service.embedder.embed([text])[0]
            meta["reviewed"] = True if reviewed is None else reviewed
            if text != record.text:
                # The user's correction: the words it was learned from now say something else,
                # so they stay out of prompts (``outdated_episodes``).
                meta["edited"] = True
        if text is not None or importance is not None or pinned is not None:
            meta["confirmed_at"] = service.clock().isoformat()
        updated = service.vault.update(memory_id, text=text, meta=meta, vector=vector, kind=kind)
        service.notify(MemoryChange(edited=(memory_id,)))
        if text is not None and updated.kind == SEMANTIC:
            rebuild_topics(service)
        return item_from_record(updated)
