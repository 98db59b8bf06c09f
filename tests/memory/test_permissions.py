"""The vault's files are the user's alone (issue 11): created 0600 / 0700, and a wider mode
found at open is narrowed and noted in the audit log."""

from __future__ import annotations

import os
import stat
from pathlib import Path

from desktop_agent.memory import Vault


def modes(root: Path) -> dict[str, int]:
    return {
        str(p.relative_to(root)): stat.S_IMODE(p.stat().st_mode)
        for p in [root, *root.rglob("*")]
        if not p.is_symlink()
    }


def test_every_vault_file_is_private(tmp_path: Path, key_source) -> None:  # noqa: ANN001
    root = tmp_path / "vault"
    with Vault.open(root, key_source) as vault:
        vault.add("semantic", "User lives in Porto", vector=[0.1] * 384)
    found = modes(root)
    assert any(name.startswith("keys") for name in found)
    assert all(mode & 0o077 == 0 for mode in found.values()), found


def test_a_wider_mode_is_narrowed_at_open_and_noted(tmp_path: Path, key_source) -> None:  # noqa: ANN001
    root = tmp_path / "vault"
    with Vault.open(root, key_source) as vault:
        vault.add("semantic", "User lives in Porto", vector=[0.1] * 384)
    keys = next(root.rglob("keystore-*"))
    os.chmod(keys, 0o644)
    os.chmod(root, 0o755)
    with Vault.open(root, key_source) as vault:
        actions = [entry.action for entry in vault.audit_entries()]
    assert stat.S_IMODE(keys.stat().st_mode) == 0o600
    assert stat.S_IMODE(root.stat().st_mode) == 0o700
    assert "permissions narrowed" in actions


def test_lock_leaves_no_vault_or_key_reachable(memory_keyring) -> None:  # noqa: ANN001
    import gc
    import weakref

    from desktop_agent.app import App
    from desktop_agent.memory.keystore import KeyStore

    app = App()
    vault = app.vault()  # opened with the test's in-memory keyring, kept by the app
    vault.add("semantic", "User's PIN is 4921", vector=[0.1] * 384)
    ours = vault.directory
    keys = vault._state.keys
    gone_vault, gone_keys = weakref.ref(vault), weakref.ref(keys)
    del vault
    gc.freeze()  # as the window does after an unlock: frozen objects are never collected
    try:
        app.lock_memory()
        assert len(keys) == 0  # wiped at close, whoever still holds the object
        del keys
        assert gone_vault() is None and gone_keys() is None
        # Nothing of this vault anywhere (other tests' vaults may live on in this process);
        # type(), not isinstance(): some library objects warn when their __class__ is read.
        assert not [
            o for o in gc.get_objects() if type(o) in (Vault, KeyStore) and o.directory == ours
        ]
    finally:
        gc.unfreeze()
