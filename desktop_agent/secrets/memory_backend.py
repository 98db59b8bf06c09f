"""An in-memory keyring backend: for tests and benchmarks, never picked by keyring itself.

Like httpx's MockTransport it ships beside the real thing; it is only used when set with
``keyring.set_keyring`` or passed to ``KeyringKeySource``. It can pretend to be locked.
"""

from __future__ import annotations

import keyring.errors
from keyring.backend import KeyringBackend


class InMemoryKeyring(KeyringBackend):
    """Secrets in a dict, gone with the process."""

    priority = 1  # recommended: it never writes a secret to disk

    def __init__(self) -> None:
        super().__init__()  # type: ignore[no-untyped-call]  # keyring's base is untyped
        self.entries: dict[tuple[str, str], str] = {}
        self.locked = False

    def _check(self) -> None:
        if self.locked:
            raise keyring.errors.KeyringLocked("the test keyring is locked")

    def get_password(self, service: str, username: str) -> str | None:
        self._check()
        return self.entries.get((service, username))

    def set_password(self, service: str, username: str, password: str) -> None:
        self._check()
        self.entries[(service, username)] = password

    def delete_password(self, service: str, username: str) -> None:
        self._check()
        if self.entries.pop((service, username), None) is None:
            raise keyring.errors.PasswordDeleteError("no such entry")
