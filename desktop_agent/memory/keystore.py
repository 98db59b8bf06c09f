"""Data keys (DEKs) sealed under the key-encryption key (KEK) of the current epoch.

On disk: ``keys/keystore-<epoch>.bin`` (all keys at the last ratchet) and
``keys/journal-<epoch>.bin`` (keys added since, one sealed record per batch, fsynced before any
row uses them), each with a twin ``<name>.copy`` (memory/key_files.py): one bad byte costs at
most the journal record it touched. A ratchet writes a new snapshot under a new KEK, commits
by replacing the header, then deletes the old files (both copies) and the old KEK, so a
destroyed DEK survives nowhere that the current KEK can open.
"""

from __future__ import annotations

import contextlib
import logging
import os
import struct
from collections.abc import Iterable, Mapping
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, Final, NamedTuple, Protocol

from cryptography.hazmat.primitives.ciphers.aead import AESGCM

from desktop_agent.errors import VaultError, VaultLockedError
from desktop_agent.memory.crypto import BlobError, new_id, new_key, open_with_key, seal_with_key
from desktop_agent.memory.files import append_durable, disk_error, write_atomic
from desktop_agent.memory.header import Header, write_header
from desktop_agent.memory.key_files import copies, merge_journal, read_copies, where
from desktop_agent.memory.model import Damage

logger = logging.getLogger(__name__)
_ENTRY: Final = struct.Struct("<16s32sH")
_LENGTH: Final = struct.Struct("<I")
AUDIT_SCOPE: Final = "audit"
ROWS_SCOPE: Final = "rows"  # seals the row log (memory/row_log.py)
RETIRED: Final = "retired"  # scope prefix of a key a rotation took out of use for new rows


class KeySource(Protocol):
    """Where the KEK of each epoch lives (OS keyring, or wrapped by a passphrase)."""

    mode: str

    def describe(self) -> str: ...

    def create_kek(self, vault_id: str, epoch: int, kek: bytes) -> dict[str, Any]: ...

    def load_kek(self, vault_id: str, epoch: int, params: Mapping[str, Any]) -> bytes: ...

    def discard_kek(self, vault_id: str, epoch: int, params: Mapping[str, Any]) -> None: ...


class DataKey(NamedTuple):
    # A NamedTuple, not a dataclass: unlock builds one per key (100k+), and tuples are cheap.
    id: str
    key: bytes
    scope: str  # "" for a key of its own, "conv:<id>" for a conversation, "audit"


