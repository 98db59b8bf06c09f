"""One line of the audit log: a fixed size, sealed, carrying its own place in the chain.

Format 2 (issue 13): every line is the base64 of one AES-GCM blob of exactly ``PLAIN_BYTES``
of plaintext, so a line's length says nothing about the action or how many ids it names. The
plaintext holds the line's number, the SHA-256 of the line before it, a "continues" flag and a
chunk of the entry's JSON, zero-padded. An entry longer than one chunk (a batch naming many
ids) takes several lines of the same size. Number and previous hash are inside the sealed
plaintext (GCM authenticates it as it would associated data), so a line opens on its own: after
a break in the chain the later entries can still be read, and shown as unverified.

Format 1 (logs written before): one sealed JSON entry per line of its own length, with the
line's number and the running chain hash in the associated data. Those lines are still read
and verified where they sit; new lines are always format 2. A format-1 line after a break
cannot be opened at all (its associated data depends on every line before it).
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import json
import struct
from dataclasses import dataclass
from typing import Any, Final

from desktop_agent.memory.crypto import BlobError, aad, open_with_key, seal_with_key

GENESIS: Final = b"\x00" * 32
PLAIN_BYTES: Final = 995  # + 29 bytes of version, nonce and tag: a 1024-byte blob, 1368 base64
_MAGIC: Final = b"\x02"
_HEAD: Final = struct.Struct("<cQ32sBH")  # magic, line number, previous hash, flags, chunk size
CHUNK_BYTES: Final = PLAIN_BYTES - _HEAD.size
_CONTINUES: Final = 1


@dataclass(frozen=True, slots=True)
class Line:
    """An opened line: its number, the hash of the line it follows, and its part of an entry."""

    number: int
    previous: bytes
    continues: bool
    chunk: bytes
    legacy: bool = False


def chain(previous: bytes, line: bytes) -> bytes:
    return hashlib.sha256(previous + line).digest()


def seal_entry(
    key: bytes, key_id: str, body: dict[str, Any], number: int, previous: bytes
) -> list[bytes]:
    """The lines (with newlines) of one entry whose first line is line ``number``."""
    data = json.dumps(body).encode()
    chunks = [data[at : at + CHUNK_BYTES] for at in range(0, len(data), CHUNK_BYTES)] or [b""]
    lines = []
    for index, chunk in enumerate(chunks):
        flags = _CONTINUES if index < len(chunks) - 1 else 0
        plain = _HEAD.pack(_MAGIC, number + index, previous, flags, len(chunk)) + chunk
        plain += b"\x00" * (PLAIN_BYTES - len(plain))
        line = base64.b64encode(seal_with_key(key, plain, _aad(key_id))) + b"\n"
        lines.append(line)
        previous = chain(previous, line)
    return lines


def open_line(key: bytes, key_id: str, raw: bytes, number: int, previous: bytes) -> Line | None:
    """The line, or None if it does not open. ``number`` and ``previous`` (the chain hash of
    the lines before it) are where the line sits in the file; only format-1 lines need them to
    open (format 2 carries its own)."""
    try:
        blob = base64.b64decode(raw.rstrip(b"\n"), validate=True)
    except (binascii.Error, ValueError):
        return None
    try:
        plain = open_with_key(key, blob, _aad(key_id))
    except BlobError:
        return _open_legacy(key, key_id, blob, number, previous)
    if len(plain) != PLAIN_BYTES or plain[:1] != _MAGIC:
        return None
    _magic, line_number, before, flags, size = _HEAD.unpack_from(plain)
    if size > CHUNK_BYTES:
        return None
    chunk = plain[_HEAD.size : _HEAD.size + size]
    return Line(line_number, before, bool(flags & _CONTINUES), chunk)


def _open_legacy(key: bytes, key_id: str, blob: bytes, number: int, previous: bytes) -> Line | None:
    try:
        plain = open_with_key(key, blob, _legacy_aad(key_id, number, previous))
    except BlobError:
        return None
    return Line(number, previous, False, plain, legacy=True)


def _aad(key_id: str) -> bytes:
    return aad("audit", "line", "v2", key_id)


def _legacy_aad(key_id: str, number: int, previous: bytes) -> bytes:
    return aad("audit", str(number), "entry", key_id) + previous
