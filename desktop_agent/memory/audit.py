"""The audit log: append-only, encrypted, hash-chained, in lines of one fixed size.

Each line is one AES-GCM blob (base64) under the vault's audit key, holding its number and the
SHA-256 of the line before it (memory/audit_lines.py), so removing, reordering or altering a
line breaks the chain at that point. Every line has the same length whatever the action or the
number of ids; an entry that names many ids takes several lines. ``audit.head`` (sealed,
replaced atomically after each append) names the last line, so cutting lines off the end is
caught too. Entries name actions, opaque ids, kinds and counts; never a memory's text. After a
break the later entries are still read, and marked unverified.
"""

from __future__ import annotations

import json
import logging
import os
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, Final

from desktop_agent.errors import VaultError
from desktop_agent.memory.audit_lines import GENESIS, Line, chain, open_line, seal_entry
from desktop_agent.memory.crypto import BlobError, aad, open_with_key, seal_with_key
from desktop_agent.memory.files import append_durable, disk_error, write_atomic

LOG_FILE: Final = "audit.log"
HEAD_FILE: Final = "audit.head"
logger = logging.getLogger(__name__)


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
    # False for an entry after a break in the chain: it opens under the audit key (so the app
    # wrote it), but what came before it was removed or altered, so its place is not proven.
    verified: bool = True

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
            "verified": self.verified,
        }


@dataclass(frozen=True, slots=True)
class AuditReport:
    ok: bool
    entries: int
    problems: tuple[str, ...]

    def to_json(self) -> dict[str, Any]:
        return {"ok": self.ok, "entries": self.entries, "problems": list(self.problems)}


@dataclass(slots=True)
class _Reading:
    """One pass over the log: its entries, what is wrong with it, and where its chain ends."""

    entries: list[AuditEntry] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)
    unreadable: int = 0
    lines: int = 0
    end: bytes = GENESIS


