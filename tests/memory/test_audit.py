"""The audit log is append-only: removing, altering or cutting off entries is detected."""

from __future__ import annotations

from pathlib import Path

from desktop_agent.memory import NewMemory, Vault
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


# --- fixed-size lines (issue 13, item 9) -------------------------------------------------------


def _line_lengths(vault_dir: Path) -> set[int]:
    return {len(line) for line in (vault_dir / "audit.log").read_bytes().splitlines()}


def test_every_line_has_the_same_length_whatever_the_action_or_id_count(
    vault_dir: Path, key_source: KeyringKeySource
) -> None:
    with Vault.open(vault_dir, key_source) as vault:
        one = vault.add("semantic", "one", vector=unit(1))
        vault.add_many([NewMemory("semantic", f"batch {i}", unit(10 + i)) for i in range(7)])
        vault.update(one.id, text="one, edited")
        vault.forget([one.id])
        vault.rotate_keys()
        actions = [e.action for e in vault.audit_entries()]
        assert vault.verify_audit().ok
    assert actions == ["unlock", "add", "add", "edit", "forget", "rotate"]
    assert len(_line_lengths(vault_dir)) == 1


def test_an_entry_too_big_for_one_line_spans_several_of_the_same_length(
    vault_dir: Path, key_source: KeyringKeySource
) -> None:
    with Vault.open(vault_dir, key_source) as vault:
        added = vault.add_many([NewMemory("semantic", f"memory {i}", unit(i)) for i in range(120)])
        vault.add("semantic", "after the big one", vector=unit(500))
    assert len(_line_lengths(vault_dir)) == 1
    assert len((vault_dir / "audit.log").read_bytes().splitlines()) > 4
    with Vault.open(vault_dir, key_source) as vault:
        entries = vault.audit_entries()
        assert vault.verify_audit().ok
    assert [e.action for e in entries] == ["unlock", "add", "add", "unlock"]
    assert [e.seq for e in entries] == [1, 2, 3, 4]
    assert entries[1].ids == tuple(r.id for r in added) and entries[1].count == 120


def test_a_torn_append_of_a_long_entry_is_cut_at_the_next_open(
    vault_dir: Path, key_source: KeyringKeySource
) -> None:
    with Vault.open(vault_dir, key_source) as vault:
        vault.add("semantic", "kept", vector=unit(1))
        size = (vault_dir / "audit.log").stat().st_size
        head = (vault_dir / "audit.head").read_bytes()
        vault.add_many([NewMemory("semantic", f"m {i}", unit(i)) for i in range(60)])
    log = vault_dir / "audit.log"
    data = log.read_bytes()
    lines = data[size:].splitlines(keepends=True)
    # The process died mid-append: two whole lines of the entry and half a third, head not moved.
    log.write_bytes(data[:size] + b"".join(lines[:2]) + lines[2][:100])
    (vault_dir / "audit.head").write_bytes(head)
    with Vault.open(vault_dir, key_source) as vault:
        assert vault.verify_audit().ok
        assert [e.action for e in vault.audit_entries()] == ["unlock", "add", "unlock"]


def _write_format_1_log(vault_dir: Path, key_id: str, key: bytes, actions: list[str]) -> None:
    """The log as desktop-agent wrote it before fixed-size lines: one sealed JSON entry per
    line, its number and the previous line's hash in the associated data."""
    import base64
    import hashlib
    import json

    from desktop_agent.memory.crypto import aad, seal_with_key

    previous, out = b"\x00" * 32, b""
    for seq, action in enumerate(actions, start=1):
        body = {
            "seq": seq,
            "at": "2026-11-01T10:00:00+00:00",
            "action": action,
            "ids": ["ab" * 16] * (seq % 3),
            "kinds": ["semantic"] * (seq % 3),
            "count": seq % 3,
            "epoch": 1,
            "detail": {},
        }
        blob = seal_with_key(
            key, json.dumps(body).encode(), aad("audit", str(seq), "entry", key_id) + previous
        )
        line = base64.b64encode(blob) + b"\n"
        out += line
        previous = hashlib.sha256(previous + line).digest()
    (vault_dir / "audit.log").write_bytes(out)
    head = json.dumps({"seq": len(actions), "hash": previous.hex(), "size": len(out)}).encode()
    (vault_dir / "audit.head").write_bytes(
        seal_with_key(key, head, aad("audit", "head", "head", key_id))
    )


