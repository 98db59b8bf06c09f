"""Faults: damaged bytes, torn files, a full disk, crashes and a second process."""

from __future__ import annotations

import errno
import signal
import subprocess
import sys
import textwrap
from pathlib import Path

import lance
import pytest
from lance.commit import CommitConflictError

from desktop_agent.errors import VaultBusyError, VaultError
from desktop_agent.memory import NewMemory, Vault
from desktop_agent.memory import store as store_module
from desktop_agent.secrets import KeyringKeySource, PassphraseKeySource
from tests.memory.conftest import FAST_ARGON2, env_with_repo, unit


def data_files(vault_dir: Path) -> list[Path]:
    return sorted((vault_dir / "db" / "memories.lance" / "data").glob("*.lance"))


def test_a_flipped_ciphertext_byte_damages_only_that_row(
    vault_dir: Path, key_source: KeyringKeySource
) -> None:
    with Vault.open(vault_dir, key_source) as vault:
        records = vault.add_many([NewMemory("semantic", f"memory {i}", unit(i)) for i in range(5)])
        victim = records[2]
    blob = lance.dataset(vault_dir / "db" / "memories.lance").to_table().to_pylist()[2]["blob"]
    assert blob and len(data_files(vault_dir)) == 1
    path = data_files(vault_dir)[0]
    raw = bytearray(path.read_bytes())
    at = raw.find(blob[40:80])  # a stretch of this row's ciphertext, found in the data file
    assert at > 0
    raw[at + 5] ^= 0x01
    path.write_bytes(bytes(raw))
    with Vault.open(vault_dir, key_source) as vault:
        assert {r.id for r in vault.list()} == {r.id for r in records} - {victim.id}
        assert [d.memory_id for d in vault.damaged] == [victim.id]
        assert "authentication" in vault.damaged[0].reason
        vault.forget([victim.id])  # a damaged memory can still be forgotten
        assert vault.damaged == ()


