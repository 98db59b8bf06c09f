"""Rows <-> plaintext: sealing one row, and unsealing a whole table at unlock in one pass.

Unlock is the hot path (100k rows should open in well under a second on 2 cores), so it works
on the Arrow buffers directly: each ciphertext is a memoryview slice, ``decrypt_into`` writes
the plaintext into one arena, and vectors are copied from there into the search matrix. The
per-row record stays as bytes and is parsed only when someone reads that memory.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Final

import numpy as np
import pyarrow as pa
from cryptography.exceptions import InvalidTag
from cryptography.hazmat.primitives.ciphers.aead import AESGCM
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
    """Everything unlock needs in RAM: current records, vectors, older versions, keys in use."""

    ids: list[MemoryId] = field(default_factory=list)
    versions: list[int] = field(default_factory=list)
    key_ids: list[str] = field(default_factory=list)
    records: list[bytes] = field(default_factory=list)
    vectors: NDArray[np.float32] = field(default_factory=lambda: np.zeros((0, 0), np.float32))
    count: int = 0  # rows of ``vectors`` in use; the rest is headroom
    older: dict[MemoryId, list[tuple[int, str]]] = field(default_factory=dict)
    used_keys: set[str] = field(default_factory=set)
    damage: list[Damage] = field(default_factory=list)
    newest_damaged: list[tuple[str, int, str, str]] = field(default_factory=list)
    rows_digest: str = ""  # snapshot only: SHA-256 of the row log that matched it (row_set.py)


def load(table: pa.Table, keys: KeyStore, dim: int) -> Loaded:
    """Decrypt the newest version of every memory; damaged rows are reported, not fatal.

    Works chunk by chunk on Lance's own Arrow buffers (no combined copy of the table), with
    one small plaintext arena per chunk: at 100k rows, touching fresh memory costs as much as
    the AES itself on this kind of machine.
    """
    out = Loaded()
    memory_ids = table.column("memory_id").to_pylist()
    versions = table.column("version").to_pylist()
    key_ids = table.column("key_id").to_pylist()
    out.used_keys = set(key_ids)
    newest = sorted(_newest_rows(memory_ids, versions, key_ids, out.older))
    # Headroom so the first adds after unlock do not copy the whole matrix to grow it.
    matrix = np.empty((len(newest) + max(1024, len(newest) // 8), dim), dtype=np.float32)
    ciphers = keys.ciphers(key_ids[r] for r in newest if key_ids[r] in keys)
    filled, first = 0, 0
    picked_at = 0
    for chunk in table.column("blob").chunks:
        last = first + len(chunk)
        stop = picked_at
        while stop < len(newest) and newest[stop] < last:
            stop += 1
        rows = newest[picked_at:stop]
        if rows:
            filled = _load_chunk(
                chunk, first, rows, memory_ids, versions, key_ids, ciphers, dim, matrix, filled, out
            )
        picked_at, first = stop, last
    out.vectors, out.count = matrix, filled
    for (
        memory_id,
        version,
        key_id,
        _reason,
    ) in out.newest_damaged:  # keep their keys known for forget
        out.older.setdefault(MemoryId(memory_id), []).append((version, key_id))
    return out


def _load_chunk(
    chunk: pa.Array,
    first: int,
    rows: list[int],
    memory_ids: list[str],
    versions: list[int],
    key_ids: list[str],
    ciphers: dict[str, AESGCM],
    dim: int,
    matrix: NDArray[np.float32],
    filled: int,
    out: Loaded,
) -> int:
    offsets = np.frombuffer(chunk.buffers()[1], dtype=np.int64)[
        chunk.offset : chunk.offset + len(chunk) + 1
    ]
    data = memoryview(chunk.buffers()[2]).cast("B")
    local = np.asarray(rows, dtype=np.int64) - first
    starts = offsets[local]
    sizes = np.maximum(offsets[local + 1] - starts - OVERHEAD, 0)
    outputs = np.concatenate([[0], np.cumsum(sizes)]).tolist()
    arena = bytearray(outputs[-1])
    plain = memoryview(arena)
    ids = [memory_ids[r] for r in rows]
    vers = [versions[r] for r in rows]
    keyids = [key_ids[r] for r in rows]
    ok = _decrypt_all(
        ciphers, data, plain, ids, vers, keyids, starts.tolist(), sizes.tolist(), outputs, dim, out
    )
    good = [i for i in range(len(rows)) if ok[i]]
    vector_bytes = dim * 4
    joined = b"".join([plain[outputs[i] : outputs[i] + vector_bytes] for i in good])
    matrix[filled : filled + len(good)] = np.frombuffer(joined, dtype=np.float32).reshape(
        len(good), dim
    )
    out.records.extend([bytes(plain[outputs[i] + vector_bytes : outputs[i + 1]]) for i in good])
    out.ids.extend([MemoryId(ids[i]) for i in good])
    out.versions.extend([vers[i] for i in good])
    out.key_ids.extend([keyids[i] for i in good])
    return filled + len(good)


def _newest_rows(
    memory_ids: list[str],
    versions: list[int],
    key_ids: list[str],
    older: dict[MemoryId, list[tuple[int, str]]],
) -> list[int]:
    """Row numbers of each memory's newest version; older versions go into ``older``."""
    if len(set(memory_ids)) == len(memory_ids):
        return list(range(len(memory_ids)))  # no memory was ever edited: the common bulk case
    newest: dict[str, int] = {}
    for row, memory_id in enumerate(memory_ids):
        best = newest.get(memory_id)
        if best is None or versions[row] > versions[best]:
            newest[memory_id] = row
    for row, memory_id in enumerate(memory_ids):
        if newest[memory_id] != row:
            older.setdefault(MemoryId(memory_id), []).append((versions[row], key_ids[row]))
    for history in older.values():
        history.sort()
    return list(newest.values())


