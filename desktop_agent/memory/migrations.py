"""Numbered schema migrations, run at unlock (they need the keys) and recorded in the header.

Each ``mNNN`` takes the vault from schema NNN-1 to NNN and must be safe to run again after a
crash halfway (the header's schema version moves only after the migration committed).

- 1: rows held two ciphertexts, ``vector`` and ``record`` (JSON), each with its own AAD field.
- 2: one ciphertext per row, ``payload`` = vector + compact binary record: half the AES-GCM
  calls at unlock and no JSON parsing (see rows.py).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from datetime import datetime
from pathlib import Path
from typing import Final

import numpy as np

from desktop_agent.errors import VaultError
from desktop_agent.memory import payload as codec
from desktop_agent.memory.crypto import BlobError, aad, open_blob
from desktop_agent.memory.keystore import KeyStore
from desktop_agent.memory.model import meta_to_json
from desktop_agent.memory.rows import seal_row
from desktop_agent.memory.store import TABLE, Store, arrow_rows

SCHEMA_VERSION: Final = 2


def m002_single_payload(directory: Path, keys: KeyStore, store: Store) -> None:
    table = store.table()
    if "blob" in table.schema.names:
        return  # already migrated: a crash came before the header moved on
    dim = keys.header.dim
    ids, versions, key_ids, blobs = [], [], [], []
    for row in table.to_arrow().to_pylist():
        memory_id, version, key_id = row["memory_id"], row["version"], row["key_id"]
        row_name = f"{memory_id}/{version}"
        try:
            vector = open_blob(
                keys.cipher(key_id), row["vector"], aad(TABLE, row_name, "vector", key_id)
            )
            record = json.loads(
                open_blob(
                    keys.cipher(key_id), row["record"], aad(TABLE, row_name, "record", key_id)
                )
            )
        except (BlobError, KeyError, ValueError):
            continue  # unreadable in the old format too: it cannot be carried over
        plain = codec.encode(
            np.frombuffer(vector, dtype="<f4", count=dim),
            record["kind"],
            record["text"],
            meta_to_json(record.get("meta") or {}),
            datetime.fromisoformat(record["created_at"]),
            datetime.fromisoformat(record["updated_at"]),
            record.get("conversation_id"),
            record.get("source_id"),
        )
        ids.append(memory_id)
        versions.append(version)
        key_ids.append(key_id)
        blobs.append(seal_row(keys, memory_id, version, key_id, plain))
    rows = arrow_rows(ids, versions, key_ids, blobs)
    store.replace_all(rows)  # one commit, then the schema-1 versions are removed


MIGRATIONS: Final[dict[int, Callable[[Path, KeyStore, Store], None]]] = {2: m002_single_payload}


def upgrade(directory: Path, keys: KeyStore, store: Store) -> list[int]:
    """Run every migration above the vault's schema version, in order; returns those run."""
    ran = []
    for number in range(keys.header.schema_version + 1, SCHEMA_VERSION + 1):
        try:
            MIGRATIONS[number](directory, keys, store)
        except VaultError:
            raise
        except Exception as exc:
            raise VaultError(
                f"upgrading the memory vault to schema {number} failed: {exc}"
            ) from None
        keys.set_schema_version(number)
        ran.append(number)
    return ran
