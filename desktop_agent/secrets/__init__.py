"""Where the vault's key-encryption key lives: the OS keyring or a passphrase.

The only package that imports keyring or secretstorage. Both sources share one shape (see
``desktop_agent.memory.keystore.KeySource``): create, load and discard the KEK of an epoch.
"""

from desktop_agent.secrets.keyring_source import InsecureKeyringError, KeyringKeySource, is_secure
from desktop_agent.secrets.passphrase import (
    Argon2Params,
    PassphraseKeySource,
    derive_key,
    passphrase_from_env_or_prompt,
)

__all__ = [
    "Argon2Params",
    "InsecureKeyringError",
    "KeyringKeySource",
    "PassphraseKeySource",
    "derive_key",
    "is_secure",
    "passphrase_from_env_or_prompt",
]
