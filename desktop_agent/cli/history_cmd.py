"""`desktop-agent history import FILE.jsonl`: bring an existing chat history into memory."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from desktop_agent.app import App
from desktop_agent.cli.progress import Progress
from desktop_agent.core.history_import import (
    HistoryLineError,
    HistoryMessage,
    batches,
    iter_history_file,
)
from desktop_agent.errors import InputError


def register(commands: Any) -> None:
    parser = commands.add_parser(
        "history",
        help="import a chat history into memory",
        description="Work with conversation history kept as episodic memory.",
    )
    actions = parser.add_subparsers(title="commands", metavar="COMMAND", required=True)
    importer = actions.add_parser(
        "import",
        help="import messages from a JSON Lines file",
        description='Import one message per line: {"conversation": str, "id": str, "speaker": str, '
        '"text": str, "timestamp": ISO-8601}. Bad lines are reported with their number and skipped; '
        "messages already imported (same conversation and id) are skipped too.",
    )
    importer.add_argument("file", type=Path, metavar="FILE.jsonl")
    importer.add_argument("--batch-size", type=int, default=512, help="messages per vault commit")
    importer.add_argument("--json", action="store_true", help="print a JSON summary")
    importer.set_defaults(handler=run_import)


def count_lines(path: Path) -> int:
    with open(path, "rb") as handle:
        return sum(1 for _ in handle)


def run_import(args: argparse.Namespace) -> int:
    path: Path = args.file
    if not path.is_file():
        raise InputError(f"no such file: {path}")
    if args.batch_size < 1:
        raise InputError("--batch-size must be at least 1")
    app = App()
    app.embedder_threads = 0  # no chat engine in this process: embed on every core
    try:
        return import_file(app, path, args)
    finally:
        app.close()


def import_file(app: App, path: Path, args: argparse.Namespace) -> int:
    memory = app.memory
    known = {(e.conversation_id, e.source_id) for e in memory.items("episodic")}
    progress = Progress(f"importing {path.name}", count_lines(path))
    imported = duplicates = 0
    errors: list[HistoryLineError] = []
    conversations: set[str] = set()
    for batch in batches(iter_history_file(path), args.batch_size):
        fresh: list[HistoryMessage] = []
        for parsed in batch:
            if isinstance(parsed, HistoryLineError):
                errors.append(parsed)
                print(f"desktop-agent: skipped {parsed}", file=sys.stderr)
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
    summary = {
        "imported": imported,
        "conversations": len(conversations),
        "duplicates_skipped": duplicates,
        "bad_lines": [{"line": e.line_number, "error": e.message} for e in errors],
    }
    if args.json:
        print(json.dumps(summary))
    else:
        print(
            f"imported {imported} messages from {len(conversations)} conversations"
            f"; {duplicates} already there, {len(errors)} bad lines skipped"
        )
    return 0
