"""A crash at any step of `keys rotate` is cleaned up at the next open (issue 13, item 9).

Each case injects a crash (an exception nothing catches, then the writer lock dropped as a dead
process drops it) at one step of a rotation. After the next open the keyring holds exactly the
KEK of the epoch vault.json names (no orphan of the epoch the crash never committed, no old
one), the keys folder holds only that epoch's files, no temporary file is left anywhere, the
memories read as before, and the next rotation works.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from desktop_agent.memory import Vault
from desktop_agent.memory import files as files_module
from desktop_agent.memory import keystore as keystore_module
from desktop_agent.memory.audit import AuditLog
from desktop_agent.memory.header import read_header
from desktop_agent.memory.keystore import KeyStore
from desktop_agent.secrets import KeyringKeySource, PassphraseKeySource
from desktop_agent.secrets.keyring_source import account
from desktop_agent.secrets.memory_backend import InMemoryKeyring
from tests.memory.conftest import FAST_ARGON2, unit
from tests.memory.test_forget_crashes import Crash, after, before


def _mid_header_write(patch: pytest.MonkeyPatch, _source: Any) -> None:
    """vault.json's temporary copy is written and fsynced; the process dies before the rename."""
    real = os.replace

    def crashing(src: Any, dst: Any) -> None:
        if Path(dst).name == "vault.json":
            raise Crash("replace vault.json")
        real(src, dst)

    patch.setattr(files_module.os, "replace", crashing)


ROTATE_CRASH_POINTS: dict[str, Callable[[pytest.MonkeyPatch, Any], None]] = {
    "before the new keystore is written": lambda mp, _s: mp.setattr(
        KeyStore, "_write_snapshot", before(KeyStore, "_write_snapshot")
    ),
    "after the new keystore is written": lambda mp, _s: mp.setattr(
        KeyStore, "_write_snapshot", after(KeyStore, "_write_snapshot")
    ),
    "after the new KEK is stored, before the header": lambda mp, s: mp.setattr(
        s, "create_kek", after(s, "create_kek")
    ),
    "mid header write (temporary file left)": _mid_header_write,
    "after the header (the commit)": lambda mp, _s: mp.setattr(
        keystore_module, "write_header", after(keystore_module, "write_header")
    ),
    "after stale key files are removed": lambda mp, _s: mp.setattr(
        KeyStore, "remove_stale_files", after(KeyStore, "remove_stale_files")
    ),
    "before the old KEK is discarded": lambda mp, s: mp.setattr(
        s, "discard_kek", before(s, "discard_kek")
    ),
    "before the audit entry": lambda mp, _s: mp.setattr(
        AuditLog, "append", before(AuditLog, "append")
    ),
}


def _crash_rotate(
    vault_dir: Path, source: Any, arm: Callable[[pytest.MonkeyPatch, Any], None]
) -> None:
    vault = Vault.open(vault_dir, source)
    try:
        with pytest.MonkeyPatch.context() as patch:
            arm(patch, source)
            with pytest.raises(Crash):
                vault.rotate_keys()
    finally:
        vault._lock.release()  # the process is gone: its lock goes with it, nothing else runs


def _temporaries(vault_dir: Path) -> list[str]:
    return sorted(str(p.relative_to(vault_dir)) for p in vault_dir.rglob("*.tmp"))


def _key_files(vault_dir: Path) -> list[str]:
    """The key files, without the key journal of the current epoch (it may or may not exist)."""
    return sorted(
        p.name for p in (vault_dir / "keys").iterdir() if not p.name.startswith("journal-")
    )


def _journals(vault_dir: Path) -> list[str]:
    return sorted(p.name for p in (vault_dir / "keys").glob("journal-*"))


@pytest.mark.parametrize("point", list(ROTATE_CRASH_POINTS))
def test_a_crash_at_any_step_of_a_rotation_is_cleaned_up_at_the_next_open(
    point: str,
    vault_dir: Path,
    key_source: KeyringKeySource,
    memory_keyring: InMemoryKeyring,
) -> None:
    with Vault.open(vault_dir, key_source) as vault:
        kept = vault.add("semantic", "survives a crashed rotation", vector=unit(1))
        vault.rotate_keys()  # epoch 2: the crash hits the move to 3
        vault_id = vault.status().vault_id

    _crash_rotate(vault_dir, key_source, ROTATE_CRASH_POINTS[point])

    with Vault.open(vault_dir, key_source) as vault:
        epoch = vault.epoch
        assert epoch in (2, 3)
        assert vault.get(kept.id).text == "survives a crashed rotation"
        assert [account_name for _s, account_name in memory_keyring.entries] == [
            account(vault_id, epoch)
        ]
        assert _key_files(vault_dir) == [f"keystore-{epoch}.bin", f"keystore-{epoch}.bin.copy"]
        assert set(_journals(vault_dir)) <= {f"journal-{epoch}.bin", f"journal-{epoch}.bin.copy"}
        assert _temporaries(vault_dir) == []
        assert vault.verify_audit().ok
        assert vault.rotate_keys() == epoch + 1
    assert [account_name for _s, account_name in memory_keyring.entries] == [
        account(vault_id, epoch + 1)
    ]
    with Vault.open(vault_dir, key_source) as vault:
        assert vault.get(kept.id).text == "survives a crashed rotation"


@pytest.mark.parametrize(
    "point", ["after the new keystore is written", "mid header write (temporary file left)"]
)
def test_passphrase_mode_leaves_no_wrapped_key_behind(point: str, vault_dir: Path) -> None:
    source = PassphraseKeySource("rotate crash passphrase", FAST_ARGON2)
    with Vault.open(vault_dir, source) as vault:
        kept = vault.add("semantic", "passphrase mode", vector=unit(2))
    _crash_rotate(vault_dir, source, ROTATE_CRASH_POINTS[point])
    with Vault.open(
        vault_dir, PassphraseKeySource("rotate crash passphrase", FAST_ARGON2)
    ) as vault:
        assert vault.get(kept.id).text == "passphrase mode"
        epoch = vault.epoch
    assert _temporaries(vault_dir) == []  # .vault.json.tmp held the next epoch's wrapped KEK
    assert _key_files(vault_dir) == [f"keystore-{epoch}.bin", f"keystore-{epoch}.bin.copy"]
    assert set(_journals(vault_dir)) <= {f"journal-{epoch}.bin", f"journal-{epoch}.bin.copy"}
    header = read_header(vault_dir)
    assert header is not None and header.epoch == epoch


def test_a_failed_header_write_takes_the_new_kek_back_at_once(
    vault_dir: Path,
    key_source: KeyringKeySource,
    memory_keyring: InMemoryKeyring,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from desktop_agent.errors import VaultError

    with Vault.open(vault_dir, key_source) as vault:
        vault_id = vault.status().vault_id

        def full(_directory: Path, _header: object) -> None:
            raise VaultError("cannot write vault.json: the disk is full; nothing was saved")

        monkeypatch.setattr(keystore_module, "write_header", full)
        with pytest.raises(VaultError, match="disk is full"):
            vault.rotate_keys()
        # An error the process survives (not a crash): the new epoch is undone before it returns.
        assert [a for _s, a in memory_keyring.entries] == [account(vault_id, 1)]
        assert _key_files(vault_dir) == ["keystore-1.bin", "keystore-1.bin.copy"]
        monkeypatch.undo()
        assert vault.rotate_keys() == 2
