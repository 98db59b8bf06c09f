"""The encrypted unlock snapshot: used when current, ignored when stale, destroyed by forget."""

from __future__ import annotations

import shutil
from pathlib import Path

import numpy as np
import pytest

from desktop_agent.memory import NewMemory, Vault
from desktop_agent.memory import snapshot as snapshot_module
from desktop_agent.memory.header import read_header
from desktop_agent.memory.keystore import KeyStore
from desktop_agent.secrets import KeyringKeySource
from tests.memory.conftest import all_bytes, unit

CANARY = "CANARY-snapshot-5d1e"


@pytest.fixture(autouse=True)
def small_snapshots(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(snapshot_module, "MIN_ROWS", 1)


def fill(vault: Vault, n: int = 20) -> list[str]:
    items = [
        NewMemory(
            "semantic" if i % 2 else "episodic",
            f"memory {i}",
            unit(i),
            conversation_id=f"c{i // 5}",
        )
        for i in range(n)
    ]
    return [r.id for r in vault.add_many(items)]


def state(vault: Vault) -> tuple[object, ...]:
    hits = [(h.id, round(h.vector_score, 5)) for h in vault.search(unit(3), "memory", k=5)]
    return [(r.id, r.kind, r.text, r.version) for r in vault.list()], hits, dict(vault._state.older)


def test_reopen_from_the_snapshot_gives_the_same_vault(
    vault_dir: Path, key_source: KeyringKeySource
) -> None:
    with Vault.open(vault_dir, key_source) as vault:
        ids = fill(vault)
        vault.update(ids[0], text="memory 0, edited")
        before = state(vault)
    assert (vault_dir / "snapshot.bin").exists()
    assert b"memory 0, edited" not in all_bytes(vault_dir)
    with Vault.open(vault_dir, key_source) as vault:
        assert vault._state.snapshot_version is not None  # it was used
        assert state(vault) == before
        assert [v.text for v in vault.history(ids[0])] == ["memory 0", "memory 0, edited"]
        vault.add("semantic", "after the snapshot", vector=unit(99))  # grows the matrix in place
        assert vault.search(unit(99), None, k=1)[0].memory.text == "after the snapshot"


def test_a_stale_snapshot_is_ignored(
    vault_dir: Path, key_source: KeyringKeySource, tmp_path: Path
) -> None:
    with Vault.open(vault_dir, key_source) as vault:
        fill(vault)
    old = tmp_path / "old-snapshot.bin"
    shutil.copy(vault_dir / "snapshot.bin", old)
    with Vault.open(vault_dir, key_source) as vault:
        late = vault.add("semantic", "written after the snapshot", vector=unit(50))
    shutil.copy(old, vault_dir / "snapshot.bin")  # as if the process died before closing
    with Vault.open(vault_dir, key_source) as vault:
        assert vault._state.snapshot_version is None
        assert vault.get(late.id).text == "written after the snapshot" and len(vault) == 21


def test_forget_destroys_the_snapshot_key(
    vault_dir: Path, key_source: KeyringKeySource, tmp_path: Path
) -> None:
    with Vault.open(vault_dir, key_source) as vault:
        fill(vault)
        doomed = vault.add("semantic", CANARY, vector=unit(7)).id
    copy = tmp_path / "copy"
    shutil.copytree(vault_dir, copy, ignore=shutil.ignore_patterns("LOCK"))
    with Vault.open(vault_dir, key_source) as vault:
        assert vault._state.snapshot_version is not None
        vault.forget([doomed])
        assert not (vault_dir / "snapshot.bin").exists()
    keys = KeyStore.unlock(vault_dir, read_header(vault_dir), key_source)
    version = int(np.iinfo(np.int32).max)
    for candidate in range(0, 200):  # any table version: the old snapshot must not open at all
        assert snapshot_module.load(copy, keys, candidate, 384) is None
    assert snapshot_module.load(vault_dir, keys, version, 384) is None
    loaded = snapshot_module.load(vault_dir, keys, read_version(vault_dir), 384)
    assert loaded is not None and not any(CANARY.encode() in r for r in loaded.records)


def read_version(vault_dir: Path) -> int:
    import lance

    return lance.dataset(vault_dir / "db" / "memories.lance").version
