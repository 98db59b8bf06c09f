"""MemoryService: the one object through which the assistant, the CLI and the GUI read and
change what the assistant remembers. It turns vault records into MemoryItems, embeds text,
recalls, supersedes, cascades forgetting through provenance, and counts use.
"""

from __future__ import annotations

import functools
import logging
from bisect import insort
from collections.abc import Callable, Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from datetime import UTC, datetime, timedelta
from typing import TYPE_CHECKING, Any, Concatenate, ParamSpec, TypeVar

from desktop_agent.core.conversation_index import ConversationIndex, ConversationSummary
from desktop_agent.core.memory_model import (
    ACTIVE,
    EPISODIC,
    PROCEDURAL,
    SEMANTIC,
    SUPERSEDED,
    TOPIC,
    MemoryItem,
    Provenance,
    Strategy,
    episode_text,
    item_from_record,
    strategy_from_record,
)
from desktop_agent.core.questions import asks_only, question_only
from desktop_agent.core.recall import MemoryFacts, Recaller, RecallHit, neighbour_map
from desktop_agent.core.write_lane import WriteLane
from desktop_agent.errors import InputError
from desktop_agent.memory.model import thaw as _thaw

if TYPE_CHECKING:
    from pathlib import Path

    from desktop_agent.core.history_import import HistoryMessage
    from desktop_agent.core.redaction import EpisodeRedaction
    from desktop_agent.core.reply_versions import Change
    from desktop_agent.embed import Embedder
    from desktop_agent.memory.audit import AuditEntry, AuditReport
    from desktop_agent.memory.backup import ExportSummary, ImportSummary
    from desktop_agent.memory.model import ForgetReceipt, KeyStatus, MemoryVersion
    from desktop_agent.memory.vault import Vault

logger = logging.getLogger(__name__)

# Meta keys of the one record that keeps use counts (a memory's use would otherwise add a new
# version of it to its edit history each time it is recalled).
USAGE_ROLE = "usage"
# Use counts are written once per this many replies (and at Lock); a crash loses at most these.
USAGE_FLUSH_EVERY = 20


@dataclass(frozen=True, slots=True)
class Recollection:
    """A recalled memory with the numbers that explain why (the memory lens)."""

    item: MemoryItem
    hit: RecallHit

    def as_json(self) -> dict[str, Any]:
        hit = self.hit
        return {
            "memory_id": self.item.id,
            "source_id": self.item.source_id,
            "kind": self.item.kind,
            "type": self.item.type,
            "text": self.item.text,
            "score": round(hit.score, 4),
            "vector_score": round(hit.vector_score, 4),
            "keyword_score": round(hit.keyword_score, 4),
            "vector_rank": hit.vector_rank,
            "keyword_rank": hit.keyword_rank,
            "recency": round(hit.recency, 4),
            "importance": round(hit.importance, 4),
            "use_boost": round(hit.use_boost, 4),
            "feedback_score": round(hit.feedback_score, 4),
            "in_time_window": hit.in_time_window,
            "superseded": hit.superseded,
            "created_at": self.item.created_at.isoformat(),
        }


@dataclass(frozen=True, slots=True)
class MemoryChange:
    """What a write changed, for panels to refresh from one signal (Anki's OpChanges)."""

    added: tuple[str, ...] = ()
    edited: tuple[str, ...] = ()
    forgotten: tuple[str, ...] = ()
    receipt: ForgetReceipt | None = None


@dataclass(frozen=True, slots=True)
class ForgetPreview:
    """What a forget will take with it, besides the memories asked for."""

    ids: tuple[str, ...]
    topics: tuple[str, ...]  # summaries that quoted them (rebuilt without them)
    redacted: tuple[str, ...]  # episodes whose words taught them (those words are erased)
    # Facts learned only from messages being forgotten (a PIN told in a message is a fact too).
    learned: tuple[str, ...] = ()

    def describe(self) -> str:
        """ "and 2 messages it came from": what else goes, in the user's words."""
        return also_touched(len(self.redacted), len(self.topics), len(self.learned))

    def to_json(self) -> dict[str, Any]:
        return {
            "ids": list(self.ids),
            "topics": list(self.topics),
            "redacted": list(self.redacted),
            "learned": list(self.learned),
        }


