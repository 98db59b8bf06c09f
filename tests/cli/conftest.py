"""The command line through click's ``CliRunner``: a temp home (the autouse ``agent_home``
fixture), the vault's keys in an in-RAM keyring, and the fast hashing embedder."""

from __future__ import annotations

from collections.abc import Callable, Iterator

import keyring
import pytest
from click.testing import CliRunner, Result

from desktop_agent.app import App
from desktop_agent.cli import cli
from desktop_agent.embed import HashingEmbedder
from desktop_agent.secrets.memory_backend import InMemoryKeyring


@pytest.fixture
def memory_keyring() -> Iterator[InMemoryKeyring]:
    previous = keyring.get_keyring()
    backend = InMemoryKeyring()
    keyring.set_keyring(backend)
    yield backend
    keyring.set_keyring(previous)


@pytest.fixture
def run(memory_keyring: InMemoryKeyring, monkeypatch: pytest.MonkeyPatch) -> Callable[..., Result]:
    """``run("memory", "list")``: one command through the runner, exit code and the two
    streams kept apart in the result."""
    monkeypatch.setattr(App, "embedder", property(lambda self: HashingEmbedder()))
    runner = CliRunner()

    def invoke(*args: str) -> Result:
        return runner.invoke(cli, list(args), prog_name="desktop-agent")

    return invoke
