"""Passphrase mode with a secret outside the data folder (issue 13, item 5): forgetting then
reaches copies of the folder made before it, which plain passphrase mode cannot promise."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from desktop_agent.errors import InputError, VaultLockedError
from desktop_agent.memory import Vault
from desktop_agent.secrets import PassphraseKeySource
from desktop_agent.secrets.outside_secret import FileSecret, KeyringSecret, outside_secret
from tests.memory.conftest import FAST_ARGON2, unit

CANARY = "outside-secret-canary-7731"
PASSPHRASE = "the same passphrase"


def source(outside: object) -> PassphraseKeySource:
    return PassphraseKeySource(PASSPHRASE, FAST_ARGON2, outside=outside)  # type: ignore[arg-type]


def _forget_then_open_the_copy(vault_dir: Path, copy: Path, outside: object) -> None:
    with Vault.open(vault_dir, source(outside)) as vault:
        doomed = vault.add("semantic", f"passphrase {CANARY}", vector=unit(1))
        kept = vault.add("semantic", "User lives in Oslo", vector=unit(2))
        assert vault.status().extra["forget_reaches_copies"] is True
    shutil.copytree(vault_dir, copy)
    with Vault.open(vault_dir, source(outside)) as vault:
        vault.forget([doomed.id])

    # The copy made before the forget needs the old epoch's secret, which is gone.
    with pytest.raises(VaultLockedError, match="outside secret .* is missing"):
        Vault.open(copy, source(outside))
    # The folder itself opens with the passphrase and the current secret.
    with Vault.open(vault_dir, source(outside)) as vault:
        assert vault.get(kept.id).text == "User lives in Oslo"
        assert doomed.id not in vault


def test_a_key_file_outside_the_folder_makes_forgetting_reach_copies(tmp_path: Path) -> None:
    key_file = tmp_path / "usb-stick" / "desktop-agent.key"
    _forget_then_open_the_copy(tmp_path / "vault", tmp_path / "copy", FileSecret(key_file))
    assert key_file.stat().st_mode & 0o777 == 0o600
    assert len(json.loads(key_file.read_text())) == 1  # only the current epoch's secret


@pytest.mark.keyring
def test_a_keyring_secret_makes_forgetting_reach_copies(
    tmp_path: Path,
    secret_service: object,  # the real gnome-keyring (tests/secrets/conftest.py)
) -> None:
    _forget_then_open_the_copy(tmp_path / "vault", tmp_path / "copy", KeyringSecret())


def test_without_the_key_file_the_vault_says_where_the_secret_is_kept(tmp_path: Path) -> None:
    key_file = tmp_path / "stick" / "agent.key"
    with Vault.open(tmp_path / "vault", source(FileSecret(key_file))) as vault:
        vault.add("semantic", "User lives in Oslo", vector=unit(2))
    key_file.rename(tmp_path / "elsewhere.key")
    with pytest.raises(VaultLockedError, match="key file .* is not there"):
        Vault.open(tmp_path / "vault", PassphraseKeySource(PASSPHRASE, FAST_ARGON2))
    moved = FileSecret(tmp_path / "elsewhere.key")  # the setting says where it is now
    with Vault.open(tmp_path / "vault", source(moved)) as vault:
        assert len(vault) == 1


def test_the_setting_is_checked() -> None:
    assert outside_secret("") is None
    assert isinstance(outside_secret("keyring"), KeyringSecret)
    with pytest.raises(InputError, match="passphrase_secret_file"):
        outside_secret("file")
    with pytest.raises(InputError, match="must be"):
        outside_secret("usb")
