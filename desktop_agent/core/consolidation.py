"""Consolidation: the background pass that keeps semantic memory tidy, idempotent and undoable.

One run (a) lets the newest statement of a ``subject_key`` supersede older active ones (what
``remember`` does at write time; this catches imported, restored or edited memories), (b) merges
near-duplicates into the older memory (status "merged", never deleted), (c) lists faded memories
without writing anything (decay is computed at read time by ``MemoryItem.effective_importance``)
and (d) refreshes topic summaries (``core.topics``).

Every write records, in the changed memory's own meta, the run id and the fields it changed with
their values before and after (``consolidation_log``), so ``undo(memory, run_id)`` can restore
exactly those fields, and leaves alone any field someone changed since. The vault keeps every
earlier version in ``history(id)`` as well. Nothing changes twice: a second run finds nothing to
do and writes no version.
"""

from __future__ import annotations

import re
import secrets
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any, Final

import numpy as np
from numpy.typing import NDArray

from desktop_agent.core.consolidation_log import (
    APART_KEY,
    LOG_KEY,
    Change,
    LoggedRun,
)
from desktop_agent.core.consolidation_log import RUN_KEY as RUN_KEY  # for callers of this module
from desktop_agent.core.memory_model import (
    ACTIVE,
    MERGED,
    SEMANTIC,
    SUPERSEDED,
    TOPIC,
    MemoryItem,
    item_from_record,
)
from desktop_agent.core.topics import Topic, plan_topics
from desktop_agent.errors import InputError

if TYPE_CHECKING:
    from desktop_agent.core.memory_service import MemoryService


# Cosine of all-MiniLM-L6-v2 vectors from which two memories of one type count as one. Measured
# on 22 paraphrase pairs and 28 different-fact pairs in the assistant's own phrasing
# (tests/core/test_consolidation.py has them): paraphrases 0.894-0.993 (median 0.960); different
# facts up to 0.905 ("lives in Lisbon" / "is from Lisbon") once the guards below remove word-order
# swaps (0.996, "tea over coffee" / "coffee over tea") and changed numbers (0.919, "34" / "43").
# At 0.92 no different-fact pair merges and 20 of 22 paraphrases do.
DUPLICATE_THRESHOLD: Final = 0.92
# A memory faded below this (and not pinned) is reported as forgettable; it is never deleted.
STALE_IMPORTANCE: Final = 0.05

_NEGATION = re.compile(r"\b(?:not|no|never|no longer|n't|don't|doesn't|isn't|anymore)\b", re.I)


@dataclass(frozen=True, slots=True)
class ConsolidationReport:
    """What one run changed. ``skipped``: nothing changed since this process's last run."""

    run_id: str
    changes: tuple[Change, ...] = ()
    stale: tuple[str, ...] = ()
    skipped: bool = False

    @property
    def changed(self) -> bool:
        return bool(self.changes)

    def to_json(self) -> dict[str, Any]:
        return {
            "run_id": self.run_id,
            "changed": self.changed,
            "skipped": self.skipped,
            "changes": [c.to_json() for c in self.changes],
            "stale": list(self.stale),
        }


@dataclass(frozen=True, slots=True)
class UndoReport:
    """What ``undo`` restored, and what it left alone because it changed after the run."""

    run_id: str
    restored: tuple[Change, ...] = ()
    conflicts: tuple[str, ...] = ()

    def to_json(self) -> dict[str, Any]:
        return {
            "run_id": self.run_id,
            "restored": [c.to_json() for c in self.restored],
            "conflicts": list(self.conflicts),
        }


# --- the run ---------------------------------------------------------------------------------


def consolidate(
    memory: MemoryService, *, now: datetime | None = None, force: bool = False
) -> ConsolidationReport:
    """One consolidation run. Cheap when nothing semantic changed since the last run in this
    process (the app calls it every few turns): it returns a ``skipped`` report at once.

    The whole run is one job in the memory's write lane: a forget asked for meanwhile waits
    for it, then finds (and removes) whatever the run wrote."""
    with memory.lane, memory.consolidation_watch.running:
        return _consolidate(memory, now=now, force=force)


