"""The authenticated row set (issue 13, item 2): rows deleted or rolled back without any key
are reported, and unlock never destroys the keys of rows the row log says should exist.

Real Lance in a temp dir, real AES-GCM; the tampering uses pylance directly (no keys) or moves
manifest files, as the adversarial review did.
"""

from __future__ import annotations

import os
import random
import shutil
from pathlib import Path

import lance
import pytest

from desktop_agent.errors import VaultError
from desktop_agent.memory import Vault
from desktop_agent.memory import snapshot as snapshot_module
from desktop_agent.memory.model import Rewrite
from desktop_agent.memory.row_log import LOG_NAME, Change, RowLog, from_dict, pack
from desktop_agent.memory.row_set import RowChecks
from desktop_agent.memory.store import Store
from desktop_agent.secrets import KeyringKeySource
from tests.memory.conftest import unit

ACCEPT = "desktop-agent memory keys accept-missing"


class Crash(BaseException):
    """The process dies here (nothing in the vault catches a BaseException)."""


def _uri(vault_dir: Path) -> Path:
    return Store(vault_dir).uri


def _manifests(vault_dir: Path) -> list[Path]:
    """The table's manifest files, oldest version first (Lance names them u64::MAX - version)."""
    found = []
    for path in (_uri(vault_dir) / "_versions").glob("*.manifest"):
        number = int(path.stem)
        found.append((2**64 - 1 - number if number > 2**63 else number, path))
    return [path for _version, path in sorted(found)]


def _reported(vault: Vault) -> dict[str, str]:
    """memory id -> reason, for what the row set reports."""
    return {str(d.memory_id): d.reason for d in vault.damaged if d.where.startswith("memory ")}


def _assert_clean(vault: Vault) -> None:
    assert vault.damaged == ()
    assert vault.status().extra["row_set"] is None
    assert vault.verify_audit().ok


def _reopen_after_crash(vault: Vault, vault_dir: Path, source: KeyringKeySource) -> Vault:
    vault._lock.release()  # the process is gone
    return Vault.open(vault_dir, source)


# --- (a) a deleted row ---------------------------------------------------------------------


def test_a_deleted_memory_is_reported_its_key_kept_and_a_restore_brings_it_back(
    vault_dir: Path, key_source: KeyringKeySource, tmp_path: Path
) -> None:
    with Vault.open(vault_dir, key_source) as vault:
        allergy = vault.add("semantic", "allergy: PENICILLIN", vector=unit(1))
        other = vault.add("semantic", "likes tea", vector=unit(2))
        key_id = vault.versions_of(allergy.id)[0][1]
    copy = tmp_path / "copy"
    shutil.copytree(vault_dir, copy)
    lance.dataset(_uri(vault_dir)).delete(f"memory_id = '{allergy.id}'")  # no key needed

    for _ in range(2):  # reported at every open, and the key survives each unlock
        with Vault.open(vault_dir, key_source) as vault:
            assert allergy.id not in vault and other.id in vault
            assert "missing from the store" in _reported(vault)[allergy.id]
            note = vault.status().extra["row_set"]
            assert note is not None and note.startswith("1 memories missing") and ACCEPT in note
            report = vault.verify_audit()
            assert not report.ok and any(allergy.id in p for p in report.problems)
            assert key_id in vault._state.keys  # quarantined, not destroyed as an orphan
            assert "allergy" not in note and "PENICILLIN" not in str(vault.damaged)

    shutil.rmtree(vault_dir / "db")
    shutil.copytree(copy / "db", vault_dir / "db")
    with Vault.open(vault_dir, key_source) as vault:
        _assert_clean(vault)
        assert vault.get(allergy.id).text == "allergy: PENICILLIN"


def test_a_deleted_older_version_is_reported(vault_dir: Path, key_source: KeyringKeySource) -> None:
    with Vault.open(vault_dir, key_source) as vault:
        memory = vault.add("semantic", "v1", vector=unit(1))
        vault.update(memory.id, text="v2")
        vault.update(memory.id, text="v3")
    lance.dataset(_uri(vault_dir)).delete(f"memory_id = '{memory.id}' AND version = 2")
    with Vault.open(vault_dir, key_source) as vault:
        assert vault.get(memory.id).text == "v3"
        assert "older versions 2 are missing" in _reported(vault)[memory.id]


# --- (b) an edit rolled back ---------------------------------------------------------------


