"""Errors a user can act on.

Every exception derived from ``UserError`` carries one line that tells the user what went wrong
and what to do; the CLI prints it and exits non-zero, the GUI shows it in a message.
"""

from __future__ import annotations


class UserError(Exception):
    """A problem the user can fix; ``str(error)`` is a complete one-line message."""

    exit_code = 2


class ModelError(UserError):
    """The chat model file is missing, unreadable, not GGUF, or too large for this machine."""


class InputError(UserError):
    """A message or argument the app cannot accept (empty, too long, malformed)."""


class VaultError(UserError):
    """The memory vault cannot be opened or written."""


class VaultLockedError(VaultError):
    """The keys needed to open the vault are not available (keyring locked, KEK missing)."""


class VaultBusyError(VaultError):
    """Another desktop-agent process holds this data dir's writer lock."""
