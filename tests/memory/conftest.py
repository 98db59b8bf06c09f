"""Vault fixtures: an in-memory keyring, a fast embedder, cheap Argon2 for passphrase tests."""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from pathlib import Path

import keyring
import numpy as np
import pytest

from desktop_agent.embed import HashingEmbedder
from desktop_agent.memory import Vault
from desktop_agent.secrets import Argon2Params, KeyringKeySource
from desktop_agent.secrets.memory_backend import InMemoryKeyring

FAST_ARGON2 = Argon2Params(time_cost=1, memory_kib=1024, parallelism=1)


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers", "keyring: needs a real Secret Service (gnome-keyring); runs in CI"
    )


@pytest.fixture
def memory_keyring() -> Iterator[InMemoryKeyring]:
    previous = keyring.get_keyring()
    backend = InMemoryKeyring()
    keyring.set_keyring(backend)
    yield backend
    keyring.set_keyring(previous)


@pytest.fixture
def key_source(memory_keyring: InMemoryKeyring) -> KeyringKeySource:
    return KeyringKeySource(memory_keyring)


@pytest.fixture
def vault_dir(tmp_path: Path) -> Path:
    return tmp_path / "vault"


@pytest.fixture
def embed() -> Callable[[str], np.ndarray]:
    embedder = HashingEmbedder()
    return lambda text: embedder.embed([text])[0]


@pytest.fixture
def vault(vault_dir: Path, key_source: KeyringKeySource) -> Iterator[Vault]:
    with Vault.open(vault_dir, key_source) as opened:
        yield opened


def snapshot(directory: Path) -> dict[str, bytes]:
    """Every file under ``directory`` with its bytes (to prove nothing changed)."""
    return {
        str(path.relative_to(directory)): path.read_bytes()
        for path in sorted(directory.rglob("*"))
        if path.is_file()
    }


def all_bytes(directory: Path) -> bytes:
    return b"".join(snapshot(directory).values())


def unit(seed: int, dim: int = 384) -> np.ndarray:
    vector = np.random.default_rng(seed).standard_normal(dim).astype(np.float32)
    return vector / np.linalg.norm(vector)


def env_with_repo() -> dict[str, str]:
    env = dict(os.environ)
    root = str(Path(__file__).resolve().parents[2])
    env["PYTHONPATH"] = root + os.pathsep + env.get("PYTHONPATH", "")
    return env
