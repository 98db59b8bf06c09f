"""The vault's API over a real Lance table and real AES-GCM."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import numpy as np
import pytest

from desktop_agent.errors import InputError, VaultError
from desktop_agent.memory import MemoryNotFound, NewMemory, Vault
from desktop_agent.secrets import KeyringKeySource
from tests.memory.conftest import all_bytes, unit


def test_add_get_list_and_reopen(vault_dir: Path, key_source: KeyringKeySource, embed) -> None:
    with Vault.open(vault_dir, key_source) as vault:
        fact = vault.add(
            "semantic",
            "The user likes hiking",
            vector=embed("hiking"),
            meta={"salience": 0.7, "tags": ["a"]},
        )
        episode = vault.add(
            "episodic",
            "We talked about dogs",
            vector=embed("dogs"),
            conversation_id="c1",
            source_id="s1",
        )
        assert vault.get(fact.id) == fact
        assert fact.meta["tags"] == ("a",)
        with pytest.raises(TypeError):
            fact.meta["x"] = 1  # type: ignore[index]
    with Vault.open(vault_dir, key_source) as vault:
        assert {r.id for r in vault.list()} == {fact.id, episode.id}
        assert [r.id for r in vault.list(kind="episodic")] == [episode.id]
        assert [r.id for r in vault.list(conversation_id="c1")] == [episode.id]
        again = vault.get(episode.id)
        assert (again.text, again.conversation_id, again.source_id) == (
            "We talked about dogs",
            "c1",
            "s1",
        )
        assert again.created_at.tzinfo is not None


def test_update_keeps_history_and_search_sees_the_new_text(vault: Vault, embed) -> None:
    record = vault.add("semantic", "The user drinks tea", vector=embed("tea"))
    updated = vault.update(
        record.id, text="The user drinks coffee", vector=embed("coffee"), meta={"supersedes": "x"}
    )
    assert updated.version == 2 and updated.created_at == record.created_at
    history = vault.history(record.id)
    assert [(v.version, v.text, v.current) for v in history] == [
        (1, "The user drinks tea", False),
        (2, "The user drinks coffee", True),
    ]
    hits = vault.search(embed("coffee"), "coffee", k=3)
    assert hits[0].id == record.id and hits[0].keyword_score > 0 and hits[0].vector_score > 0.9
    assert vault.search(None, "tea", k=3) == []


def test_search_filters_by_kind_and_keeps_scores_apart(vault: Vault, embed) -> None:
    a = vault.add("semantic", "garden roses bloom", vector=embed("garden roses"))
    b = vault.add("episodic", "garden party yesterday", vector=embed("garden party"))
    hits = vault.search(embed("garden"), "garden", k=5, kind="episodic")
    assert [h.id for h in hits] == [b.id]
    both = {h.id: h for h in vault.search(embed("roses"), "roses", k=5)}
    assert both[a.id].keyword_score > 0 and both[b.id].keyword_score == 0
    assert len(vault.index) == 2 and a.id in vault.index


def test_add_many_is_one_commit_and_keys_follow_the_policy(vault: Vault) -> None:
    versions_before = vault._state.store.versions()[-1]
    items = [
        NewMemory("episodic", f"turn {i}", unit(i), conversation_id=f"c{i % 2}") for i in range(6)
    ]
    items += [NewMemory("semantic", f"fact {i}", unit(100 + i)) for i in range(3)]
    records = vault.add_many(items)
    assert vault._state.store.versions()[-1] == versions_before + 1
    keys = {r.id: vault._state.current[r.id][1] for r in records}
    conv0 = {keys[r.id] for r in records if r.conversation_id == "c0"}
    assert len(conv0) == 1  # one DEK per conversation
    facts = [keys[r.id] for r in records if r.kind == "semantic"]
    assert len(set(facts)) == 3 and not set(facts) & conv0  # one DEK per semantic memory


@pytest.mark.parametrize(
    "text",
    [
        "nul\x00inside",
        "עברית مرحبا RTL",
        "emoji 🧠🔐👩‍👩‍👧",
        "lone \ud800 surrogate \udfff",
        "\u202eoverride",
    ],
)
def test_odd_text_round_trips_exactly(
    vault_dir: Path, key_source: KeyringKeySource, text: str
) -> None:
    with Vault.open(vault_dir, key_source) as vault:
        memory_id = vault.add("semantic", text, vector=unit(1)).id
    with Vault.open(vault_dir, key_source) as vault:
        assert vault.get(memory_id).text == text


def test_ten_megabyte_text(vault_dir: Path, key_source: KeyringKeySource) -> None:
    text = ("A long memory line with words. " * 340_000)[:10_000_000] + "END"
    with Vault.open(vault_dir, key_source) as vault:
        memory_id = vault.add("semantic", text, vector=unit(2)).id
    assert b"A long memory line" not in all_bytes(vault_dir)
    with Vault.open(vault_dir, key_source) as vault:
        assert vault.get(memory_id).text == text


def test_bad_input_is_refused_with_a_clear_error(vault: Vault) -> None:
    with pytest.raises(InputError, match="kind"):
        vault.add("dreams", "x", vector=unit(1))
    with pytest.raises(InputError, match="empty"):
        vault.add("semantic", "  ", vector=unit(1))
    with pytest.raises(InputError, match="384"):
        vault.add("semantic", "x", vector=np.ones(3))
    with pytest.raises(InputError, match="NaN"):
        vault.add("semantic", "x", vector=np.full(384, np.nan))
    with pytest.raises(InputError, match="JSON"):
        vault.add("semantic", "x", vector=unit(1), meta={"when": datetime.now(UTC)})
    with pytest.raises(InputError, match="timezone"):
        vault.add("semantic", "x", vector=unit(1), created_at=datetime(2024, 1, 1))
    with pytest.raises(MemoryNotFound):
        vault.get("0" * 32)
    with pytest.raises(MemoryNotFound):
        vault.update("nope", text="x")
    assert len(vault) == 0


def test_closed_vault_refuses_writes(vault_dir: Path, key_source: KeyringKeySource) -> None:
    vault = Vault.open(vault_dir, key_source)
    vault.close()
    with pytest.raises(VaultError, match="closed"):
        vault.add("semantic", "x", vector=unit(1))


def test_nothing_in_plaintext_on_disk(vault_dir: Path, key_source: KeyringKeySource) -> None:
    canary = "CANARY-7f3a-plaintext"
    with Vault.open(vault_dir, key_source) as vault:
        record = vault.add(
            "episodic",
            f"secret {canary}",
            vector=unit(3),
            meta={"note": canary},
            conversation_id=f"conv-{canary}",
        )
        vault.update(record.id, text=f"edited {canary}")
        vector_bytes = unit(3).tobytes()
    data = all_bytes(vault_dir)
    assert canary.encode() not in data
    assert b"episodic" not in data
    assert vector_bytes[:64] not in data
