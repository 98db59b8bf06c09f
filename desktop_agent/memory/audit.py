"""The audit log: append-only, encrypted, hash-chained.

Each line is one AES-GCM blob (base64) under the vault's audit key. Its associated data holds
the entry's sequence number and the SHA-256 of the line before it, so removing, reordering or
altering a line breaks the chain at that point. ``audit.head`` (sealed, replaced atomically
after each append) names the last entry, so cutting entries off the end is caught too. Entries
name actions, opaque ids, kinds and counts; never a memory's text.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import json
import os
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, Final

from desktop_agent.memory.crypto import BlobError, aad, open_with_key, seal_with_key
from desktop_agent.memory.files import append_durable, write_atomic

LOG_FILE: Final = "audit.log"
HEAD_FILE: Final = "audit.head"
_GENESIS: Final = b"\x00" * 32


@dataclass(frozen=True, slots=True)
class AuditEntry:
    seq: int
    at: datetime
    action: str
    ids: tuple[str, ...]
    kinds: tuple[str, ...]
    count: int
    epoch: int
    detail: Mapping[str, Any]

    def to_json(self) -> dict[str, Any]:
        return {
            "seq": self.seq,
            "at": self.at.isoformat(),
            "action": self.action,
            "ids": list(self.ids),
            "kinds": list(self.kinds),
            "count": self.count,
            "epoch": self.epoch,
            "detail": dict(self.detail),
        }


@dataclass(frozen=True, slots=True)
class AuditReport:
    ok: bool
    entries: int
    problems: tuple[str, ...]

    def to_json(self) -> dict[str, Any]:
        return {"ok": self.ok, "entries": self.entries, "problems": list(self.problems)}


class AuditLog:
    """Appends and verifies ``audit.log`` in one vault directory with one key."""

    def __init__(self, directory: Path, key_id: str, key: bytes) -> None:
        self.path = directory / LOG_FILE
        self.head_path = directory / HEAD_FILE
        self._key_id = key_id
        self._key = key
        self._seq, self._hash = self._read_head()
        self._heal_tail()

    def append(
        self,
        action: str,
        *,
        ids: Sequence[str] = (),
        kinds: Sequence[str] = (),
        epoch: int = 0,
        count: int | None = None,
        **detail: Any,
    ) -> None:
        seq = self._seq + 1
        body = {
            "seq": seq,
            "at": datetime.now(UTC).isoformat(),
            "action": action,
            "ids": list(ids),
            "kinds": list(kinds),
            "count": len(ids) if count is None else count,
            "epoch": epoch,
            "detail": detail,
        }
        blob = seal_with_key(self._key, json.dumps(body).encode(), self._aad(seq, self._hash))
        line = base64.b64encode(blob) + b"\n"
        append_durable(self.path, line)
        self._seq, self._hash = seq, _chain(self._hash, line)
        self._write_head()

    def entries(self) -> Iterator[AuditEntry]:
        for entry, problem in self._walk():
            if problem:
                return
            assert entry is not None
            yield entry

    def verify(self) -> AuditReport:
        problems: list[str] = []
        count, last_seq, last_hash = 0, 0, _GENESIS
        for entry, problem in self._walk():
            if problem:
                problems.append(problem)
                break
            assert entry is not None
            count += 1
        if not problems:
            last_seq, last_hash = self._chain_end()
            head_seq, head_hash = self._read_head()
            if (last_seq, last_hash) != (head_seq, head_hash):
                problems.append(
                    f"the log ends at entry {last_seq} but its sealed head names entry {head_seq}: "
                    "entries were removed from the end, or the head was replaced"
                )
        return AuditReport(not problems, count, tuple(problems))

    # --- internals -----------------------------------------------------------------------

    def _walk(self) -> Iterator[tuple[AuditEntry | None, str | None]]:
        previous, expected = _GENESIS, 1
        for line in _lines(self.path):
            try:
                blob = base64.b64decode(line.rstrip(b"\n"), validate=True)
                raw = json.loads(open_with_key(self._key, blob, self._aad(expected, previous)))
            except (BlobError, binascii.Error, ValueError):
                yield (
                    None,
                    (
                        f"the chain breaks at entry {expected}: an entry was removed, altered or reordered"
                    ),
                )
                return
            yield _entry(raw), None
            previous, expected = _chain(previous, line), expected + 1

    def _chain_end(self) -> tuple[int, bytes]:
        seq, digest = 0, _GENESIS
        for line in _lines(self.path):
            seq, digest = seq + 1, _chain(digest, line)
        return seq, digest

    def _aad(self, seq: int, previous: bytes) -> bytes:
        return aad("audit", str(seq), "entry", self._key_id) + previous

    def _read_head(self) -> tuple[int, bytes]:
        seq, digest, _size = self._head()
        return seq, digest

    def _head(self) -> tuple[int, bytes, int]:
        return self._sealed_head() or (0, _GENESIS, 0)

    def _sealed_head(self) -> tuple[int, bytes, int] | None:
        """(seq, hash, log size) from audit.head; None if it is missing or does not open."""
        try:
            blob = self.head_path.read_bytes()
            raw = json.loads(
                open_with_key(self._key, blob, aad("audit", "head", "head", self._key_id))
            )
            return int(raw["seq"]), bytes.fromhex(raw["hash"]), int(raw["size"])
        except (OSError, BlobError, ValueError, KeyError):
            return None  # verify() reports the mismatch

    def _write_head(self) -> None:
        size = self.path.stat().st_size if self.path.exists() else 0
        body = json.dumps({"seq": self._seq, "hash": self._hash.hex(), "size": size}).encode()
        write_atomic(
            self.head_path,
            seal_with_key(self._key, body, aad("audit", "head", "head", self._key_id)),
        )

    def _heal_tail(self) -> None:
        """After a crash: drop a torn last line, or move the head over the one line it missed.

        Only the bytes past the head's recorded size are read (unlock stays O(1) in the log's
        length). Anything that is not one of those two crash patterns is left alone for
        ``verify`` to report: healing must never cut real history.
        """
        head = self._sealed_head()
        if head is None or not self.path.exists() or self.path.stat().st_size <= head[2]:
            return
        size = head[2]
        with open(self.path, "rb+") as handle:
            handle.seek(size)
            extra = handle.read()
            end = extra.find(b"\n")
            if end < 0:  # a torn append, never acknowledged
                handle.truncate(size)
                handle.flush()
                os.fsync(handle.fileno())
                return
        line = extra[: end + 1]
        if len(line) == len(extra) and self._opens(line):
            self._seq, self._hash = self._seq + 1, _chain(self._hash, line)
            self._write_head()

    def _opens(self, line: bytes) -> bool:
        try:
            blob = base64.b64decode(line.rstrip(b"\n"), validate=True)
            open_with_key(self._key, blob, self._aad(self._seq + 1, self._hash))
        except (BlobError, binascii.Error, ValueError):
            return False
        return True


def _chain(previous: bytes, line: bytes) -> bytes:
    return hashlib.sha256(previous + line).digest()


def _lines(path: Path) -> Iterator[bytes]:
    try:
        with open(path, "rb") as handle:
            yield from handle
    except FileNotFoundError:
        return


def _entry(raw: Mapping[str, Any]) -> AuditEntry:
    return AuditEntry(
        seq=int(raw["seq"]),
        at=datetime.fromisoformat(raw["at"]),
        action=str(raw["action"]),
        ids=tuple(raw.get("ids", ())),
        kinds=tuple(raw.get("kinds", ())),
        count=int(raw.get("count", 0)),
        epoch=int(raw.get("epoch", 0)),
        detail=dict(raw.get("detail", {})),
    )