def _consolidate(
    memory: MemoryService, *, now: datetime | None = None, force: bool = False
) -> ConsolidationReport:
    now = now or datetime.now(UTC)
    watch = memory.consolidation_watch
    run_id = f"{now:%Y%m%dT%H%M%S}-{secrets.token_hex(3)}"
    if watch.clean and not force:
        return ConsolidationReport(run_id, skipped=True)
    # Clean from here on: a write by another thread during the run makes the next call run.
    watch.clean = True
    run = LoggedRun(memory, run_id)
    items = {i.id: i for i in memory.items(SEMANTIC) if i.active}
    try:
        _supersede(run, items)
        _merge(run, items, _vectors(memory, list(items)))
        _refresh_topics(run, list(items.values()))
    except BaseException:
        watch.clean = False  # try again next time; what was written is logged and undoable
        run.notify()
        raise
    stale = tuple(
        i.id
        for i in items.values()
        if not i.pinned and i.effective_importance(now) < STALE_IMPORTANCE
    )
    watch.own = True  # the run's own changes do not call for another run
    try:
        run.notify()
    finally:
        watch.own = False
    watch.known = frozenset(
        str(r.id) for kind in (SEMANTIC, TOPIC) for r in memory.vault.list(kind)
    )
    return ConsolidationReport(run_id, tuple(run.changes), stale)


def refresh_topics(memory: MemoryService, *, now: datetime | None = None) -> ConsolidationReport:
    """Only step (d): rebuild topic summaries and memberships (logged and undoable too)."""
    now = now or datetime.now(UTC)
    with memory.lane, memory.consolidation_watch.running:
        run = LoggedRun(memory, f"{now:%Y%m%dT%H%M%S}-{secrets.token_hex(3)}")
        _refresh_topics(run, [i for i in memory.items(SEMANTIC) if i.active])
        run.notify()
    return ConsolidationReport(run.run_id, tuple(run.changes))


def _supersede(run: LoggedRun, items: dict[str, MemoryItem]) -> None:
    by_key: dict[str, list[MemoryItem]] = {}
    for item in items.values():
        if item.subject_key:
            by_key.setdefault(item.subject_key, []).append(item)
    for same in by_key.values():
        if len(same) < 2:
            continue
        same.sort(key=_stated_at)
        newest = same[-1]
        for old in same[:-1]:
            if newest.id in _apart(old) or old.id in _apart(newest):
                continue
            when = (newest.valid_from or newest.created_at).isoformat()
            fields = {"status": SUPERSEDED, "superseded_by": newest.id, "valid_to": when}
            run.write(old.id, "superseded", fields, detail=f"by {newest.id}")
            del items[old.id]
        if not newest.supersedes:
            updated = run.write(
                newest.id, "supersedes", {"supersedes": same[-2].id}, detail=same[-2].id
            )
            if updated is not None:
                items[newest.id] = updated


def _merge(
    run: LoggedRun, items: dict[str, MemoryItem], vectors: Mapping[str, NDArray[np.float32]]
) -> None:
    ordered = sorted(items.values(), key=lambda i: (i.created_at, i.id))
    by_type: dict[str, list[MemoryItem]] = {}
    for item in ordered:
        by_type.setdefault(item.type, []).append(item)
    for group in by_type.values():
        for i, j in _similar_pairs([vectors[m.id] for m in group], DUPLICATE_THRESHOLD):
            kept, other = group[i], group[j]
            if kept.id not in items or other.id not in items:
                continue  # one of them was merged already this run
            if not _same_statement(items[kept.id], items[other.id]):
                continue
            _merge_pair(run, items, items[kept.id], items[other.id])


