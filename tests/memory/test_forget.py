"""Forget really forgets: no file, no Lance version and no old copy opens with today's keys."""

from __future__ import annotations

import shutil
from pathlib import Path

import lance
import pytest

from desktop_agent.memory import MemoryNotFound, Vault
from desktop_agent.memory.header import read_header
from desktop_agent.memory.keystore import KeyStore
from desktop_agent.memory.rows import open_row
from desktop_agent.memory.store import Store
from desktop_agent.secrets import KeyringKeySource
from desktop_agent.secrets.memory_backend import InMemoryKeyring
from tests.memory.conftest import all_bytes, unit

CANARY = "CANARY-forget-91c2"


def decryptable_texts(directory: Path, source: KeyringKeySource) -> list[bytes]:
    """Every payload that today's keys open, in every version of the Lance table."""
    keys = KeyStore.unlock(directory, read_header(directory), source)
    uri = Store(directory).uri
    found = []
    for entry in lance.dataset(uri).versions():
        for row in lance.dataset(uri, version=entry["version"]).to_table().to_pylist():
            plain = open_row(keys, row["memory_id"], row["version"], row["key_id"], row["blob"])
            if plain is not None:
                found.append(plain)
    return found


def test_forget_leaves_no_trace_in_files_versions_or_old_copies(
    vault_dir: Path, key_source: KeyringKeySource, memory_keyring: InMemoryKeyring, tmp_path: Path
) -> None:
    with Vault.open(vault_dir, key_source) as vault:
        sibling = vault.add(
            "episodic", "a sibling in the same chat", vector=unit(1), conversation_id="c1"
        )
        doomed = vault.add("episodic", f"first {CANARY}", vector=unit(2), conversation_id="c1")
        vault.update(doomed.id, text=f"edited {CANARY}")
        keeper = vault.add("semantic", "unrelated fact", vector=unit(3))
        old_epoch = vault.epoch
        assert any(CANARY.encode() in p for p in decryptable_texts(vault_dir, key_source))
        assert CANARY.encode() not in all_bytes(vault_dir)  # never in plaintext, even before
        before = tmp_path / "copy-before-forget"
        shutil.copytree(vault_dir, before, ignore=shutil.ignore_patterns("LOCK"))

        receipt = vault.forget([doomed.id])

        assert receipt.ids == (doomed.id,) and receipt.kinds == ("episodic",)
        assert receipt.epoch == old_epoch + 1 and receipt.rekeyed == 1
        assert CANARY not in repr(receipt)
        assert vault.get(sibling.id).text == "a sibling in the same chat"
        with pytest.raises(MemoryNotFound):
            vault.get(doomed.id)
        assert len(vault._state.store.versions()) == 1  # every old version cleaned up
    assert CANARY.encode() not in all_bytes(vault_dir)
    assert not any(CANARY.encode() in p for p in decryptable_texts(vault_dir, key_source))
    # The old KEK is gone from the keyring...
    assert not any(f"kek-{old_epoch}" in account for _service, account in memory_keyring.entries)
    # ...so a copy taken before the forget (a backup, a synced folder) opens with nothing we hold.
    keys = KeyStore.unlock(vault_dir, read_header(vault_dir), key_source)
    for row in lance.dataset(Store(before).uri).to_table().to_pylist():
        plain = open_row(keys, row["memory_id"], row["version"], row["key_id"], row["blob"])
        assert plain is None or CANARY.encode() not in plain
    with Vault.open(vault_dir, key_source) as vault:
        assert {r.id for r in vault.list()} == {sibling.id, keeper.id}
        assert vault.verify_audit().ok
        assert [e.action for e in vault.audit_entries()][-2] == "forget"


def test_forget_unknown_id_changes_nothing(vault: Vault) -> None:
    record = vault.add("semantic", "keep me", vector=unit(1))
    epoch = vault.epoch
    with pytest.raises(MemoryNotFound):
        vault.forget([record.id, "f" * 32])
    assert vault.get(record.id).text == "keep me" and vault.epoch == epoch


def test_forget_all_destroys_every_key_and_row(
    vault_dir: Path, key_source: KeyringKeySource
) -> None:
    with Vault.open(vault_dir, key_source) as vault:
        ids = [vault.add("semantic", f"{CANARY} {i}", vector=unit(i)).id for i in range(3)]
        vault.add("episodic", f"{CANARY} chat", vector=unit(9), conversation_id="c")
        receipt = vault.forget_all()
        assert set(ids) <= set(receipt.ids) and len(receipt.ids) == 4
        # Only the audit key and the row log's key (it seals ids, never words) are left.
        assert len(vault) == 0
        assert {vault._state.keys.scope_of(k) for k in vault._state.keys.ids()} == {"audit", "rows"}
        again = vault.add("semantic", "life goes on", vector=unit(5))
    assert not any(CANARY.encode() in p for p in decryptable_texts(vault_dir, key_source))
    with Vault.open(vault_dir, key_source) as vault:
        assert [r.id for r in vault.list()] == [again.id]


