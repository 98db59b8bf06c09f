"""A crash at any step of a forget is finished at the next open (issue 13, item 1).

Each case injects a crash (an exception nothing catches, then the writer lock dropped as a dead
process drops it) at one step of a forget that removes a memory whose conversation key is
shared (so its sibling is re-encrypted) and redacts another memory (so its old versions must
go). The next open must leave no trace: the forgotten ciphertext is in no file and no Lance
version, today's keys open none of the forgotten words, the audit log records the forget, and
what was kept reads as before.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import lance
import pytest

from desktop_agent.memory import Vault, forget_journal
from desktop_agent.memory import keystore as keystore_module
from desktop_agent.memory.audit import AuditLog
from desktop_agent.memory.forget import Forgetter
from desktop_agent.memory.keystore import KeyStore
from desktop_agent.memory.model import MemoryNotFound, Rewrite
from desktop_agent.memory.state import VaultState
from desktop_agent.memory.store import Store
from desktop_agent.secrets import KeyringKeySource
from tests.memory.conftest import all_bytes, unit
from tests.memory.test_forget import decryptable_texts

CANARY = "CANARY-crash-5e1d"
SECRET = "CANARY-redacted-77aa"


class Crash(BaseException):
    """The process dies here (BaseException: no `except Exception` in the vault catches it)."""


def after(owner: Any, name: str, when: Callable[..., bool] = lambda *a, **k: True) -> Callable:
    """Patch ``owner.name`` to run, then crash (when ``when`` says so)."""
    real = getattr(owner, name)

    def crashing(*args: Any, **kwargs: Any) -> Any:
        result = real(*args, **kwargs)
        if when(*args, **kwargs):
            raise Crash(name)
        return result

    return crashing


def before(owner: Any, name: str) -> Callable:
    def crashing(*args: Any, **kwargs: Any) -> Any:
        raise Crash(name)

    return crashing


# (where, what to patch, the patched function)
CRASH_POINTS: dict[str, Callable[[pytest.MonkeyPatch, KeyringKeySource], None]] = {
    "after the journal is written": lambda mp, _s: mp.setattr(
        forget_journal, "write", after(forget_journal, "write")
    ),
    "after old versions are deleted": lambda mp, _s: mp.setattr(
        Store, "delete_rows", after(Store, "delete_rows", lambda _self, rows: bool(rows))
    ),
    "after the rows are deleted": lambda mp, _s: mp.setattr(
        Store, "delete", after(Store, "delete")
    ),
    "before the new keystore is written": lambda mp, _s: mp.setattr(
        KeyStore, "_write_snapshot", before(KeyStore, "_write_snapshot")
    ),
    "after the new KEK is made, before the header": lambda mp, s: mp.setattr(
        s, "create_kek", after(s, "create_kek")
    ),
    "after the header (the ratchet's commit)": lambda mp, _s: mp.setattr(
        keystore_module, "write_header", after(keystore_module, "write_header")
    ),
    "after stale key files are removed": lambda mp, _s: mp.setattr(
        KeyStore, "remove_stale_files", after(KeyStore, "remove_stale_files")
    ),
    "before the old KEK is discarded": lambda mp, s: mp.setattr(
        s, "discard_kek", before(s, "discard_kek")
    ),
    "after the snapshot is dropped": lambda mp, _s: mp.setattr(
        VaultState, "drop_snapshot", after(VaultState, "drop_snapshot")
    ),
    "mid compaction (files rewritten, old versions not cleaned)": lambda mp, _s: mp.setattr(
        lance.LanceDataset,
        "cleanup_old_versions",
        before(lance.LanceDataset, "cleanup_old_versions"),
    ),
    "after compaction, before the audit entry": lambda mp, _s: mp.setattr(
        Store, "compact_and_purge", after(Store, "compact_and_purge")
    ),
    "after the audit entry, before the journal is cleared": lambda mp, _s: mp.setattr(
        AuditLog,
        "append",
        after(AuditLog, "append", lambda _self, action, **_k: action == "forget"),
    ),
}


@pytest.fixture
def crash_lab(
    vault_dir: Path, key_source: KeyringKeySource, embed: Callable[[str], Any]
) -> Iterator[dict[str, Any]]:
    """A vault with a memory to forget, its sibling, and a memory to redact; returns the bytes
    of every ciphertext the forget must erase."""
    with Vault.open(vault_dir, key_source) as vault:
        sibling = vault.add(
            "episodic", "a sibling in the chat", vector=unit(1), conversation_id="c1"
        )
        doomed = vault.add("episodic", f"first {CANARY}", vector=unit(2), conversation_id="c1")
        vault.update(doomed.id, text=f"edited {CANARY}")
        redacted = vault.add(
            "episodic", f"keep this. {SECRET}", vector=unit(3), conversation_id="c2"
        )
        keeper = vault.add("semantic", "an unrelated fact", vector=unit(4))
        rows = vault._state.store.read(ids=[doomed.id, redacted.id]).to_pylist()
    doomed_blobs = [bytes(r["blob"]) for r in rows]
    yield {
        "sibling": sibling.id,
        "doomed": doomed.id,
        "redacted": redacted.id,
        "keeper": keeper.id,
        "blobs": doomed_blobs,
        "rewrite": {redacted.id: Rewrite("keep this. [forgotten]", {}, embed("keep this."))},
    }


def _crash(
    vault_dir: Path,
    key_source: KeyringKeySource,
    arm: Callable[[pytest.MonkeyPatch, KeyringKeySource], None],
    forget: Callable[[Vault], object],
) -> None:
    """Open the vault, arm the crash, forget, and die there."""
    vault = Vault.open(vault_dir, key_source)
    try:
        with pytest.MonkeyPatch.context() as patch:
            arm(patch, key_source)
            with pytest.raises(Crash):
                forget(vault)
    finally:
        vault._lock.release()  # the process is gone: its lock goes with it, nothing else runs


def _forget(lab: dict[str, Any]) -> Callable[[Vault], object]:
    return lambda vault: vault.forget([lab["doomed"]], rewrite=lab["rewrite"])


@pytest.mark.parametrize("point", list(CRASH_POINTS))
def test_a_crash_at_any_step_of_a_forget_is_finished_at_the_next_open(
    point: str, vault_dir: Path, key_source: KeyringKeySource, crash_lab: dict[str, Any]
) -> None:
    _crash(vault_dir, key_source, CRASH_POINTS[point], _forget(crash_lab))

    with Vault.open(vault_dir, key_source) as vault:
        with pytest.raises(MemoryNotFound):
            vault.get(crash_lab["doomed"])
        assert vault.get(crash_lab["sibling"]).text == "a sibling in the chat"
        assert vault.get(crash_lab["keeper"]).text == "an unrelated fact"
        assert [v.text for v in vault.history(crash_lab["redacted"])] == ["keep this. [forgotten]"]
        assert len(vault._state.store.versions()) == 1  # every old Lance version cleaned up
        actions = [e.action for e in vault.audit_entries()]
        assert "forget" in actions
        assert vault.verify_audit().ok
    assert not forget_journal.journal_path(vault_dir).exists()
    on_disk = all_bytes(vault_dir)
    for blob in crash_lab["blobs"]:
        assert blob[20:60] not in on_disk  # the forgotten ciphertext is in no file
    texts = decryptable_texts(vault_dir, key_source)
    assert not any(CANARY.encode() in t or SECRET.encode() in t for t in texts)


def test_a_crash_before_the_journal_forgets_nothing_and_loses_nothing(
    vault_dir: Path, key_source: KeyringKeySource, crash_lab: dict[str, Any]
) -> None:
    # Re-encrypting the sibling and writing the redacted version are copies, not destruction.
    _crash(
        vault_dir,
        key_source,
        lambda patch, _s: patch.setattr(Forgetter, "_rewrite", after(Forgetter, "_rewrite")),
        _forget(crash_lab),
    )
    with Vault.open(vault_dir, key_source) as vault:
        assert CANARY in vault.get(crash_lab["doomed"]).text  # not forgotten: never confirmed
        assert vault.get(crash_lab["sibling"]).text == "a sibling in the chat"
        assert vault.get(crash_lab["keeper"]).text == "an unrelated fact"
        vault.forget([crash_lab["doomed"]], rewrite=crash_lab["rewrite"])  # and it can be redone
    texts = decryptable_texts(vault_dir, key_source)
    assert not any(CANARY.encode() in t or SECRET.encode() in t for t in texts)


@pytest.mark.parametrize(
    "point", ["after the journal is written", "after the header (the ratchet's commit)"]
)
def test_a_crash_mid_forget_all_is_finished_at_the_next_open(
    point: str, vault_dir: Path, key_source: KeyringKeySource, crash_lab: dict[str, Any]
) -> None:
    _crash(vault_dir, key_source, CRASH_POINTS[point], lambda vault: vault.forget_all())
    with Vault.open(vault_dir, key_source) as vault:
        assert len(vault) == 0
        assert "forget_all" in [e.action for e in vault.audit_entries()]
    assert decryptable_texts(vault_dir, key_source) == []
    on_disk = all_bytes(vault_dir)
    assert not any(blob[20:60] in on_disk for blob in crash_lab["blobs"])


def test_an_unreadable_journal_stops_the_open_and_changes_nothing(
    vault_dir: Path, key_source: KeyringKeySource, crash_lab: dict[str, Any]
) -> None:
    from desktop_agent.errors import VaultError

    forget_journal.journal_path(vault_dir).write_bytes(b"\x01" + b"\x00" * 60)
    from tests.memory.conftest import snapshot

    before_open = snapshot(vault_dir)
    with pytest.raises(VaultError, match="unfinished forget"):
        Vault.open(vault_dir, key_source)
    assert snapshot(vault_dir) == before_open
