"""The authenticated row set (issue 13, item 2; ``RowChecks``, a part of ``Vault``).

Every write that adds or removes rows records its intent in the row log (memory/row_log.py)
before the Lance commit and "done" after it (``CommittedStore``). At every open the rows Lance
shows are compared with the log: a memory missing, an edit rolled back, a version dropped or a
row the log never had is reported (``damaged``, ``status().extra["row_set"]``, ``verify_audit``
and the log), by opaque id and version only.

What this must never do is destroy keys because rows are missing: unlock's cleanup of keys no
row uses (``ReadOnlyGuard``, memory/read_only.py) keeps every key a row of the log still needs,
so restoring the data folder from a copy brings the rows back, readable. ``accept_missing`` is
the other way out: the log is rewritten from what is there, and the keys only the missing rows
used are destroyed in a ratchet.

A vault from before this (no ``rows`` key in its keystore) gets its log at its first open, from
the rows found then (trust on first use).
"""

from __future__ import annotations

import logging
from collections import defaultdict
from collections.abc import Callable, Iterable, Sequence
from typing import TYPE_CHECKING, Final

import pyarrow as pa

from desktop_agent.errors import VaultError
from desktop_agent.memory.crypto import new_id, new_key
from desktop_agent.memory.keystore import ROWS_SCOPE, DataKey
from desktop_agent.memory.model import Damage, MemoryId
from desktop_agent.memory.row_log import (
    LOG_NAME,
    ROW,
    Change,
    RowLog,
    Rows,
    as_dict,
    canonical,
    changes_of,
    describe,
)
from desktop_agent.memory.store import TABLE, Store

if TYPE_CHECKING:
    from desktop_agent.memory.audit import AuditReport
    from desktop_agent.memory.rows import Loaded
    from desktop_agent.memory.state import VaultState

logger = logging.getLogger(__name__)
ACCEPT_COMMAND: Final = "desktop-agent memory keys accept-missing"
_COLUMNS: Final = ["memory_id", "version", "key_id"]


class CommittedStore(Store):
    """The Lance table, with every row-changing write recorded in the row log around it."""

    row_log: RowLog | None = None

    def append(self, rows: pa.Table) -> None:
        change = Change(adds=_rows_of(rows))
        self._recorded(change, lambda: super(CommittedStore, self).append(rows))

    def upsert(self, rows: pa.Table) -> None:
        adds = _rows_of(rows)
        change = Change(adds=adds, remove_rows=[row[:20] for row in adds])
        self._recorded(change, lambda: super(CommittedStore, self).upsert(rows))

    def delete(self, memory_ids: Iterable[str]) -> None:
        ids = [str(i) for i in memory_ids]
        change = Change(remove_ids=[bytes.fromhex(i) for i in ids])
        self._recorded(change, lambda: super(CommittedStore, self).delete(ids))

    def delete_rows(self, rows: Sequence[tuple[str, int]]) -> None:
        change = Change(remove_rows=[_rk(m, v) for m, v in rows])
        self._recorded(change, lambda: super(CommittedStore, self).delete_rows(rows))

    def drop(self) -> None:
        self._recorded(Change(everything=True), super().drop)
        self._checkpoint()  # the log names no forgotten memory any more

    def compact_and_purge(self) -> None:
        super().compact_and_purge()
        self._checkpoint()

    def rows_found(self) -> Rows:
        """Every (id, version, key id) the table shows now (a column read, no ciphertext)."""
        table = self.read(columns=_COLUMNS)
        return canonical(*(table.column(name).to_pylist() for name in _COLUMNS))

    def _recorded(self, change: Change, write: Callable[[], None]) -> None:
        log = self.row_log
        if log is None or not change:
            write()
            return
        if log.uncertain:  # a write failed earlier: settle it against the table first
            log.resolve(log.plan(self.rows_found()))
        log.intent(change)
        try:
            write()
        except BaseException:
            log.uncertain = True  # it may have committed before it failed
            raise
        try:
            log.done()
        except VaultError as error:  # committed all the same: settled at the next write or open
            log.uncertain = True
            logger.warning("row log: the end of a write is not recorded: %s", error)
        if log.overgrown():
            self._checkpoint()

    def _checkpoint(self) -> None:
        """Best effort: the log as it is stays right, only longer."""
        log = self.row_log
        if log is not None and not log.uncertain and log.pending is None:
            try:
                log.checkpoint()
            except VaultError as error:
                logger.warning("row log: not checkpointed: %s", error)


