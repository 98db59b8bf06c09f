"""The app's log (issue 11, item 5): failures are written down, a memory's words never are."""

from __future__ import annotations

import logging
import stat
from collections.abc import Iterator

import keyring
import pytest

from desktop_agent.app import _warm
from desktop_agent.cli import main
from desktop_agent.logs import log_file, start_logging, stop_logging, tail
from desktop_agent.paths import app_paths
from desktop_agent.secrets.memory_backend import InMemoryKeyring

CANARY = "zebra-canary-4711"


@pytest.fixture(autouse=True)
def fresh_log() -> Iterator[None]:
    previous = keyring.get_keyring()
    keyring.set_keyring(InMemoryKeyring())
    yield
    stop_logging()
    keyring.set_keyring(previous)


class _Exploding:
    """A memory service whose warm-up fails with the user's words in the error."""

    def warm(self) -> None:
        try:
            raise ValueError(f"cannot index {CANARY!r}")
        except ValueError as inner:
            raise RuntimeError(f"warm-up failed on 'my PIN is {CANARY}'") from inner


def test_a_swallowed_failure_is_logged_as_its_type_without_its_words() -> None:
    path = start_logging(app_paths())
    _warm(_Exploding())  # type: ignore[arg-type]
    logging.getLogger("desktop_agent.test").info("a line of our own")
    text = path.read_text(encoding="utf-8")
    assert "memory warm-up stopped" in text
    assert "builtins.RuntimeError (message withheld)" in text
    assert "builtins.ValueError (message withheld)" in text  # the cause too
    assert "in warm" in text  # where it failed
    assert CANARY not in text
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert tail(app_paths(), 1) == [text.splitlines()[-1]]


def test_a_session_through_the_cli_logs_what_happened_and_none_of_what_was_said(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["memory", "add", f"My locker code is {CANARY}"]) == 0
    memory_id = capsys.readouterr().out.strip()
    assert main(["memory", "list"]) == 0
    assert CANARY in capsys.readouterr().out
    assert main(["memory", "search", "locker code"]) == 0
    capsys.readouterr()
    assert main(["memory", "forget", memory_id]) == 0

    text = log_file(app_paths()).read_text(encoding="utf-8")
    assert "memory unlocked" in text and "remembered semantic" in text
    assert "forgot 1 memories" in text
    assert CANARY not in text
    assert "locker" not in text


def test_other_libraries_log_only_warnings() -> None:
    path = start_logging(app_paths())
    logging.getLogger("chatty.library").info("every detail of %s", CANARY)
    logging.getLogger("chatty.library").warning("something odd")
    text = path.read_text(encoding="utf-8")
    assert "something odd" in text
    assert CANARY not in text
