"""`desktop-agent memory ...` end to end through the click command line, with the in-memory keyring."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from desktop_agent.app import App
from desktop_agent.cli import main, memory_cmd
from desktop_agent.embed import HashingEmbedder
from desktop_agent.secrets.memory_backend import InMemoryKeyring


@pytest.fixture
def cli(
    memory_keyring: InMemoryKeyring,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
):
    monkeypatch.setattr(App, "embedder", property(lambda self: HashingEmbedder()))

    def run(*argv: str) -> tuple[int, str, str]:
        code = main(["memory", *argv])
        out, err = capsys.readouterr()
        return code, out, err

    return run


def test_add_list_show_edit_forget(cli) -> None:
    code, out, _ = cli("add", "The user likes hiking")
    memory_id = out.strip()
    assert code == 0 and len(memory_id) == 32
    code, out, _ = cli("add", "Met Ana at the café", "--kind", "episodic", "--json")
    added = json.loads(out)["memory"]
    assert added["kind"] == "episodic" and added["text"] == "Met Ana at the café"
    code, out, _ = cli("list", "--json")
    listing = json.loads(out)
    assert listing["count"] == 2 and {m["id"] for m in listing["memories"]} == {
        memory_id,
        added["id"],
    }
    assert set(listing["memories"][0]) == {
        "id",
        "kind",
        "text",
        "meta",
        "created_at",
        "updated_at",
        "conversation_id",
        "source_id",
        "version",
    }
    code, out, _ = cli("list", "--kind", "semantic")
    assert memory_id in out and added["id"] not in out
    code, out, _ = cli("edit", memory_id, "The user loves hiking", "--json")
    assert json.loads(out)["memory"]["version"] == 2
    code, out, _ = cli("show", memory_id, "--json")
    shown = json.loads(out)
    assert [v["text"] for v in shown["history"]] == [
        "The user likes hiking",
        "The user loves hiking",
    ]
    code, out, _ = cli("show", memory_id)
    assert "The user loves hiking" in out and "earlier versions" in out
    code, out, _ = cli("forget", memory_id, "--json")
    receipt = json.loads(out)
    assert receipt["forgotten"] == [{"id": memory_id, "kind": "semantic"}] and receipt["epoch"] == 2
    code, out, err = cli("show", memory_id)
    assert code != 0 and "no memory with id" in err and "Traceback" not in err


def test_forget_all_needs_yes(cli) -> None:
    cli("add", "one")
    code, _out, err = cli("forget", "--all")
    assert code != 0 and "--yes" in err
    code, _out, err = cli("forget")
    assert code != 0 and "which memories" in err
    code, out, _ = cli("forget", "--all", "--yes", "--json")
    assert code == 0 and len(json.loads(out)["forgotten"]) == 1
    assert json.loads(cli("list", "--json")[1])["count"] == 0


def test_export_import_audit_keys(cli, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DESKTOP_AGENT_PASSPHRASE", "a long backup passphrase")
    cli("add", "remember the milk")
    backup = tmp_path / "out.backup"
    code, out, _ = cli("export", str(backup), "--json")
    assert code == 0 and json.loads(out) == {"file": str(backup), "memories": 1, "versions": 1}
    code, out, _ = cli("import", str(backup), "--json")
    result = json.loads(out)
    assert result["imported"] == [] and len(result["skipped"]) == 1
    code, out, _ = cli("audit", "--json")
    actions = [e["action"] for e in json.loads(out)["entries"]]
    assert "add" in actions and "export" in actions and "import" in actions
    code, out, _ = cli("audit", "--verify", "--json")
    assert code == 0 and json.loads(out)["ok"] is True
    code, out, _ = cli("keys", "status", "--json")
    status = json.loads(out)
    assert status["mode"] == "keyring" and status["epoch"] == 1 and status["memories"] == 1
    assert status["damaged"] == []
    code, out, _ = cli("keys", "rotate", "--json")
    assert json.loads(out) == {"epoch": 2, "previous_epoch": 1}


def test_audit_verify_fails_with_exit_1(cli, agent_home: Path) -> None:
    cli("add", "x")
    cli("add", "y")
    log = App().paths.vault_dir / "audit.log"
    lines = log.read_bytes().splitlines(keepends=True)
    log.write_bytes(b"".join(lines[:1] + lines[2:]))
    code, out, _ = cli("audit", "--verify")
    assert code == 1 and "breaks at entry 2" in out


def test_audit_shows_entries_after_a_break_marked_unverified(cli, agent_home: Path) -> None:
    cli("add", "x")
    cli("add", "y")
    cli("add", "z")
    log = App().paths.vault_dir / "audit.log"
    lines = log.read_bytes().splitlines(keepends=True)
    log.write_bytes(b"".join(lines[:2] + lines[3:]))  # the second open's entry is gone
    code, out, err = cli("audit")
    assert code == 0 and "Traceback" not in err
    shown = out.splitlines()
    assert len(shown) == len(lines)  # one gone, this open's own entry added
    assert [("unverified" in line) for line in shown] == [False] * 2 + [True] * (len(lines) - 2)
    assert "breaks at entry 3" in err and "unverified" in err
    code, out, _ = cli("audit", "--json")
    entries = json.loads(out)["entries"]
    assert [e["verified"] for e in entries][:3] == [True, True, False]
    assert "breaks at entry 3" in json.loads(out)["problems"][0]


def test_forget_past_a_damaged_data_file_says_so_in_one_line(cli, agent_home: Path) -> None:
    cli("add", "in the file that breaks")
    code, out, _ = cli("add", "to be forgotten", "--json")
    doomed = json.loads(out)["memory"]["id"]
    data = sorted(
        (App().paths.vault_dir / "db" / "memories.lance" / "data").glob("*.lance"),
        key=lambda p: p.stat().st_mtime_ns,
    )[0]
    with open(data, "r+b") as handle:
        handle.truncate(data.stat().st_size // 2)
    code, out, err = cli("forget", doomed)
    assert code == 1 and "Traceback" not in err
    assert out.startswith("forgot 1 memory")
    (line,) = err.strip().splitlines()
    assert line.startswith("desktop-agent: error: ") and "fragment 0" in line and ".lance" in line
    code, out, _ = cli("list", "--json")
    assert code == 0 and doomed not in out


def test_a_full_disk_leaves_memory_readable_and_says_why_writing_is_off(
    cli, agent_home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import errno

    from tests.memory.conftest import refuse_writes

    cli("add", "The user likes green tea")
    refuse_writes(monkeypatch, App().paths.vault_dir, errno.ENOSPC)
    code, out, err = cli("list")
    assert code == 0 and "likes green tea" in out
    assert "read-only" in err and "the disk is full" in err
    code, out, _ = cli("search", "green tea", "--json")
    assert code == 0 and "likes green tea" in out
    code, out, _ = cli("keys", "status", "--json")
    assert code == 0 and json.loads(out)["read_only"] == "the disk is full"
    code, out, _ = cli("keys", "status")
    assert code == 0 and "writing:      off: the disk is full" in out
    for argv in (("add", "cannot be saved"), ("keys", "rotate"), ("keys", "rotate", "--rekey")):
        code, out, err = cli(*argv)
        assert code == 1 and "Traceback" not in err
        (line,) = err.strip().splitlines()
        assert line.startswith("desktop-agent: error: memory is read-only because the disk is full")
    monkeypatch.undo()
    code, out, _ = cli("keys", "status", "--json")
    assert json.loads(out)["read_only"] is None


def test_keys_status_says_what_forgetting_reaches_in_each_mode(
    cli, agent_home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from desktop_agent.memory import Vault
    from desktop_agent.secrets import PassphraseKeySource
    from tests.memory.conftest import FAST_ARGON2

    code, out, _ = cli("keys", "status", "--json")
    assert json.loads(out)["forget_reaches_copies"] is True
    code, out, _ = cli("keys", "status")
    assert "cannot reach" not in out
    # A second home in passphrase mode.
    monkeypatch.setenv("DESKTOP_AGENT_HOME", str(agent_home.parent / "passphrase-home"))
    monkeypatch.setenv("DESKTOP_AGENT_PASSPHRASE", "a passphrase for this test")
    Vault.open(App().paths.vault_dir, PassphraseKeySource(params=FAST_ARGON2)).close()
    code, out, _ = cli("keys", "status", "--json")
    assert code == 0 and json.loads(out)["forget_reaches_copies"] is False
    code, out, _ = cli("keys", "status")
    assert "forgetting:   cannot reach copies of this folder made before a forget" in out


def test_odd_text_prints_without_a_traceback(cli) -> None:
    code, out, _ = cli("add", "lone \ud800 surrogate and NUL \x00")
    memory_id = out.strip()
    code, out, _ = cli("show", memory_id)
    assert code == 0 and "\\ud800" in out
    code, out, _ = cli("show", memory_id, "--json")
    assert json.loads(out)["memory"]["text"] == "lone \ud800 surrogate and NUL \x00"


def test_the_memory_group_can_be_extended() -> None:
    import click

    @click.command("extra")
    def extra() -> None:
        click.echo("extra ran")

    memory_cmd.memory.add_command(extra)
    try:
        assert main(["memory", "extra"]) == 0
    finally:
        memory_cmd.memory.commands.pop("extra")
    names = memory_cmd.memory.list_commands(click.Context(memory_cmd.memory))
    assert {"add", "list", "forget", "keys", "search", "consolidate"} <= set(names)


@pytest.mark.slow
def test_memory_add_embeds_with_the_real_model(
    memory_keyring: InMemoryKeyring, capsys: pytest.CaptureFixture[str]
) -> None:
    """`memory add` goes through App().embedder (all-MiniLM-L6-v2), so meaning finds it."""
    for text in (
        "My sister's birthday is on the fourth of May",
        "The printer on floor two is broken",
    ):
        assert main(["memory", "add", text]) == 0
    capsys.readouterr()
    app = App()
    try:
        query = app.embedder.embed(["When was my sibling born?"])[0]
        hits = app.vault().search(query, None, k=1)
        assert hits[0].memory.text.startswith("My sister's birthday")
    finally:
        app.close()


def test_forget_says_what_else_it_erases_before_and_after(cli) -> None:
    from desktop_agent.core.memory_model import Provenance

    # Given a fact learned from a chat message
    app = App()
    try:
        said = "I work as a vet nurse."
        episode = app.memory.record_episode("c1", said, "A vet nurse, how nice!")
        fact = app.memory.remember(
            "User works as a vet nurse",
            subject_key="job",
            provenance=[Provenance(episode.id, "c1", 0, len(said) - 1)],
        )
    finally:
        app.close()

    # When the user asks first, then forgets
    code, out, _ = cli("forget", fact.id, "--dry-run")
    assert code == 0
    assert out.strip() == ("would forget 1 memory and 1 message it came from; nothing was changed")
    code, out, _ = cli("forget", fact.id, "--json")
    receipt = json.loads(out)

    # Then the receipt names the redacted message, and the message no longer holds the words
    assert receipt["redacted"] == [episode.id]
    code, out, _ = cli("show", episode.id, "--json")
    shown = json.dumps(json.loads(out))
    assert "nurse" not in shown and "[forgotten]" in shown
    code, out, err = cli("forget", fact.id)
    assert code != 0 and "no memory with id" in err and "Traceback" not in err


def test_keys_rotate_rekey_re_encrypts_with_progress_on_stderr(cli, agent_home: Path) -> None:
    cli("add", "The user likes hiking")
    cli("add", "Met Ana at the café", "--kind", "episodic")
    code, out, err = cli("keys", "rotate", "--rekey", "--json")
    assert code == 0
    assert json.loads(out) == {
        "rekeyed_rows": 2,
        "keys_destroyed": 2,
        "epoch": 2,
        "previous_epoch": 1,
        "resumed": False,
    }
    assert err.splitlines() == ["re-encrypting: 0/2 rows (0%)", "re-encrypting: 2/2 rows (100%)"]
    code, out, _ = cli("keys", "rotate", "--rekey")
    assert code == 0 and out.startswith("re-encrypted 2 rows under new data keys; destroyed 2")
    code, out, _ = cli("keys", "status", "--json")
    assert json.loads(out)["rekey_unfinished"] is False and json.loads(out)["epoch"] == 3
    code, out, _ = cli("list")
    assert "likes hiking" in out and "Met Ana" in out


def test_keys_rotate_rekey_errors_are_one_line(cli, agent_home: Path) -> None:
    cli("add", "The user likes hiking")
    journal = App().paths.vault_dir / "rekey.journal"
    journal.write_bytes(b"\x01" + b"\x00" * 40)  # an interrupted run's journal, damaged
    code, out, _ = cli("keys", "status")
    assert "re-encryption: interrupted; run `desktop-agent memory keys rotate --rekey`" in out
    code, out, err = cli("list")
    assert code == 0 and "likes hiking" in out
    assert "warning: a re-encryption was interrupted; run `desktop-agent memory keys" in err
    code, out, err = cli("keys", "rotate", "--rekey")
    assert code == 1 and out == "" and "Traceback" not in err
    line = err.strip().splitlines()[-1]
    assert line.startswith("desktop-agent: error: an interrupted re-encryption was found")
    assert [x for x in err.strip().splitlines() if x.startswith("desktop-agent: error")] == [line]


def test_keys_status_names_a_key_file_repaired_from_its_copy(cli, agent_home: Path) -> None:
    cli("add", "The user likes hiking")
    keystore = App().paths.vault_dir / "keys" / "keystore-1.bin"
    raw = bytearray(keystore.read_bytes())
    raw[len(raw) // 2] ^= 0x01
    keystore.write_bytes(bytes(raw))
    code, out, _ = cli("keys", "status")
    assert code == 0
    assert "key file:     keys/keystore-1.bin was damaged and is rewritten" in out
    assert "keyring" not in out.split("key file:")[1]
    code, out, _ = cli("list")
    assert code == 0 and "likes hiking" in out