class KeyStore:
    """The DEKs of one vault, unsealed in RAM; every change is durable before it returns."""

    def __init__(self, directory: Path, header: Header, kek: bytes, source: KeySource) -> None:
        self.directory = directory
        self.header = header
        self._kek = kek
        self._source = source
        self._keys: dict[str, DataKey] = {}
        self._scopes: dict[str, str] = {}
        self._ciphers: dict[str, AESGCM] = {}
        self._journal_records = 0
        self._journal_len = 0  # bytes of the journal acknowledged so far, in both copies
        self._journal_fix: bytes | None = None  # what both copies should hold, when they differ
        self.damage: list[Damage] = []  # journal records lost in both copies
        self.notes: list[str] = []  # key files found damaged and rewritten from their copy

    # --- opening -------------------------------------------------------------------------

    @classmethod
    def create(cls, directory: Path, header: Header, source: KeySource) -> KeyStore:
        kek = new_key()
        header = header.evolve(key=source.create_kek(header.vault_id, header.epoch, kek))
        store = cls(directory, header, kek, source)
        store._keys_dir.mkdir(parents=True, exist_ok=True)
        store._add(DataKey(new_id(), new_key(), AUDIT_SCOPE))
        store._write_snapshot(header.epoch, kek)
        write_header(directory, header)
        return store

    @classmethod
    def unlock(cls, directory: Path, header: Header, source: KeySource) -> KeyStore:
        """Load the KEK and unseal the keys; raises VaultLockedError and writes nothing on failure."""
        kek = source.load_kek(header.vault_id, header.epoch, header.key)
        store = cls(directory, header, kek, source)
        path = store._snapshot_path(header.epoch)
        datas = read_copies(path)
        if all(data is None for data in datas):
            raise VaultError(f"the vault's key file for epoch {header.epoch} is missing")
        good = plain = None
        for data in datas:  # the file, else its copy
            plain = store._unseal_snapshot(data) if data is not None else None
            if plain is not None:
                good = data
                break
        if good is None or plain is None:
            raise store._unopenable(path, datas)
        for key in _decode(plain):
            store._add(key)
        store._restore_copies(path, datas, good)
        store._read_journal()
        for note in store.notes:
            logger.warning("key file repaired: %s", note)
        return store

    def _restore_copies(self, path: Path, datas: list[bytes | None], good: bytes) -> None:
        """The KEK is known good: a damaged or missing copy of the keystore is rewritten."""
        for each, data in zip(copies(path), datas, strict=True):
            if data != good:
                if data is not None:
                    self.notes.append(
                        f"{where(each)} was damaged and is rewritten from the other copy"
                    )
                with contextlib.suppress(VaultError):  # a read-only disk keeps it as it is
                    write_atomic(each, good)

    def _unseal_snapshot(self, sealed: bytes) -> bytes | None:
        try:
            return open_with_key(self._kek, sealed, self._aad("snapshot", 0))
        except BlobError:
            return None

    def _unopenable(self, path: Path, datas: list[bytes | None]) -> VaultError:
        """Why no copy of the keystore opens: a wrong KEK, unless the journal opens with it."""
        journal = self._journal_path(self.epoch)
        if merge_journal(journal, read_copies(journal), self._unseal_record).records:
            return VaultError(
                f"the vault's key file {where(path)} is damaged and has no good copy (the key "
                "in the keyring is right: it opens the key journal); nothing was changed. "
                "Restore the file from a backup of the data folder, or import a backup"
            )
        return VaultLockedError(
            "the key in the keyring does not open this memory vault (wrong or replaced key); "
            "nothing was changed. Restore the matching keyring entry, or import a backup "
            "into a new data dir with `desktop-agent memory import FILE`"
            + ("" if None not in datas else f" ({where(path)} may also be damaged)")
        )

    def _unseal_record(self, number: int, blob: bytes) -> bytes | None:
        try:
            return open_with_key(self._kek, blob, self._aad("journal", number))
        except BlobError:
            return None

    def _read_journal(self) -> None:
        path = self._journal_path(self.epoch)
        datas = read_copies(path)
        if all(data is None for data in datas):
            return
        journal = merge_journal(path, datas, self._unseal_record)
        for plain in journal.records:
            for key in _decode(plain):
                self._add(key)
        self._journal_records = len(journal.records) + len(journal.lost)
        self._journal_len = len(journal.good)
        self.notes += journal.notes
        self.damage += [
            Damage(
                "keys",
                f"{where(path)} record {number}",
                "key record damaged in both copies: the data keys in it are lost, and the rows "
                "sealed with them cannot be read",
            )
            for number in journal.lost
        ]
        if any(data != journal.good for data in datas):
            # Both copies get what they agree on now (the KEK is known good), or the next
            # append would land after a torn tail. A disk that refuses (read-only) keeps them
            # until the next append, which repairs them first.
            self._journal_fix = journal.good
            with contextlib.suppress(VaultError):
                self.repair_journal()

    def repair_journal(self) -> None:
        """Make both copies of the journal hold exactly the records acknowledged so far (a torn
        tail cut, a damaged or missing copy rewritten) before anything is appended."""
        path = self._journal_path(self.epoch)
        try:
            for each in copies(path):
                size = each.stat().st_size if each.exists() else 0
                if self._journal_fix is not None:
                    if not each.exists() or each.read_bytes() != self._journal_fix:
                        write_atomic(each, self._journal_fix)
                elif size > self._journal_len:
                    with open(each, "rb+") as handle:
                        handle.truncate(self._journal_len)
                        handle.flush()
                        os.fsync(handle.fileno())
                elif size < self._journal_len:
                    write_atomic(each, self._journal_prefix(path))
        except OSError as exc:
            raise disk_error(exc, "cannot repair the key journal") from None
        self._journal_fix = None

    def _journal_prefix(self, path: Path) -> bytes:
        for data in read_copies(path):
            if data is not None and len(data) >= self._journal_len:
                return data[: self._journal_len]
        raise VaultError(f"the vault's key journal {where(path)} is shorter than written")

    # --- reading -------------------------------------------------------------------------

    @property
    def epoch(self) -> int:
        return self.header.epoch

    def __len__(self) -> int:
        return len(self._keys)

    def __contains__(self, key_id: object) -> bool:
        return key_id in self._keys

    def ids(self) -> list[str]:
        return list(self._keys)

    def describe_source(self) -> str:
        return self._source.describe()

    def scope_key(self, scope: str) -> str | None:
        return self._scopes.get(scope)

    def scope_of(self, key_id: str) -> str:
        return self._keys[key_id].scope

    def ciphers(self, key_ids: Iterable[str]) -> dict[str, AESGCM]:
        """Ciphers for many keys at once (unlock needs one per data key)."""
        return {key_id: self.cipher(key_id) for key_id in set(key_ids)}

    def cipher(self, key_id: str) -> AESGCM:
        cipher = self._ciphers.get(key_id)
        if cipher is None:
            cipher = self._ciphers[key_id] = AESGCM(self._keys[key_id].key)
        return cipher

    def raw_key(self, key_id: str) -> bytes:
        return self._keys[key_id].key

    # --- changing ------------------------------------------------------------------------

    def new_keys(self, scopes: Iterable[str]) -> list[str]:
        """Make one DEK per scope, sealed and fsynced in one journal record; returns the ids."""
        return self.add_keys([DataKey(new_id(), new_key(), scope) for scope in scopes])

    def add_keys(self, keys: list[DataKey]) -> list[str]:
        """Journal keys made by the caller (one record, fsynced); returns their ids."""
        if not keys:
            return []
        self.repair_journal()
        blob = seal_with_key(self._kek, _encode(keys), self._aad("journal", self._journal_records))
        frame = _LENGTH.pack(len(blob)) + blob
        for each in copies(self._journal_path(self.epoch)):  # the copy second: see key_files
            append_durable(each, frame)
        self._journal_records += 1
        self._journal_len += len(frame)
        for key in keys:
            self._add(key)
        return [key.id for key in keys]

    def is_shared(self, key_id: str) -> bool:
        """True for a conversation's key (current or retired): other rows may use it."""
        return key_id in self._keys and "conv:" in self._keys[key_id].scope

    def ratchet(
        self,
        destroy: Iterable[str] = (),
        *,
        schema_version: int | None = None,
        retire: bool = False,
    ) -> int:
        """New KEK and epoch, keys in ``destroy`` left out, old KEK and files deleted.

        ``retire`` (a rotation): every data key stays to read the rows it sealed, but none is
        used for a new row again, so whatever is written after the rotation is under keys that
        no keystore of an earlier epoch holds.
        """
        destroyed = set(destroy)
        old_header, old_epoch = self.header, self.epoch
        epoch = old_epoch + 1
        kek = new_key()
        keep = [
            _retired(key) if retire else key
            for key in self._keys.values()
            if key.id not in destroyed
        ]
        self._write_snapshot(epoch, kek, keep)
        try:
            params = self._source.create_kek(self.header.vault_id, epoch, kek)
            header = old_header.evolve(
                epoch=epoch,
                key=params,
                rotated_at=datetime.now(UTC).isoformat(),
                schema_version=schema_version or old_header.schema_version,
            )
            write_header(self.directory, header)  # the commit point
        except Exception:
            # Not committed (a full disk, a keyring error): take the new epoch back now. A crash
            # here instead is cleaned up by the next open (discard_next_kek, remove_stale_files).
            self._abandon(epoch)
            raise
        self.header, self._kek, self._journal_records = header, kek, 0
        self._journal_len, self._journal_fix = 0, None
        for key_id in destroyed:
            self._drop(key_id)
        if retire:
            self._scopes.clear()
            for key in keep:
                self._add(key)
        self.remove_stale_files()
        self._source.discard_kek(old_header.vault_id, old_epoch, old_header.key)
        return epoch

    def remove_stale_files(self) -> None:
        """Delete key files of other epochs (left by a crash between commit and cleanup)."""
        keep = {
            each.name
            for path in (self._snapshot_path(self.epoch), self._journal_path(self.epoch))
            for each in copies(path)
        }
        for path in self._keys_dir.glob("*.bin*"):  # the files and their copies
            if path.name not in keep:
                path.unlink(missing_ok=True)
        for path in self._keys_dir.glob(".*.tmp"):
            path.unlink(missing_ok=True)

    def discard_previous_kek(self) -> None:
        """Delete the last epoch's KEK if a crash kept it (between the commit and the delete)."""
        if self.epoch > 1:
            with contextlib.suppress(VaultError):  # best effort: the next ratchet tries again
                self._source.discard_kek(self.header.vault_id, self.epoch - 1, {})

    def discard_next_kek(self) -> None:
        """Delete the next epoch's KEK if a crash left it: a ratchet stores the new KEK before
        its commit point (vault.json), so one that died in between leaves a keyring entry that
        nothing names. The next ratchet would overwrite it; until then it is an orphan key."""
        with contextlib.suppress(VaultError):  # best effort, as for the previous epoch's
            self._source.discard_kek(self.header.vault_id, self.epoch + 1, {})

    def _abandon(self, epoch: int) -> None:
        """Undo an uncommitted ratchet to ``epoch``: its KEK and its keystore file."""
        with contextlib.suppress(VaultError):
            self._source.discard_kek(self.header.vault_id, epoch, {})
        with contextlib.suppress(OSError):
            for each in copies(self._snapshot_path(epoch)):
                each.unlink(missing_ok=True)

    def set_schema_version(self, version: int) -> None:
        self.header = self.header.evolve(schema_version=version)
        write_header(self.directory, self.header)

    # --- internals -----------------------------------------------------------------------

    def wipe(self) -> None:
        """Drop the KEK and every data key from this process (on lock and close). Python cannot
        overwrite immutable bytes; dropping the last reference is what frees them."""
        self._kek = b""
        self._keys.clear()
        self._scopes.clear()
        self._ciphers.clear()

    def _add(self, key: DataKey) -> None:
        self._keys[key.id] = key
        if key.scope:
            self._scopes[key.scope] = key.id

    def _drop(self, key_id: str) -> None:
        key = self._keys.pop(key_id, None)
        self._ciphers.pop(key_id, None)
        if key is not None and key.scope and self._scopes.get(key.scope) == key_id:
            del self._scopes[key.scope]

    def _write_snapshot(self, epoch: int, kek: bytes, keys: list[DataKey] | None = None) -> None:
        keys = list(self._keys.values()) if keys is None else keys
        blob = seal_with_key(kek, _encode(keys), self._aad("snapshot", 0, epoch))
        for each in copies(self._snapshot_path(epoch)):  # one after the other: one always whole
            write_atomic(each, blob)

    def _aad(self, what: str, number: int, epoch: int | None = None) -> bytes:
        epoch = self.epoch if epoch is None else epoch
        return f"keystore\x00{self.header.vault_id}\x00{epoch}\x00{what}\x00{number}".encode()

    @property
    def _keys_dir(self) -> Path:
        return self.directory / "keys"

    def _snapshot_path(self, epoch: int) -> Path:
        return self._keys_dir / f"keystore-{epoch}.bin"

    def _journal_path(self, epoch: int) -> Path:
        return self._keys_dir / f"journal-{epoch}.bin"


