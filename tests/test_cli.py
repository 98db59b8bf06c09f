"""The command line end to end, in subprocesses where the exit code and output matter."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from desktop_agent import __version__
from desktop_agent.app import App
from desktop_agent.cli import main
from desktop_agent.settings import Settings, save_settings


def run_cli(
    *args: str, stdin: str | None = None, env: dict[str, str] | None = None
) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "desktop_agent", *args],
        input=stdin,
        capture_output=True,
        text=True,
        timeout=300,
        env={**os.environ, **(env or {})},
    )


def test_version(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_info:
        main(["--version"])
    assert exit_info.value.code == 0
    assert capsys.readouterr().out.strip() == f"desktop-agent {__version__}"


@pytest.mark.parametrize(
    "command",
    [
        [],
        ["chat"],
        ["doctor"],
        ["gui"],
        ["history"],
        ["history", "import"],
        *(
            ["memory", *sub]
            for sub in (
                [],
                ["add"],
                ["list"],
                ["show"],
                ["edit"],
                ["forget"],
                ["export"],
                ["import"],
                ["audit"],
                ["keys"],
                ["keys", "status"],
                ["keys", "rotate"],
                ["keys", "rotate", "--rekey"],
                ["search"],
                ["consolidate"],
            )
        ),
    ],
)
def test_every_command_has_help(command: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_info:
        main([*command, "--help"])
    assert exit_info.value.code == 0
    assert "usage: desktop-agent" in capsys.readouterr().out


def test_once_json_prints_a_reply_from_the_bundled_model() -> None:
    result = run_cli("chat", "--once", "Hello", "--json")

    assert result.returncode == 0, result.stderr
    reply = json.loads(result.stdout)
    assert reply["reply"].strip()
    assert reply["completion_tokens"] > 0
    assert "SmolLM2" in reply["model"] or "Smollm2" in reply["model"]


def test_piped_chat_answers_each_line_and_ends_at_end_of_input() -> None:
    result = run_cli("chat", stdin="Hello\n\nWhat is the capital of France?\n")

    assert result.returncode == 0, result.stderr
    replies = [line for line in result.stdout.splitlines() if line.strip()]
    assert len(replies) >= 2


def test_jsonl_chat_prints_one_json_reply_per_message_in_one_conversation() -> None:
    lines = ['"Hello"', "not json", '{"message": "What is the capital of France?"}', ""]
    result = run_cli("chat", "--jsonl", stdin="\n".join(lines) + "\n")

    assert result.returncode == 1, result.stderr  # one line was not a message
    replies = [json.loads(line) for line in result.stdout.splitlines()]
    assert [r["line"] for r in replies] == [1, 2, 3]
    assert "not a JSON line" in replies[1]["error"]
    first, third = replies[0], replies[2]
    assert first["reply"].strip() and third["reply"].strip()
    assert first["conversation_id"] == third["conversation_id"]
    assert isinstance(third["memories_used"], list)


def test_jsonl_and_once_do_not_mix() -> None:
    result = run_cli("chat", "--jsonl", "--once", "Hello")
    assert result.returncode == 1  # a user error (2 is for usage errors)
    assert "--jsonl reads its messages from standard input" in result.stderr


def test_quit_command_leaves_the_chat() -> None:
    result = run_cli("chat", stdin="/quit\nHello\n")
    assert result.returncode == 0
    assert result.stdout.strip() == ""


def test_empty_message_is_a_one_line_error() -> None:
    result = run_cli("chat", "--once", "   ")
    assert result.returncode == 1
    assert (
        result.stderr.strip()
        == "desktop-agent: error: the message is empty: type something to send"
    )


def test_message_longer_than_the_context_is_a_one_line_error(tmp_path: Path) -> None:
    config = tmp_path / "agent-home" / "config"
    config.mkdir(parents=True, exist_ok=True)
    # Memory off: this test is about the context limit, not about whether a keyring is reachable.
    (config / "settings.toml").write_text("[model]\nn_ctx = 256\n[memory]\nenabled = false\n")
    result = run_cli("chat", "--once", "word " * 2000)
    assert result.returncode == 1
    assert "too long for the model's context window" in result.stderr
    assert "Traceback" not in result.stderr and result.stderr.count("\n") == 1


def test_no_display_falls_back_to_terminal_chat_and_says_why() -> None:
    env = {k: "" for k in ("DISPLAY", "WAYLAND_DISPLAY", "QT_QPA_PLATFORM")}
    result = run_cli(stdin="/quit\n", env=env)
    assert result.returncode == 0, result.stderr
    assert "no display found" in result.stderr
    assert "terminal chat" in result.stderr


def test_doctor_json_reports_each_component() -> None:
    result = run_cli("doctor", "--json")
    report = json.loads(result.stdout)
    names = [check["name"] for check in report["checks"]]
    assert names == [
        "model",
        "llama.cpp",
        "gpu offload",
        "embedder",
        "keyring",
        "data dir",
        "window libraries",
    ]
    model = report["checks"][0]
    assert model["ok"] and "context 4096" in model["detail"]
    assert result.returncode == (0 if report["ok"] else 1)


def test_a_saved_model_that_cannot_load_falls_back_and_doctor_says_so(
    tmp_path: Path, agent_home: Path
) -> None:
    notes = tmp_path / "notes.gguf"
    notes.write_text("not a model")
    save_settings(Settings().replace("model", path=str(notes)), App().paths.settings_file)

    chat = run_cli("chat", "--once", "Hello", "--json")
    doctor = run_cli("doctor")

    assert chat.returncode == 0, chat.stderr
    assert "not a GGUF model file" in chat.stderr and "bundled model" in chat.stderr
    assert json.loads(chat.stdout)["reply"].strip()
    assert doctor.returncode == 1
    assert "[FAIL] model: not a GGUF model file" in doctor.stdout


def test_doctor_fails_with_the_fix_when_the_model_is_missing(tmp_path: Path) -> None:
    result = run_cli("doctor", "--model", str(tmp_path / "gone.gguf"))
    assert result.returncode == 1
    assert "[FAIL] model: model file not found" in result.stdout


def test_chat_list_and_export_write_a_remembered_conversation(tmp_path: Path) -> None:
    assert run_cli("chat", "--once", "My name is Ana and I live in Lisbon.").returncode == 0
    listed = run_cli("chat", "list", "--json")
    assert listed.returncode == 0, listed.stderr
    (conversation,) = json.loads(listed.stdout)["conversations"]
    assert conversation["title"].startswith("My name is Ana")

    out = tmp_path / "chat.json"
    exported = run_cli("chat", "export", conversation["id"], "-o", str(out))
    assert exported.returncode == 0, exported.stderr
    assert "not encrypted" in exported.stdout
    messages = json.loads(out.read_text())["messages"]
    assert messages[0] == {"role": "user", "content": "My name is Ana and I live in Lisbon."}

    markdown = run_cli("chat", "export", conversation["id"])
    assert markdown.stdout.startswith("# My name is Ana")

    again = run_cli("chat", "export", conversation["id"], "-o", str(out))
    assert again.returncode == 1 and "add --force" in again.stderr
    assert "Traceback" not in again.stderr
    unknown = run_cli("chat", "export", "c_nope")
    assert unknown.returncode == 1
    assert unknown.stderr.strip() == "desktop-agent: error: no conversation with id c_nope"
