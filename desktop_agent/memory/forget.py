"""Forgetting that really forgets (``Forgetter``, a part of ``Vault``).

1. Siblings that share a doomed data key are re-encrypted under fresh keys.
2. The forgotten rows are deleted (by opaque id only: Lance keeps predicates on disk).
3. The KEK ratchets: new epoch, keystore re-sealed without the doomed keys, old KEK deleted.
4. Fragments with deleted rows are rewritten and every old version is cleaned up.

After step 3 no key that opens the forgotten rows exists anywhere, so even a copy of the data
dir taken before the forget (a backup, a synced folder, SSD blocks) cannot be read with the
current keys. Step 4 removes the ciphertext itself from the live data dir. A crash anywhere in
between is finished on the next unlock: the forget's intent is journaled before its first
destructive step (memory/forget_journal.py), and ``ReadOnlyGuard.recover_unfinished_forget``
destroys keys no row uses any more.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

from desktop_agent.errors import VaultError
from desktop_agent.memory import forget_journal
from desktop_agent.memory import payload as codec
from desktop_agent.memory.files import write_blocked
from desktop_agent.memory.forget_journal import ForgetIntent, key_ids
from desktop_agent.memory.keystore import ROWS_SCOPE
from desktop_agent.memory.model import (
    ForgetReceipt,
    MemoryId,
    MemoryNotFound,
    Rewrite,
    check_text,
    check_vector,
    meta_to_json,
)
from desktop_agent.memory.rows import open_row, seal_row
from desktop_agent.memory.store import arrow_rows

if TYPE_CHECKING:
    from desktop_agent.memory.read_only import ReadOnlyGuard
    from desktop_agent.memory.row_set import RowChecks
    from desktop_agent.memory.state import VaultState
    from desktop_agent.memory.writing import Writer


class Forgetter:
    """forget, forget_all and rotate_keys: a part of Vault."""

    def __init__(
        self, state: VaultState, guard: ReadOnlyGuard, writer: Writer, rows: RowChecks
    ) -> None:
        self._state = state
        self._guard = guard
        self._writer = writer
        self._rows = rows

    def forget(
        self, ids: Iterable[str], *, rewrite: Mapping[str, Rewrite] | None = None
    ) -> ForgetReceipt:
        """Erase these memories, all their versions and their data keys; returns a receipt.

        ``rewrite`` keeps other memories but replaces their content (an episode without the
        words of a forgotten fact): their old versions and keys are erased in the same ratchet,
        so the forgotten words survive in no version of anything.
        """
        state = self._state
        rewrite = dict(rewrite or {})
        with state.mutex:
            self._guard.check_writing()
            doomed_ids = [MemoryId(i) for i in dict.fromkeys(ids)]
            redacted = [MemoryId(i) for i in rewrite if i not in set(doomed_ids)]
            for memory_id in [*doomed_ids, *redacted]:
                if not state.known(memory_id):
                    raise MemoryNotFound(f"no memory with id {memory_id!r}; nothing was forgotten")
            kinds = tuple(state.kind_of(i) for i in doomed_ids)
            doomed_keys = {
                key for i in [*doomed_ids, *redacted] for _v, key in state.versions_of(i)
            }
            shared = self._shared(doomed_keys)
            if shared:
                self._refuse_if_damaged(probe=True)
            self._rows.refuse_if_missing(doomed_keys, {*doomed_ids, *redacted})
            siblings = self._users_of(doomed_keys) - set(doomed_ids) - set(redacted)
            rekeyed = self._rekey(sorted(siblings), doomed_keys)
            if shared:
                self._refuse_if_damaged()  # re-encrypting the siblings read their files
            # The rewritten versions are committed before the old ones go: a crash in between
            # leaves the memory readable (old versions too), never lost; the next unlock's
            # recovery destroys keys that no row uses any more.
            old_rows = self._rewrite(redacted, rewrite, doomed_keys)
            # Nothing was destroyed so far (rekeyed and rewritten rows are new copies); from
            # here every step is journaled, so a crash is finished at the next open.
            intent = ForgetIntent(
                ids=tuple(str(i) for i in doomed_ids),
                kinds=kinds,
                old_rows=tuple(old_rows),
                keys=key_ids([*doomed_keys, *state.snapshot_keys()]),
                redacted=tuple(str(i) for i in redacted),
                rekeyed=rekeyed,
            )
            forget_journal.write(state.directory, state.audit_key()[1], intent)
            state.drop(doomed_ids)
            epoch = self._finish_forget(intent)
            return ForgetReceipt(
                tuple(doomed_ids),
                kinds,
                datetime.now(UTC),
                epoch,
                rekeyed,
                tuple(redacted),
                damaged=self._damage_left(),
            )

    def _shared(self, keys: set[str]) -> bool:
        """True if any of ``keys`` is a conversation's key (other rows may use it)."""
        return any(self._state.keys.is_shared(k) for k in keys)

    def _refuse_if_damaged(self, *, probe: bool = False) -> None:
        """Before anything is destroyed: with a damaged data file, a shared key must stay (rows
        in the file may need it: destroying it would lose them for good, even if the file were
        restored). ``probe`` reads every file's id columns first, to find damage an unlock from
        the snapshot did not see."""
        if probe:
            self._state.store.read(columns=["memory_id", "version", "key_id"])
        damaged = self._state.store.damaged_files()
        if damaged:
            raise VaultError(
                f"cannot forget this now: the memory table's {damaged[0]} is damaged, and "
                "forgetting would destroy a conversation key that rows in that file may still "
                "need; nothing was forgotten. See `desktop-agent memory keys status`"
            )

    def _damage_left(self) -> tuple[str, ...]:
        """Damaged files this forget left alone; they stay reported by ``damaged`` too."""
        state = self._state
        state.damage += [d for d in state.store.damage if d not in state.damage]
        return tuple(state.store.damaged_files())

    def _finish_forget(self, intent: ForgetIntent, *, recovered: bool = False) -> int:
        """Every destructive step of a journaled forget, each safe to repeat after a crash;
        returns the epoch the forget ends in."""
        state = self._state
        if intent.everything:
            state.store.drop()
            # The audit key (the log says it happened) and the row log's key (it seals ids only).
            keep = {state.audit_key()[0], state.keys.scope_key(ROWS_SCOPE)}
            doomed = [k for k in state.keys.ids() if k not in keep]
        else:
            state.store.delete_rows(list(intent.old_rows))
            state.store.delete(intent.ids)
            doomed = [k for k in intent.keys if k in state.keys]
            doomed += [k for k in state.snapshot_keys() if k not in doomed]
        # After a crash past the ratchet's commit the keys are gone already: no new epoch.
        epoch = state.keys.ratchet(doomed) if doomed or not recovered else state.keys.epoch
        state.drop_snapshot()
        if not intent.everything:
            state.store.compact_and_purge()
        detail: dict[str, Any] = {"recovered": True} if recovered else {}
        if intent.everything:
            state.audit.append("forget_all", count=len(intent.ids), epoch=epoch, **detail)
        else:
            state.audit.append(
                "forget",
                ids=intent.ids,
                kinds=intent.kinds,
                epoch=epoch,
                rekeyed=intent.rekeyed,
                redacted=list(intent.redacted),
                **detail,
            )
        forget_journal.clear(state.directory)
        return epoch

    def finish_journaled(self) -> bool:
        """At open, before the rows are loaded: finish a forget a crash interrupted."""
        intent = forget_journal.read(self._state.directory, self._state.audit_key()[1])
        if intent is None:
            return False
        try:
            self._finish_forget(intent, recovered=True)
        except VaultError as error:
            why = write_blocked(error)
            if why is None:
                raise
            # What it forgets must not be shown: no read-only fallback for this one.
            raise VaultError(
                f"an interrupted forget must be finished before memory can be opened, and it "
                f"cannot be now: {why}. Nothing is lost; free some space (or make the data "
                "folder writable) and open again to finish it"
            ) from None
        return True

    def _rewrite(
        self, ids: Sequence[MemoryId], rewrite: Mapping[str, Rewrite], doomed_keys: set[str]
    ) -> list[tuple[str, int]]:
        """Seal the new content of ``ids`` under keys that survive; returns their old rows."""
        state = self._state
        if not ids:
            return []
        olds = [state.record(i) for i in ids]
        for old in olds:
            # An episode shares its conversation's key; if that key is doomed and no sibling
            # moved the conversation to a fresh one, make it here.
            scope = f"conv:{old.conversation_id}" if old.kind == "episodic" else ""
            if scope and state.keys.scope_key(scope) in doomed_keys:
                state.keys.new_keys([scope])
        key_ids = self._writer.keys_for([(old.kind, old.conversation_id) for old in olds])
        now = datetime.now(UTC)
        rows_out, blobs, versions, records, old_rows = [], [], [], [], []
        for old, key_id in zip(olds, key_ids, strict=True):
            new = rewrite[old.id]
            text, vector = check_text(new.text), check_vector(new.vector, state.dim)
            version = max(v for v, _k in state.versions_of(old.id)) + 1
            old_rows += [(str(old.id), v) for v, _k in state.versions_of(old.id)]
            plain = codec.encode(
                vector,
                old.kind,
                text,
                meta_to_json(new.meta),
                old.created_at,
                now,
                old.conversation_id,
                old.source_id,
            )
            rows_out.append(str(old.id))
            versions.append(version)
            blobs.append(seal_row(state.keys, old.id, version, key_id, plain))
            records.append((text, vector, codec.record_part(plain, state.dim)))
        state.store.append(arrow_rows(rows_out, versions, key_ids, blobs))
        for old, version, key_id, (text, vector, record) in zip(
            olds, versions, key_ids, records, strict=True
        ):
            state.older.pop(old.id, None)
            state.current.pop(old.id, None)
            state.remember(old.id, version, key_id, record)
            state.index.put([old.id], [text], vector[None, :], [record[0]])
        return old_rows

    def forget_all(self) -> ForgetReceipt:
        """Erase every memory and every data key (the audit key stays: the log says it happened)."""
        state = self._state
        with state.mutex:
            self._guard.check_writing()
            ids = tuple(dict.fromkeys([*state.current, *state.older]))
            kinds = tuple(state.kind_of(i) for i in ids)
            intent = ForgetIntent(
                ids=tuple(str(i) for i in ids), kinds=kinds, old_rows=(), keys=(), everything=True
            )
            forget_journal.write(state.directory, state.audit_key()[1], intent)
            state.drop(list(ids))
            state.damage = []  # damaged files go with the table
            epoch = self._finish_forget(intent)
            return ForgetReceipt(ids, kinds, datetime.now(UTC), epoch)

    def rotate_keys(self) -> int:
        """A new KEK (new epoch); the keystore is re-sealed and the old KEK deleted. Every data
        key is retired (it still reads its rows; new rows and edits get new keys) and the
        snapshot key is destroyed, so nothing written after this opens with an older keystore."""
        state = self._state
        with state.mutex:
            self._guard.check_writing()
            epoch = state.keys.ratchet(state.snapshot_keys(), retire=True)
            state.drop_snapshot()
            state.audit.append("rotate", epoch=epoch)
            return epoch

    def _rekey(self, siblings: Sequence[MemoryId], doomed_keys: set[str]) -> int:
        """Re-encrypt siblings' rows under fresh keys of the same scope (one commit)."""
        state = self._state
        if not siblings:
            return 0
        table = state.store.read(ids=siblings)
        rows = [row for row in table.to_pylist() if row["key_id"] in doomed_keys]
        old_keys = sorted({row["key_id"] for row in rows})
        fresh = dict(
            zip(
                old_keys, state.keys.new_keys(state.keys.scope_of(k) for k in old_keys), strict=True
            )
        )
        ids, versions, key_ids, blobs, broken = [], [], [], [], []
        for row in rows:
            plain = open_row(
                state.keys, row["memory_id"], row["version"], row["key_id"], row["blob"]
            )
            if plain is None:  # damaged already: it goes with its key
                broken.append((row["memory_id"], row["version"]))
                continue
            new_key = fresh[row["key_id"]]
            ids.append(row["memory_id"])
            versions.append(row["version"])
            key_ids.append(new_key)
            blobs.append(seal_row(state.keys, row["memory_id"], row["version"], new_key, plain))
        state.store.upsert(arrow_rows(ids, versions, key_ids, blobs))
        state.store.delete_rows(broken)
        for memory_id, version, key_id in zip(ids, versions, key_ids, strict=True):
            state.move_key(MemoryId(memory_id), version, key_id)
        return len(set(ids))

    def _users_of(self, keys: set[str]) -> set[MemoryId]:
        """Memories with any row under one of ``keys`` (a scan: forget is rare, RAM is cheap)."""
        users = {
            memory_id for memory_id, (_v, key, _r) in self._state.current.items() if key in keys
        }
        users.update(
            m for m, rows in self._state.older.items() if any(key in keys for _v, key in rows)
        )
        return users