class AuditLog:
    """Appends and verifies ``audit.log`` in one vault directory with one key."""

    def __init__(self, directory: Path, key_id: str, key: bytes) -> None:
        self.path = directory / LOG_FILE
        self.head_path = directory / HEAD_FILE
        self._key_id = key_id
        self._key = key
        self._lines, self._hash, self._seq = self._head()[:3]
        self._healed = False
        try:
            self.heal()
        except VaultError as error:  # a full or read-only disk: the first append heals first
            logger.warning("audit log: repair waits for a writable disk (%s)", error)

    def heal(self) -> None:
        """Repair what a crash left at the end of the log (see ``_heal_tail``), once."""
        if not self._healed:
            self._heal_tail()
            self._healed = True

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
        self.heal()  # never append after a torn line
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
        lines = seal_entry(self._key, self._key_id, body, self._lines + 1, self._hash)
        append_durable(self.path, b"".join(lines))
        for line in lines:
            self._hash = chain(self._hash, line)
        self._lines, self._seq = self._lines + len(lines), seq
        self._write_head()

    def entries(self) -> Iterator[AuditEntry]:
        """Every entry that can be read, oldest first; those after a break are unverified."""
        yield from self._read().entries

    def verify(self) -> AuditReport:
        reading = self._read()
        problems = list(reading.problems)
        if not problems:
            head_lines, head_hash, head_seq, _size = self._head()
            if (reading.lines, reading.end) != (head_lines, head_hash):
                last = reading.entries[-1].seq if reading.entries else 0
                problems.append(
                    f"the log ends at entry {last} but its sealed head names entry {head_seq}: "
                    "entries were removed from the end, or the head was replaced"
                )
        unverified = sum(1 for e in reading.entries if not e.verified)
        if unverified:
            problems.append(f"{unverified} later entries can be read but not verified")
        if reading.unreadable:
            problems.append(f"{reading.unreadable} lines cannot be read at all")
        verified = sum(1 for e in reading.entries if e.verified)
        return AuditReport(not problems, verified, tuple(problems))

    # --- internals -----------------------------------------------------------------------

    def _read(self) -> _Reading:
        out = _Reading()
        parts: list[Line] = []
        intact = True
        for raw in _lines(self.path):
            place = out.lines + 1
            line = open_line(self._key, self._key_id, raw, place, out.end)
            linked = line is not None and (line.number, line.previous) == (place, out.end)
            if intact and not linked:
                last = next((e.seq for e in reversed(out.entries) if e.verified), 0)
                out.problems.append(
                    f"the chain breaks at entry {last + 1}: an entry was removed, altered or "
                    "reordered"
                )
                intact = False
            out.lines, out.end = place, chain(out.end, raw)
            if line is None:
                out.unreadable, parts = out.unreadable + 1 + len(parts), []
                continue
            if parts and line.number != parts[-1].number + 1:
                out.unreadable, parts = out.unreadable + len(parts), []  # its rest is missing
            parts.append(line)
            if not line.continues:
                entry = _entry(b"".join(p.chunk for p in parts), intact)
                if entry is None:
                    out.unreadable += len(parts)
                else:
                    out.entries.append(entry)
                parts = []
        if parts:
            out.unreadable += len(parts)
            if intact:
                out.problems.append("the last entry is cut short")
        return out

    def _head(self) -> tuple[int, bytes, int, int]:
        """(lines, hash, last entry's seq, log size) from audit.head; zeros if it is missing."""
        return self._sealed_head() or (0, GENESIS, 0, 0)

    def _sealed_head(self) -> tuple[int, bytes, int, int] | None:
        try:
            blob = self.head_path.read_bytes()
            raw = json.loads(
                open_with_key(self._key, blob, aad("audit", "head", "head", self._key_id))
            )
            # "seq" counts lines; heads written before multi-line entries had one per entry.
            lines = int(raw["seq"])
            return lines, bytes.fromhex(raw["hash"]), int(raw.get("entry", lines)), int(raw["size"])
        except (OSError, BlobError, ValueError, KeyError):
            return None  # verify() reports the mismatch

    def _write_head(self) -> None:
        size = self.path.stat().st_size if self.path.exists() else 0
        body = json.dumps(
            {"seq": self._lines, "hash": self._hash.hex(), "entry": self._seq, "size": size}
        ).encode()
        write_atomic(
            self.head_path,
            seal_with_key(self._key, body, aad("audit", "head", "head", self._key_id)),
        )

    def _heal_tail(self) -> None:
        """After a crash: cut a torn append, or move the head over whole entries it missed.

        Only the bytes past the head's recorded size are read (unlock stays O(1) in the log's
        length). Lines there that chain on from the head and complete their entries are
        adopted; what follows them is cut only if it is the rest of one torn append (whole
        lines of an unfinished entry, then at most part of a line). Anything else is left for
        ``verify`` to report: healing must never cut real history.
        """
        head = self._sealed_head()
        if head is None or not self.path.exists() or self.path.stat().st_size <= head[3]:
            return
        size = head[3]
        with open(self.path, "rb") as handle:
            handle.seek(size)
            extra = handle.read()
        at = adopted = 0  # bytes read / bytes of whole entries
        lines, digest, entries = self._lines, self._hash, 0
        pending = (0, digest, 0)  # lines and hash at the last whole entry, entries adopted
        for raw in extra.splitlines(keepends=True):
            if not raw.endswith(b"\n"):
                break  # a torn last line
            line = open_line(self._key, self._key_id, raw, lines + 1, digest)
            if line is None or (line.number, line.previous) != (lines + 1, digest):
                return  # not a crash pattern: leave it for verify
            at, lines, digest = at + len(raw), lines + 1, chain(digest, raw)
            if not line.continues:
                entries += 1
                adopted, pending = at, (lines - self._lines, digest, entries)
        if adopted < len(extra):
            self._truncate(size + adopted)
        if pending[0]:
            self._lines, self._hash = self._lines + pending[0], pending[1]
            self._seq += pending[2]
            self._write_head()

    def _truncate(self, size: int) -> None:
        logger.warning(
            "audit log: cutting a torn append (%d bytes)", self.path.stat().st_size - size
        )
        try:
            with open(self.path, "rb+") as handle:
                handle.truncate(size)
                handle.flush()
                os.fsync(handle.fileno())
        except OSError as exc:
            raise disk_error(exc, f"cannot repair {LOG_FILE}") from None


def _lines(path: Path) -> Iterator[bytes]:
    try:
        with open(path, "rb") as handle:
            yield from handle
    except FileNotFoundError:
        return


def _entry(data: bytes, verified: bool) -> AuditEntry | None:
    try:
        raw = json.loads(data)
        return AuditEntry(
            seq=int(raw["seq"]),
            at=datetime.fromisoformat(raw["at"]),
            action=str(raw["action"]),
            ids=tuple(raw.get("ids", ())),
            kinds=tuple(raw.get("kinds", ())),
            count=int(raw.get("count", 0)),
            epoch=int(raw.get("epoch", 0)),
            detail=dict(raw.get("detail", {})),
            verified=verified,
        )
    except (ValueError, KeyError, TypeError):
        return None
