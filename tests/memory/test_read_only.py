"""Read-only when writes cannot (issue 13, item 6).

With the disk full, or the data folder on a read-only medium, the vault still opens: it lists
and searches, says why writing is off, and refuses a write with one line. Unlock never needs
to write first: repairs and the recovery of keys a failed add left behind wait for the first
write, and are done then once the disk takes writes again.
"""

from __future__ import annotations

import errno
from pathlib import Path

import pytest

from desktop_agent.errors import VaultError
from desktop_agent.memory import Vault, VaultReadOnlyError, forget_journal
from desktop_agent.memory import store as store_module
from desktop_agent.secrets import KeyringKeySource
from tests.memory.conftest import refuse_writes, snapshot, unit
from tests.memory.test_forget_crashes import CRASH_POINTS, _crash

FULL, READ_ONLY = errno.ENOSPC, errno.EROFS
WHY = {FULL: "the disk is full", READ_ONLY: "read-only disk"}


def _files(vault_dir: Path) -> dict[str, bytes]:
    return {k: v for k, v in snapshot(vault_dir).items() if k != "LOCK"}


def _with_an_orphan_key(vault_dir: Path, source: KeyringKeySource) -> str:
    """A vault whose last add failed on a full disk after its key was journaled (the key is
    an orphan: the next unlock's recovery wants to ratchet it away, which is a write)."""
    with Vault.open(vault_dir, source) as vault:
        kept = vault.add("semantic", "written before the disk filled", vector=unit(1))
        with pytest.MonkeyPatch.context() as patch:

            def full(*_a: object, **_k: object) -> None:
                raise OSError(errno.ENOSPC, "No space left on device")

            patch.setattr(store_module.lance, "write_dataset", full)
            with pytest.raises(VaultError, match="disk is full"):
                vault.add("semantic", "lost to the full disk", vector=unit(2))
        assert len(vault._state.keys) == 4  # audit and row-log keys, kept's key, and the orphan
    return kept.id


@pytest.mark.parametrize("code", [FULL, READ_ONLY])
def test_the_vault_opens_read_only_and_reads_go_on(
    code: int, vault_dir: Path, key_source: KeyringKeySource, monkeypatch: pytest.MonkeyPatch
) -> None:
    kept = _with_an_orphan_key(vault_dir, key_source)
    before = _files(vault_dir)
    refuse_writes(monkeypatch, vault_dir, code)

    with Vault.open(vault_dir, key_source) as vault:
        assert vault.read_only is not None and WHY[code] in vault.read_only
        assert [r.id for r in vault.list()] == [kept]
        assert vault.get(kept).text == "written before the disk filled"
        hits = vault.search(unit(1), "written disk", k=3)
        assert [h.id for h in hits] == [kept]
        status = vault.status()
        assert status.extra["read_only"] == vault.read_only and status.memories == 1
        assert vault.audit_entries()  # the log reads (no unlock entry could be added)
        for write in (
            lambda: vault.add("semantic", "cannot be saved", vector=unit(3)),
            lambda: vault.update(kept, text="cannot be saved"),
            lambda: vault.forget([kept]),
            lambda: vault.rotate_keys(),
        ):
            with pytest.raises(VaultReadOnlyError, match="read-only") as error:
                write()
            message = str(error.value)
            assert WHY[code] in message and "nothing was saved" in message
            assert "\n" not in message
    assert _files(vault_dir) == before  # not one byte changed, not even a repair


def test_writes_resume_once_the_disk_takes_them_with_the_deferred_recovery_first(
    vault_dir: Path, key_source: KeyringKeySource, monkeypatch: pytest.MonkeyPatch
) -> None:
    kept = _with_an_orphan_key(vault_dir, key_source)
    refuse_writes(monkeypatch, vault_dir, FULL)
    with Vault.open(vault_dir, key_source) as vault:
        assert vault.read_only
        with pytest.raises(VaultReadOnlyError):
            vault.add("semantic", "still full", vector=unit(3))
        monkeypatch.undo()  # space was freed
        later = vault.add("semantic", "after space was freed", vector=unit(4))
        assert vault.read_only is None
        assert len(vault._state.keys) == 4  # the orphan is gone; later's key came in its place
        actions = [e.action for e in vault.audit_entries()]
    assert actions[-3:] == ["recover", "unlock", "add"]
    with Vault.open(vault_dir, key_source) as vault:
        assert {r.id for r in vault.list()} == {kept, later.id}
        assert vault.verify_audit().ok


