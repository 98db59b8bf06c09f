"""Backups (a part of ``Vault``): one passphrase-encrypted file, Argon2id + AES-256-GCM.

File: ``DAVBAK1\\n``, a JSON header line (salt, Argon2id cost, vector size), then sealed chunks
``u32 length | blob``. Each chunk's associated data holds the SHA-256 of the header line, its
index and whether it is the last, so a swapped, reordered or cut-off chunk fails to open. The
plaintext is a run of ``u32 length | memory id (32 hex) | version u32 | payload`` entries: every
version of every memory, with its vector, exactly as the vault stores it.
"""

from __future__ import annotations

import base64
import hashlib
import json
import logging
import os
import struct
from collections import defaultdict
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any, Final

from cryptography.exceptions import InvalidTag
from cryptography.hazmat.primitives.ciphers.aead import AESGCM

from desktop_agent.errors import InputError, VaultError
from desktop_agent.memory import payload as codec
from desktop_agent.memory.files import disk_error, write_blocked
from desktop_agent.memory.model import MemoryId
from desktop_agent.memory.rows import open_row, seal_row
from desktop_agent.memory.store import arrow_rows, valid_id
from desktop_agent.secrets.passphrase import Argon2Params, derive_key

logger = logging.getLogger(__name__)

if TYPE_CHECKING:
    from desktop_agent.memory.read_only import ReadOnlyGuard
    from desktop_agent.memory.state import VaultState
    from desktop_agent.memory.writing import Writer

MAGIC: Final = b"DAVBAK1\n"
CHUNK: Final = 4 * 1024 * 1024
_U32: Final = struct.Struct("<I")
_ENTRY: Final = struct.Struct("<32sI")


@dataclass(frozen=True, slots=True)
class ExportSummary:
    file: str
    memories: int
    versions: int

    def to_json(self) -> dict[str, Any]:
        return {"file": self.file, "memories": self.memories, "versions": self.versions}


@dataclass(frozen=True, slots=True)
class ImportSummary:
    file: str
    imported: tuple[str, ...]
    skipped: tuple[str, ...]

    def to_json(self) -> dict[str, Any]:
        return {"file": self.file, "imported": list(self.imported), "skipped": list(self.skipped)}


class Backups:
    """export_backup and import_backup: a part of Vault."""

    def __init__(self, state: VaultState, guard: ReadOnlyGuard, writer: Writer) -> None:
        self._state = state
        self._guard = guard
        self._writer = writer

    def export_backup(
        self, path: Path | str, passphrase: str, params: Argon2Params | None = None
    ) -> ExportSummary:
        """Write every version of every memory to one encrypted file (atomically)."""
        state = self._state
        with state.mutex:
            self._guard.check_open()
            path = Path(path)
            params = params or Argon2Params()
            salt = os.urandom(16)
            header = (
                json.dumps(
                    {
                        "format": "desktop-agent-backup",
                        "version": 1,
                        "dim": state.dim,
                        "salt": base64.b64encode(salt).decode(),
                        "argon2": params.to_json(),
                        "created_at": datetime.now(UTC).isoformat(),
                    }
                ).encode()
                + b"\n"
            )
            cipher = AESGCM(derive_key(passphrase, salt, params))
            memories: set[str] = set()
            versions = 0
            tmp = path.with_name(f".{path.name}.tmp")
            try:
                with open(tmp, "wb") as out:
                    out.write(MAGIC + header)
                    chunk = bytearray()
                    index = 0
                    for row in state.store.read().to_pylist():
                        plain = open_row(
                            state.keys, row["memory_id"], row["version"], row["key_id"], row["blob"]
                        )
                        if plain is None:
                            continue  # damaged rows are reported by the vault, not exported
                        entry = _ENTRY.pack(row["memory_id"].encode(), row["version"]) + plain
                        chunk += _U32.pack(len(entry)) + entry
                        memories.add(row["memory_id"])
                        versions += 1
                        if len(chunk) >= CHUNK:
                            _write_chunk(out, cipher, header, index, bytes(chunk), last=False)
                            chunk.clear()
                            index += 1
                    _write_chunk(out, cipher, header, index, bytes(chunk), last=True)
                    out.flush()
                    os.fsync(out.fileno())
                os.replace(tmp, path)
            except OSError as exc:
                tmp.unlink(missing_ok=True)
                raise disk_error(exc, f"cannot write the backup {path}") from None
            try:
                state.audit.append(
                    "export", count=len(memories), epoch=state.keys.epoch, versions=versions
                )
            except VaultError as error:
                # A read-only vault (full disk) can still be rescued to another disk; the log
                # entry is what cannot be written.
                if write_blocked(error) is None:
                    raise
                logger.warning("export not logged: %s", write_blocked(error))
            return ExportSummary(str(path), len(memories), versions)

    def import_backup(self, path: Path | str, passphrase: str) -> ImportSummary:
        """Add the memories of a backup; ones already here (same id, or same kind and text) are skipped."""
        state = self._state
        with state.mutex:
            self._guard.check_writing()
            path = Path(path)
            grouped: dict[str, list[tuple[int, bytes]]] = defaultdict(list)
            for memory_id, version, plain in read_backup(path, passphrase, state.dim):
                grouped[memory_id].append((version, plain))
            present = {
                (record[0], codec.conversation_of(record), codec.text_of(record))
                for _v, _k, record in state.current.values()
            }
            imported, skipped = [], []
            rows: list[tuple[str, int, bytes]] = []
            for memory_id, versions in grouped.items():
                versions.sort()
                record = codec.record_part(versions[-1][1], state.dim)
                content = (record[0], codec.conversation_of(record), codec.text_of(record))
                if state.known(memory_id) or content in present:
                    skipped.append(memory_id)
                    continue
                present.add(content)
                imported.append(memory_id)
                rows.extend((memory_id, version, plain) for version, plain in versions)
            self._write_imported(imported, grouped, rows)
            state.audit.append("import", ids=imported, epoch=state.keys.epoch, skipped=len(skipped))
            return ImportSummary(str(path), tuple(imported), tuple(skipped))

    def _write_imported(
        self,
        imported: list[str],
        grouped: dict[str, list[tuple[int, bytes]]],
        rows: list[tuple[str, int, bytes]],
    ) -> None:
        state = self._state
        if not imported:
            return
        wants = []
        for memory_id in imported:
            record = codec.record_part(grouped[memory_id][-1][1], state.dim)
            wants.append((codec.KINDS_BY_CODE[record[0]], codec.conversation_of(record)))
        key_of = dict(zip(imported, self._writer.keys_for(wants), strict=True))
        blobs = [seal_row(state.keys, m, v, key_of[m], p) for m, v, p in rows]
        state.store.append(
            arrow_rows(
                [m for m, _v, _p in rows],
                [v for _m, v, _p in rows],
                [key_of[m] for m, _v, _p in rows],
                blobs,
            )
        )
        for memory_id, version, plain in rows:
            state.remember(
                MemoryId(memory_id), version, key_of[memory_id], codec.record_part(plain, state.dim)
            )
        currents = [grouped[m][-1] for m in imported]
        records = [codec.record_part(p, state.dim) for _v, p in currents]
        vectors = codec.vectors_of([p for _v, p in currents], state.dim)
        state.index.put(
            [MemoryId(m) for m in imported],
            [codec.text_of(r) for r in records],
            vectors,
            [r[0] for r in records],
        )
        state.store.maintain()


