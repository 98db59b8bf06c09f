"""Re-encrypting every row under new data keys (``keys rotate --rekey``; a part of ``Vault``).

A rotation (``rotate_keys``) protects what is written after it; a data key stolen before it
still opens the rows it sealed. ``rekey`` closes that: every row is re-encrypted under a new
data key (one per conversation and one per other memory, as when they were written), then the
old keys are destroyed in a KEK ratchet, the unlock snapshot goes with them, and the old
ciphertext is compacted out of every data file and old Lance version.

It is resumable. Before the first row moves, the plan (old key id -> new key id, opaque ids
only) is sealed under the audit key in ``rekey.journal``; rows move in batches, one Lance commit
each, and a row already under its new key is not touched again. After a crash every memory
still reads (each row is under its old or its new key, both kept), and running the command
again picks the journal up and finishes: the remaining rows, the ratchet, the compaction, the
audit entry. Keys the plan made that a crash left unused are destroyed by the next unlock as
orphans; the rerun makes them again.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Final

from desktop_agent.errors import VaultError
from desktop_agent.memory import rekey_journal
from desktop_agent.memory.keystore import RETIRED
from desktop_agent.memory.model import MemoryId
from desktop_agent.memory.rows import open_row, seal_row
from desktop_agent.memory.store import arrow_rows

if TYPE_CHECKING:
    from desktop_agent.memory.read_only import ReadOnlyGuard
    from desktop_agent.memory.state import VaultState

BATCH: Final = 1000  # rows per Lance commit (and per progress report)
Progress = Callable[[int, int], None]  # (rows done, rows in all)


@dataclass(frozen=True, slots=True)
class RekeyReceipt:
    """What a re-encryption did (counts and epochs only)."""

    rows: int  # rows re-encrypted by this run
    keys_destroyed: int
    epoch: int
    previous_epoch: int
    resumed: bool  # it finished one a crash interrupted

    def to_json(self) -> dict[str, Any]:
        return {
            "rekeyed_rows": self.rows,
            "keys_destroyed": self.keys_destroyed,
            "epoch": self.epoch,
            "previous_epoch": self.previous_epoch,
            "resumed": self.resumed,
        }


class Rekeyer:
    """rekey: a part of Vault."""

    def __init__(self, state: VaultState, guard: ReadOnlyGuard) -> None:
        self._state = state
        self._guard = guard

    @property
    def unfinished(self) -> bool:
        """True when a re-encryption was interrupted: run it again to finish."""
        return rekey_journal.journal_path(self._state.directory).exists()

    def rekey(self, progress: Progress | None = None, *, batch: int = BATCH) -> RekeyReceipt:
        """Re-encrypt every row under new data keys, then destroy the old keys (new epoch)."""
        state = self._state
        with state.mutex:
            self._guard.check_writing()
            previous = state.keys.epoch
            table = state.store.read()  # every row, and every damaged file found on the way
            self._refuse_unreadable()
            plan, resumed = self._rekey_plan()
            todo = [
                row
                for row in table.to_pylist()
                if row["key_id"] in plan and plan[row["key_id"]] != row["key_id"]
            ]
            done = self._move_rows(todo, plan, progress, batch)
            doomed = [old for old in plan if old in state.keys] + list(state.snapshot_keys())
            epoch = state.keys.ratchet(doomed) if doomed or not resumed else state.keys.epoch
            state.drop_snapshot()
            state.store.compact_and_purge()  # the old ciphertext, out of every file and version
            state.used_keys = {k for k in state.used_keys if k not in set(doomed)}
            state.audit.append(
                "rekey", count=done, epoch=epoch, keys_destroyed=len(doomed), resumed=resumed
            )
            rekey_journal.clear(state.directory)
            return RekeyReceipt(done, len(doomed), epoch, previous, resumed)

    def _refuse_unreadable(self) -> None:
        """A row that cannot be read cannot be re-encrypted, and destroying its key would lose
        it for good (even if the file were restored): stop before anything changes."""
        damaged = self._state.store.damaged_files() or [
            d.where
            for d in self._state.damage
            if not d.where.startswith("manifest")  # set aside: fine
        ]
        if damaged:
            raise VaultError(
                f"cannot re-encrypt the memories now: {damaged[0]} is damaged, and its old key "
                "would be destroyed; nothing was changed. Forget the damaged memory or restore "
                "the data folder, then run `desktop-agent memory keys rotate --rekey` again"
            )

    def _rekey_plan(self) -> tuple[dict[str, str], bool]:
        """Old key id -> new key id: the journaled plan of an interrupted run, or a new one."""
        state = self._state
        audit_key = state.audit_key()[1]
        plan = rekey_journal.read(state.directory, audit_key)
        resumed = plan is not None
        if plan is None:
            used = {k for _v, k, _r in state.current.values()}
            used.update(k for rows in state.older.values() for _v, k in rows)
            olds = [k for k in state.keys.ids() if k in used]
            plan = self._new_keys_for(olds)
        else:
            # New keys an unlock destroyed as unused (the crash came before any row used them).
            lost = [old for old, new in plan.items() if new not in state.keys and old in state.keys]
            plan = {old: new for old, new in plan.items() if old in state.keys}
            plan.update(self._new_keys_for(lost))
        rekey_journal.write(state.directory, audit_key, plan)
        return plan, resumed

    def _new_keys_for(self, olds: list[str]) -> dict[str, str]:
        """One new key per conversation (all its old keys map to it), one per other old key."""
        scopes = [_live_scope(self._state.keys.scope_of(old)) for old in olds]
        conversations = list(dict.fromkeys(s for s in scopes if s))
        made = self._state.keys.new_keys([*conversations, *("" for s in scopes if not s)])
        by_conversation = dict(zip(conversations, made, strict=False))
        own = iter(made[len(conversations) :])
        return {
            old: by_conversation[scope] if scope else next(own)
            for old, scope in zip(olds, scopes, strict=True)
        }

    def _move_rows(
        self, rows: list[dict[str, Any]], plan: dict[str, str], progress: Progress | None, n: int
    ) -> int:
        """Re-encrypt ``rows`` under their new keys, ``n`` rows per commit; returns the count."""
        state = self._state
        total = len(rows)
        if progress is not None:
            progress(0, total)
        for start in range(0, total, n):
            ids, versions, key_ids, blobs = [], [], [], []
            for row in rows[start : start + n]:
                memory_id, version, old = row["memory_id"], row["version"], row["key_id"]
                plain = open_row(state.keys, memory_id, version, old, row["blob"])
                if plain is None:
                    raise VaultError(
                        f"cannot re-encrypt memory {memory_id}: its row {version} is damaged; "
                        "nothing was lost. Forget that memory or restore the data folder, then "
                        "run `desktop-agent memory keys rotate --rekey` again to finish"
                    )
                ids.append(memory_id)
                versions.append(version)
                key_ids.append(plan[old])
                blobs.append(seal_row(state.keys, memory_id, version, plan[old], plain))
            state.store.upsert(arrow_rows(ids, versions, key_ids, blobs))
            for memory_id, version, key_id in zip(ids, versions, key_ids, strict=True):
                state.move_key(MemoryId(memory_id), version, key_id)
            state.used_keys.update(key_ids)
            if progress is not None:
                progress(min(start + n, total), total)
        return total


def _live_scope(scope: str) -> str:
    """The scope a new key for this old one gets: its conversation's, else a key of its own."""
    if scope.startswith(f"{RETIRED}:"):
        scope = scope[len(RETIRED) + 1 :]
    return scope if scope.startswith("conv:") else ""
