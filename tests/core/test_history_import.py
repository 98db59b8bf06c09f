"""History import parsing: good lines become messages, bad lines become numbered errors."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta, timezone
from pathlib import Path

import pytest

from desktop_agent.core.history_import import (
    HistoryLineError,
    HistoryMessage,
    batches,
    iter_history,
    iter_history_file,
    memory_text,
    parse_line,
)


def line(**overrides: object) -> str:
    record: dict[str, object] = {
        "conversation": "c1",
        "id": "m1",
        "speaker": "Ana",
        "text": "I moved to Porto.",
        "timestamp": "2023-05-08T13:56:00+01:00",
    }
    record.update(overrides)
    return json.dumps({k: v for k, v in record.items() if v is not ...})


def test_a_good_line_becomes_a_message_with_an_aware_timestamp() -> None:
    parsed = parse_line(line(), 3)
    assert isinstance(parsed, HistoryMessage)
    assert (parsed.conversation, parsed.id, parsed.speaker, parsed.text) == (
        "c1",
        "m1",
        "Ana",
        "I moved to Porto.",
    )
    assert parsed.timestamp == datetime(2023, 5, 8, 13, 56, tzinfo=timezone(timedelta(hours=1)))
    assert parsed.line_number == 3


def test_z_suffix_and_naive_timestamps_are_utc() -> None:
    z = parse_line(line(timestamp="2024-01-02T03:04:05Z"), 1)
    naive = parse_line(line(timestamp="2024-01-02T03:04:05"), 1)
    assert isinstance(z, HistoryMessage) and isinstance(naive, HistoryMessage)
    assert z.timestamp == naive.timestamp == datetime(2024, 1, 2, 3, 4, 5, tzinfo=UTC)


@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        ("{not json", "not valid JSON"),
        ("[1, 2]", "expected a JSON object"),
        (line(text=...), "missing field(s): text"),
        (line(id=7), "field 'id' must be a string, got int"),
        (line(text="   "), "field 'text' is empty"),
        (line(speaker=""), "field 'speaker' is empty"),
        (line(timestamp="yesterday"), "not ISO-8601"),
    ],
)
def test_bad_lines_are_reported_with_their_number(raw: str, expected: str) -> None:
    parsed = parse_line(raw, 42)
    assert isinstance(parsed, HistoryLineError)
    assert parsed.line_number == 42
    assert expected in parsed.message
    assert str(parsed).startswith("line 42: ")


def test_iteration_skips_blank_lines_keeps_numbers_and_continues_after_errors() -> None:
    parsed = list(iter_history([line(id="a"), "", "garbage", line(id="b")]))
    assert [type(p).__name__ for p in parsed] == [
        "HistoryMessage",
        "HistoryLineError",
        "HistoryMessage",
    ]
    assert [p.line_number for p in parsed] == [1, 3, 4]


def test_file_streaming_keeps_unicode_line_separators_inside_text(tmp_path: Path) -> None:
    path = tmp_path / "history.jsonl"
    text = "first\u2028still the same message"
    path.write_text(line(text=text, id="x") + "\n" + line(id="y") + "\r\n", encoding="utf-8")
    parsed = list(iter_history_file(path))
    assert [p.id for p in parsed if isinstance(p, HistoryMessage)] == ["x", "y"]
    assert isinstance(parsed[0], HistoryMessage) and parsed[0].text == text


def test_batches_cover_everything_in_order() -> None:
    items = list(iter_history(line(id=str(i)) for i in range(7)))
    grouped = list(batches(items, size=3))
    assert [len(group) for group in grouped] == [3, 3, 1]
    assert [m.id for group in grouped for m in group if isinstance(m, HistoryMessage)] == [
        str(i) for i in range(7)
    ]
    with pytest.raises(ValueError):
        list(batches(items, size=0))


def test_memory_text_has_date_and_speaker() -> None:
    message = parse_line(line(), 1)
    assert isinstance(message, HistoryMessage)
    assert memory_text(message) == "[8 May 2023] Ana: I moved to Porto."
    assert memory_text(message, with_date=False) == "Ana: I moved to Porto."
