"""Passphrase mode: Argon2id turns the user's passphrase into a key that wraps the KEK.

Used when no secure OS keyring exists, and for backups. The wrapped KEK sits in the vault
header; the passphrase never touches disk. It comes from ``DESKTOP_AGENT_PASSPHRASE`` (for
scripts) or a terminal prompt.
"""

from __future__ import annotations

import base64
import getpass
import hmac
import os
import sys
from collections.abc import Callable, Mapping
from dataclasses import asdict, dataclass
from typing import Any, Final

from argon2.low_level import Type, hash_secret_raw
from cryptography.exceptions import InvalidTag
from cryptography.hazmat.primitives.ciphers.aead import AESGCM

from desktop_agent.errors import InputError, VaultLockedError
from desktop_agent.secrets.outside_secret import OutsideSecret, combined, outside_secret

PASSPHRASE_ENV: Final = "DESKTOP_AGENT_PASSPHRASE"
MIN_PASSPHRASE: Final = 8


@dataclass(frozen=True, slots=True)
class Argon2Params:
    """Argon2id cost; the defaults follow RFC 9106's second recommendation (64 MiB, t=3)."""

    time_cost: int = 3
    memory_kib: int = 64 * 1024
    parallelism: int = 2

    def to_json(self) -> dict[str, int]:
        return asdict(self)

    @classmethod
    def from_json(cls, raw: Mapping[str, Any]) -> Argon2Params:
        """The costs stored beside a wrapped key; out-of-range values (a damaged or forged
        vault.json or backup: time_cost 10^6 would hang for minutes, 0 crashes Argon2) are
        refused before any derivation runs."""
        try:
            params = cls(int(raw["time_cost"]), int(raw["memory_kib"]), int(raw["parallelism"]))
        except (KeyError, TypeError, ValueError):
            raise InputError(_DAMAGED) from None
        low, high = _LIMITS
        values = (params.time_cost, params.memory_kib, params.parallelism)
        in_range = all(lo <= v <= hi for v, lo, hi in zip(values, low, high, strict=True))
        if not in_range or params.memory_kib < 8 * params.parallelism:  # Argon2's own floor
            raise InputError(_DAMAGED)
        return params


# (time_cost, memory KiB, parallelism): from the cheapest Argon2id allows to well above what this
# app writes (3, 64 MiB, 2).
_LIMITS: Final = ((1, 8, 1), (10, 4 * 1024 * 1024, 16))
_DAMAGED: Final = (
    "the passphrase's key-derivation settings are missing or out of range: the file is damaged "
    "or was not written by desktop-agent"
)


def derive_key(passphrase: str, salt: bytes, params: Argon2Params) -> bytes:
    return hash_secret_raw(
        passphrase.encode("utf-8", "surrogatepass"),
        salt,
        time_cost=params.time_cost,
        memory_cost=params.memory_kib,
        parallelism=params.parallelism,
        hash_len=32,
        type=Type.ID,
    )


def passphrase_from_env_or_prompt(
    prompt: str = "Passphrase: ", *, confirm: bool = False, env: str = PASSPHRASE_ENV
) -> str:
    """The passphrase from the variable ``env``, else asked twice (when ``confirm``) on a
    terminal."""
    value = os.environ.get(env)
    if value is None:
        if not sys.stdin.isatty():
            raise InputError(f"a passphrase is needed: set {env} or run in a terminal")
        value = getpass.getpass(prompt)
        if confirm and getpass.getpass("Repeat the passphrase: ") != value:
            raise InputError("the two passphrases differ")
    if confirm and len(value) < MIN_PASSPHRASE:
        raise InputError(f"the passphrase is too short (at least {MIN_PASSPHRASE} characters)")
    if not value:
        raise InputError("the passphrase is empty")
    return value


