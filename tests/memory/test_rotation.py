"""`keys rotate` issues new data keys for what is written after it; `keys rotate --rekey`
re-encrypts every row under new data keys and destroys the old ones (issue 13, item 4)."""

from __future__ import annotations

import shutil
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import lance
import pytest
from cryptography.exceptions import InvalidTag
from cryptography.hazmat.primitives.ciphers.aead import AESGCM

from desktop_agent.memory import Vault, rekey_journal
from desktop_agent.memory import keystore as keystore_module
from desktop_agent.memory import snapshot as snapshot_module
from desktop_agent.memory.audit import AuditLog
from desktop_agent.memory.crypto import HEADER_BYTES
from desktop_agent.memory.header import read_header
from desktop_agent.memory.keystore import KeyStore
from desktop_agent.memory.rows import open_row, row_aad
from desktop_agent.memory.store import Store
from desktop_agent.secrets import KeyringKeySource
from desktop_agent.secrets.memory_backend import InMemoryKeyring
from tests.memory.conftest import all_bytes, unit
from tests.memory.test_forget_crashes import Crash, after, before


@pytest.fixture(autouse=True)
def snapshots_on_every_close(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(snapshot_module, "MIN_ROWS", 1)


def all_rows(vault_dir: Path) -> Iterator[dict]:
    """Every row of every Lance version still on disk."""
    uri = Store(vault_dir).uri
    for entry in lance.dataset(uri).versions():
        yield from lance.dataset(uri, version=entry["version"]).to_table().to_pylist()


def old_keystore(vault_dir: Path, keyring: InMemoryKeyring, tmp_path: Path) -> KeyStore:
    """What a thief holds who copied the keys folder, vault.json and the keyring entry now."""
    copy = tmp_path / f"stolen-{len(list(tmp_path.glob('stolen-*')))}"
    copy.mkdir()
    shutil.copy2(vault_dir / "vault.json", copy / "vault.json")
    shutil.copytree(vault_dir / "keys", copy / "keys")
    stolen = InMemoryKeyring()
    stolen.entries.update(keyring.entries)
    header = read_header(copy)
    assert header is not None
    return KeyStore.unlock(copy, header, KeyringKeySource(stolen))


def test_rows_written_after_two_rotations_do_not_open_with_an_old_keystore(
    vault_dir: Path,
    key_source: KeyringKeySource,
    memory_keyring: InMemoryKeyring,
    tmp_path: Path,
) -> None:
    with Vault.open(vault_dir, key_source) as vault:
        episode = vault.add("episodic", "before: in the chat", vector=unit(1), conversation_id="c1")
        fact = vault.add("semantic", "before: a fact", vector=unit(2))
        how = vault.add("procedural", "before: a procedure", vector=unit(3))
    stolen = old_keystore(vault_dir, memory_keyring, tmp_path)
    with Vault.open(vault_dir, key_source) as vault:
        vault.rotate_keys()
        vault.rotate_keys()
        # The same conversation, an edit of an old fact, an edit that changes the kind, a new one.
        later = vault.add("episodic", "after: same chat", vector=unit(4), conversation_id="c1")
        vault.update(fact.id, text="after: the fact edited")
        vault.update(how.id, text="after: now a fact", kind="semantic")
        fresh = vault.add("semantic", "after: a new fact", vector=unit(5))
        assert vault.get(episode.id).text == "before: in the chat"
    before, after = [], []
    for row in all_rows(vault_dir):
        plain = open_row(stolen, row["memory_id"], row["version"], row["key_id"], row["blob"])
        written_after = row["memory_id"] in (later.id, fresh.id) or row["version"] > 1
        (after if written_after else before).append(plain)
    assert after and all(plain is None for plain in after)
    assert before and all(plain is not None for plain in before)  # the old rows: as expected
    # The unlock snapshot written at close is under a key the rotation made, too.
    version = lance.dataset(Store(vault_dir).uri).version
    assert (vault_dir / "snapshot.bin").exists()
    assert snapshot_module.load(vault_dir, stolen, version, 384) is None


def test_after_a_rotation_every_memory_still_reads_and_forgets(
    vault_dir: Path, key_source: KeyringKeySource
) -> None:
    with Vault.open(vault_dir, key_source) as vault:
        one = vault.add("episodic", "one", vector=unit(1), conversation_id="c1")
        vault.rotate_keys()
        two = vault.add("episodic", "two", vector=unit(2), conversation_id="c1")
        three = vault.add("episodic", "three", vector=unit(3), conversation_id="c1")
    with Vault.open(vault_dir, key_source) as vault:
        assert [vault.get(i).text for i in (one.id, two.id, three.id)] == ["one", "two", "three"]
        vault.forget([one.id])
        vault.forget([two.id])  # its sibling is re-encrypted under a fresh key
        assert vault.get(three.id).text == "three"
    with Vault.open(vault_dir, key_source) as vault:
        assert [r.text for r in vault.list()] == ["three"]


def opens_with(raw_keys: dict[str, bytes], row: dict) -> bool:
    """Does any of these raw data keys open this row (its own key id in the associated data)?"""
    blob = bytes(row["blob"])
    for raw in raw_keys.values():
        try:
            AESGCM(raw).decrypt(
                blob[1:HEADER_BYTES],
                blob[HEADER_BYTES:],
                row_aad(row["memory_id"], row["version"], row["key_id"]),
            )
            return True
        except InvalidTag:
            continue
    return False


# --- rekey -------------------------------------------------------------------------------------


@pytest.fixture
def rekey_lab(
    vault_dir: Path, key_source: KeyringKeySource, memory_keyring: InMemoryKeyring, tmp_path: Path
) -> dict[str, Any]:
    """A vault with a conversation, an edited fact, a procedure and a fact written after a
    rotation; returns what a thief copied before the re-encryption (raw data keys, the keys
    folder with the keyring entry) and the ciphertext then on disk."""
    with Vault.open(vault_dir, key_source) as vault:
        vault.add("episodic", "chat one", vector=unit(1), conversation_id="c1")
        vault.add("episodic", "chat two", vector=unit(2), conversation_id="c1")
        fact = vault.add("semantic", "a fact", vector=unit(3))
        vault.update(fact.id, text="a fact, edited")
        vault.add("procedural", "a procedure", vector=unit(4))
        vault.rotate_keys()
        vault.add("episodic", "chat three", vector=unit(5), conversation_id="c1")
        vault.add("semantic", "a later fact", vector=unit(6))
        raw = {k: vault._state.keys.raw_key(k) for k in vault._state.keys.ids()}
        texts = {r.id: [v.text for v in vault.history(r.id)] for r in vault.list()}
    return {
        "raw": raw,
        "texts": texts,
        "stolen": old_keystore(vault_dir, memory_keyring, tmp_path),
        "blobs": [bytes(row["blob"])[20:60] for row in all_rows(vault_dir)],
    }


def assert_old_keys_open_nothing(vault_dir: Path, lab: dict[str, Any]) -> None:
    rows = list(all_rows(vault_dir))
    assert rows
    assert not any(opens_with(lab["raw"], row) for row in rows)
    assert not any(
        open_row(lab["stolen"], r["memory_id"], r["version"], r["key_id"], r["blob"]) for r in rows
    )
    on_disk = all_bytes(vault_dir)
    assert not any(blob in on_disk for blob in lab["blobs"])  # the old ciphertext is gone too
    assert not rekey_journal.journal_path(vault_dir).exists()


def test_rekey_re_encrypts_every_row_and_no_old_data_key_opens_any(
    vault_dir: Path,
    key_source: KeyringKeySource,
    memory_keyring: InMemoryKeyring,
    rekey_lab: dict[str, Any],
) -> None:
    reports: list[tuple[int, int]] = []
    with Vault.open(vault_dir, key_source) as vault:
        epoch = vault.epoch
        receipt = vault.rekey(progress=lambda done, total: reports.append((done, total)), batch=2)
        assert receipt.rows == 7 and not receipt.resumed
        assert receipt.epoch == epoch + 1 and receipt.previous_epoch == epoch
        assert reports == [(0, 7), (2, 7), (4, 7), (6, 7), (7, 7)]
        # The audit and row-log keys seal no row (and no words): they stay.
        kept = {vault._state.audit_key()[0], vault._state.keys.scope_key("rows")}
        assert not set(rekey_lab["raw"]) & set(vault._state.keys.ids()) - kept
        assert vault.status().extra["rekey_unfinished"] is False
        assert "rekey" in [e.action for e in vault.audit_entries()]
        # A conversation keeps one key, other memories one each: 1 + 3 + audit + row log.
        assert len(vault._state.keys) == 6
    assert_old_keys_open_nothing(vault_dir, rekey_lab)
    with Vault.open(vault_dir, key_source) as vault:
        assert {r.id: [v.text for v in vault.history(r.id)] for r in vault.list()} == rekey_lab[
            "texts"
        ]
        assert vault.verify_audit().ok
        vault.forget([next(r.id for r in vault.list() if r.text == "chat two")])
        assert [r.text for r in vault.list(conversation_id="c1")] == ["chat one", "chat three"]
    assert len(memory_keyring.entries) == 1
    assert {p.name for p in (vault_dir / "keys").iterdir()} <= {
        f"keystore-{epoch + 2}.bin",
        f"keystore-{epoch + 2}.bin.copy",
        f"journal-{epoch + 2}.bin",
        f"journal-{epoch + 2}.bin.copy",
    }


REKEY_CRASH_POINTS: dict[str, Callable[[pytest.MonkeyPatch, Any], None]] = {
    "after the new keys are made": lambda mp, _s: mp.setattr(
        KeyStore, "new_keys", after(KeyStore, "new_keys")
    ),
    "after the journal is written": lambda mp, _s: mp.setattr(
        rekey_journal, "write", after(rekey_journal, "write")
    ),
    "after the first batch": lambda mp, _s: mp.setattr(Store, "upsert", after(Store, "upsert")),
    "after the second batch": lambda mp, _s: mp.setattr(
        Store, "upsert", after_nth(Store, "upsert", 2)
    ),
    "after the ratchet's commit": lambda mp, _s: mp.setattr(
        keystore_module, "write_header", after(keystore_module, "write_header")
    ),
    "before the old KEK is discarded": lambda mp, s: mp.setattr(
        s, "discard_kek", before(s, "discard_kek")
    ),
    "mid compaction": lambda mp, _s: mp.setattr(
        lance.LanceDataset,
        "cleanup_old_versions",
        before(lance.LanceDataset, "cleanup_old_versions"),
    ),
    "after the audit entry": lambda mp, _s: mp.setattr(
        AuditLog, "append", after(AuditLog, "append", lambda _self, action, **_k: action == "rekey")
    ),
}


def after_nth(owner: Any, name: str, n: int) -> Callable[..., Any]:
    real = getattr(owner, name)
    calls = []

    def crashing(*args: Any, **kwargs: Any) -> Any:
        result = real(*args, **kwargs)
        calls.append(1)
        if len(calls) == n:
            raise Crash(name)
        return result

    return crashing


@pytest.mark.parametrize("point", list(REKEY_CRASH_POINTS))
def test_a_crash_mid_rekey_loses_nothing_and_running_it_again_finishes(
    point: str,
    vault_dir: Path,
    key_source: KeyringKeySource,
    memory_keyring: InMemoryKeyring,
    rekey_lab: dict[str, Any],
) -> None:
    vault = Vault.open(vault_dir, key_source)
    try:
        with pytest.MonkeyPatch.context() as patch:
            REKEY_CRASH_POINTS[point](patch, key_source)
            with pytest.raises(Crash):
                vault.rekey(batch=2)
    finally:
        vault._lock.release()  # the process is gone: its lock goes with it, nothing else runs

    with Vault.open(vault_dir, key_source) as vault:
        assert {r.id: [v.text for v in vault.history(r.id)] for r in vault.list()} == rekey_lab[
            "texts"
        ]
        assert vault.damaged == ()
        unfinished = vault.status().extra["rekey_unfinished"]
        assert unfinished == rekey_journal.journal_path(vault_dir).exists()
        receipt = vault.rekey(batch=2)
        assert receipt.resumed == unfinished
    assert_old_keys_open_nothing(vault_dir, rekey_lab)
    with Vault.open(vault_dir, key_source) as vault:
        assert {r.id: [v.text for v in vault.history(r.id)] for r in vault.list()} == rekey_lab[
            "texts"
        ]
        assert vault.verify_audit().ok
        assert len(memory_keyring.entries) == 1


def test_rekey_refuses_a_damaged_row_and_changes_nothing(
    vault_dir: Path, key_source: KeyringKeySource
) -> None:
    from desktop_agent.errors import VaultError

    with Vault.open(vault_dir, key_source) as vault:
        vault.add("semantic", "fine", vector=unit(1))
        vault.rekey()
        vault._state.damage.append(_row_damage())  # as an unlock that found one reports it
        with pytest.raises(VaultError, match="cannot re-encrypt the memories now: row .* damaged"):
            vault.rekey()
        assert not rekey_journal.journal_path(vault_dir).exists()


def _row_damage() -> Any:
    from desktop_agent.memory.model import Damage

    return Damage("memories", "row 00/1", "ciphertext fails authentication")


def test_rekey_in_passphrase_mode(vault_dir: Path) -> None:
    from desktop_agent.secrets import PassphraseKeySource
    from tests.memory.conftest import FAST_ARGON2

    with Vault.open(vault_dir, PassphraseKeySource("rekey passphrase", FAST_ARGON2)) as vault:
        kept = vault.add("episodic", "in passphrase mode", vector=unit(1), conversation_id="c")
        raw = {k: vault._state.keys.raw_key(k) for k in vault._state.keys.ids()}
        assert vault.rekey().epoch == 2
    with Vault.open(vault_dir, PassphraseKeySource("rekey passphrase", FAST_ARGON2)) as vault:
        assert vault.get(kept.id).text == "in passphrase mode"
    assert not any(opens_with(raw, row) for row in all_rows(vault_dir))
