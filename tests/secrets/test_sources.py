"""Key sources without a real keyring: backend checks, passphrase handling."""

from __future__ import annotations

import io

import pytest
from keyring.backends import chainer, fail, null

from desktop_agent.errors import InputError, VaultLockedError
from desktop_agent.secrets import (
    Argon2Params,
    KeyringKeySource,
    PassphraseKeySource,
    derive_key,
    is_secure,
)
from desktop_agent.secrets import passphrase as passphrase_module
from desktop_agent.secrets.memory_backend import InMemoryKeyring

FAST = Argon2Params(1, 1024, 1)


class AltPlaintext(InMemoryKeyring):
    pass


AltPlaintext.__module__ = "keyrings.alt.file"


def test_only_recommended_backends_pass() -> None:
    assert is_secure(InMemoryKeyring())
    assert not is_secure(fail.Keyring())
    assert not is_secure(null.Keyring())
    assert not is_secure(AltPlaintext())

    class Mixed(chainer.ChainerBackend):
        backends = [InMemoryKeyring(), AltPlaintext()]

    class AllGood(chainer.ChainerBackend):
        backends = [InMemoryKeyring(), InMemoryKeyring()]

    assert not is_secure(Mixed())  # writes could land in the plaintext file
    assert is_secure(AllGood())


def test_keyring_source_round_trip_and_discard() -> None:
    backend = InMemoryKeyring()
    source = KeyringKeySource(backend)
    params = source.create_kek("v1", 3, b"k" * 32)
    assert source.load_kek("v1", 3, params) == b"k" * 32
    source.discard_kek("v1", 3, params)
    source.discard_kek("v1", 3, params)  # already gone is fine
    with pytest.raises(VaultLockedError, match="missing"):
        source.load_kek("v1", 3, params)


def test_a_non_key_in_the_keyring_is_refused() -> None:
    backend = InMemoryKeyring()
    source = KeyringKeySource(backend)
    params = source.create_kek("v1", 1, b"k" * 32)
    backend.set_password(params["service"], params["account"], "not base64 at all")
    with pytest.raises(VaultLockedError, match="not a vault key"):
        source.load_kek("v1", 1, params)


def test_argon2id_is_deterministic_per_salt() -> None:
    assert derive_key("pw", b"s" * 16, FAST) == derive_key("pw", b"s" * 16, FAST)
    assert derive_key("pw", b"s" * 16, FAST) != derive_key("pw", b"t" * 16, FAST)
    assert len(derive_key("pw", b"s" * 16, FAST)) == 32


def test_passphrase_wraps_the_kek_and_binds_it_to_the_epoch() -> None:
    source = PassphraseKeySource("a good passphrase", FAST)
    params = source.create_kek("v1", 1, b"k" * 32)
    assert "a good passphrase" not in str(params)
    assert PassphraseKeySource("a good passphrase").load_kek("v1", 1, params) == b"k" * 32
    with pytest.raises(VaultLockedError, match="wrong passphrase"):
        PassphraseKeySource("a good passphrase").load_kek("v1", 2, params)


def test_no_terminal_and_no_environment_is_a_clear_error(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("sys.stdin", io.StringIO(""))
    with pytest.raises(InputError, match="DESKTOP_AGENT_PASSPHRASE"):
        passphrase_module.passphrase_from_env_or_prompt()


def test_prompt_asks_twice_when_creating(monkeypatch: pytest.MonkeyPatch) -> None:
    class Tty(io.StringIO):
        def isatty(self) -> bool:
            return True

    monkeypatch.setattr("sys.stdin", Tty(""))
    answers = iter(["first passphrase", "second passphrase"])
    monkeypatch.setattr(passphrase_module.getpass, "getpass", lambda _prompt: next(answers))
    with pytest.raises(InputError, match="differ"):
        passphrase_module.passphrase_from_env_or_prompt(confirm=True)
    monkeypatch.setenv("DESKTOP_AGENT_PASSPHRASE", "short")
    with pytest.raises(InputError, match="too short"):
        passphrase_module.passphrase_from_env_or_prompt(confirm=True)


def test_an_unexpected_backend_error_is_one_clear_line() -> None:
    class Broken(InMemoryKeyring):
        def get_password(self, service: str, username: str) -> str | None:
            raise RuntimeError("org.freedesktop.DBus.Error.ServiceUnknown")

    with pytest.raises(VaultLockedError, match="cannot be read .*ServiceUnknown"):
        KeyringKeySource(Broken()).load_kek("v1", 1, {})