class RowChecks:
    """The row log's part of Vault: open it, compare it with the rows at unlock, settle it,
    and accept what is missing."""

    def __init__(self, state: VaultState) -> None:
        self._state = state
        self._row_log: RowLog | None = None
        self._rows_seen: Rows | None = None  # what the table showed at unlock (to settle a write)
        self._row_damage: list[Damage] = []
        self._missing_keys: dict[str, set[str]] = {}  # key id -> memories whose rows are missing

    @property
    def note(self) -> str | None:
        """One line when rows the log names are missing (or the log itself is), else None."""
        return _note(self._live_row_damage())

    def _live_row_damage(self) -> list[Damage]:
        """What is still wrong (a forget of a rolled-back memory takes its entry away)."""
        return [d for d in self._row_damage if d in self._state.damage]

    def open(self) -> None:
        """Read the row log (before a journaled forget is finished: its deletes are recorded)."""
        keys = self._state.keys
        key_id = keys.scope_key(ROWS_SCOPE)
        if key_id is None:
            return  # a vault from before the row log (or a crash before its key): made at settle
        log = RowLog(self._state.directory, keys.header.vault_id, keys.raw_key(key_id))
        self._row_log = log.read()
        if log.problem is None and isinstance(self._state.store, CommittedStore):
            self._state.store.row_log = log

    def check(self, loaded: Loaded) -> list[Damage]:
        """Compare what the table shows with the row log; returns what is wrong, as damage."""
        log = self._row_log
        if (
            log is not None
            and log.problem is None
            and not log.uncertain
            and (loaded.rows_digest == log.digest != "")
        ):
            return []  # the snapshot of this table version was checked against this very log
        found = self._rows_seen = _found(loaded)
        if log is None:
            return []
        if log.problem is not None:
            logger.warning("row set: %s", log.problem)
            self._row_damage = [Damage("vault", LOG_NAME, log.problem)]
            return self._row_damage
        expected = log.expected(log.plan(found)) if log.uncertain else log.rows()
        if expected.tobytes() == found.tobytes():
            return []
        expected_rows, found_rows = as_dict(expected), as_dict(found)
        self._row_damage = _differences(expected_rows, found_rows)
        for rk, key in expected_rows.items():
            if found_rows.get(rk) != key:
                self._missing_keys.setdefault(key.hex(), set()).add(rk[:16].hex())
        if self._row_damage:
            logger.warning(
                "row set: %s; %s",
                _note(self._row_damage),
                "; ".join(f"{d.where}: {d.reason}" for d in self._row_damage),
            )
        return self._row_damage

    def digest(self) -> str:
        """For the unlock snapshot written at close: the row log's digest if the state in RAM
        matches it (the next unlock from that snapshot can then skip the comparison)."""
        log = self._row_log
        if log is None or log.problem or log.pending is not None or self._row_damage:
            return ""
        found = _found_in_ram(self._state.current, self._state.older)
        if log.rows().tobytes() != found.tobytes():
            return ""
        return log.file_digest()

    def settle(self) -> None:
        """Unlock's writes for the row log: make it (first open), or record how a write a crash
        interrupted ended. Both wait for the first write on a disk that refuses them."""
        log = self._row_log
        if log is None and self._rows_seen is not None:
            if self._state.keys.damage and (self._state.directory / LOG_NAME).exists():
                return  # its key may be in a lost key record: do not overwrite it
            self._make_log(self._rows_seen)
            logger.info(
                "row set: recorded %d rows (first open with a row log)", len(self._rows_seen)
            )
        elif (
            log is not None
            and log.problem is None
            and log.uncertain
            and self._rows_seen is not None
        ):
            log.resolve(log.plan(self._rows_seen))

    def _make_log(self, rows: Rows) -> None:
        """A new key and a log of ``rows`` under it: the file first, then the key (the commit:
        a crash in between leaves a file no key opens, which the next open makes again)."""
        keys = self._state.keys
        key = DataKey(new_id(), new_key(), ROWS_SCOPE)
        log = RowLog(self._state.directory, keys.header.vault_id, key.key)
        log.checkpoint(rows)
        keys.add_keys([key])  # a damaged log's old key is now unused: unlock's cleanup
        self._row_log = log
        if isinstance(self._state.store, CommittedStore):
            self._state.store.row_log = log

    def destroyable(self, orphans: list[str]) -> list[str]:
        """Of keys no row in the table uses, the ones unlock may destroy: none while the log is
        missing or damaged; else those no row of the log needs (missing rows keep theirs)."""
        log = self._row_log
        if not orphans or log is None or log.problem is not None or log.uncertain:
            return []  # (an unsettled write is settled first: see ReadOnlyGuard)
        keys = log.rows().tobytes()
        needed = {keys[i + 20 : i + ROW].hex() for i in range(0, len(keys), ROW)}
        return [key for key in orphans if key not in needed]

    def refuse_if_missing(self, keys: set[str], ids: set[MemoryId]) -> None:
        """Before a forget of ``ids`` destroys ``keys``: rows of other memories missing from
        the table (restorable from a copy) may need one, and destroying it would lose them."""
        if any(self._missing_keys.get(key, set()) - ids for key in keys):
            raise VaultError(
                "cannot forget this now: memories missing from the store share its data key, "
                "and forgetting would destroy it, so restoring them from a backup would no longer "
                f"work; nothing was forgotten. Restore the data folder, or run `{ACCEPT_COMMAND}`"
            )

    def accept_missing(self) -> int:
        """The log rewritten from the rows there are now (the caller checked the vault takes
        writes, and destroys the keys only missing rows used next); returns how many memories
        were missing or rolled back."""
        state = self._state
        with state.mutex:
            accepted = len({d.memory_id for d in self._row_damage if d.memory_id})
            found = _found_in_ram(state.current, state.older)
            log = self._row_log
            if log is None or log.problem is not None:
                self._make_log(found)
            else:
                log.checkpoint(found)
            state.damage = [d for d in state.damage if d not in self._row_damage]
            self._row_damage, self._rows_seen = [], found
            self._missing_keys = {}
            state.audit.append("accept missing", count=accepted, epoch=state.keys.epoch)
            return accepted

    def verify_audit(self) -> AuditReport:
        """The audit log's chain, and the row set: missing rows are not "OK"."""
        with self._state.mutex:
            report = self._state.audit.verify()
            live = self._live_row_damage()
            if not live:
                return report
            problems = (str(_note(live)), *(f"{d.where}: {d.reason}" for d in live))
            return type(report)(False, report.entries, (*report.problems, *problems))


