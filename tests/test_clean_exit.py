"""Clean exit (issue 13, item 8): a `chat --once` turn that learns something starts background
consolidation; the process must still exit 0, and what the turn learned must be in the store.
It used to abort at interpreter shutdown ("terminate called without an active exception",
status 134) about one run in four, so the turn is run 20 times."""

from __future__ import annotations

import json

from tests.test_cli import run_cli

MESSAGES = [
    ("I live in Oslo.", "User lives in Oslo"),
    ("Remember that I like tea.", "tea"),
    ("My sister is called Mia.", "Mia"),
    ("I'm allergic to peanuts.", "peanut"),
]
RUNS = 20


def test_chat_once_exits_cleanly_after_learning_every_time() -> None:
    statuses = []
    for n in range(RUNS):
        message, _learned = MESSAGES[n % len(MESSAGES)]
        result = run_cli("chat", "--once", message)
        statuses.append(result.returncode)
        assert "terminate called" not in result.stderr, result.stderr
        assert result.returncode == 0, (n, result.returncode, result.stderr[-2000:])
        assert result.stdout.strip()  # a reply was printed
    assert statuses == [0] * RUNS

    listed = run_cli("memory", "list", "--json")
    assert listed.returncode == 0, listed.stderr
    texts = " ".join(m["text"] for m in json.loads(listed.stdout)["memories"])
    for _message, learned in MESSAGES:
        assert learned in texts
