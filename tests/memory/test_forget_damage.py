"""One damaged data file no longer blocks every forget (issue 13, item 9).

A truncated Lance data file used to make every forget fail with a raw LanceError after its
journal was written, so every later open failed too. Now a forget leaves damaged files alone,
forgets what it can when that is safe (no key another row may still need is destroyed), says
what was left, and a forget that is not safe is refused before anything changes.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from desktop_agent.errors import VaultError
from desktop_agent.memory import MemoryNotFound, NewMemory, Vault, forget_journal
from desktop_agent.memory import snapshot as snapshot_module
from desktop_agent.secrets import KeyringKeySource
from tests.memory.conftest import all_bytes, snapshot, unit
from tests.memory.test_faults import data_files
from tests.memory.test_forget_crashes import _crash, after


def _damage_oldest_file(vault_dir: Path) -> None:
    oldest = sorted(data_files(vault_dir), key=lambda p: p.stat().st_mtime_ns)[0]
    with open(oldest, "r+b") as handle:
        handle.truncate(oldest.stat().st_size // 2)


def _readable_texts(directory: Path, source: KeyringKeySource) -> list[bytes]:
    """Every payload today's keys open in every version of the table, file by file (the
    damaged file cannot be read by anyone)."""
    import lance

    from desktop_agent.memory.header import read_header
    from desktop_agent.memory.keystore import KeyStore
    from desktop_agent.memory.rows import open_row
    from desktop_agent.memory.store import Store

    keys = KeyStore.unlock(directory, read_header(directory), source)  # type: ignore[arg-type]
    uri, found = Store(directory).uri, []
    for entry in lance.dataset(uri).versions():
        for fragment in lance.dataset(uri, version=entry["version"]).get_fragments():
            try:
                rows = fragment.to_table().to_pylist()
            except Exception:  # the damaged file: Lance raises OSError or ArrowInvalid
                continue
            for row in rows:
                plain = open_row(keys, row["memory_id"], row["version"], row["key_id"], row["blob"])
                found += [plain] if plain is not None else []
    return found


def _blobs(vault: Vault, memory_id: str) -> list[bytes]:
    return [bytes(r["blob"]) for r in vault._state.store.read(ids=[memory_id]).to_pylist()]


def test_a_forget_goes_on_past_a_damaged_file_and_says_what_it_left(
    vault_dir: Path, key_source: KeyringKeySource
) -> None:
    with Vault.open(vault_dir, key_source) as vault:
        vault.add("semantic", "in the file that breaks", vector=unit(1))
        doomed = vault.add("semantic", "FORGET-ME-7c1 in a healthy file", vector=unit(2))
        keeper = vault.add("semantic", "kept in a healthy file", vector=unit(3))
        blobs = _blobs(vault, doomed.id)
    _damage_oldest_file(vault_dir)
    with Vault.open(vault_dir, key_source) as vault:
        assert vault._state.store.damaged_fragments() == [0]
        receipt = vault.forget([doomed.id])
        assert receipt.ids == (doomed.id,)
        assert len(receipt.damaged) == 1 and "fragment 0" in receipt.damaged[0]
        assert ".lance" in receipt.damaged[0]  # names the file
        assert receipt.to_json()["damaged"] == list(receipt.damaged)
    assert not forget_journal.journal_path(vault_dir).exists()
    with Vault.open(vault_dir, key_source) as vault:  # and the vault still opens
        with pytest.raises(MemoryNotFound):
            vault.get(doomed.id)
        assert vault.get(keeper.id).text == "kept in a healthy file"
        assert "forget" in [e.action for e in vault.audit_entries()]
        assert len(vault._state.store.versions()) == 1
    on_disk = all_bytes(vault_dir)
    assert not any(blob[20:60] in on_disk for blob in blobs)
    assert not any(b"FORGET-ME-7c1" in t for t in _readable_texts(vault_dir, key_source))


def test_a_forget_that_would_destroy_a_shared_key_is_refused_and_changes_nothing(
    vault_dir: Path, key_source: KeyringKeySource
) -> None:
    with Vault.open(vault_dir, key_source) as vault:
        vault.add("episodic", "earlier in the chat", vector=unit(1), conversation_id="c1")
        later = vault.add("episodic", "later in the chat", vector=unit(2), conversation_id="c1")
    _damage_oldest_file(vault_dir)
    with Vault.open(vault_dir, key_source) as vault:
        before = snapshot(vault_dir)
        # The conversation's key is shared with the row in the damaged file: destroying it
        # would lose that row for good, even if the file were restored.
        with pytest.raises(
            VaultError, match=r"fragment 0 .*damaged.*nothing was forgotten"
        ) as error:
            vault.forget([later.id])
        assert "\n" not in str(error.value)
        assert vault.get(later.id).text == "later in the chat"
        assert snapshot(vault_dir) == before
        assert not forget_journal.journal_path(vault_dir).exists()


def test_damage_found_only_by_the_forget_itself(
    vault_dir: Path, key_source: KeyringKeySource
) -> None:
    # With an unlock snapshot the data files are not read at unlock: the damage shows first
    # when the forget touches the file. The memory whose row sits in it can still be forgotten
    # (its key is its own), and the rest of the vault is untouched.
    with Vault.open(vault_dir, key_source) as vault:
        records = vault.add_many(
            [NewMemory("semantic", f"bulk {i}", unit(i)) for i in range(snapshot_module.MIN_ROWS)]
        )
        vault.add("semantic", "in a second file", vector=unit(9999))
    assert snapshot_module.path_of(vault_dir).exists()
    _damage_oldest_file(vault_dir)
    victim = records[5]
    with Vault.open(vault_dir, key_source) as vault:
        assert vault._state.snapshot_version is not None and vault.damaged == ()
        receipt = vault.forget([victim.id])
        assert receipt.damaged and "fragment 0" in receipt.damaged[0]
    with Vault.open(vault_dir, key_source) as vault:
        assert victim.id not in vault
        assert vault.damaged  # the file is still reported, never silently dropped


def test_a_crashed_forget_is_finished_past_a_damaged_file(
    vault_dir: Path, key_source: KeyringKeySource
) -> None:
    from desktop_agent.memory.store import Store

    with Vault.open(vault_dir, key_source) as vault:
        vault.add("semantic", "in the file that breaks", vector=unit(1))
        doomed = vault.add("semantic", "doomed", vector=unit(2))
    _damage_oldest_file(vault_dir)
    _crash(
        vault_dir,
        key_source,
        lambda patch, _s: patch.setattr(Store, "delete", after(Store, "delete")),
        lambda vault: vault.forget([doomed.id]),
    )
    with Vault.open(vault_dir, key_source) as vault:
        assert doomed.id not in vault
        assert "forget" in [e.action for e in vault.audit_entries()]
    assert not forget_journal.journal_path(vault_dir).exists()