def _allergy_edited(vault_dir: Path, source: KeyringKeySource) -> str:
    with Vault.open(vault_dir, source) as vault:
        memory = vault.add("semantic", "allergy: none", vector=unit(1))
        vault.add("semantic", "likes tea", vector=unit(2))
        vault.update(memory.id, text="allergy: PENICILLIN")
    return memory.id


def test_deleting_the_newest_version_rows_is_reported_as_a_rollback(
    vault_dir: Path, key_source: KeyringKeySource
) -> None:
    memory_id = _allergy_edited(vault_dir, key_source)
    lance.dataset(_uri(vault_dir)).delete(f"memory_id = '{memory_id}' AND version = 2")
    with Vault.open(vault_dir, key_source) as vault:
        assert vault.get(memory_id).text == "allergy: none"  # what is there is shown ...
        reason = _reported(vault)[memory_id]  # ... but not silently as the current text
        assert reason.startswith("rolled back") and "row log's is 2" in reason
        assert not vault.verify_audit().ok


@pytest.mark.parametrize("with_snapshot", [False, True])
def test_deleting_the_newest_manifest_is_reported_as_a_rollback(
    with_snapshot: bool,
    vault_dir: Path,
    key_source: KeyringKeySource,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    if with_snapshot:  # the unlock snapshot mirrors the newest version: no way around it
        monkeypatch.setattr(snapshot_module, "MIN_ROWS", 1)
    memory_id = _allergy_edited(vault_dir, key_source)
    copy = tmp_path / "copy"
    shutil.copytree(vault_dir, copy)
    _manifests(vault_dir)[-1].unlink()
    with Vault.open(vault_dir, key_source) as vault:
        assert vault.get(memory_id).text == "allergy: none"
        assert _reported(vault)[memory_id].startswith("rolled back")
    shutil.rmtree(vault_dir / "db")
    shutil.copytree(copy / "db", vault_dir / "db")
    with Vault.open(vault_dir, key_source) as vault:
        _assert_clean(vault)
        assert vault.get(memory_id).text == "allergy: PENICILLIN"


# --- (c) a manifest swapped for an older one -----------------------------------------------


def test_a_manifest_swapped_for_an_older_one_is_detected(
    vault_dir: Path, key_source: KeyringKeySource
) -> None:
    with Vault.open(vault_dir, key_source) as vault:
        first = vault.add("semantic", "first", vector=unit(1))
        second = vault.add("semantic", "second", vector=unit(2))
    manifests = _manifests(vault_dir)
    manifests[-1].write_bytes(manifests[-2].read_bytes())  # the table now shows one row
    with Vault.open(vault_dir, key_source) as vault:
        assert first.id in vault and second.id not in vault
        assert "missing from the store" in _reported(vault)[second.id]
        assert first.id not in _reported(vault)


def test_a_row_the_log_never_had_is_reported(
    vault_dir: Path, key_source: KeyringKeySource, tmp_path: Path
) -> None:
    """An old version deleted on purpose (no history kept) and put back from a copy."""
    with Vault.open(vault_dir, key_source) as vault:
        memory = vault.add("semantic", "count 1", vector=unit(1))
    rows = lance.dataset(_uri(vault_dir)).to_table()
    with Vault.open(vault_dir, key_source) as vault:
        vault.update(memory.id, text="count 2", keep_history=False)
    lance.write_dataset(rows, _uri(vault_dir), mode="append")
    with Vault.open(vault_dir, key_source) as vault:
        assert vault.get(memory.id).text == "count 2"
        assert "never had" in _reported(vault)[memory.id]


# --- (d) a crash between the Lance commit and the row log ----------------------------------


@pytest.mark.parametrize(
    ("owner", "name", "committed"),
    [
        (RowLog, "done", True),  # after the Lance commit, before "done"
        (Store, "_commit", False),  # after the intent, before the Lance commit
    ],
)
@pytest.mark.parametrize("operation", ["add", "edit", "edit without history", "forget"])
def test_a_crash_between_the_commit_and_the_row_log_is_no_tampering(
    owner: type,
    name: str,
    committed: bool,
    operation: str,
    vault_dir: Path,
    key_source: KeyringKeySource,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    vault = Vault.open(vault_dir, key_source)
    memory = vault.add("semantic", "v1", vector=unit(1))
    vault.update(memory.id, text="v2")

    def crash(*_a: object, **_k: object) -> None:
        raise Crash(name)

    monkeypatch.setattr(owner, name, crash)
    with pytest.raises(Crash):
        if operation == "add":
            vault.add("semantic", "new", vector=unit(2))
        elif operation == "edit":
            vault.update(memory.id, text="v3")
        elif operation == "edit without history":
            vault.update(memory.id, text="v3", keep_history=False)
        else:
            vault.forget([memory.id])
    monkeypatch.undo()
    vault = _reopen_after_crash(vault, vault_dir, key_source)
    try:
        _assert_clean(vault)
        if operation == "add":
            assert len(vault) == (2 if committed else 1)
        elif operation.startswith("edit"):
            assert vault.get(memory.id).text == ("v3" if committed else "v2")
    finally:
        vault.close()
    with Vault.open(vault_dir, key_source) as vault:  # and the settled log holds afterwards
        _assert_clean(vault)


def test_a_write_that_failed_is_settled_against_the_table_before_the_next_one(
    vault_dir: Path, key_source: KeyringKeySource, monkeypatch: pytest.MonkeyPatch
) -> None:
    with Vault.open(vault_dir, key_source) as vault:
        vault.add("semantic", "kept", vector=unit(1))

        def refused(*_a: object, **_k: object) -> None:
            raise OSError(28, "No space left on device")

        with monkeypatch.context() as patch:
            patch.setattr(lance, "write_dataset", refused)
            with pytest.raises(VaultError):
                vault.add("semantic", "lost", vector=unit(2))
        vault.add("semantic", "after", vector=unit(3))
    with Vault.open(vault_dir, key_source) as vault:
        _assert_clean(vault)
        assert sorted(r.text for r in vault.list()) == ["after", "kept"]


# --- (e) normal use never reports ----------------------------------------------------------


@pytest.mark.parametrize("min_rows", [1, 2000])  # with and without the unlock snapshot
def test_normal_use_never_reports_tampering(
    min_rows: int,
    vault_dir: Path,
    key_source: KeyringKeySource,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(snapshot_module, "MIN_ROWS", min_rows)
    steps = [
        lambda v: v.add("episodic", "hello", vector=unit(1), conversation_id="c"),
        lambda v: v.add("episodic", "again", vector=unit(2), conversation_id="c"),
        lambda v: v.add("semantic", "fact", vector=unit(3)),
        lambda v: v.update(v.list(kind="semantic")[0].id, text="fact 2"),
        lambda v: v.update(v.list(kind="semantic")[0].id, meta={"n": 1}, keep_history=False),
        lambda v: v.forget([v.list(kind="episodic")[0].id]),
        lambda v: v.rotate_keys(),
        lambda v: v.add("procedural", "how", vector=unit(4)),
        lambda v: v.rekey(batch=1),
        lambda v: v.export_backup(tmp_path / "b.dab", "pass phrase"),
        lambda v: v.forget(
            [v.list(kind="procedural")[0].id],
            rewrite={v.list(kind="semantic")[0].id: Rewrite("[forgotten]", {}, unit(5))},
        ),
        lambda v: v.forget_all(),
        lambda v: v.import_backup(tmp_path / "b.dab", "pass phrase"),
        lambda v: [v.add("semantic", f"bulk {i}", vector=unit(10 + i)) for i in range(70)],
    ]
    for step in steps:
        with Vault.open(vault_dir, key_source) as vault:
            _assert_clean(vault)
            step(vault)
            _assert_clean(vault)
    with Vault.open(vault_dir, key_source) as vault:
        _assert_clean(vault)
        assert len(vault) == 73


# --- (f) accepting what is missing ---------------------------------------------------------


def test_accept_missing_forgets_the_missing_and_destroys_their_keys(
    vault_dir: Path, key_source: KeyringKeySource
) -> None:
    with Vault.open(vault_dir, key_source) as vault:
        gone = vault.add("semantic", "dropped", vector=unit(1))
        kept = vault.add("semantic", "kept", vector=unit(2))
        key_id = vault.versions_of(gone.id)[0][1]
        epoch = vault.epoch
    lance.dataset(_uri(vault_dir)).delete(f"memory_id = '{gone.id}'")
    with Vault.open(vault_dir, key_source) as vault:
        assert vault.accept_missing() == 1
        _assert_clean(vault)
        assert key_id not in vault._state.keys and vault.epoch == epoch + 1
        assert "accept missing" in [e.action for e in vault.audit_entries()]
    with Vault.open(vault_dir, key_source) as vault:
        _assert_clean(vault)
        assert [r.id for r in vault.list()] == [kept.id]


# --- the log itself ------------------------------------------------------------------------


def test_a_missing_row_log_is_reported_and_no_key_is_destroyed_until_accepted(
    vault_dir: Path, key_source: KeyringKeySource, monkeypatch: pytest.MonkeyPatch
) -> None:
    with Vault.open(vault_dir, key_source) as vault:
        vault.add("semantic", "kept", vector=unit(1))
    (vault_dir / LOG_NAME).unlink()
    with Vault.open(vault_dir, key_source) as vault:
        keys = set(vault._state.keys.ids())
        vault._state.keys.new_keys([""])  # an orphan (as a failed add leaves)
        assert "is missing" in str(vault.status().extra["row_set"])
        assert not vault.verify_audit().ok
    with Vault.open(vault_dir, key_source) as vault:
        assert keys < set(vault._state.keys.ids())  # nothing destroyed while the log is missing
        vault.accept_missing()
        _assert_clean(vault)
        assert set(vault._state.keys.ids()) - keys == {vault._state.keys.scope_key("rows")}
    with Vault.open(vault_dir, key_source) as vault:
        _assert_clean(vault)


def test_a_damaged_row_log_record_is_reported(
    vault_dir: Path, key_source: KeyringKeySource
) -> None:
    with Vault.open(vault_dir, key_source) as vault:
        vault.add("semantic", "kept", vector=unit(1))
    data = bytearray((vault_dir / LOG_NAME).read_bytes())
    data[10] ^= 1
    (vault_dir / LOG_NAME).write_bytes(bytes(data))
    with Vault.open(vault_dir, key_source) as vault:
        assert "record 0 is damaged" in str(vault.status().extra["row_set"])


def test_a_vault_from_before_the_row_log_gets_one_at_first_open(
    vault_dir: Path, key_source: KeyringKeySource, monkeypatch: pytest.MonkeyPatch
) -> None:
    with monkeypatch.context() as patch:  # a vault written by a version without the row log
        patch.setattr(RowChecks, "settle", lambda self: None)
        with Vault.open(vault_dir, key_source) as vault:
            memory = vault.add("semantic", "old", vector=unit(1))
            vault.update(memory.id, text="old 2")
        assert not (vault_dir / LOG_NAME).exists()
    with Vault.open(vault_dir, key_source) as vault:  # trust on first use
        _assert_clean(vault)
        assert vault._state.keys.scope_key("rows") is not None
    lance.dataset(_uri(vault_dir)).delete(f"memory_id = '{memory.id}' AND version = 2")
    with Vault.open(vault_dir, key_source) as vault:
        assert _reported(vault)[memory.id].startswith("rolled back")


def test_the_service_accepts_missing_memories_in_its_write_lane(
    vault_dir: Path, key_source: KeyringKeySource
) -> None:
    """What `desktop-agent memory keys accept-missing` calls: MemoryService.accept_missing."""
    from desktop_agent.core.memory_service import MemoryService
    from desktop_agent.embed import HashingEmbedder

    with Vault.open(vault_dir, key_source) as vault:
        gone = vault.add("semantic", "dropped", vector=unit(1))
    lance.dataset(_uri(vault_dir)).delete(f"memory_id = '{gone.id}'")
    with Vault.open(vault_dir, key_source) as vault:
        memory = MemoryService(vault, HashingEmbedder())
        assert memory.key_status().extra["row_set"] is not None
        assert not memory.verify_audit().ok
        assert memory.accept_missing() == 1
        assert memory.key_status().extra["row_set"] is None and memory.verify_audit().ok


def test_the_row_log_replays_to_the_same_set_as_a_plain_model(tmp_path: Path) -> None:
    """Random intents and dones against a dict model, in RAM and read back from the file."""
    rng = random.Random(7)
    ids = [os.urandom(16).hex() for _ in range(8)]
    for trial in range(100):
        folder = tmp_path / str(trial)
        folder.mkdir()
        key = os.urandom(32)
        log = RowLog(folder, "vault", key)
        model: dict[bytes, bytes] = {}
        for _ in range(rng.randint(0, 12)):
            row = pack(rng.choice(ids), rng.randint(1, 4), os.urandom(16).hex())
            model[row[:20]] = row[20:]
        log.checkpoint(from_dict(model))
        for _ in range(rng.randint(0, 6)):
            change = Change(
                adds=[pack(rng.choice(ids), rng.randint(1, 5), os.urandom(16).hex())],
                remove_rows=[bytes.fromhex(rng.choice(ids)) + rng.randint(1, 5).to_bytes(4, "big")],
                remove_ids=[bytes.fromhex(rng.choice(ids))] if rng.random() < 0.2 else [],
            )
            log.intent(change)
            log.done()
            for memory_id in change.remove_ids:
                model = {rk: k for rk, k in model.items() if rk[:16] != memory_id}
            for rk in change.remove_rows:
                model.pop(rk, None)
            model.update((row[:20], row[20:]) for row in change.adds)
            assert log.rows().tobytes() == from_dict(model).tobytes()
        again = RowLog(folder, "vault", key).read()
        assert again.problem is None and again.rows().tobytes() == from_dict(model).tobytes()
        assert RowLog(folder, "another vault", key).read().problem is not None


def test_an_unlock_from_the_snapshot_skips_the_comparison_only_for_the_log_it_was_checked_with(
    vault_dir: Path, key_source: KeyringKeySource, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(snapshot_module, "MIN_ROWS", 1)
    with Vault.open(vault_dir, key_source) as vault:
        memory = vault.add("semantic", "v1", vector=unit(1))
    with Vault.open(vault_dir, key_source) as vault:
        assert (
            vault._state.snapshot_version is not None and vault._rows._rows_seen is None
        )  # skipped
        _assert_clean(vault)
        vault.update(memory.id, text="v2")
    # The log rolled back to before the edit (the table still has it): compared, and reported.
    log = vault_dir / LOG_NAME
    with Vault.open(vault_dir, key_source) as vault:
        assert vault._rows._rows_seen is None
        before = log.read_bytes()
        vault.update(memory.id, text="v3")
    after = log.read_bytes()
    log.write_bytes(before)
    with Vault.open(vault_dir, key_source) as vault:
        assert vault._rows._rows_seen is not None
        assert "never had" in _reported(vault)[memory.id]
    log.write_bytes(after)
    with Vault.open(vault_dir, key_source) as vault:
        _assert_clean(vault)


def test_a_forget_that_would_destroy_a_missing_rows_key_is_refused(
    vault_dir: Path, key_source: KeyringKeySource, tmp_path: Path
) -> None:
    with Vault.open(vault_dir, key_source) as vault:
        dropped = vault.add("episodic", "first", vector=unit(1), conversation_id="c")
        sibling = vault.add("episodic", "second", vector=unit(2), conversation_id="c")
        alone = vault.add("semantic", "fact", vector=unit(3))
    copy = tmp_path / "copy"
    shutil.copytree(vault_dir / "db", copy)
    lance.dataset(_uri(vault_dir)).delete(f"memory_id = '{dropped.id}'")
    with Vault.open(vault_dir, key_source) as vault:
        with pytest.raises(VaultError, match="nothing was forgotten"):
            vault.forget([sibling.id])  # the conversation's key is the dropped episode's too
        vault.forget([alone.id])  # a key of its own: fine
    shutil.rmtree(vault_dir / "db")
    shutil.copytree(copy, vault_dir / "db")
    with Vault.open(vault_dir, key_source) as vault:
        assert vault.get(dropped.id).text == "first" and vault.get(sibling.id).text == "second"
        # The restored copy still has the forgotten fact's row: its key is gone, so it is
        # reported (a row the log no longer has), never readable.
        assert alone.id not in vault and "never had" in _reported(vault)[alone.id]


def test_a_rolled_back_memory_can_be_forgotten_and_the_report_goes_with_it(
    vault_dir: Path, key_source: KeyringKeySource
) -> None:
    memory_id = _allergy_edited(vault_dir, key_source)
    lance.dataset(_uri(vault_dir)).delete(f"memory_id = '{memory_id}' AND version = 2")
    with Vault.open(vault_dir, key_source) as vault:
        assert memory_id in _reported(vault)
        vault.forget([memory_id])  # its own missing row needs only its own key
        _assert_clean(vault)
    with Vault.open(vault_dir, key_source) as vault:
        _assert_clean(vault)
        assert memory_id not in vault
