"""Parsing the JSONL history format: one message a line.

``{"conversation": str, "id": str, "speaker": str, "text": str, "timestamp": ISO-8601}``

Pure parsing: a bad line becomes a ``HistoryLineError`` carrying its line number, so the caller
reports it and imports the rest. Writing to the vault is the CLI's job.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from datetime import UTC, datetime
from itertools import islice
from pathlib import Path
from typing import IO

REQUIRED_FIELDS = ("conversation", "id", "speaker", "text", "timestamp")


@dataclass(frozen=True, slots=True)
class HistoryMessage:
    """One validated message of an imported history."""

    conversation: str
    id: str
    speaker: str
    text: str
    # Always timezone-aware; a timestamp without an offset is taken as UTC.
    timestamp: datetime
    line_number: int


@dataclass(frozen=True, slots=True)
class HistoryLineError:
    """A line that could not be imported, and why (one line, for the user)."""

    line_number: int
    message: str

    def __str__(self) -> str:
        return f"line {self.line_number}: {self.message}"


ParsedLine = HistoryMessage | HistoryLineError


def is_unicode(text: str) -> bool:
    """False for text holding lone surrogates (broken JSON escapes, undecodable arguments)."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def parse_line(line: str, line_number: int) -> ParsedLine | None:
    """Parse one line; None for a blank line (blank lines are allowed and skipped)."""
    if not line.strip():
        return None
    try:
        record = json.loads(line)
    except json.JSONDecodeError as error:
        return HistoryLineError(line_number, f"not valid JSON ({error.msg})")
    if not isinstance(record, dict):
        return HistoryLineError(line_number, "expected a JSON object")
    missing = [name for name in REQUIRED_FIELDS if name not in record]
    if missing:
        return HistoryLineError(line_number, f"missing field(s): {', '.join(missing)}")
    for name in REQUIRED_FIELDS:
        if not isinstance(record[name], str):
            kind = type(record[name]).__name__
            return HistoryLineError(line_number, f"field {name!r} must be a string, got {kind}")
    for name in ("conversation", "id", "speaker"):
        if not record[name].strip():
            return HistoryLineError(line_number, f"field {name!r} is empty")
    for name in REQUIRED_FIELDS:
        if not is_unicode(record[name]):
            # "\ud800" alone is valid JSON but no character: nothing can store or embed it
            return HistoryLineError(
                line_number, f"field {name!r} has a broken character (a lone surrogate)"
            )
    text = record["text"].strip()
    if not text:
        return HistoryLineError(line_number, "field 'text' is empty")
    timestamp = parse_timestamp(record["timestamp"])
    if timestamp is None:
        return HistoryLineError(
            line_number, f"field 'timestamp' is not ISO-8601: {record['timestamp'][:40]!r}"
        )
    return HistoryMessage(
        conversation=record["conversation"],
        id=record["id"],
        speaker=record["speaker"].strip(),
        text=text,
        timestamp=timestamp,
        line_number=line_number,
    )


def parse_timestamp(value: str) -> datetime | None:
    """An aware datetime from ISO-8601 ("Z" accepted; naive means UTC), or None."""
    try:
        parsed = datetime.fromisoformat(value.strip())
    except ValueError:
        return None
    return parsed if parsed.tzinfo is not None else parsed.replace(tzinfo=UTC)


def iter_history(lines: Iterable[str]) -> Iterator[ParsedLine]:
    """Messages and line errors in file order (line numbers start at 1)."""
    for number, line in enumerate(lines, start=1):
        parsed = parse_line(line, number)
        if parsed is not None:
            yield parsed


def iter_history_file(path: Path) -> Iterator[ParsedLine]:
    """Stream a history file without reading it whole (files may hold millions of lines)."""
    with open(path, encoding="utf-8", errors="replace", newline="") as handle:
        yield from iter_history(_lines(handle))


def _lines(handle: IO[str]) -> Iterator[str]:
    # Split on "\n" only: str.splitlines would also break on U+2028 inside a JSON string.
    for line in handle:
        yield line.rstrip("\r\n")


def batches(items: Iterable[ParsedLine], size: int = 512) -> Iterator[list[ParsedLine]]:
    """Group parsed lines into lists of at most ``size`` (the vault writes a batch at a time)."""
    if size < 1:
        raise ValueError("batch size must be at least 1")
    iterator = iter(items)
    while batch := list(islice(iterator, size)):
        yield batch


def memory_text(message: HistoryMessage, *, with_date: bool = True) -> str:
    """The text stored and indexed for a message: "[8 May 2023] speaker: text".

    The date makes "when did..." questions answerable from the text alone and gives BM25 and the
    embedder the month name; the speaker lets "what did Ana say" match.
    """
    body = f"{message.speaker}: {message.text}"
    if not with_date:
        return body
    return f"[{format_date(message.timestamp)}] {body}"


def format_date(moment: datetime) -> str:
    return f"{moment.day} {moment:%B %Y}"
