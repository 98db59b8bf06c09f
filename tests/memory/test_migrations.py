"""Numbered migrations, run against a stored schema-1 store (tests/memory/data/v1_store)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import lance
import pytest

from desktop_agent.errors import VaultError
from desktop_agent.memory import Vault
from desktop_agent.memory.migrations import MIGRATIONS, SCHEMA_VERSION
from desktop_agent.secrets import PassphraseKeySource
from tests.memory.conftest import FAST_ARGON2, unit

FIXTURE = Path(__file__).parent / "data" / "v1_store"
PASSPHRASE = "fixture passphrase"


@pytest.fixture
def old_store(tmp_path: Path) -> Path:
    target = tmp_path / "vault"
    shutil.copytree(FIXTURE, target)
    return target


def test_migrations_are_numbered_without_gaps() -> None:
    assert sorted(MIGRATIONS) == list(range(2, SCHEMA_VERSION + 1))


def test_a_schema_1_store_is_upgraded_and_reads_the_same(old_store: Path) -> None:
    assert json.loads((old_store / "vault.json").read_text())["schema_version"] == 1
    with Vault.open(old_store, PassphraseKeySource(PASSPHRASE, FAST_ARGON2)) as vault:
        assert vault.status().schema_version == SCHEMA_VERSION
        fact = vault.get("a" * 32)
        assert (fact.kind, fact.text, fact.version) == (
            "semantic",
            "The user likes black coffee",
            2,
        )
        assert dict(fact.meta) == {"type": "preference", "supersedes": "tea"}
        assert [v.text for v in vault.history("a" * 32)] == [
            "The user likes green tea",
            "The user likes black coffee",
        ]
        trip = vault.get("b" * 32)
        assert (trip.text, trip.conversation_id) == ("We planned a trip to Lisbon ✈️", "conv-1")
        assert dict(vault.get("c" * 32).meta) == {"successes": 3, "total": 4}
        assert vault.damaged == ()
        vault.add(
            "episodic", "a new turn in the old chat", vector=unit(5), conversation_id="conv-1"
        )
    dataset = lance.dataset(old_store / "db" / "memories.lance")
    assert dataset.schema.names == ["memory_id", "version", "key_id", "blob"]
    assert len(dataset.versions()) >= 1
    with Vault.open(old_store, PassphraseKeySource(PASSPHRASE, FAST_ARGON2)) as vault:
        assert len(vault) == 3 + 1 and len(vault.list(conversation_id="conv-1")) == 2


def test_a_store_from_a_newer_version_is_refused_untouched(old_store: Path) -> None:
    header = json.loads((old_store / "vault.json").read_text())
    header["schema_version"] = SCHEMA_VERSION + 1
    (old_store / "vault.json").write_text(json.dumps(header))
    with pytest.raises(VaultError, match="newer desktop-agent"):
        Vault.open(old_store, PassphraseKeySource(PASSPHRASE, FAST_ARGON2))