def test_a_truncated_data_file_is_reported_and_the_rest_opens(
    vault_dir: Path, key_source: KeyringKeySource
) -> None:
    with Vault.open(vault_dir, key_source) as vault:
        first = vault.add("semantic", "in the first file", vector=unit(1))
        second = vault.add("semantic", "in the second file", vector=unit(2))
    files = sorted(data_files(vault_dir), key=lambda p: p.stat().st_mtime_ns)
    with open(files[0], "r+b") as handle:
        handle.truncate(files[0].stat().st_size // 2)
    with Vault.open(vault_dir, key_source) as vault:
        assert [r.id for r in vault.list()] == [second.id]
        assert any("unreadable data file" in d.reason for d in vault.damaged)
        assert first.id not in vault
        third = vault.add("semantic", "still writable", vector=unit(3))
    with Vault.open(vault_dir, key_source) as vault:
        assert {r.id for r in vault.list()} == {second.id, third.id}


@pytest.mark.parametrize("how", ["empty", "truncated"])
def test_a_torn_newest_manifest_is_set_aside(
    vault_dir: Path, key_source: KeyringKeySource, how: str
) -> None:
    with Vault.open(vault_dir, key_source) as vault:
        kept = vault.add("semantic", "committed earlier", vector=unit(1))
        vault.add("semantic", "in the torn version", vector=unit(2))
    versions = vault_dir / "db" / "memories.lance" / "_versions"
    newest = sorted(versions.glob("*.manifest"))[0]
    size = newest.stat().st_size
    with open(newest, "r+b") as handle:
        handle.truncate(0 if how == "empty" else size // 3)
    with Vault.open(vault_dir, key_source) as vault:
        assert [r.id for r in vault.list()] == [kept.id]
        assert any("set aside" in d.reason for d in vault.damaged)
        assert (vault_dir / "quarantine" / f"memories-{newest.name}").exists()
        vault.add("semantic", "writes go on", vector=unit(3))
    with Vault.open(vault_dir, key_source) as vault:
        assert len(vault) == 2


def test_disk_full_during_a_write(
    vault_dir: Path, key_source: KeyringKeySource, monkeypatch: pytest.MonkeyPatch
) -> None:
    with Vault.open(vault_dir, key_source) as vault:
        kept = vault.add("semantic", "before the disk filled", vector=unit(1))

        def full(*_args: object, **_kwargs: object) -> None:
            raise OSError(errno.ENOSPC, "No space left on device")

        monkeypatch.setattr(store_module.lance, "write_dataset", full)
        with pytest.raises(VaultError, match="the disk is full; nothing was saved"):
            vault.add("semantic", "lost to a full disk", vector=unit(2))
        with pytest.raises(VaultError, match="disk is full"):
            vault.update(kept.id, text="an edit that cannot be saved")
        assert [r.text for r in vault.list()] == ["before the disk filled"]
        monkeypatch.undo()
        later = vault.add("semantic", "after space was freed", vector=unit(3))
    with Vault.open(vault_dir, key_source) as vault:
        assert {r.id for r in vault.list()} == {kept.id, later.id}
        assert vault.verify_audit().ok


def test_disk_full_in_the_key_journal(
    vault_dir: Path, key_source: KeyringKeySource, monkeypatch: pytest.MonkeyPatch
) -> None:
    from desktop_agent.memory import keystore

    with Vault.open(vault_dir, key_source) as vault:

        def full(path: Path, data: bytes) -> None:
            raise VaultError(
                "cannot write journal-1.bin: the disk is full; nothing was saved. Free some space and try again"
            )

        monkeypatch.setattr(keystore, "append_durable", full)
        with pytest.raises(VaultError, match="disk is full"):
            vault.add("semantic", "no key, no row", vector=unit(1))
        assert len(vault) == 0


CHILD_WRITER = textwrap.dedent(
    """
    import sys
    import numpy as np
    from desktop_agent.memory import Vault
    from desktop_agent.secrets import Argon2Params, PassphraseKeySource
    source = PassphraseKeySource("kill nine test", Argon2Params(1, 1024, 1))
    with Vault.open(sys.argv[1], source) as vault:
        print("ready", flush=True)
        i = 0
        while True:
            vector = np.random.default_rng(i).standard_normal(384).astype(np.float32)
            record = vault.add("semantic", f"memory number {i}", vector=vector)
            print(record.id, flush=True)  # printed only after add() returned: acknowledged
            i += 1
    """
)


def test_kill_9_during_writes_loses_no_acknowledged_memory(vault_dir: Path, tmp_path: Path) -> None:
    script = tmp_path / "writer.py"
    script.write_text(CHILD_WRITER)
    with subprocess.Popen(
        [sys.executable, str(script), str(vault_dir)],
        stdout=subprocess.PIPE,
        text=True,
        env=env_with_repo(),
    ) as child:
        assert child.stdout is not None
        assert child.stdout.readline().strip() == "ready"
        acknowledged = [child.stdout.readline().strip() for _ in range(25)]
        child.send_signal(signal.SIGKILL)
        child.wait(timeout=30)
        acknowledged += [line.strip() for line in child.stdout if line.strip()]
    with Vault.open(vault_dir, PassphraseKeySource("kill nine test", FAST_ARGON2)) as vault:
        assert set(acknowledged) <= {r.id for r in vault.list()}
        assert not [d for d in vault.damaged if d.memory_id in acknowledged]


CHILD_HOLDER = textwrap.dedent(
    """
    import sys, time
    from desktop_agent.memory import Vault
    from desktop_agent.secrets import Argon2Params, PassphraseKeySource
    with Vault.open(sys.argv[1], PassphraseKeySource("two processes", Argon2Params(1, 1024, 1))):
        print("ready", flush=True)
        time.sleep(60)
    """
)


def test_a_second_process_gets_a_clear_message(vault_dir: Path, tmp_path: Path) -> None:
    script = tmp_path / "holder.py"
    script.write_text(CHILD_HOLDER)
    with subprocess.Popen(
        [sys.executable, str(script), str(vault_dir)],
        stdout=subprocess.PIPE,
        text=True,
        env=env_with_repo(),
    ) as child:
        try:
            assert child.stdout is not None and child.stdout.readline().strip() == "ready"
            with pytest.raises(VaultBusyError, match=f"in use by process {child.pid}"):
                Vault.open(vault_dir, PassphraseKeySource("two processes", FAST_ARGON2))
        finally:
            child.kill()
            child.wait(timeout=30)
    with Vault.open(vault_dir, PassphraseKeySource("two processes", FAST_ARGON2)) as vault:
        assert len(vault) == 0


def test_a_second_open_in_the_same_process_is_refused(
    vault_dir: Path, key_source: KeyringKeySource
) -> None:
    with Vault.open(vault_dir, key_source), pytest.raises(VaultBusyError, match="in use"):
        Vault.open(vault_dir, key_source)


def test_a_commit_conflict_is_retried(vault: Vault, monkeypatch: pytest.MonkeyPatch) -> None:
    real = store_module.lance.write_dataset
    failures = iter([True, True])

    def conflicting(*args: object, **kwargs: object) -> object:
        if next(failures, False):
            raise CommitConflictError("commit conflict for version 3", retryable=True)
        return real(*args, **kwargs)

    monkeypatch.setattr(store_module.lance, "write_dataset", conflicting)
    record = vault.add("semantic", "made it on the third try", vector=unit(1))
    assert vault.get(record.id).text == "made it on the third try"
    assert next(failures, "used up") == "used up"


def test_a_torn_key_journal_append_is_cut_at_unlock(
    vault_dir: Path, key_source: KeyringKeySource
) -> None:
    with Vault.open(vault_dir, key_source) as vault:
        kept = vault.add("semantic", "before the crash", vector=unit(1))
    journal = vault_dir / "keys" / "journal-1.bin"
    with open(journal, "ab") as handle:
        handle.write(b"\x50\x00\x00\x00torn")  # a record header promising 80 bytes, then a crash
    with Vault.open(vault_dir, key_source) as vault:
        later = vault.add("semantic", "after the crash", vector=unit(2))
    with Vault.open(vault_dir, key_source) as vault:
        assert {r.id for r in vault.list()} == {kept.id, later.id}