class PassphraseKeySource:
    """Wraps each epoch's KEK with a key derived from the passphrase (Argon2id + AES-GCM)."""

    mode: Final = "passphrase"

    def __init__(
        self,
        passphrase: Callable[[bool], str] | str | None = None,
        params: Argon2Params | None = None,
        outside: OutsideSecret | None = None,
    ) -> None:
        self._passphrase = passphrase
        self.params = params or Argon2Params()
        # For a new vault: a secret outside the folder, ratcheted on every forget
        # (outside_secret.py). An existing vault says in its header whether it has one.
        self.outside = outside
        self._derived: tuple[bytes, Argon2Params, bytes] | None = None  # salt, params, key

    def describe(self) -> str:
        return "passphrase (Argon2id)"

    def _ask(self, confirm: bool) -> str:
        if isinstance(self._passphrase, str):
            return self._passphrase
        if self._passphrase is not None:
            return self._passphrase(confirm)
        return passphrase_from_env_or_prompt("Vault passphrase: ", confirm=confirm)

    def _wrapping_key(self, salt: bytes, params: Argon2Params, confirm: bool) -> bytes:
        if self._derived and self._derived[0] == salt and self._derived[1] == params:
            return self._derived[2]
        key = derive_key(self._ask(confirm), salt, params)
        self._derived = (salt, params, key)
        return key

    def create_kek(self, vault_id: str, epoch: int, kek: bytes) -> dict[str, Any]:
        if self._derived is None:  # a new vault: a fresh salt, and the passphrase asked twice
            salt, params = os.urandom(16), self.params
            self._wrapping_key(salt, params, confirm=True)
        assert self._derived is not None
        salt, params, key = self._derived
        extra: dict[str, Any] = {}
        if self.outside is not None:
            key = combined(key, self.outside.create(vault_id, epoch), vault_id, epoch)
            extra = self.outside.params()
        nonce = os.urandom(12)
        wrapped = nonce + AESGCM(key).encrypt(nonce, kek, _aad(vault_id, epoch))
        return {
            "mode": self.mode,
            "salt": base64.b64encode(salt).decode(),
            "argon2": params.to_json(),
            "wrapped": base64.b64encode(wrapped).decode(),
            **extra,
        }

    def load_kek(self, vault_id: str, epoch: int, params: Mapping[str, Any]) -> bytes:
        try:
            salt = base64.b64decode(params["salt"])
            wrapped = base64.b64decode(params["wrapped"])
            cost = Argon2Params.from_json(params["argon2"])
        except (KeyError, TypeError, ValueError):
            raise VaultLockedError(
                "the vault header has no usable wrapped key; nothing was changed"
            ) from None
        outside = self._outside_of(params)
        key = self._wrapping_key(salt, cost, confirm=False)
        if outside is not None:
            # The secret first: without it the passphrase cannot be checked, and a copy made
            # before a forget is told why it cannot open, not that the passphrase is wrong.
            key = combined(key, outside.load(vault_id, epoch), vault_id, epoch)
        try:
            return AESGCM(key).decrypt(wrapped[:12], wrapped[12:], _aad(vault_id, epoch))
        except InvalidTag:
            self._derived = None
            raise VaultLockedError(
                "wrong passphrase for the memory vault; nothing was changed. "
                f"Try again (or check {PASSPHRASE_ENV})"
            ) from None

    def discard_kek(self, vault_id: str, epoch: int, params: Mapping[str, Any]) -> None:
        """The old wrapped KEK lived only in the header, which was replaced; an outside
        secret of that epoch is deleted, so no copy of the folder opens any more."""
        outside = self._outside_of(params)
        if outside is not None:
            outside.discard(vault_id, epoch)

    def _outside_of(self, params: Mapping[str, Any]) -> OutsideSecret | None:
        """The outside secret a vault's header names (the configured store, if it is the
        same kind: the user may keep the key file somewhere new)."""
        kind = str(params.get("outside", "") or "")
        if not kind:
            return None
        if self.outside is not None and self.outside.kind == kind:
            return self.outside
        return outside_secret(kind, str(params.get("outside_file", "") or ""))

    def change_passphrase(self, old: str, new: str) -> Callable[[], None]:
        """Wrap the next KEK (``Vault.rotate``) under ``new``, with a fresh salt, once ``old``
        is shown to be the passphrase this vault was opened with; returns the undo, for a
        rotation that fails. InputError when ``old`` is wrong or ``new`` too short."""
        if self._derived is None:
            raise InputError("the memory vault is not unlocked with a passphrase")
        salt, params, key = self._derived
        if not hmac.compare_digest(derive_key(old, salt, params), key):
            raise InputError("the current passphrase is wrong; nothing was changed")
        if len(new) < MIN_PASSPHRASE:
            raise InputError(
                f"the new passphrase is too short (at least {MIN_PASSPHRASE} characters)"
            )
        before = (self._passphrase, self._derived)
        self._passphrase, self._derived = new, None

        def undo() -> None:
            self._passphrase, self._derived = before

        return undo


def _aad(vault_id: str, epoch: int) -> bytes:
    return f"desktop-agent kek\x00{vault_id}\x00{epoch}".encode()
