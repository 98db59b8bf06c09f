"""Passphrase mode with a secret outside the data folder, so that forgetting reaches copies.

In plain passphrase mode the KEK is wrapped inside ``vault.json``: a copy of the folder made
before a forget carries its own wrapped KEK, and the passphrase opens it. With an outside
secret the wrapping key is HKDF-SHA256(Argon2id(passphrase) || the epoch's secret), and each
epoch's 32-byte secret lives outside the folder: in the OS keyring when there is one
(``keyring``), else in a key file the user keeps elsewhere, on a USB stick say (``file``). Every
forget ratchets the KEK to a new epoch, which makes a new secret and then deletes the old one,
so a copy made before the forget needs a secret that no longer exists anywhere.

The key file holds one secret per (vault, epoch) as JSON, written atomically and private to
the user; the new epoch's secret is added before the header that needs it is committed, and
the old one removed only after, so a crash between leaves a folder that still opens.
"""

from __future__ import annotations

import base64
import binascii
import json
import os
import secrets
from collections.abc import Mapping
from pathlib import Path
from typing import Any, Final, Protocol

import keyring
import keyring.errors
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.kdf.hkdf import HKDF

from desktop_agent.errors import InputError, VaultError, VaultLockedError
from desktop_agent.secrets.keyring_source import SERVICE, is_secure

KINDS: Final = ("keyring", "file")


class OutsideSecret(Protocol):
    @property
    def kind(self) -> str: ...

    def params(self) -> dict[str, Any]: ...

    def create(self, vault_id: str, epoch: int) -> bytes: ...

    def load(self, vault_id: str, epoch: int) -> bytes: ...

    def discard(self, vault_id: str, epoch: int) -> None: ...


def combined(passphrase_key: bytes, secret: bytes, vault_id: str, epoch: int) -> bytes:
    """The key that wraps the KEK: both halves are needed, neither alone says anything."""
    info = f"desktop-agent outside secret\x00{vault_id}\x00{epoch}".encode()
    hkdf = HKDF(algorithm=hashes.SHA256(), length=32, salt=None, info=info)
    return hkdf.derive(passphrase_key + secret)


def outside_secret(kind: str, file: str = "") -> OutsideSecret | None:
    """The secret store a setting (or a vault's header) names; None for none."""
    if not kind:
        return None
    if kind == "keyring":
        return KeyringSecret()
    if kind == "file":
        if not file:
            raise InputError(
                'security.passphrase_secret = "file" needs passphrase_secret_file: the path of '
                "a key file kept outside the data folder"
            )
        return FileSecret(Path(file).expanduser())
    raise InputError(f'security.passphrase_secret must be "", "keyring" or "file", not {kind!r}')


class KeyringSecret:
    kind: Final = "keyring"

    def params(self) -> dict[str, Any]:
        return {"outside": self.kind}

    def _backend(self) -> Any:
        backend = keyring.get_keyring()
        if not is_secure(backend):
            raise VaultLockedError(
                "this memory keeps part of its key in the OS keyring, and no secure keyring is "
                "available: start the keyring (or log in to the desktop) and try again"
            )
        return backend

    def create(self, vault_id: str, epoch: int) -> bytes:
        secret = secrets.token_bytes(32)
        try:
            self._backend().set_password(SERVICE, _entry(vault_id, epoch), _b64(secret))
        except VaultError:
            raise
        except Exception as exc:  # keyring's errors, and D-Bus errors some backends let through
            raise VaultLockedError(
                f"cannot store the outside secret in the keyring ({exc})"
            ) from None
        return secret

    def load(self, vault_id: str, epoch: int) -> bytes:
        try:
            value = self._backend().get_password(SERVICE, _entry(vault_id, epoch))
        except VaultError:
            raise
        except Exception as exc:
            raise VaultLockedError(f"the OS keyring cannot be read ({exc})") from None
        if value is None:
            raise VaultLockedError(_MISSING.format(where="the OS keyring"))
        return _secret_of(value)

    def discard(self, vault_id: str, epoch: int) -> None:
        try:
            self._backend().delete_password(SERVICE, _entry(vault_id, epoch))
        except keyring.errors.PasswordDeleteError:
            pass  # already gone: what we wanted
        except VaultError:
            raise
        except Exception as exc:
            raise VaultError(
                f"cannot delete an old outside secret from the keyring: {exc}"
            ) from None


class FileSecret:
    kind: Final = "file"

    def __init__(self, path: Path) -> None:
        self.path = path

    def params(self) -> dict[str, Any]:
        return {"outside": self.kind, "outside_file": str(self.path)}

    def create(self, vault_id: str, epoch: int) -> bytes:
        secret = secrets.token_bytes(32)
        entries = self._read(missing_ok=True)
        entries[_entry(vault_id, epoch)] = _b64(secret)
        self._write(entries)
        return secret

    def load(self, vault_id: str, epoch: int) -> bytes:
        value = self._read(missing_ok=False).get(_entry(vault_id, epoch))
        if value is None:
            raise VaultLockedError(_MISSING.format(where=f"the key file {self.path}"))
        return _secret_of(str(value))

    def discard(self, vault_id: str, epoch: int) -> None:
        entries = self._read(missing_ok=True)
        if entries.pop(_entry(vault_id, epoch), None) is not None:
            self._write(entries)

    def _read(self, *, missing_ok: bool) -> dict[str, str]:
        try:
            raw = json.loads(self.path.read_text(encoding="utf-8"))
        except FileNotFoundError:
            if missing_ok:
                return {}
            raise VaultLockedError(
                f"the key file {self.path} that holds part of this memory's key is not there: "
                "plug in or mount where you keep it, or set security.passphrase_secret_file"
            ) from None
        except (OSError, ValueError) as error:
            raise VaultLockedError(f"the key file {self.path} cannot be read: {error}") from None
        if not isinstance(raw, dict):
            raise VaultLockedError(f"{self.path} is not a desktop-agent key file")
        return {str(k): str(v) for k, v in raw.items()}

    def _write(self, entries: Mapping[str, str]) -> None:
        self.path.parent.mkdir(parents=True, exist_ok=True)
        temporary = self.path.with_name(self.path.name + ".tmp")
        descriptor = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with os.fdopen(descriptor, "w", encoding="utf-8") as handle:
            json.dump(dict(entries), handle)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(temporary, self.path)


_MISSING: Final = (
    "the outside secret of this memory's current key is missing from {where}: the folder may "
    "be a copy made before a forget (which it cannot open, by design), or the secret was "
    "deleted; nothing was changed"
)


def _entry(vault_id: str, epoch: int) -> str:
    return f"vault-{vault_id}-secret-{epoch}"


def _b64(secret: bytes) -> str:
    return base64.b64encode(secret).decode()


def _secret_of(value: str) -> bytes:
    try:
        secret = base64.b64decode(value, validate=True)
    except (binascii.Error, ValueError):
        secret = b""
    if len(secret) != 32:
        raise VaultLockedError("the outside secret is damaged; nothing was changed")
    return secret
