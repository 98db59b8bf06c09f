"""Exporting a conversation (issue 12, part 3): Markdown to read, JSON to process, and the
`chat list` / `chat export` commands."""

from __future__ import annotations

import json
from datetime import UTC, datetime

import pytest

from desktop_agent.core.conversation import Conversation
from desktop_agent.core.transcript import format_for, render
from desktop_agent.errors import InputError

NOW = datetime(2026, 11, 24, 9, 30, tzinfo=UTC)


def conversation() -> Conversation:
    talk = Conversation(title="Garden plans", started_at=datetime(2026, 11, 20, 8, 0, tzinfo=UTC))
    talk.add("user", "What should I plant in spring?")
    talk.add("assistant", "Tomatoes:\n\n```python\nprint('water daily')\n```")
    talk.add("system", "never exported")
    return talk


def test_markdown_has_the_title_speakers_and_code_intact() -> None:
    text = render(conversation(), "markdown", now=NOW)
    assert text.startswith("# Garden plans\n")
    assert "## You\n\nWhat should I plant in spring?" in text
    assert "## Assistant\n\nTomatoes:\n\n```python\nprint('water daily')\n```" in text
    assert "never exported" not in text


def test_json_keeps_roles_and_exact_content() -> None:
    data = json.loads(render(conversation(), "json", now=NOW))
    assert data["title"] == "Garden plans" and data["exported_at"] == NOW.isoformat()
    assert data["messages"] == [
        {"role": "user", "content": "What should I plant in spring?"},
        {"role": "assistant", "content": "Tomatoes:\n\n```python\nprint('water daily')\n```"},
    ]


def test_formats_and_errors() -> None:
    assert format_for("chat.JSON") == "json" and format_for("chat.md") == "markdown"
    with pytest.raises(InputError, match="unknown export format"):
        render(conversation(), "pdf")
