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
