"""The KEK in the OS keyring, one entry per epoch; only a recommended backend is accepted.

keyring silently falls back to keyrings.alt's plaintext file (or to a backend that fails every
call) when no real keyring runs; a key stored there would sit next to the data it protects.
So the backend is checked before anything is stored, and the user is told to start a Secret
Service or to choose passphrase mode instead.
"""

from __future__ import annotations

import base64
import binascii
from collections.abc import Mapping
from typing import Any, Final

import keyring
import keyring.errors
from keyring.backend import KeyringBackend
from keyring.backends.chainer import ChainerBackend

from desktop_agent.errors import VaultError, VaultLockedError

SERVICE: Final = "desktop-agent"
_HOW_TO_FIX: Final = (
    "start your desktop's keyring (for example gnome-keyring or KWallet) and log in again, "
    'or switch to passphrase mode: set key_mode = "passphrase" under [security] in settings.toml'
)


class InsecureKeyringError(VaultLockedError):
    """Only an insecure or failing keyring backend is available."""


def account(vault_id: str, epoch: int) -> str:
    return f"vault-{vault_id}-kek-{epoch}"


def backend_name(backend: KeyringBackend) -> str:
    return f"{type(backend).__module__}.{type(backend).__qualname__}"


def is_secure(backend: KeyringBackend) -> bool:
    """True for a backend keyring recommends that keeps secrets off disk in plaintext."""
    module = type(backend).__module__
    if module.startswith("keyrings.alt") or module in {
        "keyring.backends.fail",
        "keyring.backends.null",
    }:
        return False
    if isinstance(backend, ChainerBackend):
        # The chainer writes to its highest-priority child: every child must be acceptable.
        children = list(backend.backends)
        return bool(children) and all(is_secure(child) for child in children)
    try:
        return float(backend.priority) >= 1
    except Exception:  # priority raises when the backend cannot run here
        return False


class KeyringKeySource:
    """Keeps each epoch's KEK in the OS keyring (Secret Service, KWallet, macOS, Windows)."""

    mode: Final = "keyring"

    def __init__(self, backend: KeyringBackend | None = None) -> None:
        self._backend = backend

    @property
    def backend(self) -> KeyringBackend:
        backend = self._backend or keyring.get_keyring()
        if not is_secure(backend):
            raise InsecureKeyringError(
                f"no secure OS keyring is available (found {backend_name(backend)}): {_HOW_TO_FIX}"
            )
        return backend

    def describe(self) -> str:
        try:
            return backend_name(self.backend)
        except VaultLockedError:
            return f"insecure: {backend_name(self._backend or keyring.get_keyring())}"

    def create_kek(self, vault_id: str, epoch: int, kek: bytes) -> dict[str, Any]:
        name = account(vault_id, epoch)
        try:
            self.backend.set_password(SERVICE, name, base64.b64encode(kek).decode())
        except VaultError:
            raise
        except Exception as exc:  # keyring's errors, and D-Bus errors some backends let through
            raise VaultLockedError(
                f"cannot store the vault key in the OS keyring ({exc}): {_HOW_TO_FIX}"
            ) from None
        return {"mode": self.mode, "service": SERVICE, "account": name}

    def load_kek(self, vault_id: str, epoch: int, params: Mapping[str, Any]) -> bytes:
        service = str(params.get("service", SERVICE))
        name = str(params.get("account", account(vault_id, epoch)))
        try:
            value = self.backend.get_password(service, name)
        except keyring.errors.KeyringLocked:
            raise VaultLockedError(
                f"the OS keyring is locked: unlock it and try again, or {_HOW_TO_FIX}"
            ) from None
        except VaultError:
            raise
        except Exception as exc:  # keyring's errors, and D-Bus errors some backends let through
            raise VaultLockedError(
                f"the OS keyring cannot be read ({exc}): {_HOW_TO_FIX}"
            ) from None
        if value is None:
            raise VaultLockedError(
                f"the key for this memory vault (keyring entry {service}/{name}) is missing from the "
                "OS keyring; nothing was changed. Restore the keyring from a backup, or start over "
                "from an exported backup with `desktop-agent memory import FILE` into a new data dir"
            )
        try:
            kek = base64.b64decode(value, validate=True)
        except (binascii.Error, ValueError):
            kek = b""
        if len(kek) != 32:
            raise VaultLockedError(
                f"the keyring entry {service}/{name} is not a vault key; nothing was changed"
            )
        return kek

    def discard_kek(self, vault_id: str, epoch: int, params: Mapping[str, Any]) -> None:
        service = str(params.get("service", SERVICE))
        name = str(params.get("account", account(vault_id, epoch)))
        try:
            self.backend.delete_password(service, name)
        except keyring.errors.PasswordDeleteError:
            pass  # already gone: what we wanted
        except VaultError:
            raise
        except Exception as exc:  # keyring's errors, and D-Bus errors some backends let through
            raise VaultError(f"cannot delete an old vault key from the OS keyring: {exc}") from None
