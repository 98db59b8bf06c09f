"""The row log: a sealed record of which rows the memory table should hold (issue 13, item 2).

Without any key, someone can delete a row version from the Lance table, or its newest manifest,
and so drop a memory or roll an edit back. The ciphertexts cannot tell: each still opens. So
the vault keeps, beside the table, ``rows.journal``: every (memory id, version, data key id)
row the table should hold, sealed with AES-GCM under a data key of its own (scope ``rows``, in
the keystore under the KEK). The vault compares it with what Lance shows at every open
(memory/row_set.py).

On disk: records of ``[u32 length][sealed blob]``; record ``n``'s associated data names the
vault and ``n``, so a record cannot be dropped from the middle, reordered or moved to another
vault. Kinds:

- ``F`` (full): the whole row set, sorted; always record 0 (a checkpoint rewrites the file).
- ``I`` (intent): rows a write is about to add and remove, fsynced before the Lance commit.
- ``D`` (done): the intent before it committed (written after the commit).
- ``R`` (resolved): what the table turned out to hold after an intent with no ``D`` (a crash
  or a failed write): rows removed and added, decided against the table itself.

So after a crash between an intent and its ``D``, the table may show the state before the write
or after it (or, for a write of several commits, part-way), and either is accepted; anything
else is reported. A row is 36 bytes: memory id (16), version (u32, big-endian), key id (16).
"""

from __future__ import annotations

import hashlib
import logging
import os
import struct
from dataclasses import dataclass, field
from pathlib import Path
from typing import Final

import numpy as np
from numpy.typing import NDArray

from desktop_agent.errors import VaultError
from desktop_agent.memory.crypto import BlobError, open_with_key, seal_with_key
from desktop_agent.memory.files import append_durable, disk_error, write_atomic

logger = logging.getLogger(__name__)
LOG_NAME: Final = "rows.journal"
ROW: Final = 36
_LENGTH: Final = struct.Struct("<I")
_COUNTS: Final = struct.Struct("<BIII")  # everything flag, adds, removed rows, removed ids
Rows = NDArray[np.bytes_]  # S36, sorted


def pack(memory_id: str, version: int, key_id: str) -> bytes:
    return bytes.fromhex(memory_id) + struct.pack(">I", version) + bytes.fromhex(key_id)


def canonical(ids: list[str], versions: list[int], key_ids: list[str]) -> Rows:
    """The rows as one sorted S36 array (the hot path at unlock: no per-row Python objects)."""
    table = np.empty(len(ids), dtype=[("id", "S16"), ("version", ">u4"), ("key", "S16")])
    if ids:
        table["id"] = np.frombuffer(bytes.fromhex("".join(ids)), "S16")
        table["version"] = versions
        table["key"] = np.frombuffer(bytes.fromhex("".join(key_ids)), "S16")
    return np.sort(np.frombuffer(table.tobytes(), f"S{ROW}"))


def as_dict(rows: Rows) -> dict[bytes, bytes]:
    """(memory id + version) -> key id, for the slow paths (a mismatch, a resolution)."""
    raw = rows.tobytes()
    return {raw[i : i + 20]: raw[i + 20 : i + ROW] for i in range(0, len(raw), ROW)}


def from_dict(rows: dict[bytes, bytes]) -> Rows:
    return np.sort(np.array([rk + key for rk, key in rows.items()], dtype=f"S{ROW}"))


def describe(rk: bytes) -> tuple[str, int]:
    return rk[:16].hex(), struct.unpack(">I", rk[16:20])[0]


@dataclass(slots=True)
class Change:
    """What one write does to the row set: rows added (36 bytes each) and rows removed, by
    (id + version) or by whole memory id, or the whole table (``everything``)."""

    adds: list[bytes] = field(default_factory=list)
    remove_rows: list[bytes] = field(default_factory=list)  # 20 bytes: id + version
    remove_ids: list[bytes] = field(default_factory=list)  # 16 bytes
    everything: bool = False

    def __bool__(self) -> bool:
        return bool(self.adds or self.remove_rows or self.remove_ids or self.everything)

    def merged(self, other: Change) -> Change:
        return Change(
            self.adds + other.adds,
            self.remove_rows + other.remove_rows,
            self.remove_ids + other.remove_ids,
            self.everything or other.everything,
        )

    def encode(self) -> bytes:
        head = _COUNTS.pack(
            self.everything, len(self.adds), len(self.remove_rows), len(self.remove_ids)
        )
        return head + b"".join([*self.adds, *self.remove_rows, *self.remove_ids])

    @classmethod
    def decode(cls, data: bytes) -> Change:
        everything, adds, rows, ids = _COUNTS.unpack_from(data)
        at = _COUNTS.size
        if len(data) != at + ROW * adds + 20 * rows + 16 * ids:
            raise ValueError("row log record of the wrong size")
        out = cls(everything=bool(everything))
        out.adds = [data[at + i * ROW : at + (i + 1) * ROW] for i in range(adds)]
        at += ROW * adds
        out.remove_rows = [data[at + i * 20 : at + (i + 1) * 20] for i in range(rows)]
        at += 20 * rows
        out.remove_ids = [data[at + i * 16 : at + (i + 1) * 16] for i in range(ids)]
        return out


