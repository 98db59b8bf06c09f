"""The audit log is append-only: removing, altering or cutting off entries is detected."""

from __future__ import annotations

from pathlib import Path

from desktop_agent.memory import Vault
from desktop_agent.secrets import KeyringKeySource
from tests.memory.conftest import unit


def filled(vault_dir: Path, source: KeyringKeySource) -> list[str]:
    with Vault.open(vault_dir, source) as vault:
        record = vault.add("semantic", "the secret text", vector=unit(1))
        vault.update(record.id, text="the secret text, edited")
        other = vault.add("semantic", "another", vector=unit(2))
        vault.forget([other.id])
        assert vault.verify_audit().ok
        actions = [e.action for e in vault.audit_entries()]
    log = (vault_dir / "audit.log").read_bytes()
    assert b"secret" not in log
    return actions


def verify(vault_dir: Path, source: KeyringKeySource) -> list[str]:
    with Vault.open(vault_dir, source) as vault:
        # the unlock entry this open appended chains onto whatever is there: check before it
        return list(vault.verify_audit().problems)


def test_every_change_is_logged_and_the_chain_verifies(
    vault_dir: Path, key_source: KeyringKeySource
) -> None:
    assert filled(vault_dir, key_source) == ["unlock", "add", "edit", "add", "forget"]
    assert verify(vault_dir, key_source) == []


def test_a_removed_entry_breaks_the_chain(vault_dir: Path, key_source: KeyringKeySource) -> None:
    filled(vault_dir, key_source)
    path = vault_dir / "audit.log"
    lines = path.read_bytes().splitlines(keepends=True)
    path.write_bytes(b"".join(lines[:2] + lines[3:]))
    assert any("breaks at entry 3" in p for p in verify(vault_dir, key_source))


def test_an_altered_entry_breaks_the_chain(vault_dir: Path, key_source: KeyringKeySource) -> None:
    filled(vault_dir, key_source)
    path = vault_dir / "audit.log"
    lines = path.read_bytes().splitlines(keepends=True)
    line = bytearray(lines[1])
    line[20] = ord("A") if line[20] != ord("A") else ord("B")
    lines[1] = bytes(line)
    path.write_bytes(b"".join(lines))
    assert any("breaks at entry 2" in p for p in verify(vault_dir, key_source))


def test_entries_cut_off_the_end_are_detected(
    vault_dir: Path, key_source: KeyringKeySource
) -> None:
    filled(vault_dir, key_source)
    path = vault_dir / "audit.log"
    lines = path.read_bytes().splitlines(keepends=True)
    path.write_bytes(b"".join(lines[:-2]))
    with Vault.open(vault_dir, key_source) as vault:
        report = vault.verify_audit()
    # This open's own "unlock" entry chains onto the sealed head, which names the lost entries.
    assert not report.ok and "breaks at entry 4" in report.problems[0]


def test_a_torn_last_line_from_a_crash_is_healed(
    vault_dir: Path, key_source: KeyringKeySource
) -> None:
    filled(vault_dir, key_source)
    with open(vault_dir / "audit.log", "ab") as handle:
        handle.write(b"dG9ybiBsaW5l")  # half a line, no newline: a crash mid-append
    with Vault.open(vault_dir, key_source) as vault:
        assert vault.verify_audit().ok
        assert vault.audit_entries()[-1].action == "unlock"


def test_the_sealed_head_catches_a_cut_off_end(
    vault_dir: Path, key_source: KeyringKeySource
) -> None:
    with Vault.open(vault_dir, key_source) as vault:
        vault.add("semantic", "one", vector=unit(1))
        vault.add("semantic", "two", vector=unit(2))
        path = vault_dir / "audit.log"
        lines = path.read_bytes().splitlines(keepends=True)
        path.write_bytes(b"".join(lines[:-1]))
        report = vault.verify_audit()
    assert not report.ok and "removed from the end" in report.problems[0]


def test_a_deleted_head_never_cuts_the_log(vault_dir: Path, key_source: KeyringKeySource) -> None:
    filled(vault_dir, key_source)
    log = vault_dir / "audit.log"
    before = log.read_bytes()
    (vault_dir / "audit.head").unlink()
    with Vault.open(vault_dir, key_source) as vault:
        assert log.read_bytes().startswith(before)  # history kept; the gap is reported
        assert not vault.verify_audit().ok


def test_a_line_the_head_missed_is_adopted(vault_dir: Path, key_source: KeyringKeySource) -> None:
    filled(vault_dir, key_source)
    head = (vault_dir / "audit.head").read_bytes()
    with Vault.open(vault_dir, key_source):
        pass  # appends "unlock"
    (vault_dir / "audit.head").write_bytes(head)  # crash between the line and the head
    with Vault.open(vault_dir, key_source) as vault:
        assert vault.verify_audit().ok
        assert [e.action for e in vault.audit_entries()][-2:] == ["unlock", "unlock"]
