"""Rows <-> plaintext: sealing one row, and unsealing a whole table at unlock in one pass.

Unlock is the hot path (100k rows should open in well under a second on 2 cores), so it works
on the Arrow buffers directly: each ciphertext is a memoryview slice, ``decrypt_into`` writes
the plaintext into one arena, and vectors are copied from there into the search matrix. The
per-row record stays as bytes and is parsed only when someone reads that memory.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field
from typing import Final

import numpy as np
import pyarrow as pa
from cryptography.exceptions import InvalidTag
from numpy.typing import NDArray

from desktop_agent.memory.crypto import BLOB_VERSION, HEADER_BYTES, OVERHEAD, aad, seal
from desktop_agent.memory.keystore import KeyStore
from desktop_agent.memory.model import Damage, MemoryId
from desktop_agent.memory.store import TABLE

FIELD: Final = "payload"


def row_id(memory_id: str, version: int) -> str:
    return f"{memory_id}/{version}"


def row_aad(memory_id: str, version: int, key_id: str) -> bytes:
    return aad(TABLE, row_id(memory_id, version), FIELD, key_id)


def seal_row(keys: KeyStore, memory_id: str, version: int, key_id: str, payload: bytes) -> bytes:
    return seal(keys.cipher(key_id), payload, row_aad(memory_id, version, key_id))


def open_row(
    keys: KeyStore, memory_id: str, version: int, key_id: str, blob: bytes
) -> bytes | None:
    """The payload, or None when the blob is damaged or its key is gone."""
    if key_id not in keys or len(blob) < OVERHEAD or blob[0] != BLOB_VERSION:
        return None
    try:
        return keys.cipher(key_id).decrypt(
            blob[1:HEADER_BYTES], blob[HEADER_BYTES:], row_aad(memory_id, version, key_id)
        )
    except InvalidTag:
        return None


@dataclass(slots=True)
class Loaded:
    """Everything unlock needs in RAM: current records, vectors, and who uses which key."""

    ids: list[MemoryId] = field(default_factory=list)
    versions: list[int] = field(default_factory=list)
    key_ids: list[str] = field(default_factory=list)
    records: list[bytes] = field(default_factory=list)
    vectors: NDArray[np.float32] = field(default_factory=lambda: np.zeros((0, 0), np.float32))
    all_versions: dict[MemoryId, list[tuple[int, str]]] = field(default_factory=dict)
    key_users: dict[str, set[MemoryId]] = field(default_factory=lambda: defaultdict(set))
    damage: list[Damage] = field(default_factory=list)


def load(table: pa.Table, keys: KeyStore, dim: int) -> Loaded:
    """Decrypt the newest version of every memory; damaged rows are reported, not fatal."""
    out = Loaded()
    memory_ids = table.column("memory_id").to_pylist()
    versions = table.column("version").to_pylist()
    key_ids = table.column("key_id").to_pylist()
    newest: dict[str, int] = {}
    for row, (memory_id, version, key_id) in enumerate(
        zip(memory_ids, versions, key_ids, strict=True)
    ):
        out.all_versions.setdefault(memory_id, []).append((version, key_id))
        out.key_users[key_id].add(memory_id)
        best = newest.get(memory_id)
        if best is None or version > versions[best]:
            newest[memory_id] = row
    for history in out.all_versions.values():
        history.sort()
    rows = list(newest.values())
    blobs = table.column("blob").combine_chunks()
    offsets = np.frombuffer(blobs.buffers()[1], dtype=np.int64)[
        blobs.offset : blobs.offset + len(blobs) + 1
    ]
    data = memoryview(blobs.buffers()[2]).cast("B") if len(blobs) else memoryview(b"")
    starts = offsets[rows]
    sizes = offsets[np.asarray(rows, dtype=np.int64) + 1] - starts - OVERHEAD if rows else starts
    arena = bytearray(int(np.clip(sizes, 0, None).sum()))
    plain = memoryview(arena)
    vector_bytes = dim * 4
    matrix = np.empty((len(rows), dim), dtype=np.float32)
    flat = memoryview(matrix.reshape(-1).view(np.uint8))
    at = 0
    good = 0
    prefix = b"%d\x00%s\x00" % (BLOB_VERSION, TABLE.encode())
    suffix = b"\x00%s\x00" % FIELD.encode()
    for row, start, size in zip(rows, starts.tolist(), sizes.tolist(), strict=True):
        memory_id, version, key_id = memory_ids[row], versions[row], key_ids[row]
        if size < vector_bytes + 1 or key_id not in keys or data[start] != BLOB_VERSION:
            out.damage.append(
                _damaged(memory_id, version, "missing key" if key_id not in keys else "bad blob")
            )
            continue
        target = plain[at : at + size]
        associated = b"%s%s/%d%s%s" % (prefix, memory_id.encode(), version, suffix, key_id.encode())
        try:
            keys.cipher(key_id).decrypt_into(
                data[start + 1 : start + HEADER_BYTES],
                data[start + HEADER_BYTES : start + HEADER_BYTES + size + 16],
                associated,
                target,
            )
        except InvalidTag:
            out.damage.append(_damaged(memory_id, version, "ciphertext fails authentication"))
            continue
        flat[good * vector_bytes : (good + 1) * vector_bytes] = target[:vector_bytes]
        out.records.append(bytes(target[vector_bytes:]))
        out.ids.append(MemoryId(memory_id))
        out.versions.append(version)
        out.key_ids.append(key_id)
        at += size
        good += 1
    out.vectors = matrix[:good]
    return out


def _damaged(memory_id: str, version: int, reason: str) -> Damage:
    return Damage(TABLE, f"row {row_id(memory_id, version)}", reason, MemoryId(memory_id))
