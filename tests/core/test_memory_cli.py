"""`history import` and `memory search` through the real CLI, vault and embedder."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import keyring
import pytest

from desktop_agent.cli import main
from desktop_agent.secrets.memory_backend import InMemoryKeyring


@pytest.fixture(autouse=True)
def memory_keyring() -> Iterator[None]:
    previous = keyring.get_keyring()
    keyring.set_keyring(InMemoryKeyring())
    yield
    keyring.set_keyring(previous)


def line(conversation: str, msg_id: str, speaker: str, text: str, when: str) -> str:
    return json.dumps(
        {
            "conversation": conversation,
            "id": msg_id,
            "speaker": speaker,
            "text": text,
            "timestamp": when,
        }
    )


@pytest.fixture
def history(tmp_path: Path) -> Path:
    path = tmp_path / "history.jsonl"
    path.write_text(
        "\n".join(
            [
                line(
                    "trip",
                    "m1",
                    "Ana",
                    "We are flying to Tokyo on the 3rd of May.",
                    "2024-04-20T10:00:00Z",
                ),
                line(
                    "trip",
                    "m2",
                    "Bo",
                    "Great, I booked the ryokan in Kyoto.",
                    "2024-04-20T10:01:00Z",
                ),
                "this is not json",
                line("trip", "m3", "Ana", "", "2024-04-20T10:02:00Z"),
                line(
                    "cooking",
                    "c1",
                    "Ana",
                    "My sourdough starter is called Bubbles.",
                    "2024-05-02T18:00:00+02:00",
                ),
                '{"conversation": "cooking", "id": "c2", "speaker": "Bo", "text": "Nice", "timestamp": "yesterday"}',
                "",
            ]
        ),
        encoding="utf-8",
    )
    return path


def run_json(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, list[dict], str]:
    code = main(list(args))
    out = capsys.readouterr()
    return code, [json.loads(x) for x in out.out.splitlines() if x.strip()], out.err


@pytest.mark.slow
def test_import_reports_bad_lines_and_imports_the_rest(
    history: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, (summary,), err = run_json(capsys, "history", "import", str(history), "--json")

    assert code == 0
    assert summary["imported"] == 3
    assert summary["conversations"] == 2
    assert [bad["line"] for bad in summary["bad_lines"]] == [3, 4, 6]
    assert "line 3" in err and "line 6" in err

    # importing again adds nothing: every message is already there
    code, (again,), _ = run_json(capsys, "history", "import", str(history), "--json")
    assert (again["imported"], again["duplicates_skipped"]) == (0, 3)


@pytest.mark.slow
def test_search_finds_imported_messages_with_their_source_ids(
    history: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    main(["history", "import", str(history)])
    capsys.readouterr()

    code, (result,), _ = run_json(
        capsys, "memory", "search", "name of the sourdough starter", "--limit", "2", "--json"
    )
    assert code == 0
    top = result["hits"][0]
    assert top["source_id"] == "c1"
    assert "Bubbles" in top["text"]
    assert {"memory_id", "kind", "score", "vector_score", "keyword_score"} <= set(top)

    queries = tmp_path / "queries.jsonl"
    queries.write_text(
        json.dumps({"id": "q1", "query": "where is the ryokan"})
        + "\n"
        + json.dumps({"id": "q2", "query": "flight to Tokyo"})
        + "\n"
    )
    code, results, _ = run_json(
        capsys, "memory", "search", "--queries", str(queries), "--limit", "1", "--json"
    )
    assert code == 0
    assert [(r["id"], r["hits"][0]["source_id"]) for r in results] == [("q1", "m2"), ("q2", "m1")]


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["history", "import", "/no/such/file.jsonl"], "no such file"),
        (["memory", "search"], "give either a QUERY or --queries"),
        (["memory", "search", "x", "--limit", "0"], "--limit must be at least 1"),
    ],
)
def test_bad_input_is_one_line(
    args: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    code = main(args)
    err = capsys.readouterr().err
    assert code != 0
    assert message in err and err.count("\n") == 1


def test_a_history_line_with_a_broken_character_is_skipped_with_a_reason() -> None:
    from desktop_agent.core.history_import import parse_line

    line = '{"conversation":"c","id":"1","speaker":"user","text":"hi \\ud800","timestamp":"2026-01-01"}'
    problem = parse_line(line, 7)
    assert "lone surrogate" in str(problem.message) and problem.line_number == 7


def test_text_with_a_lone_surrogate_is_stored_and_embedded(memory) -> None:  # noqa: ANN001
    # Undecodable argument bytes reach Python as lone surrogates: kept, shown escaped.
    fact = memory.remember("caf\udce9 bad")
    assert memory.item(fact.id).text == "caf\udce9 bad"