def test_a_crash_mid_forget_is_finished_on_the_next_unlock(
    vault_dir: Path, key_source: KeyringKeySource
) -> None:
    with Vault.open(vault_dir, key_source) as vault:
        doomed = vault.add("semantic", CANARY, vector=unit(1))
        keeper = vault.add("semantic", "stays", vector=unit(2))
        vault._state.store.delete(
            [doomed.id]
        )  # the crash: rows gone, key and old versions still there
        epoch = vault.epoch
    with Vault.open(vault_dir, key_source) as vault:
        assert vault.epoch == epoch + 1  # the orphaned key was destroyed by a ratchet
        assert [r.id for r in vault.list()] == [keeper.id]
        assert vault.audit_entries()[-2].action == "recover"
        assert len(vault._state.store.versions()) == 1
    assert not any(CANARY.encode() in p for p in decryptable_texts(vault_dir, key_source))


def test_a_rewrite_erases_every_old_version_of_the_memory_it_keeps(
    vault_dir: Path, key_source: KeyringKeySource, tmp_path: Path
) -> None:
    from desktop_agent.memory.model import Rewrite

    with Vault.open(vault_dir, key_source) as vault:
        sibling = vault.add(
            "episodic", "another turn of the chat", vector=unit(1), conversation_id="c1"
        )
        kept = vault.add("episodic", f"I said {CANARY} here", vector=unit(2), conversation_id="c1")
        vault.update(kept.id, meta={"note": "a second version, same words"})
        fact = vault.add("semantic", f"User said {CANARY}", vector=unit(3))
        before = tmp_path / "copy-before-forget"
        shutil.copytree(vault_dir, before, ignore=shutil.ignore_patterns("LOCK"))

        receipt = vault.forget(
            [fact.id],
            rewrite={kept.id: Rewrite("I said [forgotten] here", {"redacted": 1}, unit(2))},
        )

        assert receipt.ids == (fact.id,) and receipt.redacted == (kept.id,)
        assert vault.get(kept.id).text == "I said [forgotten] here"
        assert [v.text for v in vault.history(kept.id)] == ["I said [forgotten] here"]
        assert vault.get(sibling.id).text == "another turn of the chat"
        assert len(vault._state.store.versions()) == 1
    assert CANARY.encode() not in all_bytes(vault_dir)
    assert all(CANARY.encode() not in p for p in decryptable_texts(vault_dir, key_source))
    # a copy taken before the forget opens with nothing we hold
    keys = KeyStore.unlock(vault_dir, read_header(vault_dir), key_source)
    for row in lance.dataset(Store(before).uri).to_table().to_pylist():
        plain = open_row(keys, row["memory_id"], row["version"], row["key_id"], row["blob"])
        assert plain is None or CANARY.encode() not in plain
    with Vault.open(vault_dir, key_source) as reopened:
        assert reopened.get(kept.id).text == "I said [forgotten] here"
        assert reopened.get(sibling.id).text == "another turn of the chat"
        assert reopened.verify_audit().ok


def test_in_passphrase_mode_a_copy_made_before_a_forget_still_opens(
    vault_dir: Path, tmp_path: Path
) -> None:
    """The limit SECURITY.md, `keys status` and the settings state (issue 13, item 5): the copy
    carries its own vault.json, whose wrapped KEK the same passphrase opens."""
    from desktop_agent.secrets import PassphraseKeySource
    from tests.memory.conftest import FAST_ARGON2

    source = PassphraseKeySource("the same passphrase", FAST_ARGON2)
    with Vault.open(vault_dir, source) as vault:
        doomed = vault.add("semantic", f"passphrase {CANARY}", vector=unit(1))
        assert vault.status().extra["forget_reaches_copies"] is False
    copy = tmp_path / "copy-before-the-forget"
    shutil.copytree(vault_dir, copy)
    with Vault.open(vault_dir, PassphraseKeySource("the same passphrase", FAST_ARGON2)) as vault:
        vault.forget([doomed.id])
    with Vault.open(copy, PassphraseKeySource("the same passphrase", FAST_ARGON2)) as old:
        assert CANARY in old.get(doomed.id).text  # forgetting did not reach it
