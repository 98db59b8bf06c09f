"""Integration: the vault's KEK in a real Secret Service (gnome-keyring under dbus)."""

from __future__ import annotations

import contextlib
from pathlib import Path

import numpy as np
import pytest
from keyring.backend import KeyringBackend

from desktop_agent.app import App
from desktop_agent.memory import Vault
from desktop_agent.secrets import KeyringKeySource
from desktop_agent.secrets.keyring_source import SERVICE, account

pytestmark = pytest.mark.keyring


def vector(seed: int) -> np.ndarray:
    v = np.random.default_rng(seed).standard_normal(384).astype(np.float32)
    return v / np.linalg.norm(v)


def test_kek_lives_in_the_secret_service_and_ratchets(
    secret_service: KeyringBackend, tmp_path: Path
) -> None:
    source = KeyringKeySource()
    assert "SecretService" in source.describe()
    with Vault.open(tmp_path / "vault", source) as vault:
        vault_id = vault.status().vault_id
        kept = vault.add("semantic", "kept", vector=vector(1))
        doomed = vault.add("semantic", "doomed", vector=vector(2))
        assert secret_service.get_password(SERVICE, account(vault_id, 1)) is not None
        receipt = vault.forget([doomed.id])
    try:
        assert receipt.epoch == 2
        assert secret_service.get_password(SERVICE, account(vault_id, 1)) is None  # old KEK deleted
        assert secret_service.get_password(SERVICE, account(vault_id, 2)) is not None
        with Vault.open(tmp_path / "vault", KeyringKeySource()) as vault:
            assert [r.id for r in vault.list()] == [kept.id]
            vault.forget_all()
    finally:
        for epoch in (1, 2, 3):
            with contextlib.suppress(Exception):  # only cleanup: some epochs are gone already
                secret_service.delete_password(SERVICE, account(vault_id, epoch))


def test_the_app_opens_its_vault_with_the_default_keyring(secret_service: KeyringBackend) -> None:
    app = App()
    try:
        vault = app.vault()
        assert app.key_source().mode == "keyring"
        record = vault.add("episodic", "hello from the app", vector=vector(3), conversation_id="c")
        assert app.vault() is vault
        vault_id = vault.status().vault_id
        epoch = vault.status().epoch
    finally:
        app.close()
    app = App()
    try:
        assert app.vault().get(record.id).text == "hello from the app"
    finally:
        app.close()
        secret_service.delete_password(SERVICE, account(vault_id, epoch))
