"""Build ``v1_store/``: a tiny vault in schema 1 (two ciphertexts per row), made by our own code.

Run once from the repo root: ``.venv/bin/python tests/memory/data/make_v1_store.py``. The store
is committed so the migration test always runs against the same old bytes. It holds made-up
memories only; its passphrase is below (passphrase mode, so no keyring is involved).
"""

from __future__ import annotations

import json
import shutil
from datetime import UTC, datetime
from pathlib import Path

import lance
import numpy as np
import pyarrow as pa

from desktop_agent.memory.crypto import aad, seal
from desktop_agent.memory.header import Header
from desktop_agent.memory.keystore import KeyStore
from desktop_agent.secrets import Argon2Params, PassphraseKeySource

HERE = Path(__file__).parent
STORE = HERE / "v1_store"
PASSPHRASE = "fixture passphrase"
PARAMS = Argon2Params(time_cost=1, memory_kib=1024, parallelism=1)
V1_SCHEMA = pa.schema(
    [
        ("memory_id", pa.string()),
        ("version", pa.int32()),
        ("key_id", pa.string()),
        ("vector", pa.binary()),
        ("record", pa.binary()),
    ]
)
MEMORIES = [
    # id, version, kind, text, meta, conversation
    ("a" * 32, 1, "semantic", "The user likes green tea", {"type": "preference"}, None),
    (
        "a" * 32,
        2,
        "semantic",
        "The user likes black coffee",
        {"type": "preference", "supersedes": "tea"},
        None,
    ),
    ("b" * 32, 1, "episodic", "We planned a trip to Lisbon ✈️", {}, "conv-1"),
    (
        "c" * 32,
        1,
        "procedural",
        "Answer briefly in the morning",
        {"successes": 3, "total": 4},
        None,
    ),
]


def main() -> None:
    shutil.rmtree(STORE, ignore_errors=True)
    STORE.mkdir()
    (STORE / "LOCK").touch()
    when = datetime(2025, 1, 2, 3, 4, 5, tzinfo=UTC).isoformat()
    header = Header("f1" * 16, 1, 1, dim=384, created_at=when, rotated_at=when)
    keys = KeyStore.create(STORE, header, PassphraseKeySource(PASSPHRASE, PARAMS))
    own_a, conv, own_c = keys.new_keys(["", "conv:conv-1", ""])
    key_of = {"a" * 32: own_a, "b" * 32: conv, "c" * 32: own_c}
    rows: dict[str, list] = {name: [] for name in V1_SCHEMA.names}
    for number, (memory_id, version, kind, text, meta, conversation) in enumerate(MEMORIES):
        key_id = key_of[memory_id]
        vector = np.random.default_rng(number).standard_normal(384).astype("<f4")
        vector /= np.linalg.norm(vector)
        record = {
            "kind": kind,
            "text": text,
            "meta": meta,
            "created_at": when,
            "updated_at": when,
            "conversation_id": conversation,
            "source_id": None,
        }
        name = f"{memory_id}/{version}"
        rows["memory_id"].append(memory_id)
        rows["version"].append(version)
        rows["key_id"].append(key_id)
        rows["vector"].append(
            seal(keys.cipher(key_id), vector.tobytes(), aad("memories", name, "vector", key_id))
        )
        rows["record"].append(
            seal(
                keys.cipher(key_id),
                json.dumps(record).encode(),
                aad("memories", name, "record", key_id),
            )
        )
    lance.write_dataset(
        pa.table(rows, schema=V1_SCHEMA), STORE / "db" / "memories.lance", mode="create"
    )
    print(f"wrote {STORE}")


if __name__ == "__main__":
    main()