def also_touched(messages: int, topics: int = 0, learned: int = 0) -> str:
    parts = []
    if learned:
        parts.append(f"{learned} fact{'s' if learned != 1 else ''} learned from it")
    if messages:
        parts.append(f"{messages} message{'s' if messages != 1 else ''} it came from")
    if topics:
        parts.append(f"{topics} topic summar{'ies' if topics != 1 else 'y'}")
    return ("and " + " and ".join(parts)) if parts else ""


class ConversationClosed(InputError):
    """A write for a conversation deleted in this process (a reply that was still in flight)."""


_P = ParamSpec("_P")
_R = TypeVar("_R")


def _in_lane(
    method: Callable[Concatenate[MemoryService, _P], _R],
) -> Callable[Concatenate[MemoryService, _P], _R]:
    """Run a MemoryService method inside the service's write lane."""

    @functools.wraps(method)
    def in_lane(self: MemoryService, /, *args: _P.args, **kwargs: _P.kwargs) -> _R:
        with self.lane:
            return method(self, *args, **kwargs)

    return in_lane


class MemoryService:
    """Reads are served from the vault's RAM copy; writes go through the vault's one writer."""

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
        self.recaller = Recaller(vault.index, embedder, self._facts)
        # Every write, from any thread, enters this one ordered lane (see core/write_lane.py).
        self.lane = WriteLane()
        vault.writer_guard = self.lane.require
        # Conversations deleted in this process: a reply still in flight is not stored.
        self._closed: set[str] = set()
        self._usage_id: str | None = None
        self._usage: dict[str, list[Any]] = {}
        self._usage_unsaved = 0  # replies counted since the counts were last written
        self._neighbours: dict[str, tuple[str, ...]] | None = None
        # Episodes by conversation in time order, kept in step with writes (see ``_follow``).
        self._turns: dict[str, list[tuple[datetime, str]]] = {}
        self._conversation_of: dict[str, str] = {}
        self._conversations: ConversationIndex | None = None
        # What recall reads of a memory, decoded once per version (see ``_fact_item``).
        self._fact_items: dict[str, tuple[int, MemoryItem]] = {}
        self._listeners: list[Callable[[MemoryChange], None]] = []
        self._outdated: frozenset[str] | None = None
        self._active_facts: tuple[MemoryItem, ...] | None = None
        self._load_usage()

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
        self._follow(change)
        for listener in list(self._listeners):
            listener(change)
        return change

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

    def _touches_semantic(self, change: MemoryChange) -> bool:
        # Every turn adds an episode; only a new fact, an edit (a supersession, a change of
        # kind) or a forget can change which episodes are outdated.
        if change.forgotten or change.edited:
            return True
        return any(i in self.vault and self.vault.kind_of(i) == SEMANTIC for i in change.added)

    def outdated_episodes(self) -> frozenset[str]:
        """Episodes that taught a fact since superseded or edited by the user: what the user
        said there is out of date, and quoting it next to the correction misleads the model
        (measured: the bundled model then repeats the old fact in most answers)."""
        if self._outdated is None:
            self._outdated = frozenset(
                p.episode_id
                for item in self.items(SEMANTIC)
                if item.status == SUPERSEDED or (item.meta or {}).get("edited")
                for p in item.provenance
            )
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
        with self.vault.lock:
            return self._conversation_index().summaries()

    def _conversation_index(self) -> ConversationIndex:
        if self._conversations is None:
            self._conversations = ConversationIndex(
                item_from_record(r) for r in self.vault.list(EPISODIC)
            )
        return self._conversations

    def episodes(self, conversation_id: str) -> list[MemoryItem]:
        found = [
            item_from_record(r) for r in self.vault.list(EPISODIC, conversation_id=conversation_id)
        ]
        return sorted(found, key=lambda e: e.created_at)

    def usage(self, memory_id: str) -> tuple[int, datetime | None]:
        count, last = self._usage.get(memory_id, (0, None))
        return int(count), datetime.fromisoformat(last) if last else None

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
        usage_id = [self._usage_id] if self._usage_id else []
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

    def _facts(self, memory_id: str) -> MemoryFacts | None:
        if memory_id not in self.vault:
            return None
        item = self._fact_item(memory_id)
        count, last = self.usage(memory_id)
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
        )

    def _fact_item(self, memory_id: str) -> MemoryItem:
        """The memory without its text, decoded once per version: recall reads a few hundred
        candidates per query, and decoding each every time cost ~10 ms a query at 100k."""
        version = self.vault.versions_of(memory_id)[-1][0]
        cached = self._fact_items.get(memory_id)
        if cached is None or cached[0] != version:
            item = self.item(memory_id)
            meta = item.meta or {}
            kept = {"speaker": meta.get("speaker"), "question_only": question_only(item)}
            cached = (version, replace(item, text="", meta=kept))
            self._fact_items[memory_id] = cached
        return cached[1]

    def _build_neighbours(self) -> dict[str, tuple[str, ...]]:
        # Decodes every episode (seconds at 100k): done once, then ``_follow`` keeps it current.
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

    def _follow(self, change: MemoryChange) -> None:
        """Update the neighbour map for a write's episodes instead of rebuilding it over all of
        them (a rebuild after every turn cost ~2.5 s at 100k memories)."""
        with self.vault.lock:
            for memory_id in change.forgotten:
                self._fact_items.pop(memory_id, None)
            self._follow_conversations(change)
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
                    touched.add(self._add_turn(self.item(memory_id)))
            for conversation in touched:
                turns = self._turns.get(conversation, [])
                self._neighbours.update(neighbour_map((i, conversation, t) for t, i in turns))

    def _follow_conversations(self, change: MemoryChange) -> None:
        index = self._conversations
        if index is None:
            return
        if len(change.added) > 1000:
            self._conversations = None  # a bulk import: one rebuild costs no more
            return
        for memory_id in change.forgotten:
            index.drop(memory_id)
        for memory_id in (*change.added, *change.edited):
            if memory_id in self.vault and self.vault.kind_of(memory_id) == EPISODIC:
                index.put(self.item(memory_id))  # a rename, or a redaction of its words
            else:
                index.drop(memory_id)

    def mark_used(self, memory_ids: Sequence[str]) -> None:
        """Count that these memories shaped a reply. Counted in RAM and written every
        ``USAGE_FLUSH_EVERY`` replies and at ``flush`` (Lock and close): a write per turn cost
        159 ms at 10k memories and left a version behind each time."""
        if not memory_ids:
            return
        now = self.clock().isoformat()
        with self.lane:
            for memory_id in memory_ids:
                count = int(self._usage.get(memory_id, (0, None))[0])
                self._usage[memory_id] = [count + 1, now]
            self._usage_unsaved += 1
            if self._usage_unsaved >= USAGE_FLUSH_EVERY:
                self._save_usage()

    def flush(self) -> None:
        """Write what is only counted in RAM (use counts); the app calls it before Lock."""
        with self.lane:
            if self._usage_unsaved:
                self._save_usage()

    def _load_usage(self) -> None:
        for record in self.vault.list(PROCEDURAL):
            if record.meta.get("role") == USAGE_ROLE:
                self._usage_id = str(record.id)
                self._usage = {k: list(v) for k, v in dict(record.meta.get("stats", {})).items()}

    def _save_usage(self) -> None:
        live = {k: v for k, v in self._usage.items() if k in self.vault}
        self._usage = live
        self._usage_unsaved = 0
        meta = {"role": USAGE_ROLE, "stats": live}
        if self._usage_id and self._usage_id in self.vault:
            # One version only: the counts' history is of no use and would grow per write.
            self.vault.update(self._usage_id, meta=meta, keep_history=False)
        else:
            record = self.vault.add(PROCEDURAL, "memory use counts", vector=self._zero(), meta=meta)
            self._usage_id = str(record.id)

    def _zero(self) -> Any:
        import numpy as np

        return np.zeros(self.vault.dim, dtype=np.float32)

    # --- writes ------------------------------------------------------------------------------
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
        now = self.clock()
        with self.lane:
            same = self._same_fact(text, subject_key) if kind == SEMANTIC else None
            if same is not None:
                return self._reinforce(same, provenance)
            older = self._current_for(subject_key) if subject_key and kind == SEMANTIC else []
            meta: dict[str, Any] = {
                "type": type,
                "importance": importance,
                "status": ACTIVE,
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
            vector = self.embedder.embed([text])[0]
            record = self.vault.add(
                kind, text, vector=vector, meta=meta, conversation_id=conversation_id
            )
            for old in older:
                self._set_meta(
                    old.id,
                    status=SUPERSEDED,
                    superseded_by=str(record.id),
                    valid_to=now.isoformat(),
                )
            self.notify(MemoryChange(added=(str(record.id),), edited=tuple(o.id for o in older)))
            logger.info("remembered %s %s (%s)", kind, record.id, "replaces" if older else "new")
            return item_from_record(record)

    def end(self, memory_ids: Sequence[str], provenance: Provenance) -> None:
        """These facts stopped being true ("we had to rehome Rufus"): superseded with the date,
        kept as the past, and linked to the words that ended them."""
        now = self.clock().isoformat()
        with self.lane:
            for memory_id in memory_ids:
                self._set_meta(
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
        for item in self.items(SEMANTIC, include_inactive=False):
            if " ".join(item.text.casefold().split()) == wanted and (
                not subject_key or item.subject_key == subject_key
            ):
                return item
        return None

    def _current_for(self, subject_key: str) -> list[MemoryItem]:
        return [
            i for i in self.items(SEMANTIC, include_inactive=False) if i.subject_key == subject_key
        ]

    def _reinforce(self, item: MemoryItem, provenance: Sequence[Provenance]) -> MemoryItem:
        """Hearing a fact again: more important, and one more source."""
        sources = [p.to_json() for p in item.provenance] + [p.to_json() for p in provenance]
        return self._set_meta(
            item.id,
            importance=min(1.0, item.importance + 0.1),
            provenance=sources,
            confirmed_at=self.clock().isoformat(),
        )

    @_in_lane
    def _set_meta(self, memory_id: str, /, **changes: Any) -> MemoryItem:
        record = self.vault.get(memory_id)
        meta = {**_thaw(record.meta), **changes}
        updated = self.vault.update(memory_id, meta=meta)
        self.notify(MemoryChange(edited=(memory_id,)))
        return item_from_record(updated)

    @_in_lane
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
        record = self.vault.get(memory_id)
        meta = _thaw(record.meta)
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
            vector = self.embedder.embed([text])[0]
            meta["reviewed"] = True if reviewed is None else reviewed
            if text != record.text:
                # The user's correction: the words it was learned from now say something else,
                # so they stay out of prompts (``outdated_episodes``).
                meta["edited"] = True
        if text is not None or importance is not None or pinned is not None:
            meta["confirmed_at"] = self.clock().isoformat()
        updated = self.vault.update(memory_id, text=text, meta=meta, vector=vector, kind=kind)
        self.notify(MemoryChange(edited=(memory_id,)))
        if text is not None and updated.kind == SEMANTIC:
            self._rebuild_topics()
        return item_from_record(updated)

    def accept(self, memory_id: str) -> MemoryItem:
        return self.edit(memory_id, reviewed=True)

    @_in_lane
    def forget(self, memory_ids: Iterable[str], *, rebuild_topics: bool = True) -> ForgetReceipt:
        """Forget these memories, and everything that repeats their words: every topic summary
        that ever quoted one of them (in its current text or its history), and the span of
        the user's words each was learned from, redacted in its source episode (with the
        reply's sentences that repeated them). Topics are then rebuilt without them."""

        ids = list(dict.fromkeys(memory_ids))
        if not ids:
            raise InputError("nothing to forget: give at least one memory id")
        with self.lane:
            preview = self.forget_preview(ids)
            _learned, kept = self._learned_only_from(ids)
            for fact_id, remaining in kept.items():  # learned elsewhere too: only the source goes
                self._set_meta(fact_id, provenance=[p.to_json() for p in remaining])
            ids += [*preview.learned, *preview.topics]
            receipt = self._forget_sealed(ids, self._redaction_plans(ids))
            if preview.learned:
                receipt = replace(receipt, learned=preview.learned)
        if rebuild_topics and any(k == SEMANTIC for k in receipt.kinds):
            self._rebuild_topics(had_topics=bool(preview.topics))
        return receipt

    def forget_words(self, spans: Mapping[str, Sequence[tuple[int, int]]]) -> ForgetReceipt:
        """Forget words the user said, not a learned fact: each episode id maps to ranges of
        its user message ("forget my phone number" when no fact holds it). The ranges are
        redacted as a forgotten fact's span is, in the same ratchet; a fact learned from
        inside them is forgotten with them."""
        from desktop_agent.core.redaction import rewrite_episode

        with self.lane:
            facts = self.items(SEMANTIC)
            ranges = {e: list(r) for e, r in spans.items() if e in self.vault}
            doomed = {
                f.id: f
                for f in facts
                for p in f.provenance
                if any(
                    p.start < end and start < p.end for start, end in ranges.get(p.episode_id, ())
                )
            }
            for fact in doomed.values():
                for p in fact.provenance:
                    if p.episode_id in self.vault and p.end > p.start:
                        ranges.setdefault(p.episode_id, []).append((p.start, p.end))
            ids = [*doomed, *self._topics_quoting(set(doomed))]
            plans = []
            for episode_id, said in ranges.items():
                kept = [
                    (f, p)
                    for f in facts
                    if f.id not in doomed
                    for p in f.provenance
                    if p.episode_id == episode_id
                ]
                if (plan := rewrite_episode(self.item(episode_id), said, kept)) is not None:
                    plans.append(plan)
            if not plans and not ids:
                raise InputError("nothing to forget: those words are no longer in any message")
            receipt = self._forget_sealed(ids, plans)
        if doomed:
            self._rebuild_topics()
        return receipt

    def _forget_sealed(
        self, ids: Sequence[str], plans: Sequence[EpisodeRedaction]
    ) -> ForgetReceipt:
        """Forget ``ids`` and rewrite each planned episode in one ratchet (the caller holds
        the lock), then move the surviving memories' spans and tell the panels."""
        from desktop_agent.memory.model import Rewrite

        vectors: Any = self.embedder.embed([p.text for p in plans]) if plans else []
        rewrite = {
            p.episode_id: Rewrite(p.text, p.meta, vector)
            for p, vector in zip(plans, vectors, strict=True)
        }
        receipt = self.vault.forget(ids, rewrite=rewrite)
        logger.info("forgot %d memories, redacted %d messages", len(ids), len(plans))
        self._drop_usage(ids)
        for plan in plans:
            self._fact_items.pop(plan.episode_id, None)
        moved = {m: prov for p in plans for m, prov in p.moved.items() if m in self.vault}
        for memory_id, provenance in moved.items():
            self._set_meta(memory_id, provenance=[p.to_json() for p in provenance])
        self.notify(
            MemoryChange(forgotten=tuple(ids), edited=tuple(receipt.redacted), receipt=receipt)
        )
        return receipt

    def forget_preview(self, memory_ids: Iterable[str]) -> ForgetPreview:
        """What forgetting these memories also touches, said before it is done."""
        ids = list(dict.fromkeys(memory_ids))
        for memory_id in ids:
            if memory_id not in self.vault:
                raise InputError(f"no memory with id {memory_id!r}; nothing was forgotten")
        learned, _kept = self._learned_only_from(ids)
        doomed = [*ids, *learned]
        topics = self._topics_quoting(set(doomed))
        plans = self._redaction_plans([*doomed, *topics])
        return ForgetPreview(
            tuple(ids),
            tuple(topics),
            tuple(p.episode_id for p in plans if p.episode_id not in set(ids)),
            tuple(learned),
        )

    def _learned_only_from(
        self, ids: Sequence[str]
    ) -> tuple[list[str], dict[str, list[Provenance]]]:
        """Facts every source of which is among the episodes in ``ids`` (they go too), and the
        remaining sources of facts also learned elsewhere (they stay, without these)."""
        episodes = {i for i in ids if self.vault.kind_of(i) == EPISODIC}
        if not episodes:
            return [], {}
        asked = set(ids)
        only, kept = [], {}
        for fact in self.learned_from(episodes):
            if fact.id in asked:
                continue
            remaining = [p for p in fact.provenance if p.episode_id not in episodes]
            if remaining:
                kept[fact.id] = remaining
            else:
                only.append(fact.id)
        return only, kept

    def _redaction_plans(self, ids: Sequence[str]) -> list[EpisodeRedaction]:
        from desktop_agent.core.redaction import plan_redactions

        doomed = set(ids)
        semantic = [self.item(i) for i in ids if self.vault.kind_of(i) == SEMANTIC]
        if not any(item.provenance for item in semantic):
            return []
        survivors = [i for i in self.items(SEMANTIC) if i.id not in doomed]

        def episode(episode_id: str) -> MemoryItem | None:
            if episode_id in doomed or episode_id not in self.vault:
                return None
            return self.item(episode_id)

        return plan_redactions(semantic, survivors, episode)

    def _rebuild_topics(self, *, had_topics: bool = False) -> None:
        """Topic summaries after a forget or an edit: the "About you" summary must not keep
        saying what the user took back."""
        from desktop_agent.core.consolidation import refresh_topics

        if not had_topics and not self.vault.list(TOPIC):
            return  # none yet: the first consolidation run makes them
        try:
            refresh_topics(self)
        except Exception:  # the forget or edit is done; topics are rebuilt on the next run
            logger.exception("rebuilding topics failed")

    def _topics_quoting(self, doomed: set[str]) -> list[str]:
        found = []
        for record in self.vault.list(TOPIC):
            quoted = record.meta.get("summarised") or record.meta.get("members") or ()
            if str(record.id) not in doomed and not doomed.isdisjoint(str(i) for i in quoted):
                found.append(str(record.id))
        return found

    def warm(self) -> None:
        """Build what the first recall would otherwise build (keyword index, conversation
        neighbours); the app calls this on a background thread after unlock."""
        self.vault.warm()
        with self.vault.lock:
            if self._neighbours is None:
                self._neighbours = self._build_neighbours()
            self._conversation_index()

    def reject(self, memory_id: str) -> ForgetReceipt:
        return self.forget([memory_id])

    def forget_all(self) -> ForgetReceipt:
        with self.lane:
            receipt = self.vault.forget_all()
            self._usage, self._usage_id = {}, None
            self.notify(MemoryChange(forgotten=tuple(receipt.ids), receipt=receipt))
            return receipt

    def close_conversation(self, conversation_id: str) -> None:
        """Nothing more is stored for this conversation in this process (it is being deleted;
        a reply still streaming for it must not bring it back)."""
        with self.lane:
            self._closed.add(conversation_id)

    def forget_conversation(self, conversation_id: str) -> ForgetReceipt:
        """Forget a conversation's episodes and everything learned only from them, and close
        it (see ``close_conversation``).

        A fact also learned elsewhere stays, with this conversation removed from its sources.
        """
        with self.lane:
            self._closed.add(conversation_id)
            episodes = [e.id for e in self.episodes(conversation_id)]
            if not episodes:
                raise InputError(f"no remembered conversation with id {conversation_id}")
            doomed = list(episodes)
            for item in self.learned_from(episodes):
                remaining = [p for p in item.provenance if p.episode_id not in episodes]
                if remaining:
                    self._set_meta(item.id, provenance=[p.to_json() for p in remaining])
                else:
                    doomed.append(item.id)
            return self.forget(doomed)

    # --- keys, audit, backup (the vault's own verbs, here so the GUI needs one service) -----
    def key_status(self) -> KeyStatus:
        return self.vault.status()

    @_in_lane
    def rotate_keys(self) -> int:
        """A new key-encryption key; returns the new epoch."""
        return self.vault.rotate_keys()

    def audit_entries(self) -> list[AuditEntry]:
        return self.vault.audit_entries()

    def verify_audit(self) -> AuditReport:
        return self.vault.verify_audit()

    @_in_lane
    def export_backup(self, path: str | Path, passphrase: str) -> ExportSummary:
        return self.vault.export_backup(path, passphrase)

    def import_backup(self, path: str | Path, passphrase: str) -> ImportSummary:
        with self.lane:
            summary = self.vault.import_backup(path, passphrase)
            self._load_usage()
            self.notify(MemoryChange(added=tuple(summary.imported)))
        return summary

    # --- episodes --------------------------------------------------------------------------
    @_in_lane
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
    ) -> MemoryItem:
        """Store one exchange of a live chat as an episodic memory; ConversationClosed when
        the conversation was deleted meanwhile (the reply was still streaming)."""
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
        }
        vector = self.embedder.embed([text])[0]
        record = self.vault.add(
            EPISODIC, text, vector=vector, meta=meta, conversation_id=conversation_id
        )
        self.notify(MemoryChange(added=(str(record.id),)))
        return item_from_record(record)

    @_in_lane
    def update_reply(self, episode_id: str, change: Change) -> MemoryItem:
        """Rewrite one exchange's reply: a version added by Regenerate, or the one the user
        chose (``core/reply_versions.py``); read and written as one job."""
        episode = self.item(episode_id)
        if episode.conversation_id in self._closed:
            raise ConversationClosed(f"conversation {episode.conversation_id} was deleted")
        text, meta = change(episode)
        vector = self.embedder.embed([text])[0]
        # One version kept: the meta holds every reply version, older rows would repeat them.
        record = self.vault.update(
            episode_id, text=text, meta=meta, vector=vector, keep_history=False
        )
        self.notify(MemoryChange(edited=(episode_id,)))
        return item_from_record(record)

    def set_outcome(self, episode_id: str, outcome: str) -> MemoryItem:
        """Note how an exchange went ("positive" / "negative" feedback)."""
        return self._set_meta(episode_id, outcome=outcome)

    @_in_lane
    def rename_conversation(self, conversation_id: str, title: str) -> None:
        episodes = self.episodes(conversation_id)
        if episodes:
            self._set_meta(episodes[-1].id, title=title)

    @_in_lane
    def pin_conversation(self, conversation_id: str, pinned: bool) -> None:
        """Keep a conversation at the top of the list (said on its latest episode, as a title
        is; a newer episode without the key keeps it)."""
        episodes = self.episodes(conversation_id)
        if episodes:
            self._set_meta(episodes[-1].id, pinned=pinned)

    def import_history(self, messages: Sequence[HistoryMessage]) -> list[MemoryItem]:
        """Store imported messages as episodes, one vault commit for the whole batch; each
        keeps its own id as the source id."""
        from desktop_agent.core.history_import import memory_text
        from desktop_agent.memory.model import NewMemory

        if not messages:
            return []
        texts = [memory_text(m) for m in messages]
        vectors = self.embedder.embed(texts)
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
        with self.lane:
            records = self.vault.add_many(rows)
            self.notify(MemoryChange(added=tuple(str(r.id) for r in records)))
        return [item_from_record(r) for r in records]

    def _drop_usage(self, ids: Sequence[str]) -> None:
        if any(i in self._usage for i in ids):
            for memory_id in ids:
                self._usage.pop(memory_id, None)
            if self._usage_id and self._usage_id in self.vault:
                self._save_usage()
