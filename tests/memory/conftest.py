"""Vault fixtures: an in-memory keyring, a fast embedder, cheap Argon2 for passphrase tests."""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

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


def refuse_writes(monkeypatch: pytest.MonkeyPatch, root: Path, code: int) -> None:
    """Make every write under ``root`` fail as a full disk (ENOSPC) or a read-only medium
    (EROFS) would: opening for writing, Lance's commits and, on a read-only medium, renames,
    deletes, chmod and opening the lock file for writing. Reads go on. (Tests run as root here,
    so a chmod'ed folder would not stop them.)"""
    import builtins
    import errno
    import shutil

    import lance
    from lance.dataset import DatasetOptimizer

    root = Path(root).resolve()

    def inside(path: object) -> bool:
        try:
            return Path(os.fsdecode(path)).resolve().is_relative_to(root)  # type: ignore[arg-type]
        except (TypeError, ValueError):
            return False

    def fail(path: object = root) -> None:
        raise OSError(code, os.strerror(code), os.fsdecode(path))  # type: ignore[arg-type]

    real_open = builtins.open

    def guarded_open(file: Any, mode: str = "r", *args: Any, **kwargs: Any) -> Any:
        if isinstance(file, str | bytes | os.PathLike) and inside(file) and set(mode) & set("wax+"):
            fail(file)
        return real_open(file, mode, *args, **kwargs)

    monkeypatch.setattr(builtins, "open", guarded_open)

    def lance_fails(*_args: Any, **_kwargs: Any) -> Any:
        fail()

    for owner, name in [
        (lance, "write_dataset"),
        (lance.LanceDataset, "commit"),
        (lance.LanceDataset, "merge_insert"),
        (lance.LanceDataset, "delete"),
        (lance.LanceDataset, "cleanup_old_versions"),
        (lance.fragment.LanceFragment, "delete"),
        (DatasetOptimizer, "compact_files"),
    ]:
        monkeypatch.setattr(owner, name, lance_fails)
    if code != errno.EROFS:
        return

    def guard(owner: Any, name: str, arg: int = 0) -> None:
        real = getattr(owner, name)

        def guarded(*args: Any, **kwargs: Any) -> Any:
            if len(args) > arg and inside(args[arg]):
                fail(args[arg])
            return real(*args, **kwargs)

        monkeypatch.setattr(owner, name, guarded)

    for name in ("replace", "rename", "unlink", "remove", "chmod", "rmdir", "mkdir", "truncate"):
        guard(os, name)
    guard(shutil, "move")
    guard(shutil, "rmtree")
    real_os_open = os.open

    def guarded_os_open(path: Any, flags: int, *args: Any, **kwargs: Any) -> int:
        if inside(path) and flags & (os.O_WRONLY | os.O_RDWR | os.O_CREAT | os.O_TRUNC):
            fail(path)
        return real_os_open(path, flags, *args, **kwargs)

    monkeypatch.setattr(os, "open", guarded_os_open)
