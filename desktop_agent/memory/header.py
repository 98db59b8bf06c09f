"""``vault.json``: the one small plaintext file, holding nothing about any memory.

It names the vault (a random id), the KEK epoch, how the KEK is kept (keyring entry name, or
the passphrase-wrapped KEK with its Argon2id salt) and the schema version. Replacing it is the
commit point of a key ratchet.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, Final

from desktop_agent.errors import VaultError
from desktop_agent.memory.files import write_atomic

FORMAT: Final = "desktop-agent-vault"
HEADER_FILE: Final = "vault.json"


@dataclass(frozen=True, slots=True)
class Header:
    vault_id: str
    epoch: int
    schema_version: int
    key: dict[str, Any] = field(default_factory=dict)
    dim: int = 384
    created_at: str = ""
    rotated_at: str = ""

    @property
    def mode(self) -> str:
        return str(self.key.get("mode", "keyring"))

    def evolve(self, **changes: Any) -> Header:
        return replace(self, **changes)


def header_path(directory: Path) -> Path:
    return directory / HEADER_FILE


def read_header(directory: Path) -> Header | None:
    """The header, or None when ``directory`` holds no vault yet."""
    path = header_path(directory)
    try:
        raw = json.loads(path.read_bytes())
    except FileNotFoundError:
        return None
    except (OSError, ValueError) as exc:
        raise VaultError(f"cannot read the vault header {path}: {exc}") from None
    if not isinstance(raw, dict) or raw.get("format") != FORMAT:
        raise VaultError(f"{path} is not a desktop-agent vault header")
    try:
        return Header(
            vault_id=str(raw["vault_id"]),
            epoch=int(raw["epoch"]),
            schema_version=int(raw["schema_version"]),
            key=dict(raw["key"]),
            dim=int(raw.get("dim", 384)),
            created_at=str(raw.get("created_at", "")),
            rotated_at=str(raw.get("rotated_at", "")),
        )
    except (KeyError, TypeError, ValueError) as exc:
        raise VaultError(f"the vault header {path} is damaged (missing {exc})") from None


def write_header(directory: Path, header: Header) -> None:
    body = {
        "format": FORMAT,
        "vault_id": header.vault_id,
        "epoch": header.epoch,
        "schema_version": header.schema_version,
        "key": header.key,
        "dim": header.dim,
        "created_at": header.created_at,
        "rotated_at": header.rotated_at,
    }
    write_atomic(header_path(directory), json.dumps(body, indent=2).encode() + b"\n")


def vault_key_mode(directory: Path) -> str | None:
    """How an existing vault keeps its KEK ("keyring" or "passphrase"), None if no vault yet."""
    header = read_header(directory)
    return None if header is None else header.mode
