"""The plaintext inside a row's one ciphertext: the vector first, then a compact record.

Layout: ``vector (dim float32, little-endian) | kind (u8) | created (i64 µs) | updated (i64 µs)
| four u32 lengths | text | conversation id | source id | meta JSON``. The vector comes first at a
fixed size so unlock can copy it straight into the search matrix; the record is parsed only
when someone asks for that memory. Text is UTF-8 with ``surrogatepass`` so that any Python
string, even one with lone surrogates, comes back exactly as it went in.
"""

from __future__ import annotations

import json
import struct
from datetime import UTC, datetime, timedelta
from typing import Final

import numpy as np
from numpy.typing import NDArray

from desktop_agent.memory.model import KINDS, MemoryId, MemoryRecord, freeze

_FIXED: Final = struct.Struct("<BqqIIII")
KIND_CODES: Final = {kind: code for code, kind in enumerate(KINDS)}


def encode(
    vector: NDArray[np.float32],
    kind: str,
    text: str,
    meta_json: str,
    created_at: datetime,
    updated_at: datetime,
    conversation_id: str | None,
    source_id: str | None,
) -> bytes:
    raw = [_utf8(text), _utf8(conversation_id or ""), _utf8(source_id or ""), meta_json.encode()]
    # A zero length means None for the two ids: an empty id is rejected on the way in.
    fixed = _FIXED.pack(
        KIND_CODES[kind], _micros(created_at), _micros(updated_at), *(len(part) for part in raw)
    )
    return b"".join([np.ascontiguousarray(vector, dtype="<f4").tobytes(), fixed, *raw])


def record_part(payload: bytes, dim: int) -> bytes:
    return payload[dim * 4 :]


def kind_code(record: bytes) -> int:
    return record[0]


def decode_record(memory_id: str, version: int, record: bytes) -> MemoryRecord:
    code, created, updated, n_text, n_conv, n_src, n_meta = _FIXED.unpack_from(record)
    at = _FIXED.size
    text = record[at : at + n_text].decode("utf-8", "surrogatepass")
    at += n_text
    conversation = record[at : at + n_conv].decode("utf-8", "surrogatepass") or None
    at += n_conv
    source = record[at : at + n_src].decode("utf-8", "surrogatepass") or None
    at += n_src
    meta = json.loads(record[at : at + n_meta]) if n_meta else {}
    return MemoryRecord(
        id=MemoryId(memory_id),
        kind=KINDS[code],
        text=text,
        meta=freeze(meta),
        created_at=_datetime(created),
        updated_at=_datetime(updated),
        conversation_id=conversation,
        source_id=source,
        version=version,
    )


def vector_of(payload: bytes, dim: int) -> NDArray[np.float32]:
    return np.frombuffer(payload, dtype="<f4", count=dim).astype(np.float32)


def _utf8(text: str) -> bytes:
    return text.encode("utf-8", "surrogatepass")


def _micros(moment: datetime) -> int:
    delta = moment.astimezone(UTC) - _EPOCH
    return (delta.days * 86_400 + delta.seconds) * 1_000_000 + delta.microseconds


def _datetime(micros: int) -> datetime:
    return _EPOCH + timedelta(microseconds=micros)  # exact, and cheaper than fromtimestamp


_EPOCH: Final = datetime(1970, 1, 1, tzinfo=UTC)


def text_of(record: bytes) -> str:
    """Only the text, for the keyword index (cheaper than a full decode)."""
    n_text = _FIXED.unpack_from(record)[3]
    return record[_FIXED.size : _FIXED.size + n_text].decode("utf-8", "surrogatepass")


def conversation_of(record: bytes) -> str | None:
    fields = _FIXED.unpack_from(record)
    at = _FIXED.size + fields[3]
    return record[at : at + fields[4]].decode("utf-8", "surrogatepass") or None


KINDS_BY_CODE: Final = KINDS


def vectors_of(payloads: list[bytes], dim: int) -> NDArray[np.float32]:
    if not payloads:
        return np.zeros((0, dim), dtype=np.float32)
    return np.stack([vector_of(p, dim) for p in payloads])
