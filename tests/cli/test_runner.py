"""`desktop-agent` through click's CliRunner: help, usage errors (2), user errors (1, one
line), Ctrl+C (130), JSON output, and a memory round trip."""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Callable

import click
import pytest
from click.testing import Result

from desktop_agent.cli import main
from desktop_agent.cli.base import exit_code_of
from desktop_agent.cli.memory_cmd import memory
from desktop_agent.errors import InputError, UserError

Run = Callable[..., Result]

GROUPS = {
    (): ["chat", "memory", "history", "models", "doctor", "gui"],
    ("chat",): ["list", "export"],
    ("memory",): ["add", "list", "show", "edit", "forget", "export", "import", "audit", "keys"],
    ("memory", "keys"): ["status", "rotate", "passphrase", "accept-missing"],
    ("history",): ["import"],
    ("models",): ["list", "download", "import", "remove", "use"],
}


def one_error_line(result: Result) -> str:
    assert "Traceback" not in result.stderr and result.stdout == ""
    (line,) = result.stderr.splitlines()
    return line


@pytest.mark.parametrize("group", list(GROUPS))
def test_each_group_has_help_naming_its_commands(run: Run, group: tuple[str, ...]) -> None:
    result = run(*group, "--help")
    assert result.exit_code == 0, result.output
    assert result.stdout.startswith(f"usage: {' '.join(('desktop-agent', *group))} ")
    listed = result.stdout.split("Commands:")[1]
    for name in GROUPS[group]:
        assert f"\n  {name} " in listed


def test_version(run: Run) -> None:
    result = run("--version")
    assert result.exit_code == 0 and result.stdout.startswith("desktop-agent ")


@pytest.mark.parametrize(
    ("args", "says"),
    [
        (["bogus"], "No such command 'bogus'"),
        (["memory", "bogus"], "No such command 'bogus'"),
        (["memory", "list", "--bogus"], "No such option '--bogus'"),
        (["memory", "show"], "Missing argument 'ID'"),
        (["memory", "add", "x", "--kind", "feeling"], "Invalid value for '--kind'"),
        (["chat", "--gpu-layers", "many"], "--gpu-layers takes auto, 0 or a number"),
        (["history", "import"], "Missing argument 'FILE.jsonl'"),
        (["memory", "search", "--limit", "ten"], "'ten' is not a valid integer"),
    ],
)
def test_usage_errors_exit_2_with_the_usage(run: Run, args: list[str], says: str) -> None:
    result = run(*args)
    assert result.exit_code == 2
    assert result.stderr.startswith("usage: desktop-agent ") and says in result.stderr
    assert "Traceback" not in result.stderr and result.stdout == ""
    assert main(args) == 2  # the entry point says the same


def test_a_group_without_its_command_shows_its_help_and_exits_2(run: Run) -> None:
    result = run("memory")
    assert result.exit_code == 2 and "Commands:" in result.stderr


@pytest.mark.parametrize(
    ("args", "line"),
    [
        (["memory", "forget", "nope"], "desktop-agent: error: no memory with id 'nope'"),
        (
            ["memory", "forget", "--all"],
            "desktop-agent: error: forget --all erases every memory for good; add --yes to confirm",
        ),
        (
            ["chat", "--once", "  "],
            "desktop-agent: error: the message is empty: type something to send",
        ),
        (
            ["memory", "search", "x", "--limit", "0"],
            "desktop-agent: error: --limit must be at least 1",
        ),
        (["models", "remove", "missing.gguf"], "desktop-agent: error: no installed model"),
    ],
)
def test_a_user_error_is_one_line_and_exit_1(run: Run, args: list[str], line: str) -> None:
    result = run(*args)
    assert result.exit_code == 1
    assert one_error_line(result).startswith(line)


def test_an_error_with_its_own_exit_code_keeps_it() -> None:
    class Locked(UserError):
        exit_code = 3

    assert exit_code_of(Locked("x")) == 3
    assert exit_code_of(InputError("x")) == 1  # UserError's 2 is for usage errors here


@pytest.mark.parametrize(
    ("raised", "code", "stderr"),
    [
        (KeyboardInterrupt(), 130, "desktop-agent: interrupted\n"),
        (BrokenPipeError(), 1, ""),
        (InputError("it went wrong"), 1, "desktop-agent: error: it went wrong\n"),
    ],
)
def test_interrupts_and_closed_pipes_end_without_a_traceback(
    run: Run, raised: BaseException, code: int, stderr: str
) -> None:
    @click.command("fail")
    def fail() -> None:
        raise raised

    memory.add_command(fail)
    try:
        result = run("memory", "fail")
        assert (result.exit_code, result.stderr, result.stdout) == (code, stderr, "")
        assert main(["memory", "fail"]) == code
    finally:
        memory.commands.pop("fail")