def test_a_torn_key_journal_is_repaired_before_the_first_write_not_at_unlock(
    vault_dir: Path, key_source: KeyringKeySource, monkeypatch: pytest.MonkeyPatch
) -> None:
    with Vault.open(vault_dir, key_source) as vault:
        kept = vault.add("semantic", "before the crash", vector=unit(1))
    with open(vault_dir / "keys" / "journal-1.bin", "ab") as handle:
        handle.write(b"\x50\x00\x00\x00torn")  # a crash mid-append
    refuse_writes(monkeypatch, vault_dir, READ_ONLY)
    with Vault.open(vault_dir, key_source) as vault:
        assert vault.read_only and vault.get(kept.id).text == "before the crash"
        monkeypatch.undo()  # remounted writable, same session
        later = vault.add("semantic", "after the remount", vector=unit(2))
    # Had the new key been appended after the torn bytes, the journal would not read back.
    with Vault.open(vault_dir, key_source) as vault:
        assert {r.id for r in vault.list()} == {kept.id, later.id}


def test_a_torn_audit_tail_waits_for_the_first_write(
    vault_dir: Path, key_source: KeyringKeySource, monkeypatch: pytest.MonkeyPatch
) -> None:
    with Vault.open(vault_dir, key_source) as vault:
        vault.add("semantic", "one", vector=unit(1))
    with open(vault_dir / "audit.log", "ab") as handle:
        handle.write(b"dG9ybiBsaW5l")  # half a line: a crash mid-append
    refuse_writes(monkeypatch, vault_dir, FULL)
    with Vault.open(vault_dir, key_source) as vault:
        assert vault.read_only and len(vault) == 1
        monkeypatch.undo()
        vault.add("semantic", "two", vector=unit(2))
        assert vault.verify_audit().ok


def test_an_interrupted_forget_on_a_full_disk_is_one_clear_error_then_finished(
    vault_dir: Path, key_source: KeyringKeySource, monkeypatch: pytest.MonkeyPatch
) -> None:
    with Vault.open(vault_dir, key_source) as vault:
        doomed = vault.add("semantic", "to be forgotten", vector=unit(1))
        kept = vault.add("semantic", "kept", vector=unit(2))
    _crash(
        vault_dir,
        key_source,
        CRASH_POINTS["after the journal is written"],
        lambda vault: vault.forget([doomed.id]),
    )
    with pytest.MonkeyPatch.context() as patch:
        refuse_writes(patch, vault_dir, FULL)
        # The forgotten memory must not be shown, and the forget cannot be finished: refuse.
        with pytest.raises(VaultError, match="interrupted forget.*disk is full") as error:
            Vault.open(vault_dir, key_source)
        assert "\n" not in str(error.value)
    with Vault.open(vault_dir, key_source) as vault:
        assert [r.id for r in vault.list()] == [kept.id]
    assert not forget_journal.journal_path(vault_dir).exists()


def test_a_new_vault_cannot_be_made_on_a_read_only_disk(
    tmp_path: Path, key_source: KeyringKeySource, monkeypatch: pytest.MonkeyPatch
) -> None:
    target = tmp_path / "vault"
    target.mkdir()
    refuse_writes(monkeypatch, target, READ_ONLY)
    with pytest.raises(VaultError) as error:
        Vault.open(target, key_source)
    assert "\n" not in str(error.value)
    assert not isinstance(error.value, VaultReadOnlyError) or "read-only" in str(error.value)


def test_a_read_only_vault_can_still_be_exported_to_another_disk(
    vault_dir: Path, tmp_path: Path, key_source: KeyringKeySource, monkeypatch: pytest.MonkeyPatch
) -> None:
    from tests.memory.conftest import FAST_ARGON2

    kept = _with_an_orphan_key(vault_dir, key_source)
    refuse_writes(monkeypatch, vault_dir, FULL)
    backup = tmp_path / "elsewhere" / "rescue.dabk"
    backup.parent.mkdir()
    with Vault.open(vault_dir, key_source) as vault:
        summary = vault.export_backup(backup, "rescue passphrase", FAST_ARGON2)
        assert summary.memories == 1 and backup.exists()
    monkeypatch.undo()
    with Vault.open(tmp_path / "new-vault", key_source) as fresh:
        assert fresh.import_backup(backup, "rescue passphrase").imported == (kept,)
