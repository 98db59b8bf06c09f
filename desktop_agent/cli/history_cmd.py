"""`desktop-agent history import FILE.jsonl`: bring an existing chat history into memory."""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from desktop_agent.cli.base import Command, Group, json_option, opened_app, say
from desktop_agent.cli.progress import Progress
from desktop_agent.core.history_import import (
    HistoryLineError,
    HistoryMessage,
    batches,
    iter_history_file,
)
from desktop_agent.errors import InputError

if TYPE_CHECKING:
    from desktop_agent.core.memory_service import MemoryService


@click.group(
    cls=Group,
    short_help="import a chat history into memory",
    help="Work with conversation history kept as episodic memory.",
)
def history() -> None:
    pass


@history.command(
    "import",
    cls=Command,
    short_help="import messages from a JSON Lines file",
    help='Import one message per line: {"conversation": str, "id": str, "speaker": str, '
    '"text": str, "timestamp": ISO-8601}. Bad lines are reported with their number and skipped; '
    "messages already imported (same conversation and id) are skipped too.",
)
@click.argument("file", metavar="FILE.jsonl", type=click.Path(path_type=Path))
@click.option("--batch-size", type=int, default=512, help="messages per vault commit")
@json_option("print a JSON summary")
def history_import(file: Path, batch_size: int, as_json: bool) -> int:
    return run_import(file, batch_size=batch_size, as_json=as_json)


def count_lines(path: Path) -> int:
    with open(path, "rb") as handle:
        return sum(1 for _ in handle)


def run_import(path: Path, *, batch_size: int, as_json: bool) -> int:
    if not path.is_file():
        raise InputError(f"no such file: {path}")
    if batch_size < 1:
        raise InputError("--batch-size must be at least 1")
    with opened_app() as app:
        app.embedder_threads = 0  # no chat engine in this process: embed on every core
        summary = import_file(app.memory, path, batch_size)
    if as_json:
        print(json.dumps(summary))
    else:
        print(
            f"imported {summary['imported']} messages from {summary['conversations']} "
            f"conversations; {summary['duplicates_skipped']} already there, "
            f"{len(summary['bad_lines'])} bad lines skipped"
        )
    return 0


def import_file(memory: MemoryService, path: Path, batch_size: int) -> dict[str, Any]:
    known = {(e.conversation_id, e.source_id) for e in memory.items("episodic")}
    progress = Progress(f"importing {path.name}", count_lines(path))
    imported = duplicates = 0
    errors: list[HistoryLineError] = []
    conversations: set[str] = set()
    for batch in batches(iter_history_file(path), batch_size):
        fresh: list[HistoryMessage] = []
        for parsed in batch:
            if isinstance(parsed, HistoryLineError):
                errors.append(parsed)
                say(f"desktop-agent: skipped {parsed}")
            elif (parsed.conversation, parsed.id) in known:
                duplicates += 1
            else:
                known.add((parsed.conversation, parsed.id))
                fresh.append(parsed)
        memory.import_history(fresh)
        imported += len(fresh)
        conversations.update(m.conversation for m in fresh)
        progress.advance(len(batch))
    progress.close()
    return {
        "imported": imported,
        "conversations": len(conversations),
        "duplicates_skipped": duplicates,
        "bad_lines": [{"line": e.line_number, "error": e.message} for e in errors],
    }
