"""Backups: one passphrase-encrypted file; import skips and reports duplicates."""

from __future__ import annotations

from pathlib import Path

import pytest

from desktop_agent.errors import InputError
from desktop_agent.memory import Vault
from desktop_agent.secrets import KeyringKeySource, PassphraseKeySource
from tests.memory.conftest import FAST_ARGON2, unit


def test_export_then_import_into_a_new_data_dir(
    vault_dir: Path, key_source: KeyringKeySource, tmp_path: Path, embed
) -> None:
    backup = tmp_path / "memories.backup"
    with Vault.open(vault_dir, key_source) as vault:
        fact = vault.add(
            "semantic", "BACKUP-CANARY likes tea", vector=embed("tea"), meta={"salience": 0.4}
        )
        vault.update(fact.id, text="BACKUP-CANARY likes coffee")
        chat = vault.add("episodic", "said hello", vector=embed("hello"), conversation_id="c9")
        summary = vault.export_backup(backup, "backup passphrase", FAST_ARGON2)
    assert (summary.memories, summary.versions) == (2, 3)
    assert b"BACKUP-CANARY" not in backup.read_bytes()
    other = tmp_path / "other-vault"
    with Vault.open(other, PassphraseKeySource("other vault pass", FAST_ARGON2)) as restored:
        result = restored.import_backup(backup, "backup passphrase")
        assert sorted(result.imported) == sorted([fact.id, chat.id]) and result.skipped == ()
        assert restored.get(fact.id).text == "BACKUP-CANARY likes coffee"
        assert [v.text for v in restored.history(fact.id)] == [
            "BACKUP-CANARY likes tea",
            "BACKUP-CANARY likes coffee",
        ]
        assert restored.get(chat.id).conversation_id == "c9"
        assert restored.search(embed("coffee"), "coffee", k=1)[0].id == fact.id
        again = restored.import_backup(backup, "backup passphrase")
        assert again.imported == () and sorted(again.skipped) == sorted([fact.id, chat.id])
        assert [e.action for e in restored.audit_entries()][-2:] == ["import", "import"]


def test_same_text_under_another_id_is_a_duplicate(
    vault_dir: Path, key_source: KeyringKeySource, tmp_path: Path
) -> None:
    backup = tmp_path / "b.backup"
    with Vault.open(vault_dir, key_source) as vault:
        vault.add("semantic", "same words", vector=unit(1))
        vault.export_backup(backup, "pw pw pw pw", FAST_ARGON2)
    with Vault.open(tmp_path / "v2", PassphraseKeySource("vault two pw", FAST_ARGON2)) as other:
        mine = other.add("semantic", "same words", vector=unit(1))
        result = other.import_backup(backup, "pw pw pw pw")
        assert result.imported == () and len(result.skipped) == 1
        assert [r.id for r in other.list()] == [mine.id]


def test_wrong_passphrase_and_damaged_file(
    vault_dir: Path, key_source: KeyringKeySource, tmp_path: Path
) -> None:
    backup = tmp_path / "b.backup"
    with Vault.open(vault_dir, key_source) as vault:
        vault.add("semantic", "x", vector=unit(1))
        vault.export_backup(backup, "right passphrase", FAST_ARGON2)
        with pytest.raises(InputError, match="wrong passphrase"):
            vault.import_backup(backup, "wrong passphrase")
        backup.write_bytes(backup.read_bytes()[:-10])
        with pytest.raises(
            InputError, match="wrong passphrase for this backup, or the file is damaged"
        ):
            vault.import_backup(backup, "right passphrase")
        (tmp_path / "junk").write_bytes(b"not a backup")
        with pytest.raises(InputError, match="not a desktop-agent memory backup"):
            vault.import_backup(tmp_path / "junk", "right passphrase")
        assert len(vault) == 1