def _merge_pair(
    run: LoggedRun, items: dict[str, MemoryItem], kept: MemoryItem, other: MemoryItem
) -> None:
    sources = [p.to_json() for p in kept.provenance]
    sources += [p.to_json() for p in other.provenance if p.to_json() not in sources]
    fields: dict[str, Any] = {
        "provenance": sources,
        "importance": max(kept.importance, other.importance),
    }
    if not kept.subject_key and other.subject_key:
        fields["subject_key"] = other.subject_key  # a later correction then finds it
    updated = run.write(kept.id, "absorbed", fields, detail=other.id)
    if updated is None:
        return
    items[kept.id] = updated
    run.write(
        other.id, "merged", {"status": MERGED, "merged_into": kept.id}, detail=f"into {kept.id}"
    )
    del items[other.id]


def _refresh_topics(run: LoggedRun, items: Sequence[MemoryItem]) -> None:
    vault = run.memory.vault
    purged = _purge_topics(run.memory, lambda ids: any(i not in vault for i in ids))
    run.changes += [Change(i, "topic_purged", "", "", "held a forgotten memory") for i in purged]
    items = [i for i in items if i.id in vault]  # the user may forget while a run goes on
    planned = plan_topics(items, _vectors(run.memory, [i.id for i in items]).__getitem__)
    existing: dict[str, MemoryItem] = {}
    for record in vault.list(TOPIC):
        name = str(record.meta.get("topic", ""))
        if name and name not in existing:
            existing[name] = item_from_record(record)
    by_id = {i.id: i for i in items}
    for topic in planned:
        if topic.name in existing:
            _update_topic(run, existing.pop(topic.name), topic)
        else:
            run.add_topic(topic)
        for member in topic.members:
            if _chosen(by_id[member]):
                continue  # the user's own topic: already named, nothing to write
            run.write(member, "topic", {"topic": topic.name, "topic_auto": True})
    for gone in existing.values():
        if gone.active or (gone.meta or {}).get("members"):
            run.write(gone.id, "topic_emptied", {"status": SUPERSEDED, "members": []})


def forget_topics_of(memory: MemoryService, forgotten: Iterable[str]) -> list[str]:
    """Forget every topic whose summary ever quoted one of ``forgotten`` (returns their ids).

    A summary repeats its members' words, and its earlier versions stay in the vault's history:
    forgetting a memory must take its topic with it, keys and all. Call this right after a
    forget; a consolidation run also does it, and then rebuilds the topic without the memory.
    """
    doomed = set(forgotten)
    return _purge_topics(memory, lambda ids: not doomed.isdisjoint(ids))


def _purge_topics(memory: MemoryService, quotes: Callable[[Sequence[str]], bool]) -> list[str]:
    ids = [
        str(record.id)
        for record in memory.vault.list(TOPIC)
        if record.meta.get("topic") and quotes(_summarised(record.meta))
    ]
    if ids:
        memory.forget(ids)
    return ids


def _summarised(meta: Mapping[str, Any]) -> list[str]:
    return [str(i) for i in (meta.get("summarised") or meta.get("members") or ())]


def _update_topic(run: LoggedRun, current: MemoryItem, topic: Topic) -> None:
    # Every memory a version of the summary quoted, so forgetting any of them finds this topic.
    quoted = sorted({*_summarised(current.meta or {}), *topic.members})
    fields = {"status": ACTIVE, "members": list(topic.members), "summarised": quoted}
    run.write(current.id, "topic_updated", fields, text=topic.summary)


def _chosen(item: MemoryItem) -> bool:
    """A topic the user gave (``remember(topic=...)``), as opposed to one set by a run."""
    return bool(item.topic) and not (item.meta or {}).get("topic_auto")


# --- undo ------------------------------------------------------------------------------------


def undo(memory: MemoryService, run_id: str) -> UndoReport:
    """Revert exactly the changes of run ``run_id``; a field changed since is left alone (and
    its memory listed in ``conflicts``). Un-merged and un-superseded pairs stay apart later."""
    with memory.lane:
        return _undo(memory, run_id)


