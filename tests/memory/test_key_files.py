"""Key files survive one bad byte: each is kept twice, journal records are sealed one by one.

A flipped byte in ``keystore-N.bin``, in its copy or in a key-journal record costs at most the
records it touched; the vault opens, and the status or the damage list names the file (and
the record), never "restore the keyring entry", which would not be the problem.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from desktop_agent.errors import VaultError
from desktop_agent.memory import Vault
from desktop_agent.memory.crypto import BlobError, open_with_key
from desktop_agent.memory.key_files import LENGTH
from desktop_agent.memory.keystore import _decode
from desktop_agent.secrets import KeyringKeySource
from tests.memory.conftest import snapshot, unit


def keys_dir(vault_dir: Path) -> Path:
    return vault_dir / "keys"


def flip(path: Path, at: int) -> None:
    raw = bytearray(path.read_bytes())
    raw[at] ^= 0x40
    path.write_bytes(bytes(raw))


def frames(path: Path) -> list[tuple[int, int]]:
    """(start, end) of each framed record of a key journal."""
    data, at, out = path.read_bytes(), 0, []
    while at < len(data):
        (length,) = LENGTH.unpack_from(data, at)
        out.append((at, at + LENGTH.size + length))
        at += LENGTH.size + length
    return out


def two_epochs(vault_dir: Path, key_source: KeyringKeySource) -> dict[str, str]:
    """Three memories whose keys are in keystore-2.bin (after a rotation), then two whose keys
    are in journal-2.bin, one record each; returns text -> id."""
    with Vault.open(vault_dir, key_source) as vault:
        first = [vault.add("semantic", f"old fact {i}", vector=unit(i)) for i in range(3)]
        vault.rotate_keys()
        later = [vault.add("semantic", f"new fact {i}", vector=unit(10 + i)) for i in range(2)]
        assert vault._state.keys.epoch == 2
    return {record.text: record.id for record in [*first, *later]}


def texts(vault: Vault) -> set[str]:
    return {record.text for record in vault.list()}


def messages(vault: Vault) -> str:
    status = vault.status()
    parts = [*status.extra["key_files"], *(f"{d.where}: {d.reason}" for d in vault.damaged)]
    return "\n".join(parts)


@pytest.mark.parametrize("name", ["keystore-2.bin", "keystore-2.bin.copy"])
@pytest.mark.parametrize("where", ["version byte", "nonce", "middle", "last byte"])
def test_a_flipped_byte_in_a_keystore_copy_loses_nothing(
    vault_dir: Path, key_source: KeyringKeySource, name: str, where: str
) -> None:
    memories = two_epochs(vault_dir, key_source)
    path = keys_dir(vault_dir) / name
    size = path.stat().st_size
    flip(path, {"version byte": 0, "nonce": 5, "middle": size // 2, "last byte": size - 1}[where])
    with Vault.open(vault_dir, key_source) as vault:
        assert texts(vault) == set(memories)
        assert vault.damaged == ()
        said = messages(vault)
        assert f"keys/{name} was damaged" in said
        assert "keyring" not in said
    # Rewritten from the good copy at that open: the next open finds nothing wrong.
    keystore = keys_dir(vault_dir) / "keystore-2.bin"
    assert keystore.read_bytes() == (keys_dir(vault_dir) / "keystore-2.bin.copy").read_bytes()
    with Vault.open(vault_dir, key_source) as vault:
        assert texts(vault) == set(memories)
        assert vault.status().extra["key_files"] == []


@pytest.mark.parametrize("name", ["journal-2.bin", "journal-2.bin.copy"])
@pytest.mark.parametrize(
    ("record", "where"),
    [(0, "length"), (0, "nonce"), (1, "length"), (1, "middle"), (1, "last byte")],
)
def test_a_flipped_byte_in_one_journal_copy_loses_nothing(
    vault_dir: Path, key_source: KeyringKeySource, name: str, record: int, where: str
) -> None:
    memories = two_epochs(vault_dir, key_source)
    path = keys_dir(vault_dir) / name
    start, end = frames(path)[record]
    offset = {"length": 3, "nonce": 6, "middle": (end - start) // 2, "last byte": end - start - 1}
    flip(path, start + offset[where])
    with Vault.open(vault_dir, key_source) as vault:
        assert texts(vault) == set(memories)
        assert vault.damaged == ()
        said = messages(vault)
        assert f"keys/{name} was damaged" in said
        assert "keyring" not in said
        vault.add("semantic", "after the repair", vector=unit(30))
    with Vault.open(vault_dir, key_source) as vault:
        assert texts(vault) == {*memories, "after the repair"}
        assert vault.status().extra["key_files"] == []


def test_a_journal_record_damaged_in_both_copies_costs_only_its_keys(
    vault_dir: Path, key_source: KeyringKeySource
) -> None:
    memories = two_epochs(vault_dir, key_source)
    for name in ["journal-2.bin", "journal-2.bin.copy"]:
        start, end = frames(keys_dir(vault_dir) / name)[0]  # the key of "new fact 0"
        flip(keys_dir(vault_dir) / name, (start + end) // 2)
    with Vault.open(vault_dir, key_source) as vault:
        assert texts(vault) == set(memories) - {"new fact 0"}
        damaged = {d.where: d for d in vault.damaged}
        assert "keys/journal-2.bin record 0" in damaged
        assert "the data keys in it are lost" in damaged["keys/journal-2.bin record 0"].reason
        assert damaged[f"row {memories['new fact 0']}/1"].reason == "missing key"
        assert "keyring" not in messages(vault)
        vault.add("semantic", "written after the loss", vector=unit(31))
    with Vault.open(vault_dir, key_source) as vault:  # later records still line up
        assert texts(vault) == set(memories) - {"new fact 0"} | {"written after the loss"}
        vault.forget([memories["new fact 0"]])  # the unreadable memory can still be forgotten
    with Vault.open(vault_dir, key_source) as vault:
        assert vault.damaged == ()
        assert texts(vault) == set(memories) - {"new fact 0"} | {"written after the loss"}


def test_both_keystore_copies_damaged_names_the_file_and_changes_nothing(
    vault_dir: Path, key_source: KeyringKeySource
) -> None:
    two_epochs(vault_dir, key_source)
    for name in ["keystore-2.bin", "keystore-2.bin.copy"]:
        flip(keys_dir(vault_dir) / name, 20)
    before = snapshot(vault_dir)
    with pytest.raises(VaultError) as raised:
        Vault.open(vault_dir, key_source)
    assert "keys/keystore-2.bin is damaged and has no good copy" in str(raised.value)
    assert "Restore the matching keyring entry" not in str(raised.value)
    assert snapshot(vault_dir) == before


def test_a_vault_without_copies_gets_them_at_its_next_open(
    vault_dir: Path, key_source: KeyringKeySource
) -> None:
    memories = two_epochs(vault_dir, key_source)
    for path in keys_dir(vault_dir).glob("*.copy"):
        path.unlink()  # as written before key files had copies
    with Vault.open(vault_dir, key_source) as vault:
        assert texts(vault) == set(memories)
        assert vault.status().extra["key_files"] == []
    names = sorted(path.name for path in keys_dir(vault_dir).iterdir())
    assert names == ["journal-2.bin", "journal-2.bin.copy", "keystore-2.bin", "keystore-2.bin.copy"]
    flip(keys_dir(vault_dir) / "keystore-2.bin", 9)
    with Vault.open(vault_dir, key_source) as vault:
        assert texts(vault) == set(memories)


def key_ids_in(vault_dir: Path, keks: dict[int, bytes], vault_id: str) -> set[str]:
    """Every data key id any key file (either copy) holds that any of ``keks`` opens."""
    found: set[str] = set()
    for path in keys_dir(vault_dir).iterdir():
        for epoch, kek in keks.items():
            base = f"keystore\x00{vault_id}\x00{epoch}\x00".encode()
            blobs = [(b"snapshot\x000", path.read_bytes())]
            if path.name.startswith("journal"):
                data = path.read_bytes()
                blobs = [
                    (b"journal\x00%d" % i, data[start + LENGTH.size : end])
                    for i, (start, end) in enumerate(frames(path))
                ]
            for what, blob in blobs:
                try:
                    found |= {key.id for key in _decode(open_with_key(kek, blob, base + what))}
                except BlobError:
                    continue
    return found


def test_forget_leaves_no_copy_of_a_destroyed_key(
    vault_dir: Path, key_source: KeyringKeySource
) -> None:
    with Vault.open(vault_dir, key_source) as vault:
        kept = vault.add("semantic", "kept", vector=unit(1))
        doomed = vault.add("semantic", "doomed", vector=unit(2))
        keks = {1: vault._state.keys._kek}
        vault.rotate_keys()  # the doomed key is now in keystore-2.bin and its copy
        vault.add("semantic", "in the journal", vector=unit(3))
        keks[2] = vault._state.keys._kek
        vault_id = vault._state.keys.header.vault_id
        (doomed_key,) = {key for _v, key in vault.versions_of(doomed.id)}
        assert doomed_key in key_ids_in(vault_dir, keks, vault_id)
        vault.forget([doomed.id])
        keks[3] = vault._state.keys._kek
    names = sorted(path.name for path in keys_dir(vault_dir).iterdir())
    assert names == ["keystore-3.bin", "keystore-3.bin.copy"]
    left = key_ids_in(vault_dir, keks, vault_id)
    assert doomed_key not in left and left
    with Vault.open(vault_dir, key_source) as vault:
        assert texts(vault) == {kept.text, "in the journal"}
