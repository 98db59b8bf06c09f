"""Deterministic and model-assisted extraction from the user's own words."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import pytest

from desktop_agent.core.extraction import ExtractedFact, extract, extract_from_turn
from desktop_agent.core.extraction_model import (
    SCHEMA,
    InvalidModelOutput,
    ModelAssistedExtractor,
    parse_model_output,
)

ROOT = Path(__file__).resolve().parents[2]


def keys(message: str) -> list[tuple[str, str]]:
    return [(fact.type, fact.subject_key) for fact in extract(message)]


def only(message: str) -> ExtractedFact:
    facts = extract(message)
    assert len(facts) == 1, facts
    return facts[0]


def bench() -> Any:
    sys.path.insert(0, str(ROOT / "bench"))
    try:
        import extraction_quality
    finally:
        sys.path.remove(str(ROOT / "bench"))
    return extraction_quality


def test_the_tuning_part_meets_its_targets() -> None:
    result = bench().score(bench().PARTS["tune"])
    assert result["n_messages"] >= 200
    assert result["precision"] >= 0.95
    assert result["recall"] >= 0.95


def test_the_scored_part_stays_at_its_measured_level() -> None:
    """The scored part was written with the first tuning batch, before the rules, and never
    tuned on. Scored at the end (patterns and grammar, no embedder): precision 0.974, recall
    0.842; after fixing one bug that scoring showed (names of "mum" and "mother" in two slots):
    0.983 / 0.850 (113/133), 0.958 / 0.857 with the statement classifier. The issue's targets
    are precision 0.90 and recall 0.85; this guards the level reached."""
    result = bench().score(bench().PARTS["scored"])
    assert result["n_messages"] >= 120
    assert result["precision"] >= 0.95
    assert result["recall"] >= 0.84
    assert result["extraction_ms_p50"] <= 50


# Phrasings written after the rules, not in the labelled set: a check that they generalise.
@pytest.mark.parametrize(
    ("message", "expected"),
    [
        ("My name's Priya and I live in Manchester.", [("fact", "name"), ("fact", "home_city")]),
        (
            "I'm allergic to penicillin and latex",
            [("risk", "allergy:penicillin"), ("risk", "allergy:latex")],
        ),
        ("my wife is called Sara", [("fact", "name_of:wife")]),
        ("I have a cat named Miso", [("fact", "name_of:cat")]),
        ("I don't really like horror movies", [("preference", "likes:horror movie")]),
        (
            "I am an architect and I love brutalism",
            [("fact", "job"), ("preference", "likes:brutalism")],
        ),
        ("i live in new york", [("fact", "home_city")]),
        ("Actually I'm 35, not 34", [("fact", "age")]),
        ("remember that I'm allergic to bees", [("risk", "allergy:bee")]),
    ],
)
def test_unseen_phrasings(message: str, expected: list[tuple[str, str]]) -> None:
    assert keys(message) == expected


@pytest.mark.parametrize(
    "message",
    [
        "I love you",
        "I love how you explain things",
        "I hate to say it but you are right",
        "I'm going to try that",
        "remember when we talked about Rome?",
        "Can you tell me what I like?",
        'He said "I live in Paris" once',
        "we should get pizza",
    ],
)
def test_nothing_from_chit_chat_questions_quotes_or_the_past(message: str) -> None:
    assert extract(message) == []


def test_a_fact_reads_in_third_person_with_the_clause_span() -> None:
    message = "Oh, I live in Lisbon."
    fact = only(message)
    assert fact.text == "User lives in Lisbon"
    assert fact.value == "Lisbon"
    assert message[fact.span[0] : fact.span[1]] == "I live in Lisbon"
    assert not fact.is_correction and not fact.negated


def test_like_and_dislike_share_a_slot_so_a_correction_can_supersede() -> None:
    before, after = only("I love coffee"), only("I don't like coffee anymore")
    assert before.subject_key == after.subject_key == "likes:coffee"
    assert (before.negated, after.negated) == (False, True)
    assert after.is_correction and not before.is_correction


def test_moving_supersedes_the_home_city() -> None:
    facts = extract("I don't live in Lisbon anymore, I moved to Faro")
    assert [(f.subject_key, f.value, f.negated, f.is_correction) for f in facts] == [
        ("home_city", "Lisbon", True, True),
        ("home_city", "Faro", False, True),
    ]


def test_tasks_plans_and_decisions_keep_the_users_words() -> None:
    assert only("remind me to buy milk").text == "Remind User to buy milk"
    plan = only("I'm planning to repaint the kitchen this summer")
    assert (plan.type, plan.value) == ("plan", "repaint the kitchen this summer")
    assert only("I've decided to take the job in Munich").type == "decision"


def test_only_the_users_turns_are_read() -> None:
    assert extract_from_turn("assistant", "My name is Ana") == []
    assert [f.subject_key for f in extract_from_turn("user", "My name is Ana")] == ["name"]


# --- model-assisted ---------------------------------------------------------------------------


class FakeEngine:
    def __init__(self, reply: str | Exception) -> None:
        self.reply = reply
        self.schemas: list[dict[str, Any]] = []

    def complete_json(self, prompt: str, schema: dict[str, Any]) -> str:
        self.schemas.append(schema)
        if isinstance(self.reply, Exception):
            raise self.reply
        return self.reply


def proposal(**overrides: object) -> dict[str, object]:
    item: dict[str, object] = {
        "type": "fact",
        "subject_key": "pet",
        "statement": "User has a parrot",
        "quote": "a parrot",
        "negated": False,
        "is_correction": False,
    }
    item.update(overrides)
    return item


def test_valid_model_output_adds_grounded_facts_to_the_rules() -> None:
    engine = FakeEngine(json.dumps({"facts": [proposal()]}))
    facts = ModelAssistedExtractor(engine).extract("My name is Ana and there's a parrot at home")
    assert [(f.subject_key, f.text) for f in facts] == [
        ("name", "User's name is Ana"),
        ("pet", "User has a parrot"),
    ]
    message = "My name is Ana and there's a parrot at home"
    assert message[facts[1].span[0] : facts[1].span[1]] == "a parrot"
    assert engine.schemas == [SCHEMA]


def test_the_rules_win_where_both_read_the_same_slot() -> None:
    engine = FakeEngine(json.dumps({"facts": [proposal(subject_key="name", quote="Ana")]}))
    facts = ModelAssistedExtractor(engine).extract("My name is Ana")
    assert [f.text for f in facts] == ["User's name is Ana"]


@pytest.mark.parametrize(
    "reply",
    [
        "not json",
        json.dumps([]),
        json.dumps({"facts": [proposal()], "extra": 1}),
        json.dumps({"facts": [proposal(type="opinion")]}),
        json.dumps({"facts": [proposal(quote="a cockatoo")]}),
        json.dumps({"facts": [proposal(negated="no")]}),
        json.dumps({"facts": [proposal(subject_key="Pet Bird!")]}),
        json.dumps({"facts": [{"type": "fact"}]}),
    ],
)
def test_invalid_model_output_falls_back_to_the_rules(reply: str) -> None:
    with pytest.raises(InvalidModelOutput):
        parse_model_output(reply, "My name is Ana and there's a parrot at home")
    extractor = ModelAssistedExtractor(FakeEngine(reply))
    assert extractor.extract("My name is Ana and there's a parrot at home") == extract(
        "My name is Ana and there's a parrot at home"
    )
    assert extractor.last_error


def test_an_engine_failure_falls_back_too() -> None:
    extractor = ModelAssistedExtractor(FakeEngine(RuntimeError("model crashed")))
    assert [f.subject_key for f in extractor.extract("I love tea")] == ["likes:tea"]
    assert extractor.last_error == "model crashed"


def test_a_diet_taken_up_is_the_diet_slot() -> None:
    # "I went vegan" corrects "I've been vegetarian": the same slot, so it supersedes.
    (before,) = extract("I've been vegetarian for about six years.")
    (after,) = extract("Quick update: I went fully vegan in January.")
    # how long is part of what was said (issue 8, t229: "how long have I been vegetarian?")
    assert (before.text, before.subject_key) == (
        "User has been vegetarian for about six years",
        "diet",
    )
    assert (after.text, after.subject_key) == ("User is vegan", "diet")