def _undo(memory: MemoryService, run_id: str) -> UndoReport:
    touched = _logged(memory, run_id)
    if not touched:
        raise InputError(f"no consolidation run {run_id!r} to undo (see `memory consolidate`)")
    run = LoggedRun(memory, run_id)
    restored: list[Change] = []
    conflicts: list[str] = []
    doomed: list[str] = []
    for memory_id in touched:
        change, conflict, forget = run.revert(memory_id)
        restored += change
        if conflict:
            conflicts.append(memory_id)
        if forget:
            doomed.append(memory_id)
    run.notify()
    if doomed:
        # A topic this run created is derived data: undoing the run removes it.
        memory.forget(doomed)
    memory.consolidation_watch.clean = False
    return UndoReport(run_id, tuple(restored), tuple(conflicts))


def runs(memory: MemoryService) -> list[str]:
    """Ids of the runs whose changes are still logged (undoable), oldest first."""
    found: set[str] = set()
    for record in [*memory.vault.list(SEMANTIC), *memory.vault.list(TOPIC)]:
        found.update(str(e.get("run")) for e in record.meta.get(LOG_KEY, ()) or ())
    return sorted(found)


def _logged(memory: MemoryService, run_id: str) -> list[str]:
    return [
        str(record.id)
        for record in [*memory.vault.list(SEMANTIC), *memory.vault.list(TOPIC)]
        if any(e.get("run") == run_id for e in record.meta.get(LOG_KEY, ()) or ())
    ]


# --- helpers -----------------------------------------------------------------------------------


def _vectors(memory: MemoryService, ids: Iterable[str]) -> dict[str, NDArray[np.float32]]:
    vectors = memory.vectors_of(ids)
    for memory_id, vector in vectors.items():
        norm = float(np.linalg.norm(vector))
        vectors[memory_id] = vector / norm if norm > 0 else vector
    return vectors


def _similar_pairs(
    vectors: Sequence[NDArray[np.float32]], threshold: float, block: int = 1024
) -> list[tuple[int, int]]:
    """Index pairs (i < j) with cosine >= threshold, in (i, j) order; blocked so thousands of
    memories never need one n x n matrix."""
    if len(vectors) < 2:
        return []
    matrix = np.stack(vectors)
    pairs: list[tuple[int, int]] = []
    for start in range(0, len(matrix), block):
        sims = matrix[start : start + block] @ matrix.T
        rows, cols = np.nonzero(sims >= threshold)
        pairs += [(start + r, c) for r, c in zip(rows.tolist(), cols.tolist(), strict=True)]
    return sorted((i, j) for i, j in pairs if i < j)


def _same_statement(a: MemoryItem, b: MemoryItem) -> bool:
    if b.id in _apart(a) or a.id in _apart(b):
        return False
    return same_statement(a.text, b.text)


def same_statement(a: str, b: str, cosine: float = 1.0) -> bool:
    """Whether two texts say the same thing: the measured cosine threshold, plus guards for the
    pairs that embed alike yet differ (word order, numbers, negation)."""
    if cosine < DUPLICATE_THRESHOLD:
        return False
    words_a, words_b = _words(a), _words(b)
    if words_a != words_b and sorted(words_a) == sorted(words_b):
        return False  # "tea over coffee" / "coffee over tea"
    if _numbers(a) != _numbers(b):
        return False  # "34 years old" / "43 years old"
    return bool(_NEGATION.search(a)) == bool(_NEGATION.search(b))


def _words(text: str) -> list[str]:
    return re.findall(r"[^\W_]+", text.casefold())


_NUMBER_WORDS: Final = (
    r"\b(?:one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|thirteen|fourteen|"
    r"fifteen|sixteen|seventeen|eighteen|nineteen|twenty|thirty|forty|fifty|sixty|seventy|"
    r"eighty|ninety|hundred)\b"
)


def _numbers(text: str) -> list[str]:
    """Digits and numbers in words: "she's five" is not "learning to ride a bike" (0.93)."""
    return re.findall(rf"\d+|{_NUMBER_WORDS}", text.casefold())


def _apart(item: MemoryItem) -> set[str]:
    return {str(i) for i in (item.meta or {}).get(APART_KEY, ()) or ()}


def _stated_at(item: MemoryItem) -> tuple[datetime, datetime, str]:
    return (item.valid_from or item.created_at, item.created_at, item.id)