class RowLog:
    """The committed row set of one vault, kept in RAM as a sorted base plus the changes since,
    and the intent of a write not yet known to have committed (``pending``)."""

    def __init__(self, directory: Path, vault_id: str, key: bytes) -> None:
        self.path = directory / LOG_NAME
        self._vault_id = vault_id
        self._key = key
        self._base: Rows = np.zeros(0, f"S{ROW}")
        self._changes: dict[bytes, bytes | None] = {}  # id + version -> key id, None: removed
        self.pending: Change | None = None
        self.uncertain = False  # pending may or may not have reached the table: resolve it
        self._records = 0
        self._good_len = 0  # bytes of whole, authentic records (a torn tail is cut before use)
        self.problem: str | None = None  # missing or damaged: nothing to compare with
        self.digest = ""  # SHA-256 of the file as read at open

    # --- reading ---------------------------------------------------------------------------

    def read(self) -> RowLog:
        try:
            data = self.path.read_bytes()
        except FileNotFoundError:
            self.problem = f"{LOG_NAME} (which memories should exist) is missing"
            return self
        except OSError as exc:
            raise disk_error(exc, f"cannot read {LOG_NAME}") from None
        self.digest = hashlib.sha256(data).hexdigest()
        at = 0
        while at + _LENGTH.size <= len(data):
            (size,) = _LENGTH.unpack_from(data, at)
            end = at + _LENGTH.size + size
            if end > len(data):
                break  # a torn append: the write it began never committed past its intent
            try:
                plain = open_with_key(self._key, data[at + _LENGTH.size : end], self._aad())
                self._replay(plain)
            except (BlobError, ValueError, struct.error):
                self.problem = f"{LOG_NAME} record {self._records} is damaged"
                return self
            self._records += 1
            at = self._good_len = end
        if self._records == 0:
            self.problem = f"{LOG_NAME} (which memories should exist) is empty or damaged"
        self.uncertain = self.pending is not None
        return self

    def _replay(self, plain: bytes) -> None:
        kind, body = plain[:1], plain[1:]
        if kind == b"F":
            if self._records != 0 or len(body) % ROW:
                raise ValueError("misplaced checkpoint")
            self._base, self._changes = np.frombuffer(body, f"S{ROW}"), {}
        elif self._records == 0:
            raise ValueError("no checkpoint")
        elif kind == b"I":
            change = Change.decode(body)
            self.pending = change if self.pending is None else self.pending.merged(change)
        elif kind == b"D" and self.pending is not None:
            self._apply(self.pending)
            self.pending = None
        elif kind == b"R":
            self._apply(Change.decode(body))
            self.pending = None
        else:
            raise ValueError("unknown record")

    def _apply(self, change: Change) -> None:
        if change.everything:
            self._base, self._changes = np.zeros(0, f"S{ROW}"), {}
        if change.remove_ids:
            gone = set(change.remove_ids)
            ids = np.ndarray(len(self._base), "S16", self._base.tobytes(), 0, (ROW,))
            self._base = self._base[~np.isin(ids, list(gone))]
            self._changes = {rk: k for rk, k in self._changes.items() if rk[:16] not in gone}
        for rk in change.remove_rows:
            self._changes[rk] = None
        for row in change.adds:
            self._changes[row[:20]] = row[20:]

    def rows(self) -> Rows:
        """The committed row set, sorted (pending changes not applied). The base is sorted, so
        the few rows changed since the checkpoint are found and placed by binary search."""
        base = self._base
        if not self._changes:
            return base
        prefixes = np.ndarray(len(base), "S20", base, 0, (ROW,))
        changed = np.array(sorted(self._changes), dtype="S20")
        at = np.searchsorted(prefixes, changed)
        inside = at < len(base)
        at, changed = at[inside], changed[inside]
        keep = np.ones(len(base), dtype=bool)
        keep[at[prefixes[at] == changed]] = False  # replaced or removed
        base = base[keep]
        added = [rk + key for rk, key in self._changes.items() if key is not None]
        added_rows = np.sort(np.array(added, dtype=f"S{ROW}"))
        return np.insert(base, np.searchsorted(base, added_rows), added_rows)

    def file_digest(self) -> str:
        """SHA-256 of the file as it is now (for the unlock snapshot)."""
        try:
            return hashlib.sha256(self.path.read_bytes()).hexdigest()
        except OSError:
            return ""

    def overgrown(self) -> bool:
        """True when the changes since the checkpoint are many enough to slow unlock (a bulk
        import): the caller then checkpoints."""
        return len(self._changes) > max(1024, len(self._base) // 8)

    # --- writing ---------------------------------------------------------------------------

    def intent(self, change: Change) -> None:
        """Durably record what a write is about to do (before its Lance commit)."""
        self._append(b"I" + change.encode(), durable=True)
        self.pending = change if self.pending is None else self.pending.merged(change)

    def done(self) -> None:
        """The pending write committed. Not fsynced: lost only with power, and then the
        write is simply accepted as done or not, as after any crash."""
        if self.pending is None or self.uncertain:
            return
        self._append(b"D", durable=False)
        self._apply(self.pending)
        self.pending = None

    def plan(self, table: Rows) -> Change:
        """What a pending write turned out to do, judged by what the table holds: a row it
        removes is gone if the table lacks it, a row it adds is there if the table has it.
        Everything else stays as committed (and is reported if the table disagrees)."""
        if self.pending is None:
            return Change()
        committed, found = as_dict(self.rows()), as_dict(table)
        pending = self.pending
        rows, ids = set(pending.remove_rows), set(pending.remove_ids)
        settled = Change()
        for rk, key in committed.items():
            removed = pending.everything or rk in rows or rk[:16] in ids
            if removed and found.get(rk) != key:
                settled.remove_rows.append(rk)
        for row in pending.adds:
            if found.get(row[:20]) == row[20:] and committed.get(row[:20]) != row[20:]:
                settled.adds.append(row)
        return settled

    def expected(self, settled: Change) -> Rows:
        """The committed rows with ``settled`` applied (without recording it)."""
        rows = as_dict(self.rows())
        for rk in settled.remove_rows:
            rows.pop(rk, None)
        rows.update((row[:20], row[20:]) for row in settled.adds)
        return from_dict(rows)

    def resolve(self, settled: Change) -> None:
        """Record how the pending write ended (``plan``)."""
        self._append(b"R" + settled.encode(), durable=True)
        self._apply(settled)
        self.pending, self.uncertain = None, False

    def checkpoint(self, rows: Rows | None = None) -> None:
        """Rewrite the file as one full record (``rows``, else the committed set): at a
        compaction, so the log stays short and names no forgotten memory."""
        rows = self.rows() if rows is None else rows
        blob = seal_with_key(self._key, b"F" + rows.tobytes(), self._aad(0))
        write_atomic(self.path, _LENGTH.pack(len(blob)) + blob)  # the old file, or this one
        self._base, self._changes = rows, {}
        self.pending, self.uncertain, self.problem = None, False, None
        self._records, self._good_len = 1, _LENGTH.size + len(blob)

    def _append(self, plain: bytes, *, durable: bool) -> None:
        if self.problem is not None:
            raise VaultError(f"cannot record the write: {self.problem}")
        blob = seal_with_key(self._key, plain, self._aad())
        frame = _LENGTH.pack(len(blob)) + blob
        try:
            if self.path.stat().st_size != self._good_len:
                with open(self.path, "rb+") as handle:  # cut a torn tail before appending
                    handle.truncate(self._good_len)
                    handle.flush()
                    os.fsync(handle.fileno())
            if durable:
                append_durable(self.path, frame)
            else:
                with open(self.path, "ab") as handle:
                    handle.write(frame)
        except OSError as exc:
            raise disk_error(exc, f"cannot write {LOG_NAME}") from None
        self._records += 1
        self._good_len += len(frame)

    def _aad(self, number: int | None = None) -> bytes:
        number = self._records if number is None else number
        return f"rows\x00{self._vault_id}\x00{number}".encode()


def changes_of(memory_ids: list[str], versions: list[int], key_ids: list[str]) -> list[bytes]:
    return [pack(m, v, k) for m, v, k in zip(memory_ids, versions, key_ids, strict=True)]