def test_json_output_parses(run: Run) -> None:
    added = json.loads(run("memory", "add", "The user likes tea", "--json").stdout)
    assert added["memory"]["text"] == "The user likes tea"
    for args in (
        ["memory", "list"],
        ["memory", "show", added["memory"]["id"]],
        ["memory", "audit"],
        ["memory", "audit", "--verify"],
        ["memory", "keys", "status"],
        ["memory", "search", "tea"],
        ["memory", "forget", added["memory"]["id"], "--dry-run"],
        ["models", "list"],
    ):
        result = run(*args, "--json")
        assert result.exit_code == 0, (args, result.stderr)
        assert isinstance(json.loads(result.stdout), dict), args


def test_add_list_forget_round_trip(run: Run) -> None:
    # Given a memory added through the command line
    added = run("memory", "add", "I live in Oslo")
    assert added.exit_code == 0
    memory_id = added.stdout.strip()

    # When it is listed, then forgotten
    listed = run("memory", "list")
    forgot = run("memory", "forget", memory_id)

    # Then the list showed it, the forget said so, and it is gone
    assert (
        listed.exit_code == 0 and memory_id in listed.stdout and "I live in Oslo" in listed.stdout
    )
    assert forgot.exit_code == 0 and forgot.stdout.startswith("forgot 1 memory")
    after = json.loads(run("memory", "list", "--json").stdout)
    assert after == {"memories": [], "count": 0}
    gone = run("memory", "show", memory_id)
    assert gone.exit_code == 1 and "no memory with id" in one_error_line(gone)


def test_keys_rotate_and_rekey_go_through_the_service(run: Run) -> None:
    run("memory", "add", "The user likes hiking")
    rotated = json.loads(run("memory", "keys", "rotate", "--json").stdout)
    assert rotated == {"epoch": 2, "previous_epoch": 1}
    rekeyed = run("memory", "keys", "rotate", "--rekey", "--json")
    assert rekeyed.exit_code == 0, rekeyed.stderr
    receipt = json.loads(rekeyed.stdout)
    assert receipt["previous_epoch"] == 2 and receipt["epoch"] == 3
    assert rekeyed.stderr.splitlines()[-1] == "re-encrypting: 1/1 rows (100%)"


def test_a_passphrase_is_changed_only_with_the_current_one(
    run: Run, monkeypatch: pytest.MonkeyPatch
) -> None:
    import os

    from desktop_agent.paths import app_paths

    settings = app_paths().settings_file
    settings.parent.mkdir(parents=True, exist_ok=True)
    settings.write_text('[security]\nkey_mode = "passphrase"\n', encoding="utf-8")
    monkeypatch.setenv("DESKTOP_AGENT_PASSPHRASE", "first secret")
    assert run("memory", "add", "The user likes hiking").exit_code == 0
    no_new = run("memory", "keys", "passphrase")
    assert no_new.exit_code == 1  # no new passphrase given, and no terminal to ask on
    assert "a passphrase is needed" in no_new.stderr

    monkeypatch.setenv("DESKTOP_AGENT_NEW_PASSPHRASE", "second secret")
    changed = run("memory", "keys", "passphrase", "--json")
    assert changed.exit_code == 0, changed.stderr
    assert json.loads(changed.stdout) == {"epoch": 2, "previous_epoch": 1}
    assert os.environ["DESKTOP_AGENT_PASSPHRASE"] == "first secret"  # put back as it was
    assert "wrong passphrase" in run("memory", "list").stderr
    monkeypatch.setenv("DESKTOP_AGENT_PASSPHRASE", "second secret")
    listed = run("memory", "list")
    assert listed.exit_code == 0 and "The user likes hiking" in listed.stdout


def test_the_passphrase_of_a_keyring_vault_cannot_be_changed(run: Run) -> None:
    run("memory", "add", "The user likes hiking")
    refused = run("memory", "keys", "passphrase")
    assert refused.exit_code == 1
    assert refused.stderr.strip() == (
        "desktop-agent: error: this memory keeps its key in the OS keyring: it has no passphrase"
    )


def test_memories_deleted_behind_the_apps_back_are_shown_then_accepted(run: Run) -> None:
    import lance

    from desktop_agent.paths import app_paths

    gone = run("memory", "add", "The user likes hiking").stdout.strip()
    run("memory", "add", "The user lives in Oslo")
    assert (
        run("memory", "keys", "accept-missing").stdout.strip()
        == "nothing is missing from the store"
    )
    table = app_paths().vault_dir / "db" / "memories.lance"
    lance.dataset(table).delete(f"memory_id = '{gone}'")  # an opaque id, as a tamperer would

    status = json.loads(run("memory", "keys", "status", "--json").stdout)
    assert status["missing"].startswith("1 memories missing or rolled back")
    refused = run("memory", "keys", "accept-missing")  # no terminal to confirm on: nothing done
    assert refused.exit_code == 1 and "nothing was changed" in refused.stderr
    accepted = run("memory", "keys", "accept-missing", "--yes", "--json")
    assert accepted.exit_code == 0, accepted.stderr
    assert json.loads(accepted.stdout) == {"accepted": 1}
    assert json.loads(run("memory", "keys", "status", "--json").stdout)["missing"] is None