def _note(damage: list[Damage]) -> str | None:
    if not damage:
        return None
    if damage[0].where == LOG_NAME:
        return (
            f"{damage[0].reason}: cannot check for missing memories, and no data key is "
            f"destroyed until it is rebuilt with `{ACCEPT_COMMAND}`"
        )
    missing = len({d.memory_id for d in damage if "never had" not in d.reason})
    if not missing:
        return "the store holds rows its record of memories never had (tampering?)"
    return (
        f"{missing} memories missing or rolled back in the store (tampering or a restore from "
        "an older copy): restore the data folder from a backup to get them back, or run "
        f"`{ACCEPT_COMMAND}` to forget them"
    )


def _rk(memory_id: str, version: int) -> bytes:
    return bytes.fromhex(memory_id) + int(version).to_bytes(4, "big")


def _rows_of(rows: pa.Table) -> list[bytes]:
    return changes_of(*(rows.column(name).to_pylist() for name in _COLUMNS))


def _found(loaded: Loaded) -> Rows:
    ids, versions, keys = list(loaded.ids), list(loaded.versions), list(loaded.key_ids)
    for memory_id, history in loaded.older.items():
        for version, key_id in history:
            ids.append(memory_id)
            versions.append(version)
            keys.append(key_id)
    return canonical(ids, versions, keys)  # type: ignore[arg-type]


def _found_in_ram(
    current: dict[MemoryId, tuple[int, str, bytes]], older: dict[MemoryId, list[tuple[int, str]]]
) -> Rows:
    rows = [(m, v, k) for m, (v, k, _r) in current.items()]
    rows += [(m, v, k) for m, history in older.items() for v, k in history]
    return canonical([r[0] for r in rows], [r[1] for r in rows], [r[2] for r in rows])


def _differences(expected: dict[bytes, bytes], found: dict[bytes, bytes]) -> list[Damage]:
    """One damage entry per memory the table disagrees about (ids and versions only)."""
    wanted: dict[str, list[int]] = defaultdict(list)
    have: dict[str, list[int]] = defaultdict(list)
    for rk in expected:
        memory_id, version = describe(rk)
        wanted[memory_id].append(version)
    for rk in found:
        memory_id, version = describe(rk)
        have[memory_id].append(version)
    swapped: dict[str, list[int]] = defaultdict(list)
    for rk, key in expected.items():
        if found.get(rk) not in (None, key):
            memory_id, version = describe(rk)
            swapped[memory_id].append(version)
    out = []
    for memory_id in sorted(set(wanted) | set(have)):
        reason = _difference(
            sorted(wanted.get(memory_id, [])),
            sorted(have.get(memory_id, [])),
            sorted(swapped.get(memory_id, [])),
        )
        if reason:
            out.append(Damage(TABLE, f"memory {memory_id}", reason, MemoryId(memory_id)))
    return out


def _difference(wanted: list[int], have: list[int], swapped: list[int]) -> str | None:
    missing = [v for v in wanted if v not in have]
    extra = [v for v in have if v not in wanted]
    if not wanted:
        return f"unexpected rows (versions {_list(extra)}) that the row log never had"
    if not have:
        return f"missing from the store: every row (versions {_list(wanted)}) is gone"
    if max(wanted) in missing:
        return (
            f"rolled back: the newest version in the store is {max(have)}, the row log's is "
            f"{max(wanted)} (missing versions {_list(missing)}); version {max(have)} is shown"
        )
    if missing:
        return f"older versions {_list(missing)} are missing from the store"
    if extra:
        return f"unexpected versions {_list(extra)} that the row log never had"
    if swapped:
        return f"versions {_list(swapped)} are under another data key than recorded"
    return None


def _list(versions: list[int]) -> str:
    return ", ".join(str(v) for v in versions)
