"""Keys: a missing, locked, wrong or insecure keyring never changes the data dir."""

from __future__ import annotations

from pathlib import Path

import keyring
import pytest
from keyring.backends import fail

from desktop_agent.errors import VaultLockedError
from desktop_agent.memory import Vault
from desktop_agent.secrets import KeyringKeySource, PassphraseKeySource
from desktop_agent.secrets.memory_backend import InMemoryKeyring
from tests.memory.conftest import FAST_ARGON2, snapshot, unit


def make_vault(vault_dir: Path, source: object) -> str:
    with Vault.open(vault_dir, source) as vault:  # type: ignore[arg-type]
        return vault.add("semantic", "remember me", vector=unit(1)).id


def test_missing_kek_leaves_the_data_dir_untouched(
    vault_dir: Path, key_source: KeyringKeySource, memory_keyring: InMemoryKeyring
) -> None:
    make_vault(vault_dir, key_source)
    before = snapshot(vault_dir)
    memory_keyring.entries.clear()
    with pytest.raises(VaultLockedError, match="missing from the OS keyring; nothing was changed"):
        Vault.open(vault_dir, key_source)
    assert snapshot(vault_dir) == before


def test_wrong_kek_leaves_the_data_dir_untouched(
    vault_dir: Path, key_source: KeyringKeySource, memory_keyring: InMemoryKeyring
) -> None:
    make_vault(vault_dir, key_source)
    before = snapshot(vault_dir)
    (entry,) = memory_keyring.entries
    memory_keyring.entries[entry] = "A" * 43 + "="  # 32 bytes, not the vault's key
    with pytest.raises(VaultLockedError, match="does not open this memory vault"):
        Vault.open(vault_dir, key_source)
    assert snapshot(vault_dir) == before


def test_locked_keyring_says_what_to_do(
    vault_dir: Path, key_source: KeyringKeySource, memory_keyring: InMemoryKeyring
) -> None:
    make_vault(vault_dir, key_source)
    before = snapshot(vault_dir)
    memory_keyring.locked = True
    with pytest.raises(VaultLockedError, match="locked: unlock it"):
        Vault.open(vault_dir, key_source)
    assert snapshot(vault_dir) == before


def test_no_keyring_at_all_points_to_passphrase_mode(vault_dir: Path) -> None:
    previous = keyring.get_keyring()
    keyring.set_keyring(fail.Keyring())
    try:
        with pytest.raises(VaultLockedError, match='key_mode = "passphrase"'):
            Vault.open(vault_dir, KeyringKeySource())
    finally:
        keyring.set_keyring(previous)
    assert not (vault_dir / "vault.json").exists()


def test_plaintext_keyring_backend_is_refused(vault_dir: Path) -> None:
    class PlaintextKeyring(InMemoryKeyring):
        pass

    PlaintextKeyring.__module__ = "keyrings.alt.file"  # what keyring falls back to silently
    with pytest.raises(VaultLockedError, match="no secure OS keyring"):
        Vault.open(vault_dir, KeyringKeySource(PlaintextKeyring()))


def test_rotate_ratchets_the_epoch_and_deletes_the_old_kek(
    vault_dir: Path, key_source: KeyringKeySource, memory_keyring: InMemoryKeyring
) -> None:
    memory_id = make_vault(vault_dir, key_source)
    with Vault.open(vault_dir, key_source) as vault:
        assert vault.rotate_keys() == 2
    assert [account for _s, account in memory_keyring.entries] == [
        f"vault-{vault._state.keys.header.vault_id}-kek-2"
    ]
    assert sorted(p.name for p in (vault_dir / "keys").iterdir()) == [
        "keystore-2.bin",
        "keystore-2.bin.copy",
    ]
    with Vault.open(vault_dir, key_source) as vault:
        assert vault.get(memory_id).text == "remember me"
        assert vault.status().epoch == 2


def test_passphrase_mode_round_trip_and_wrong_passphrase(vault_dir: Path) -> None:
    memory_id = make_vault(vault_dir, PassphraseKeySource("correct horse battery", FAST_ARGON2))
    before = snapshot(vault_dir)
    with pytest.raises(VaultLockedError, match="wrong passphrase"):
        Vault.open(vault_dir, PassphraseKeySource("wrong passphrase!", FAST_ARGON2))
    assert snapshot(vault_dir) == before
    assert b"correct horse" not in b"".join(before.values())
    with Vault.open(vault_dir, PassphraseKeySource("correct horse battery")) as vault:
        assert vault.get(memory_id).text == "remember me"
        vault.rotate_keys()
    with Vault.open(vault_dir, PassphraseKeySource("correct horse battery")) as vault:
        assert vault.epoch == 2 and len(vault) == 1


def test_mode_mismatch_is_explained(vault_dir: Path, key_source: KeyringKeySource) -> None:
    make_vault(vault_dir, key_source)
    with pytest.raises(VaultLockedError, match='key_mode = "keyring"'):
        Vault.open(vault_dir, PassphraseKeySource("whatever1", FAST_ARGON2))


def test_passphrase_comes_from_the_environment(
    vault_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("DESKTOP_AGENT_PASSPHRASE", "from the environment")
    memory_id = make_vault(vault_dir, PassphraseKeySource(params=FAST_ARGON2))
    with Vault.open(vault_dir, PassphraseKeySource()) as vault:
        assert vault.get(memory_id).text == "remember me"


def test_an_old_kek_left_by_a_crash_is_deleted_at_unlock(
    vault_dir: Path, key_source: KeyringKeySource, memory_keyring: InMemoryKeyring
) -> None:
    make_vault(vault_dir, key_source)
    with Vault.open(vault_dir, key_source) as vault:
        vault_id = vault.status().vault_id
        old_entry = dict(memory_keyring.entries)
        vault.rotate_keys()
    memory_keyring.entries.update(old_entry)  # as if the process died before deleting it
    assert len(memory_keyring.entries) == 2
    with Vault.open(vault_dir, key_source):
        pass
    assert [account for _s, account in memory_keyring.entries] == [f"vault-{vault_id}-kek-2"]
