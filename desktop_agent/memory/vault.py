"""The vault: encrypted memories on disk, decrypted into RAM at unlock, one writer per data dir.

Reads (get, list, search) are served from RAM. Every write goes through this object under one
lock, is committed to Lance and fsynced before it returns, and is recorded in the audit log.
"""

from __future__ import annotations

import builtins
import logging
import threading
from collections.abc import Callable, Iterable, Mapping, Sequence
from datetime import UTC, datetime
from pathlib import Path
from types import TracebackType
from typing import Any

import numpy as np
from numpy.typing import NDArray

from desktop_agent.errors import VaultError, VaultLockedError
from desktop_agent.memory import snapshot
from desktop_agent.memory.audit import AuditEntry, AuditReport
from desktop_agent.memory.backup import Backups, ExportSummary, ImportSummary
from desktop_agent.memory.crypto import new_id
from desktop_agent.memory.forget import Forgetter
from desktop_agent.memory.header import Header, read_header
from desktop_agent.memory.index import VaultIndex
from desktop_agent.memory.keystore import KeySource, KeyStore
from desktop_agent.memory.loading import Loader
from desktop_agent.memory.lock import WriterLock
from desktop_agent.memory.migrations import SCHEMA_VERSION, upgrade
from desktop_agent.memory.model import (
    Damage,
    ForgetReceipt,
    KeyStatus,
    MemoryRecord,
    MemoryVersion,
    NewMemory,
    Rewrite,
    SearchHit,
)
from desktop_agent.memory.permissions import narrow, private_umask
from desktop_agent.memory.read_only import ReadOnlyGuard, tidy
from desktop_agent.memory.reading import Reader
from desktop_agent.memory.rekey import BATCH, Progress, Rekeyer, RekeyReceipt
from desktop_agent.memory.row_set import CommittedStore, RowChecks
from desktop_agent.memory.state import VaultState
from desktop_agent.memory.store import Store
from desktop_agent.memory.writing import Edit, Writer
from desktop_agent.secrets.passphrase import Argon2Params

logger = logging.getLogger(__name__)