def _decrypt_all(
    ciphers: dict[str, AESGCM],
    data: memoryview,
    plain: memoryview,
    ids: list[str],
    vers: list[int],
    keyids: list[str],
    starts: list[int],
    sizes: list[int],
    outputs: list[int],
    dim: int,
    out: Loaded,
) -> list[bool]:
    """Decrypt each row into its place in ``plain``; False where a row is damaged.

    A list comprehension keeps the per-row Python cost low; if any row fails, the chunk is
    redone row by row so only the bad rows are lost.
    """
    ok = [True] * len(ids)
    prefix = b"%d\x00%s\x00" % (BLOB_VERSION, TABLE.encode())
    suffix = b"\x00%s\x00" % FIELD.encode()
    for i, (size, key_id, start) in enumerate(zip(sizes, keyids, starts, strict=True)):
        if size < dim * 4 + 1 or key_id not in ciphers or data[start] != BLOB_VERSION:
            ok[i] = False
            reason = "missing key" if key_id not in ciphers else "bad blob"
            _note_damage(out, ids[i], vers[i], key_id, reason)
    span = [i for i in range(len(ids)) if ok[i]]
    jobs = [
        (
            ciphers[keyids[i]],
            data[starts[i] + 1 : starts[i] + HEADER_BYTES],
            data[starts[i] + HEADER_BYTES : starts[i] + OVERHEAD + sizes[i]],
            b"%s%s/%d%s%s" % (prefix, ids[i].encode(), vers[i], suffix, keyids[i].encode()),
            plain[outputs[i] : outputs[i] + sizes[i]],
        )
        for i in span
    ]
    try:
        [
            cipher.decrypt_into(nonce, body, associated, target)
            for cipher, nonce, body, associated, target in jobs
        ]
    except InvalidTag:
        for i, (cipher, nonce, body, associated, target) in zip(span, jobs, strict=True):
            try:
                cipher.decrypt_into(nonce, body, associated, target)
            except InvalidTag:
                ok[i] = False
                _note_damage(out, ids[i], vers[i], keyids[i], "ciphertext fails authentication")
    return ok


def _note_damage(out: Loaded, memory_id: str, version: int, key_id: str, reason: str) -> None:
    out.damage.append(_damaged(memory_id, version, reason))
    out.newest_damaged.append((memory_id, version, key_id, reason))


def _damaged(memory_id: str, version: int, reason: str) -> Damage:
    return Damage(TABLE, f"row {row_id(memory_id, version)}", reason, MemoryId(memory_id))