def test_a_log_in_the_old_format_stays_readable_and_grows_in_the_new_one(
    vault_dir: Path, key_source: KeyringKeySource
) -> None:
    with Vault.open(vault_dir, key_source) as vault:
        key_id, key = vault._state.audit_key()
    _write_format_1_log(vault_dir, key_id, key, ["unlock", "add", "edit", "add", "forget"])
    with Vault.open(vault_dir, key_source) as vault:
        vault.add("semantic", "new", vector=unit(1))
        report = vault.verify_audit()
        entries = vault.audit_entries()
    assert report.ok and report.entries == 7
    assert [e.action for e in entries] == [
        "unlock",
        "add",
        "edit",
        "add",
        "forget",
        "unlock",
        "add",
    ]
    assert [e.seq for e in entries] == list(range(1, 8))
    assert all(e.verified for e in entries)
    old, new = (
        (vault_dir / "audit.log").read_bytes().splitlines()[:5],
        (vault_dir / "audit.log").read_bytes().splitlines()[5:],
    )
    assert len({len(line) for line in new}) == 1 and len(new[0]) > max(len(x) for x in old)


# --- after a break (issue 13, item 9) ----------------------------------------------------------


def test_entries_after_a_removed_one_are_shown_unverified(
    vault_dir: Path, key_source: KeyringKeySource
) -> None:
    filled(vault_dir, key_source)  # unlock, add, edit, add, forget
    path = vault_dir / "audit.log"
    lines = path.read_bytes().splitlines(keepends=True)
    path.write_bytes(b"".join(lines[:2] + lines[3:]))  # the edit is gone
    with Vault.open(vault_dir, key_source) as vault:
        entries = vault.audit_entries()
        report = vault.verify_audit()
    assert [(e.action, e.verified) for e in entries] == [
        ("unlock", True),
        ("add", True),
        ("add", False),
        ("forget", False),
        ("unlock", False),  # this open's own entry chains on, but what came before is broken
    ]
    assert [e.seq for e in entries] == [1, 2, 4, 5, 6]
    assert not report.ok and report.entries == 2
    assert "breaks at entry 3" in report.problems[0]
    assert any("3 later entries" in p for p in report.problems)


def test_entries_after_an_altered_one_are_shown_unverified(
    vault_dir: Path, key_source: KeyringKeySource
) -> None:
    filled(vault_dir, key_source)
    path = vault_dir / "audit.log"
    lines = path.read_bytes().splitlines(keepends=True)
    line = bytearray(lines[1])
    line[20] = ord("A") if line[20] != ord("A") else ord("B")
    lines[1] = bytes(line)
    path.write_bytes(b"".join(lines))
    with Vault.open(vault_dir, key_source) as vault:
        entries = vault.audit_entries()
        report = vault.verify_audit()
    assert [(e.seq, e.verified) for e in entries] == [
        (1, True),
        (3, False),
        (4, False),
        (5, False),
        (6, False),
    ]
    assert any("1 lines cannot be read" in p for p in report.problems)


def test_reordered_entries_are_shown_unverified(
    vault_dir: Path, key_source: KeyringKeySource
) -> None:
    filled(vault_dir, key_source)
    path = vault_dir / "audit.log"
    lines = path.read_bytes().splitlines(keepends=True)
    path.write_bytes(b"".join([lines[0], lines[2], lines[1], *lines[3:]]))
    with Vault.open(vault_dir, key_source) as vault:
        entries = vault.audit_entries()
    assert [(e.seq, e.verified) for e in entries][:3] == [(1, True), (3, False), (2, False)]


def test_an_old_format_log_with_a_removed_line_shows_the_new_entries_after_it(
    vault_dir: Path, key_source: KeyringKeySource
) -> None:
    with Vault.open(vault_dir, key_source) as vault:
        key_id, key = vault._state.audit_key()
    _write_format_1_log(vault_dir, key_id, key, ["unlock", "add", "edit", "add", "forget", "add"])
    path = vault_dir / "audit.log"
    lines = path.read_bytes().splitlines(keepends=True)
    path.write_bytes(b"".join(lines[:2] + lines[3:]))
    with Vault.open(vault_dir, key_source) as vault:
        entries = vault.audit_entries()
    # An old-format line is sealed onto the hash of every line before it: after the gap none
    # of them opens any more (they are counted as unreadable). New-format lines still do.
    assert [(e.seq, e.verified) for e in entries] == [(1, True), (2, True), (7, False)]
    with Vault.open(vault_dir, key_source) as vault:
        assert any("3 lines cannot be read" in p for p in vault.verify_audit().problems)
