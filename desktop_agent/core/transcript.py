"""A conversation written out for the user: Markdown to read or share, JSON to process.

Exporting is the user's explicit act, to a file they choose; the file is plain text, not
encrypted (the CLI's help and the window's save dialog say so). A reasoning model's thinking is
never part of a conversation, so it is never exported either.
"""

from __future__ import annotations

import json
from datetime import UTC, datetime
from typing import Any

from desktop_agent import __version__
from desktop_agent.core.conversation import Conversation
from desktop_agent.errors import InputError

FORMATS = ("markdown", "json")
SUFFIXES = {"markdown": ".md", "json": ".json"}
SPEAKERS = {"user": "You", "assistant": "Assistant"}


def as_json(conversation: Conversation, *, now: datetime | None = None) -> dict[str, Any]:
    return {
        "format": "desktop-agent conversation",
        "version": 1,
        "id": conversation.id,
        "title": conversation.title,
        "started_at": conversation.started_at.isoformat(),
        "exported_at": (now or datetime.now(UTC)).isoformat(),
        "exported_by": f"desktop-agent {__version__}",
        "messages": [
            {"role": m.role, "content": m.content}
            for m in conversation.messages
            if m.role in SPEAKERS
        ],
    }


def as_markdown(conversation: Conversation, *, now: datetime | None = None) -> str:
    title = conversation.title.strip() or "Conversation"
    started = conversation.started_at.astimezone().strftime("%-d %B %Y, %H:%M")
    exported = (now or datetime.now(UTC)).astimezone().strftime("%-d %B %Y, %H:%M")
    lines = [
        f"# {title}",
        "",
        f"_Started {started}; exported {exported} from desktop-agent {__version__}._",
        "",
    ]
    for message in conversation.messages:
        speaker = SPEAKERS.get(message.role)
        if speaker is None:
            continue
        lines += [f"## {speaker}", "", message.content.strip(), ""]
    return "\n".join(lines).rstrip() + "\n"


def render(conversation: Conversation, fmt: str, *, now: datetime | None = None) -> str:
    """The conversation in ``fmt`` ("markdown" or "json"), as the text of a file."""
    if fmt == "markdown":
        return as_markdown(conversation, now=now)
    if fmt == "json":
        return json.dumps(as_json(conversation, now=now), ensure_ascii=False, indent=2) + "\n"
    raise InputError(f"unknown export format {fmt!r}: use {' or '.join(FORMATS)}")


def format_for(path_name: str, default: str = "markdown") -> str:
    """The format a file name asks for (.json is JSON, anything else Markdown)."""
    return "json" if path_name.lower().endswith(".json") else default