class Vault:
    """Encrypted memories of one data dir. Open with ``Vault.open``; close (or use ``with``).

    Composed of parts that share one ``VaultState`` (state.py: keys, table, audit log, lock,
    the rows in RAM), each in the module of its noun: ``Writer`` (writing.py), ``Forgetter``
    (forget.py: forget, rotate), ``Rekeyer`` (rekey.py), ``Backups`` (backup.py), ``Reader``
    (reading.py: list, history), ``Loader`` (loading.py: unlock, snapshot), ``RowChecks``
    (row_set.py: the row log) and ``ReadOnlyGuard`` (read_only.py: whether a write may go
    ahead, and what unlock leaves for the first write). This class opens, closes and searches,
    and hands every other verb to its part; parts use one another's public methods only.
    """

    def __init__(
        self,
        directory: Path,
        keys: KeyStore,
        store: Store,
        lock: WriterLock,
        dim: int,
        *,
        narrowed: int = 0,  # files found readable by others, now private
    ) -> None:
        self.directory = directory
        self.dim = dim
        self._lock = lock
        self._state = state = VaultState(directory, keys, store, dim)
        self._rows = RowChecks(state)
        self._guard = ReadOnlyGuard(state, lock, self._rows, narrowed=narrowed)
        self._writer = Writer(state, self._guard)
        self._forgetter = Forgetter(state, self._guard, self._writer, self._rows)
        self._rekeyer = Rekeyer(state, self._guard)
        self._backups = Backups(state, self._guard, self._writer)
        self._reader = Reader(state)
        self._loader = Loader(state, self._rows)

    # --- opening and closing -------------------------------------------------------------

    @classmethod
    def open(cls, directory: Path | str, key_source: KeySource, *, dim: int = 384) -> Vault:
        """Unlock (or create) the vault in ``directory``; a failed unlock changes nothing on disk."""
        directory = Path(directory)
        private_umask()  # every file the vault writes from now on is the user's alone
        directory.mkdir(parents=True, exist_ok=True)
        narrowed = _narrow(directory)
        lock = WriterLock(directory).acquire()  # on a read-only disk: held on a read-only file
        try:
            header = read_header(directory)
            store = CommittedStore(directory)  # writes recorded in the row log (row_set.py)
            if header is None:
                keys = cls._create(directory, key_source, store, dim)
            else:
                cls._check_header(header, key_source, dim)
                keys = KeyStore.unlock(directory, header, key_source)
                # From here on the keys are good, so repairs and upgrades may write.
                if not store.exists():
                    store.create()
                upgrade(directory, keys, store)
                tidy(directory, keys)  # best effort: a full or read-only disk keeps the litter
            vault = cls(directory, keys, store, lock, dim, narrowed=len(narrowed))
            vault._rows.open()
            # A forget a crash interrupted is finished before anything is read.
            vault._forgetter.finish_journaled()
            vault._loader.load()
            # Recovery, repairs and the unlock entry: now, or at the first write if the disk
            # refuses them (then the vault is read-only until it takes writes again).
            vault._guard.settle_at_unlock()
            lock.note_holder()
            return vault
        except BaseException:
            lock.release()
            raise

    @staticmethod
    def _create(directory: Path, key_source: KeySource, store: Store, dim: int) -> KeyStore:
        if any(p.name not in {"LOCK", "db", "keys"} for p in directory.iterdir()):
            raise VaultError(
                f"{directory} holds files but no vault.json: not opening it as a vault"
            )
        if not store.exists():
            store.create()
        now = datetime.now(UTC).isoformat()
        header = Header(new_id(), 1, SCHEMA_VERSION, dim=dim, created_at=now, rotated_at=now)
        return KeyStore.create(directory, header, key_source)

    @staticmethod
    def _check_header(header: Header, key_source: KeySource, dim: int) -> None:
        if header.mode != key_source.mode:
            raise VaultLockedError(
                f"this memory vault keeps its key by {header.mode}, not {key_source.mode}: "
                f'set key_mode = "{header.mode}" under [security] in settings.toml'
            )
        if header.dim != dim:
            raise VaultError(f"this memory vault holds {header.dim}-d vectors, not {dim}-d")
        if header.schema_version > SCHEMA_VERSION:
            raise VaultError(
                f"this memory vault was written by a newer desktop-agent (schema "
                f"{header.schema_version}, this one knows {SCHEMA_VERSION}): upgrade desktop-agent"
            )

    def close(self) -> None:
        """Write the unlock snapshot if the vault changed, then release the writer lock."""
        with self._state.mutex:
            if not self._lock.held:
                return
            try:
                if self._guard.read_only is None:
                    self._loader.save_snapshot()
            except VaultError:
                snapshot.discard(self.directory)  # only a speed-up: a full unlock still works
            finally:
                self._lock.release()
                self._state.wipe()

    def __enter__(self) -> Vault:
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.close()

    @property
    def writer_guard(self) -> Callable[[], None] | None:
        """Set by the service that owns this vault: raises unless the caller is inside its one
        ordered write lane (core/write_lane.py), so a write that skips the lane fails loudly."""
        return self._guard.writer_guard

    @writer_guard.setter
    def writer_guard(self, guard: Callable[[], None] | None) -> None:
        self._guard.writer_guard = guard

    # --- reading -------------------------------------------------------------------------

    def __len__(self) -> int:
        return len(self._state.current)

    def __contains__(self, memory_id: object) -> bool:
        return memory_id in self._state.current

    @property
    def index(self) -> VaultIndex:
        """The in-RAM HybridIndex (read it under ``vault.lock`` if another thread writes)."""
        return self._state.index

    @property
    def lock(self) -> threading.RLock:
        return self._state.mutex

    @property
    def damaged(self) -> tuple[Damage, ...]:
        """Rows and files that could not be read at unlock (the rest of the vault is fine)."""
        return tuple(self._state.damage)

    @property
    def epoch(self) -> int:
        return self._state.keys.epoch

    @property
    def read_only(self) -> str | None:
        """Why writing is off ("the disk is full", ...), or None when the vault can write."""
        return self._guard.read_only

    @property
    def rekey_unfinished(self) -> bool:
        """True when a re-encryption was interrupted: run ``rekey`` again to finish it."""
        return self._rekeyer.unfinished

    @property
    def row_set_note(self) -> str | None:
        """One line when rows the row log names are missing (or the log itself is), else None."""
        return self._rows.note

    def get(self, memory_id: str) -> MemoryRecord:
        return self._state.record(memory_id)

    def list(
        self, kind: str | None = None, conversation_id: str | None = None
    ) -> list[MemoryRecord]:
        """Current memories, oldest first, optionally of one kind or one conversation."""
        return self._reader.memories(kind, conversation_id)

    def history(self, memory_id: str) -> builtins.list[MemoryVersion]:
        """Every readable version, oldest first; the last one is the current text."""
        return self._reader.history(memory_id)

    def search(
        self,
        query_vector: NDArray[np.float32] | None,
        query_text: str | None,
        k: int = 10,
        kind: str | None = None,
    ) -> builtins.list[SearchHit]:
        """Exact cosine and BM25 in RAM, fused by reciprocal rank; both raw scores kept."""
        return self._reader.search(query_vector, query_text, k, kind)

    def warm(self) -> None:
        """Build the keyword index now (e.g. on a background thread right after unlock)."""
        with self._state.mutex:
            self._state.index.warm()

    def status(self) -> KeyStatus:
        keys = self._state.keys
        header = keys.header
        return KeyStatus(
            mode=header.mode,
            backend=keys.describe_source(),
            epoch=header.epoch,
            data_keys=len(keys),
            memories=len(self),
            vault_id=header.vault_id,
            schema_version=header.schema_version,
            damaged=len(self._state.damage),
            extra={
                "rotated_at": header.rotated_at,
                "created_at": header.created_at,
                "read_only": self.read_only,
                # Passphrase mode: a copy of the folder carries its own wrapped KEK, which the
                # same passphrase opens, so forgetting cannot reach copies made before it.
                # Not with a secret outside the folder, ratcheted by every forget.
                "forget_reaches_copies": header.mode != "passphrase"
                or bool(header.key.get("outside")),
                "rekey_unfinished": self.rekey_unfinished,  # `keys rotate --rekey` finishes it
                "row_set": self.row_set_note,  # memories missing from the store, or None
                "key_files": [
                    *keys.notes,
                    *(f"{d.where}: {d.reason}" for d in keys.damage),
                ],
            },
        )

    def audit_entries(self) -> builtins.list[AuditEntry]:
        """The audit log, oldest first; entries after a break in the chain are marked unverified."""
        with self._state.mutex:
            return list(self._state.audit.entries())

    def verify_audit(self) -> AuditReport:
        """The audit log's chain, and the row set: missing rows are not "OK"."""
        return self._rows.verify_audit()

    def known(self, memory_id: str) -> bool:
        """True for a current memory, and for one whose newest row is damaged (it can be forgotten)."""
        return self._state.known(memory_id)

    def versions_of(self, memory_id: str) -> builtins.list[tuple[int, str]]:
        """(version, key id) of every stored row of a memory, oldest first."""
        return self._state.versions_of(memory_id)

    def kind_of(self, memory_id: str) -> str:
        return self._state.kind_of(memory_id)

    # --- writing (writing.py, forget.py, rekey.py, backup.py, row_set.py) ----------------

    def add(
        self,
        kind: str,
        text: str,
        *,
        vector: NDArray[np.float32] | Sequence[float],
        meta: Mapping[str, Any] | None = None,
        conversation_id: str | None = None,
        source_id: str | None = None,
        created_at: datetime | None = None,
    ) -> MemoryRecord:
        item = NewMemory(
            kind, text, np.asarray(vector, np.float32), meta, conversation_id, source_id, created_at
        )
        return self.add_many([item])[0]

    def add_many(self, items: Sequence[NewMemory]) -> builtins.list[MemoryRecord]:
        """Add memories in one Lance commit (bulk import of 10k+ rows is one call)."""
        return self._writer.add_many(items)

    def update(
        self,
        memory_id: str,
        *,
        text: str | None = None,
        meta: Mapping[str, Any] | None = None,
        vector: NDArray[np.float32] | Sequence[float] | None = None,
        kind: str | None = None,
        keep_history: bool = True,
    ) -> MemoryRecord:
        """Write a new version; the old one stays in ``history`` until the memory is forgotten,
        unless ``keep_history`` is False (bookkeeping such as use counts, whose old versions
        would pile up one per write): then the older versions' rows are deleted."""
        edit = Edit(text, meta, vector, kind)
        return self._writer.update(memory_id, edit, keep_history=keep_history)

    def forget(
        self, ids: Iterable[str], *, rewrite: Mapping[str, Rewrite] | None = None
    ) -> ForgetReceipt:
        """Erase these memories, all their versions and their data keys; returns a receipt.
        ``rewrite`` keeps other memories but replaces their content, erasing their old versions
        in the same ratchet (see ``Forgetter.forget``)."""
        return self._forgetter.forget(ids, rewrite=rewrite)

    def forget_all(self) -> ForgetReceipt:
        """Erase every memory and every data key (the audit key stays: the log says it happened)."""
        return self._forgetter.forget_all()

    def rotate_keys(self) -> int:
        """A new KEK (new epoch): every data key retired, the snapshot key destroyed."""
        return self._forgetter.rotate_keys()

    def rekey(self, progress: Progress | None = None, *, batch: int = BATCH) -> RekeyReceipt:
        """Re-encrypt every row under new data keys, then destroy the old keys (new epoch)."""
        return self._rekeyer.rekey(progress, batch=batch)

    def export_backup(
        self, path: Path | str, passphrase: str, params: Argon2Params | None = None
    ) -> ExportSummary:
        """Write every version of every memory to one encrypted file (atomically)."""
        return self._backups.export_backup(path, passphrase, params)

    def import_backup(self, path: Path | str, passphrase: str) -> ImportSummary:
        """Add the memories of a backup; ones already here (same id, or same kind and text) are skipped."""
        return self._backups.import_backup(path, passphrase)

    def accept_missing(self) -> int:
        """Forget what the row log names but the table lacks: the log is rewritten from the rows
        there are now, then the keys only missing rows used are destroyed (a ratchet). Returns
        how many memories were missing or rolled back."""
        with self._state.mutex:
            self._guard.check_writing()
            accepted = self._rows.accept_missing()
            # RowChecks sits below the guard (the guard uses it), so the vault calls both.
            self._guard.recover_unfinished_forget()
            return accepted


def _narrow(directory: Path) -> list[Path]:
    try:
        return narrow(directory)
    except OSError as exc:  # a read-only disk: the modes stay as they are
        logger.warning("cannot narrow the vault's permissions: %s", exc.__class__.__name__)
        return []