def test_undecodable_argument_bytes_give_one_line() -> None:
    """Bytes that are not UTF-8 reach Python as lone surrogates; they print escaped."""
    for args, code in (
        ([b"memory", b"bogus\xff"], 2),
        ([b"memory", b"search", b"caf\xe9", b"--limit", b"0"], 1),
    ):
        result = subprocess.run(
            [sys.executable.encode(), b"-m", b"desktop_agent", *args],
            capture_output=True,
            timeout=120,
        )
        err = result.stderr.decode("utf-8")
        assert result.returncode == code, err
        assert "Traceback" not in err
        if code == 1:
            assert err.count("\n") == 1
        else:
            assert "bogus\\udcff" in err or "bogus\\xff" in err


def told_in_one_chat(run: Run, *messages: str) -> None:
    """Say ``messages`` in one chat of the scripted engine over the CLI's vault, as the user
    would have before the command under test."""
    from desktop_agent.cli.base import memory_service
    from desktop_agent.core.assistant import Assistant
    from desktop_agent.llm import GenerationSettings
    from desktop_agent.llm.fake import ScriptedEngine

    run("memory", "list")  # the vault and its keys exist
    with memory_service() as service:
        assistant = Assistant(ScriptedEngine(), GenerationSettings(max_tokens=16), memory=service)
        conversation = assistant.start_conversation()
        for said in messages:
            turn = assistant.send(conversation, said)
            for _ in turn:
                pass
            turn.finish()


def test_forget_about_shows_the_sentences_then_forgets_only_them(run: Run) -> None:
    """No fact was learned of the gate code: `--about` offers the sentence that says it (not
    its whole message), changes nothing without --yes, and erases only it with --yes."""
    told_in_one_chat(
        run,
        "Before I forget - the side gate code is 4471. Our neighbour Dolores at number 7 "
        "has the spare key.",
    )

    shown = run("memory", "forget", "--about", "side gate code", "--json")
    assert shown.exit_code == 0, shown.stderr
    offer = json.loads(shown.stdout)
    assert offer["dry_run"] is True
    assert offer["sentences"] == ["“Before I forget - the side gate code is 4471.”"]

    done = run("memory", "forget", "--about", "side gate code", "--yes")
    assert done.exit_code == 0, done.stderr
    assert done.stdout.startswith("forgot 1 sentence from 1 message")
    episodes = json.loads(run("memory", "list", "--kind", "episodic", "--json").stdout)
    texts = " ".join(m["text"] for m in episodes["memories"])
    assert "4471" not in texts and "Dolores at number 7 has the spare key" in texts

    again = run("memory", "forget", "--about", "side gate code")
    assert again.exit_code == 1
    assert one_error_line(again) == (
        "desktop-agent: error: nothing remembered is about “side gate code”; nothing was changed"
    )
    both = run("memory", "forget", "abc", "--about", "gate")
    assert both.exit_code == 1 and "only one of them" in one_error_line(both)


def test_forget_about_a_person_and_a_thing_lists_facts_and_sentences_apart(run: Run) -> None:
    """A mixed offer (his facts, and the sentence that told the thing) says each as what it is,
    in the JSON and in the line that asks for --yes."""
    told_in_one_chat(
        run,
        "my brother Rui is a pilot for TAP, he lives in Lisbon. I teach maths",
        "Rui and I had a huge row at the Algarve house last weekend.",
    )

    shown = run("memory", "forget", "--about", "Rui and the Algarve house", "--json")
    assert shown.exit_code == 0, shown.stderr
    offer = json.loads(shown.stdout)
    assert offer["facts"] and all("“" not in line for line in offer["facts"]), offer
    assert any("Algarve" in line for line in offer["sentences"]), offer
    said = run("memory", "forget", "--about", "Rui and the Algarve house")
    assert said.stdout.splitlines()[-1] == (
        "would forget these facts and sentences; add --yes to forget them"
    )


def test_words_forgotten_where_a_file_is_damaged_say_so(capsys: pytest.CaptureFixture[str]) -> None:
    """`memory forget --about` reports a damaged data file, and exits 1, as a forget of ids
    does: the words' keys are destroyed, but encrypted rows stay in that file."""
    from datetime import UTC, datetime

    from desktop_agent.cli.memory_cmd import _forgotten
    from desktop_agent.memory.model import ForgetReceipt

    at = datetime.now(UTC)
    receipt = ForgetReceipt((), (), at, 4, damaged=("fragment 3",))
    code = _forgotten(receipt, as_json=False, line="forgot 1 sentence from 1 message")
    out, err = capsys.readouterr()
    assert code == 1
    assert out == "forgot 1 sentence from 1 message\n"
    assert "fragment 3 is damaged" in err