def _retired(key: DataKey) -> DataKey:
    """The key with a scope no new row is given: "" -> "retired", "conv:X" -> "retired:conv:X"
    (still a conversation's key, for forget). The audit and row-log keys stay: they seal no row."""
    if key.scope in (AUDIT_SCOPE, ROWS_SCOPE) or key.scope.startswith(RETIRED):
        return key
    return key._replace(scope=f"{RETIRED}:{key.scope}" if key.scope else RETIRED)


def _encode(keys: list[DataKey]) -> bytes:
    # Fixed-size entries then the scopes: decoding 100k keys stays a tight loop.
    scopes = [key.scope.encode("utf-8", "surrogatepass") for key in keys]
    head = _LENGTH.pack(len(keys))
    fixed = b"".join(
        _ENTRY.pack(bytes.fromhex(key.id), key.key, len(scope))
        for key, scope in zip(keys, scopes, strict=True)
    )
    return head + fixed + b"".join(scopes)


def _decode(plain: bytes) -> list[DataKey]:
    (count,) = _LENGTH.unpack_from(plain)
    at = _LENGTH.size + count * _ENTRY.size
    keys = []
    for raw_id, key, length in _ENTRY.iter_unpack(plain[_LENGTH.size : at]):
        scope = plain[at : at + length].decode("utf-8", "surrogatepass") if length else ""
        at += length
        keys.append(DataKey(raw_id.hex(), key, scope))
    return keys
