"""An encrypted unlock snapshot: the whole in-RAM state in one AES-GCM blob.

Decrypting 100k rows one by one needs 100k AES-GCM calls and, with one data key per semantic
memory, tens of thousands of key schedules; that alone is over a second on 2 cores. So on
close, a vault that changed writes ``snapshot.bin``: ids, versions, key ids, records and the
vector matrix, sealed under its own data key (scope ``snapshot``) and bound to the Lance table
version it mirrors. Unlock uses it only if that version is still the table's newest; any other
case (a write since, a crash, damage) takes the row-by-row path.

Forget destroys the snapshot key in the same ratchet as the forgotten keys and deletes the
file, so a snapshot that still holds a forgotten memory cannot be opened by any key that
exists. The next close writes a fresh one under a fresh key.
"""

from __future__ import annotations

import json
import logging
import mmap
import struct
from pathlib import Path
from typing import Final

import numpy as np

from desktop_agent.memory.crypto import BLOB_VERSION, HEADER_BYTES, OVERHEAD, InvalidTag, aad, seal
from desktop_agent.memory.files import write_atomic
from desktop_agent.memory.keystore import KeyStore
from desktop_agent.memory.model import MemoryId
from desktop_agent.memory.rows import Loaded

logger = logging.getLogger(__name__)
SNAPSHOT_FILE: Final = "snapshot.bin"
SNAPSHOT_SCOPE: Final = "snapshot"
MIN_ROWS: Final = 2000  # below this the row-by-row unlock is already fast
_LENGTH: Final = struct.Struct("<Q")


def path_of(directory: Path) -> Path:
    return directory / SNAPSHOT_FILE


def discard(directory: Path) -> None:
    """Delete the snapshot file. Best effort: on a read-only disk a stale one stays, unused
    (it is bound to a table version, and a forget destroys its key)."""
    try:
        path_of(directory).unlink(missing_ok=True)
    except OSError as exc:
        logger.warning("cannot delete the unlock snapshot: %s", exc.__class__.__name__)


def write(
    directory: Path, keys: KeyStore, table_version: int, loaded: Loaded, vectors: np.ndarray
) -> None:
    """Seal the current state (``loaded`` fields, ``vectors`` row-aligned with ``loaded.ids``)."""
    key_id = keys.scope_key(SNAPSHOT_SCOPE) or keys.new_keys([SNAPSHOT_SCOPE])[0]
    n = len(loaded.ids)
    older = [(m, v, k) for m, rows in loaded.older.items() for v, k in rows]
    offsets = np.zeros(n + 1, dtype="<i8")
    np.cumsum([len(r) for r in loaded.records], out=offsets[1:])
    meta = json.dumps(
        {
            "table_version": table_version,
            "count": n,
            "older": len(older),
            "dim": vectors.shape[1] if n else 0,
            "rows": loaded.rows_digest,
        }
    ).encode()
    parts = [
        _LENGTH.pack(len(meta)),
        meta,
        b"".join(bytes.fromhex(i) for i in loaded.ids),
        np.asarray(loaded.versions, dtype="<i4").tobytes(),
        b"".join(bytes.fromhex(k) for k in loaded.key_ids),
        offsets.tobytes(),
        b"".join(bytes.fromhex(m) + struct.pack("<i", v) + bytes.fromhex(k) for m, v, k in older),
        b"".join(loaded.records),
    ]
    head = b"".join(parts)
    pad = (-len(head)) % 64  # the matrix starts 64-byte aligned within the plaintext
    plaintext = head + b"\x00" * pad + np.ascontiguousarray(vectors, dtype="<f4").tobytes()
    write_atomic(
        path_of(directory), seal(keys.cipher(key_id), plaintext, _aad(keys, key_id, table_version))
    )


def load(directory: Path, keys: KeyStore, table_version: int, dim: int) -> Loaded | None:
    """The snapshot's state if it mirrors ``table_version`` and opens; else None."""
    key_id = keys.scope_key(SNAPSHOT_SCOPE)
    if key_id is None:
        return None
    try:
        # Mapped, not read: one less 100+ MB copy through fresh memory.
        with (
            open(path_of(directory), "rb") as handle,
            mmap.mmap(handle.fileno(), 0, access=mmap.ACCESS_READ) as mapped,
        ):
            opened = _open(keys, key_id, table_version, memoryview(mapped))
    except (FileNotFoundError, ValueError, OSError):
        return None
    return None if opened is None else _parse(*opened, dim)


def _open(
    keys: KeyStore, key_id: str, table_version: int, blob: memoryview
) -> tuple[bytearray, int] | None:
    if len(blob) < OVERHEAD or blob[0] != BLOB_VERSION:
        return None
    size = len(blob) - OVERHEAD
    headroom = max(1024, size // 8)  # the matrix can grow in place after unlock
    arena = bytearray(size + headroom)
    try:
        keys.cipher(key_id).decrypt_into(
            blob[1:HEADER_BYTES],
            blob[HEADER_BYTES:],
            _aad(keys, key_id, table_version),
            memoryview(arena)[:size],
        )
    except InvalidTag:
        return None  # stale (another table version), or from before a forget: not usable
    finally:
        blob.release()
    return arena, size


def _parse(arena: bytearray, size: int, dim: int) -> Loaded | None:
    view = memoryview(arena)
    (length,) = _LENGTH.unpack_from(view)
    at = _LENGTH.size
    meta = json.loads(bytes(view[at : at + length]))
    at += length
    n, n_older = int(meta["count"]), int(meta["older"])
    if n and int(meta["dim"]) != dim:
        return None
    raw_ids = bytes(view[at : at + 16 * n])
    at += 16 * n
    versions = np.frombuffer(arena, dtype="<i4", count=n, offset=at).tolist()
    at += 4 * n
    raw_keys = bytes(view[at : at + 16 * n])
    at += 16 * n
    offsets = np.frombuffer(arena, dtype="<i8", count=n + 1, offset=at).tolist()
    at += 8 * (n + 1)
    out = Loaded()
    for start in range(at, at + 36 * n_older, 36):
        memory_id = MemoryId(bytes(view[start : start + 16]).hex())
        version = struct.unpack_from("<i", view, start + 16)[0]
        out.older.setdefault(memory_id, []).append(
            (version, bytes(view[start + 20 : start + 36]).hex())
        )
    at += 36 * n_older
    records = bytes(view[at : at + offsets[-1]])
    at += offsets[-1]
    at += (-at) % 64
    out.ids = [MemoryId(raw_ids[i : i + 16].hex()) for i in range(0, 16 * n, 16)]
    out.key_ids = [raw_keys[i : i + 16].hex() for i in range(0, 16 * n, 16)]
    out.versions = versions
    out.records = [records[offsets[i] : offsets[i + 1]] for i in range(n)]
    capacity = (len(arena) - at) // (dim * 4)
    out.vectors = np.frombuffer(arena, dtype=np.float32, count=capacity * dim, offset=at).reshape(
        capacity, dim
    )
    out.count = n
    out.rows_digest = str(meta.get("rows", ""))
    out.used_keys = set(out.key_ids) | {k for rows in out.older.values() for _v, k in rows}
    for history in out.older.values():
        history.sort()
    if at + n * dim * 4 != size:
        return None
    return out


def _aad(keys: KeyStore, key_id: str, table_version: int) -> bytes:
    return aad("snapshot", f"{keys.header.vault_id}/{table_version}", "state", key_id)