def read_backup(path: Path, passphrase: str, dim: int) -> Iterator[tuple[str, int, bytes]]:
    """Every (memory id, version, payload) in a backup file; a wrong passphrase is an InputError."""
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise InputError(f"cannot read the backup {path}: {exc.strerror}") from None
    if not data.startswith(MAGIC) or b"\n" not in data[len(MAGIC) :]:
        raise InputError(f"{path} is not a desktop-agent memory backup")
    end = data.index(b"\n", len(MAGIC)) + 1
    header_line = data[len(MAGIC) : end]
    try:
        header = json.loads(header_line)
        salt = base64.b64decode(header["salt"])
        params = Argon2Params.from_json(header["argon2"])
    except (ValueError, KeyError, TypeError):
        raise InputError(f"{path} has a damaged backup header") from None
    if int(header.get("dim", dim)) != dim:
        raise InputError(f"the backup holds {header.get('dim')}-d vectors, this vault {dim}-d")
    cipher = AESGCM(derive_key(passphrase, salt, params))
    at, index, last = end, 0, False
    while not last:
        if at + _U32.size > len(data):
            raise InputError(f"the backup {path} is cut short; nothing was imported")
        (length,) = _U32.unpack_from(data, at)
        blob = data[at + _U32.size : at + _U32.size + length]
        at += _U32.size + length
        last = at >= len(data)
        try:
            plain = cipher.decrypt(blob[:12], blob[12:], _chunk_aad(header_line, index, last))
        except InvalidTag:
            if index == 0:
                raise InputError(
                    "wrong passphrase for this backup, or the file is damaged; nothing was imported"
                ) from None
            raise InputError(
                f"the backup {path} is damaged (chunk {index}); nothing was imported"
            ) from None
        yield from _entries(plain, path)
        index += 1


def _entries(plain: bytes, path: Path) -> Iterator[tuple[str, int, bytes]]:
    at = 0
    while at < len(plain):
        (length,) = _U32.unpack_from(plain, at)
        raw_id, version = _ENTRY.unpack_from(plain, at + _U32.size)
        memory_id = raw_id.decode("ascii", "replace")
        if not valid_id(memory_id):
            raise VaultError(f"the backup {path} holds a malformed memory id")
        yield memory_id, version, plain[at + _U32.size + _ENTRY.size : at + _U32.size + length]
        at += _U32.size + length


def _write_chunk(
    out: Any, cipher: AESGCM, header: bytes, index: int, plain: bytes, *, last: bool
) -> None:
    nonce = os.urandom(12)
    blob = nonce + cipher.encrypt(nonce, plain, _chunk_aad(header, index, last))
    out.write(_U32.pack(len(blob)) + blob)


def _chunk_aad(header: bytes, index: int, last: bool) -> bytes:
    return hashlib.sha256(header).digest() + struct.pack("<I?", index, last)
