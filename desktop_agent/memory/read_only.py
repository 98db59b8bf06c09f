"""Read-only when writes cannot (``ReadOnlyGuard``, a part of ``Vault``).

A full disk, a used-up quota, a read-only medium or a folder that is not ours to write must
not lock the user out of what they already have. So unlock never needs to write: the work it
used to do first (destroying keys a failed add or a crash left behind, cutting a torn append,
the "unlock" audit entry) is tried, and if the disk refuses it waits. The vault then opens
read-only: get, list, search, history, status and the audit log work, ``read_only`` says why
writing is off, and every write is refused with one line (``VaultReadOnlyError``). Each write
attempt first tries the waiting work again, so once space is freed the vault carries on.

Only a forget that a crash interrupted cannot wait: what it forgets must not be shown, so an
open that cannot finish it fails with one line instead (memory/forget.py).
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Final

from desktop_agent.errors import VaultError
from desktop_agent.memory import snapshot
from desktop_agent.memory.files import remove_temporaries, write_blocked
from desktop_agent.memory.keystore import ROWS_SCOPE

if TYPE_CHECKING:
    from desktop_agent.memory.keystore import KeyStore
    from desktop_agent.memory.lock import WriterLock
    from desktop_agent.memory.row_set import RowChecks
    from desktop_agent.memory.state import VaultState

logger = logging.getLogger(__name__)

_FIXES: Final = {
    "the disk is full": "free some space and try again",
    "the disk quota is used up": "free some space and try again",
}
_DEFAULT_FIX: Final = "make the data folder writable (or move it to a writable disk) and reopen"


class VaultReadOnlyError(VaultError):
    """A write was refused because the vault is read-only (``str`` says why, in one line)."""


def refusal(why: str) -> VaultReadOnlyError:
    fix = _FIXES.get(why, _DEFAULT_FIX)
    return VaultReadOnlyError(
        f"memory is read-only because {why}; nothing was saved. Reading still works: {fix}"
    )


def tidy(directory: Path, keys: KeyStore) -> None:
    """Unlock's cleanup after a crash (stale key files, the KEKs of the epochs before and after
    the current one, temporary files); none of it is needed to read, so a disk that refuses
    it leaves it for a later open."""
    try:
        keys.remove_stale_files()
    except OSError as exc:
        logger.warning("stale key files stay for now: %s", exc.__class__.__name__)
    keys.discard_previous_kek()
    keys.discard_next_kek()  # a rotation that crashed before its commit
    remove_temporaries(directory)


class ReadOnlyGuard:
    """Whether the vault may be written now: it is open, the caller is in the write lane, and
    the disk takes writes; else read-only, with the work unlock leaves for the first write."""

    def __init__(
        self, state: VaultState, lock: WriterLock, rows: RowChecks, *, narrowed: int = 0
    ) -> None:
        self._state = state
        self._lock = lock
        self._rows = rows
        self._why: str | None = lock.read_only  # why writing is off
        self._unlock_noted = False
        self._narrowed = narrowed  # files found readable by others at open, now private
        # Set by the service that owns the vault: raises unless the caller is inside its one
        # ordered write lane (core/write_lane.py), so a write that skips the lane fails loudly.
        self.writer_guard: Callable[[], None] | None = None

    @property
    def read_only(self) -> str | None:
        """Why writing is off ("the disk is full", ...), or None when the vault can write."""
        return self._why

    def check_open(self) -> None:
        if not self._lock.held:
            raise VaultError("the memory vault is closed")

    def check_writing(self) -> None:
        """Before any write: open, in the lane, and what unlock left is done (raises
        VaultReadOnlyError if the disk still refuses it)."""
        self.check_open()
        if self.writer_guard is not None:
            self.writer_guard()
        if self._why is not None:
            self._settle()

    def settle_at_unlock(self) -> None:
        """Do unlock's writes now if the disk takes them; else open read-only, saying why."""
        try:
            self._settle()
        except VaultReadOnlyError as error:
            logger.warning("memory opened read-only: %s", self._why)
            del error

    def _settle(self) -> None:
        state = self._state
        try:
            state.keys.repair_journal()
            state.audit.heal()
            self._rows.settle()  # before the cleanup below: it needs the settled row log
            self.recover_unfinished_forget()
            if not self._unlock_noted:
                state.audit.append("unlock", count=len(state.current), epoch=state.keys.epoch)
                self._unlock_noted = True
            if self._narrowed:
                # Found readable by others (an older version, a restored copy): now private.
                state.audit.append("permissions narrowed", count=self._narrowed)
                self._narrowed = 0
        except VaultError as error:
            why = write_blocked(error)
            if why is None:
                raise
            self._why = why
            raise refusal(why) from None
        self._why = None

    def recover_unfinished_forget(self) -> None:
        """Keys no row uses are left by a crash mid-forget (or a failed add): finish the job."""
        state, keys = self._state, self._state.keys
        if state.store.damaged_fragments() or keys.damage:
            # Rows we cannot read may still need their keys, and a lost key record may be
            # restored from a copy of its file while this epoch's KEK lives: destroy nothing.
            return
        used = {
            *state.used_keys,
            state.audit_key()[0],
            keys.scope_key(snapshot.SNAPSHOT_SCOPE),
            keys.scope_key(ROWS_SCOPE),
        }
        orphans = [key_id for key_id in keys.ids() if key_id not in used]
        # Rows missing from the table (tampering, an old copy) keep their keys: row_set.py.
        orphans = self._rows.destroyable(orphans)
        if orphans:
            # A snapshot written before the crash may hold what was being forgotten: its key goes too.
            stale = keys.scope_key(snapshot.SNAPSHOT_SCOPE)
            epoch = keys.ratchet([*orphans, *([stale] if stale else [])])
            snapshot.discard(state.directory)
            state.snapshot_version = None
            state.store.compact_and_purge()
            state.audit.append(
                "recover", count=len(orphans), epoch=epoch, keys_destroyed=len(orphans)
            )
