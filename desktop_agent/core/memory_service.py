"""MemoryService: the one object through which the assistant, the CLI and the GUI read and
change what the assistant remembers. It turns vault records into MemoryItems, embeds text,
recalls, supersedes, cascades forgetting through provenance, and counts use.

The service is a facade over parts composed by noun, each in its own module:
``MemoryWrites`` (remember, edit, end), ``Forgetting`` (forget and its cascade),
``Conversations`` (episodes, the conversation index), ``UsageCounts`` and ``RecallFacts``
(what recall reads besides vectors). Reads, recall and notification live here.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Collection, Iterable, Mapping, Sequence
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

from desktop_agent.core.consolidation_watch import ConsolidationWatch
from desktop_agent.core.conversation_index import ConversationSummary
from desktop_agent.core.memory_changes import (
    ConversationClosed,
    ForgetPreview,
    MemoryChange,
    Recollection,
    also_touched,
    receipt_touched,
)
from desktop_agent.core.memory_conversations import Conversations
from desktop_agent.core.memory_forget import Forgetting
from desktop_agent.core.memory_model import (
    EPISODIC,
    PROCEDURAL,
    SEMANTIC,
    SUPERSEDED,
    MemoryItem,
    Provenance,
    Strategy,
    item_from_record,
    strategy_from_record,
)
from desktop_agent.core.memory_upkeep import VaultHealth, rekey, vault_health
from desktop_agent.core.memory_writes import MemoryWrites
from desktop_agent.core.recall import Recaller
from desktop_agent.core.recall_facts import RecallFacts
from desktop_agent.core.usage_counts import USAGE_FLUSH_EVERY, USAGE_ROLE, UsageCounts
from desktop_agent.core.write_lane import WriteLane
from desktop_agent.errors import InputError
from desktop_agent.memory.model import MemoryNotFound

if TYPE_CHECKING:
    from pathlib import Path

    import numpy as np
    from numpy.typing import NDArray

    from desktop_agent.core.history_import import HistoryMessage
    from desktop_agent.core.reply_versions import Change
    from desktop_agent.embed import Embedder
    from desktop_agent.memory.audit import AuditEntry, AuditReport
    from desktop_agent.memory.backup import ExportSummary, ImportSummary
    from desktop_agent.memory.model import ForgetReceipt, KeyStatus, MemoryRecord, MemoryVersion
    from desktop_agent.memory.rekey import Progress, RekeyReceipt
    from desktop_agent.memory.vault import Vault

__all__ = [
    "USAGE_FLUSH_EVERY",
    "USAGE_ROLE",
    "ConversationClosed",
    "ConversationSummary",
    "ForgetPreview",
    "MemoryChange",
    "MemoryService",
    "Recollection",
    "also_touched",
    "receipt_touched",
]

logger = logging.getLogger(__name__)


class MemoryService:
    """Reads are served from the vault's RAM copy; writes go through the vault's one writer."""

    is_open = True  # see NullMemoryService, the service when there is no memory

    def __init__(
        self,
        vault: Vault,
        embedder: Embedder,
        *,
        clock: Callable[[], datetime] = lambda: datetime.now(UTC),
    ) -> None:
        self.vault = vault
        self.embedder = embedder
        self.clock = clock
        # Every write, from any thread, enters this one ordered lane (see core/write_lane.py).
        self.lane = WriteLane()
        vault.writer_guard = self.lane.require
        self._usage = UsageCounts(vault, self.lane, clock)
        self._facts = RecallFacts(vault, self._usage, clock)
        self.recaller = Recaller(vault.index, embedder, self._facts.facts)
        self._writes = MemoryWrites(self)
        self._forgetting = Forgetting(self, self._writes, self._usage, self._facts)
        self._conversations = Conversations(self, self._writes)
        self._listeners: list[Callable[[MemoryChange], None]] = []
        # Whether a consolidation run has anything to do: kept here, one per service.
        self.consolidation_watch = ConsolidationWatch(vault)
        self.subscribe(self.consolidation_watch.follow)
        # Decoded once per change, not per turn (see ``outdated_episodes``, ``active_facts``).
        self._outdated: frozenset[str] | None = None
        self._active_facts: tuple[MemoryItem, ...] | None = None

    # --- change notification ---------------------------------------------------------------
    def subscribe(self, listener: Callable[[MemoryChange], None]) -> None:
        """``listener(change)`` runs after every write (on the writing thread)."""
        self._listeners.append(listener)

    def notify(self, change: MemoryChange) -> MemoryChange:
        """Tell every listener what a write changed."""
        if (
            self._outdated is not None or self._active_facts is not None
        ) and self._touches_semantic(change):
            self._outdated = None
            self._active_facts = None
        with self.vault.lock:
            # Followed, not rebuilt: a rebuild after every turn cost seconds at 100k memories.
            self._facts.follow(change)
            self._conversations.follow(change)
        for listener in list(self._listeners):
            listener(change)
        return change

    def _touches_semantic(self, change: MemoryChange) -> bool:
        # Every turn adds an episode; only a new fact, an edit (a supersession, a change of
        # kind) or a forget can change which episodes are outdated.
        if change.forgotten or change.edited:
            return True
        return any(i in self.vault and self.vault.kind_of(i) == SEMANTIC for i in change.added)

    # --- reads -------------------------------------------------------------------------------
    def item(self, memory_id: str) -> MemoryItem:
        return item_from_record(self.vault.get(memory_id))

    def items(self, kind: str | None = None, *, include_inactive: bool = True) -> list[MemoryItem]:
        """Memories newest first (the usage bookkeeping record is never shown)."""
        found = [
            item_from_record(r) for r in self.vault.list(kind) if r.meta.get("role") != USAGE_ROLE
        ]
        if not include_inactive:
            found = [i for i in found if i.active]
        return sorted(found, key=lambda i: i.created_at, reverse=True)

    def record(self, memory_id: str) -> MemoryRecord:
        """The stored record as written (its version, meta): what `memory show` prints."""
        return self.vault.get(memory_id)

    def history(self, memory_id: str) -> list[MemoryVersion]:
        return self.vault.history(memory_id)

    def provenance(self, memory_id: str) -> list[MemoryItem]:
        """The episodes a memory was learned from (those still remembered)."""
        sources = []
        for source in self.item(memory_id).provenance:
            if source.episode_id in self.vault:
                sources.append(self.item(source.episode_id))
        return sources

    def learned_from(self, episode_ids: Collection[str]) -> list[MemoryItem]:
        """Semantic memories whose provenance names any of ``episode_ids``."""
        wanted = set(episode_ids)
        return [
            item
            for item in self.items(SEMANTIC)
            if any(p.episode_id in wanted for p in item.provenance)
        ]

    def outdated_episodes(self) -> frozenset[str]:
        """Episodes that taught a fact since superseded or edited by the user: what the user
        said there is out of date, and quoting it next to the correction misleads the model
        (measured: the bundled model then repeats the old fact in most answers)."""
        if self._outdated is None:
            facts = self.items(SEMANTIC)
            by_id = {item.id: item for item in facts}
            outdated = set()
            for item in facts:
                if not (item.status == SUPERSEDED or (item.meta or {}).get("edited")):
                    continue
                # (a fact replaced by one learned from the same message leaves it true: "we're
                # moving to the second wednesday" read twice)
                newer = by_id.get(item.superseded_by or "")
                again = {p.episode_id for p in newer.provenance} if newer is not None else set()
                outdated |= {p.episode_id for p in item.provenance} - again
            self._outdated = frozenset(outdated)
        return self._outdated

    def active_facts(self) -> tuple[MemoryItem, ...]:
        """Current semantic memories, newest first; decoded once per change, not per turn (the
        risk check reads them on every turn)."""
        if self._active_facts is None:
            self._active_facts = tuple(self.items(SEMANTIC, include_inactive=False))
        return self._active_facts

    def inbox(self) -> list[MemoryItem]:
        """Newly learned memories the user has not reviewed yet."""
        return [i for i in self.items(SEMANTIC, include_inactive=False) if not i.reviewed]

    def preferences(self) -> list[MemoryItem]:
        return [i for i in self.items(SEMANTIC, include_inactive=False) if i.type == "preference"]

    def strategies(self) -> list[Strategy]:
        records = [r for r in self.vault.list(PROCEDURAL) if r.meta.get("role") != USAGE_ROLE]
        return sorted(
            (strategy_from_record(r) for r in records), key=lambda s: (s.context, -s.success_rate)
        )

    def conversations(self) -> list[ConversationSummary]:
        """The remembered conversations, the most recent first, from the conversation index
        (every episode is decoded once, at warm-up or the first call; writes keep it current)."""
        return self._conversations.summaries()

    def episodes(self, conversation_id: str) -> list[MemoryItem]:
        found = [
            item_from_record(r) for r in self.vault.list(EPISODIC, conversation_id=conversation_id)
        ]
        return sorted(found, key=lambda e: e.created_at)

    def usage(self, memory_id: str) -> tuple[int, datetime | None]:
        return self._usage.get(memory_id)

    def vectors_of(self, memory_ids: Iterable[str]) -> dict[str, NDArray[np.float32]]:
        """Each memory's stored (unit) vector, copied under the vault's lock, in the order
        asked: what consolidation compares. MemoryNotFound for a memory not current."""
        ids = list(memory_ids)
        with self.vault.lock:
            index = self.vault.index
            missing = next((i for i in ids if i not in index), None)
            if missing is not None:
                raise MemoryNotFound(f"no memory with id {missing!r}")
            rows = index.vectors_of(ids)
        return dict(zip(ids, rows, strict=True))

    # --- recall ------------------------------------------------------------------------------
    def search(
        self,
        query: str,
        *,
        limit: int = 10,
        kinds: Collection[str] | None = None,
        include_superseded: bool = False,
        exclude: Iterable[str] = (),
        now: datetime | None = None,
    ) -> list[Recollection]:
        if not query.strip():
            raise InputError("the search query is empty")
        usage_id = [self._usage.record_id] if self._usage.record_id else []
        with self.vault.lock:
            hits = self.recaller.recall(
                query,
                limit=limit,
                kinds=kinds or (EPISODIC, SEMANTIC),
                now=now or self.clock(),
                exclude=[*exclude, *usage_id],
                include_superseded=include_superseded,
            )
        return [Recollection(self.item(h.memory_id), h) for h in hits if h.memory_id in self.vault]

    def warm(self) -> None:
        """Build what the first recall would otherwise build (keyword index, conversation
        neighbours); the app calls this on a background thread after unlock."""
        self.vault.warm()
        with self.vault.lock:
            self._facts.warm()
            self._conversations.index()

    # --- use counts --------------------------------------------------------------------------
    def mark_used(self, memory_ids: Sequence[str]) -> None:
        """Count that these memories shaped a reply (see ``UsageCounts.mark_used``)."""
        self._usage.mark_used(memory_ids)

    def flush(self) -> None:
        """Write what is only counted in RAM (use counts); the app calls it before Lock."""
        self._usage.flush()

    # --- writes (core/memory_writes.py) ------------------------------------------------------
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
        return self._writes.remember(
            text,
            kind=kind,
            type=type,
            importance=importance,
            subject_key=subject_key,
            provenance=provenance,
            reviewed=reviewed,
            conversation_id=conversation_id,
            topic=topic,
            extra=extra,
        )

    def end(self, memory_ids: Sequence[str], provenance: Provenance) -> None:
        """These facts stopped being true: superseded with the date, kept as the past."""
        self._writes.end(memory_ids, provenance)

    def said_outright(self, subject_key: str) -> bool:
        """Whether a current fact of this slot was said, not inferred."""
        return self._writes.said_outright(subject_key)

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
        return self._writes.edit(
            memory_id,
            text=text,
            kind=kind,
            type=type,
            importance=importance,
            pinned=pinned,
            reviewed=reviewed,
        )

    def accept(self, memory_id: str) -> MemoryItem:
        return self.edit(memory_id, reviewed=True)

    def set_outcome(self, episode_id: str, outcome: str) -> MemoryItem:
        """Note how an exchange went ("positive" / "negative" feedback)."""
        return self._writes.set_meta(episode_id, outcome=outcome)

    # --- forgetting (core/memory_forget.py) --------------------------------------------------
    def forget(self, memory_ids: Iterable[str], *, rebuild_topics: bool = True) -> ForgetReceipt:
        """Forget these memories and everything that repeats their words (see ``Forgetting``)."""
        return self._forgetting.forget(memory_ids, rebuild_topics=rebuild_topics)

    def forget_words(self, spans: Mapping[str, Sequence[tuple[int, int]]]) -> ForgetReceipt:
        """Forget words the user said (episode id -> ranges of its user message)."""
        return self._forgetting.forget_words(spans)

    def forget_preview(self, memory_ids: Iterable[str]) -> ForgetPreview:
        """What forgetting these memories also touches, said before it is done."""
        return self._forgetting.preview(memory_ids)

    def reject(self, memory_id: str) -> ForgetReceipt:
        return self.forget([memory_id])

    def forget_all(self) -> ForgetReceipt:
        return self._forgetting.forget_all()

    # --- conversations (core/memory_conversations.py) ----------------------------------------
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
        """Store one exchange of a live chat; ConversationClosed when it was deleted meanwhile."""
        return self._conversations.record_episode(
            conversation_id,
            user,
            reply,
            title=title,
            intent=intent,
            action=action,
            used=used,
            instructions=instructions,
        )

    def update_reply(self, episode_id: str, change: Change) -> MemoryItem:
        """Rewrite one exchange's reply (``core/reply_versions.py``), read and written as one job."""
        return self._conversations.update_reply(episode_id, change)

    def rename_conversation(self, conversation_id: str, title: str) -> None:
        self._conversations.rename(conversation_id, title)

    def pin_conversation(self, conversation_id: str, pinned: bool) -> None:
        """Keep a conversation at the top of the list."""
        self._conversations.pin(conversation_id, pinned)

    def set_conversation_instructions(self, conversation_id: str, instructions: str) -> None:
        """A chat's own instructions, kept across restarts."""
        self._conversations.set_instructions(conversation_id, instructions)

    def import_history(self, messages: Sequence[HistoryMessage]) -> list[MemoryItem]:
        """Store imported messages as episodes, one vault commit for the whole batch."""
        return self._conversations.import_history(messages)

    def close_conversation(self, conversation_id: str) -> None:
        """Nothing more is stored for this conversation in this process (it is being deleted)."""
        self._conversations.close(conversation_id)

    def forget_conversation(self, conversation_id: str) -> ForgetReceipt:
        """Forget a conversation's episodes and everything learned only from them, and close
        it; a fact also learned elsewhere stays, with this conversation removed from its
        sources."""
        return self._conversations.forget(conversation_id)

    # --- keys, audit, backup (the vault's own verbs, here so the GUI needs one service) -----
    def key_status(self) -> KeyStatus:
        return self.vault.status()

    def health(self) -> VaultHealth:
        """Read-only, damaged rows, an interrupted re-encryption (core/memory_upkeep.py)."""
        return vault_health(self.vault)

    def rekey(self, progress: Progress | None = None) -> RekeyReceipt:
        """Re-encrypt every row under new data keys, in the write lane (``progress(done, all)``)."""
        return rekey(self.vault, self.lane, progress)

    def rotate_keys(self) -> int:
        """A new key-encryption key; returns the new epoch."""
        with self.lane:
            return self.vault.rotate_keys()

    def accept_missing(self) -> int:  # `memory keys accept-missing`: forget what went missing
        return self.lane.run(self.vault.accept_missing)

    def audit_entries(self) -> list[AuditEntry]:
        return self.vault.audit_entries()

    def verify_audit(self) -> AuditReport:
        return self.vault.verify_audit()

    def export_backup(self, path: str | Path, passphrase: str) -> ExportSummary:
        with self.lane:
            return self.vault.export_backup(path, passphrase)

    def import_backup(self, path: str | Path, passphrase: str) -> ImportSummary:
        with self.lane:
            summary = self.vault.import_backup(path, passphrase)
            self._usage.load()
            self.notify(MemoryChange(added=tuple(summary.imported)))
        return summary
