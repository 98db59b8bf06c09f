"""Read-only when writes cannot (a part of ``Vault``).

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
import threading
from pathlib import Path
from typing import TYPE_CHECKING, Final

from desktop_agent.errors import VaultError
from desktop_agent.memory import snapshot
from desktop_agent.memory.files import remove_temporaries, write_blocked
from desktop_agent.memory.keystore import ROWS_SCOPE

if TYPE_CHECKING:
    from desktop_agent.memory.audit import AuditLog
    from desktop_agent.memory.keystore import KeyStore
    from desktop_agent.memory.store import Store

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


class ReadOnly:
    """The vault's read-only state and the work unlock leaves for the first write."""

    _keys: KeyStore
    _store: Store
    _audit: AuditLog
    _mutex: threading.RLock
    _used_keys: set[str]
    _snapshot_version: int | None
    directory: Path
    _read_only: str | None
    _unlock_noted: bool
    _narrowed: int

    if TYPE_CHECKING:  # provided by Vault (stubs only for the type checker)

        def _audit_key(self) -> tuple[str, bytes]: ...
        def __len__(self) -> int: ...
        def _settle_rows(self) -> None: ...
        def _keys_rows_need(self, orphans: list[str]) -> list[str]: ...

    @property
    def read_only(self) -> str | None:
        """Why writing is off ("the disk is full", ...), or None when the vault can write."""
        return self._read_only

    def _settle_at_unlock(self) -> None:
        """Do unlock's writes now if the disk takes them; else open read-only, saying why."""
        try:
            self._settle()
        except VaultReadOnlyError as error:
            logger.warning("memory opened read-only: %s", self._read_only)
            del error

    def _check_writable(self) -> None:
        """Before any write: finish what unlock left (raises VaultReadOnlyError if it still
        cannot write)."""
        if self._read_only is not None:
            self._settle()

    def _settle(self) -> None:
        try:
            self._keys.repair_journal()
            self._audit.heal()
            self._settle_rows()  # before the cleanup below: it needs the settled row log
            self._recover_unfinished_forget()
            if not self._unlock_noted:
                self._audit.append("unlock", count=len(self), epoch=self._keys.epoch)
                self._unlock_noted = True
            if self._narrowed:
                # Found readable by others (an older version, a restored copy): now private.
                self._audit.append("permissions narrowed", count=self._narrowed)
                self._narrowed = 0
        except VaultError as error:
            why = write_blocked(error)
            if why is None:
                raise
            self._read_only = why
            raise refusal(why) from None
        self._read_only = None

    def _recover_unfinished_forget(self) -> None:
        """Keys no row uses are left by a crash mid-forget (or a failed add): finish the job."""
        if self._store.damaged_fragments() or self._keys.damage:
            # Rows we cannot read may still need their keys, and a lost key record may be
            # restored from a copy of its file while this epoch's KEK lives: destroy nothing.
            return
        used = {
            *self._used_keys,
            self._audit_key()[0],
            self._keys.scope_key(snapshot.SNAPSHOT_SCOPE),
            self._keys.scope_key(ROWS_SCOPE),
        }
        orphans = [key_id for key_id in self._keys.ids() if key_id not in used]
        # Rows missing from the table (tampering, an old copy) keep their keys: row_set.py.
        orphans = self._keys_rows_need(orphans)
        if orphans:
            # A snapshot written before the crash may hold what was being forgotten: its key goes too.
            stale = self._keys.scope_key(snapshot.SNAPSHOT_SCOPE)
            epoch = self._keys.ratchet([*orphans, *([stale] if stale else [])])
            snapshot.discard(self.directory)
            self._snapshot_version = None
            self._store.compact_and_purge()
            self._audit.append(
                "recover", count=len(orphans), epoch=epoch, keys_destroyed=len(orphans)
            )
