"""The memory-answers bench: its scorer on hand-made replies, its data, and one real run."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from tests.conftest import in_ci

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def bench() -> Iterator[ModuleType]:
    sys.path.insert(0, str(ROOT / "bench"))
    try:
        import memory_answers
    finally:
        sys.path.remove(str(ROOT / "bench"))
    yield memory_answers


MOVED = {
    "ask": "Where do I live now?",
    "category": "corrected",
    "expect": ["Porto"],
    "stale": ["Lisbon"],
}


def test_matching_ignores_case_accents_and_punctuation_but_not_word_edges(
    bench: ModuleType,
) -> None:
    assert bench.has_form("You live in PORTO!", "porto")
    assert bench.has_form("Avoid peanut-free?  No: peanut free.", "peanut-free")
    assert bench.has_form("Você mora em São Paulo", "Sao Paulo")
    assert bench.has_form("Ursula Le Guin's books", "le guin")
    assert not bench.has_form("You love peanuts", "peanut")
    assert not bench.has_form("Portorož is lovely", "Porto")
    assert bench.has_item("You love peanuts", ["peanut", "peanuts"])


def test_a_right_reply_a_stale_reply_and_stale_memories(bench: ModuleType) -> None:
    right = bench.score_question(MOVED, "You live in Porto.", ["User lives in Porto"])
    assert right.answer_correct and not right.stale_leak and right.injected_correct

    stale = bench.score_question(MOVED, "You live in Lisbon.", ["User lives in Lisbon"])
    assert not stale.answer_correct and stale.stale_leak and not stale.injected_correct
    assert stale.stale_in_reply == ["Lisbon"] and stale.stale_in_memories == ["Lisbon"]

    # The right answer, but the prompt still carried the old city: a leak all the same.
    leaked = bench.score_question(
        MOVED, "Porto.", ["User lives in Porto", "Hi! I live in Lisbon and work as a nurse"]
    )
    assert leaked.answer_correct and leaked.injected_correct
    assert leaked.stale_leak and leaked.stale_in_reply == [] and leaked.stale_in_memories


def test_forgotten_past_risk_and_several_values(bench: ModuleType) -> None:
    forgotten = {
        "ask": "What is my job?",
        "category": "forgotten",
        "expect": [],
        "forgotten": ["nurse"],
    }
    assert bench.score_question(forgotten, "I don't know your job.", []).answer_correct
    said = bench.score_question(forgotten, "You are a nurse.", [])
    assert not said.answer_correct and said.stale_leak
    assert bench.score_question(forgotten, "No idea.", []).injected_correct is None
    # A forgotten value is known however it is said; a superseded one only when asserted.
    negated = bench.score_question(forgotten, "You're no longer a nurse.", [])
    assert negated.stale_leak and not negated.answer_correct
    cats = {"ask": "?", "category": "corrected", "expect": ["dust mites"], "stale": ["cats"]}
    corrected = bench.score_question(
        cats, "You are allergic to dust mites, not to cats.", ["User is not allergic to cats"]
    )
    assert corrected.answer_correct and not corrected.stale_leak
    assert bench.score_question(cats, "Dust mites and cats.", []).stale_in_reply == ["cats"]
    assert bench.score_question(cats, "Not dust mites. Cats!", []).stale_leak
    assert bench.score_question(cats, "No, you're allergic to cats.", []).stale_leak

    past = {"ask": "Where did I live before?", "category": "past", "expect": ["Lisbon"]}
    before = bench.score_question(past, "In Lisbon.", ["User lives in Lisbon"])
    assert before.answer_correct and not before.stale_leak and not before.stale_checked

    risk = {
        "ask": "What should I cook tonight?",
        "category": "risk",
        "expect": [],
        "memory": [["peanut", "peanuts"]],
        "avoid": ["peanut", "peanuts", "peanut butter", "satay"],
        "warn": ["allergic", "allergy", "peanut free"],
    }
    assert not bench.score_question(risk, "Peanut butter noodles!", []).answer_correct
    assert bench.score_question(risk, "A vegetable curry.", []).answer_correct
    warned = bench.score_question(
        risk, "Since you're allergic to peanuts, skip the satay.", ["User is allergic to peanuts"]
    )
    assert warned.answer_correct and warned.injected_correct and warned.risky

    allergies = {"ask": "?", "category": "current", "expect": [["peanut", "peanuts"], "penicillin"]}
    partial = bench.score_question(allergies, "Peanuts.", ["allergic to peanuts"])
    assert not partial.answer_correct and partial.missing == ["penicillin"]
    assert not partial.injected_correct
    split = bench.score_question(
        allergies, "Peanuts and penicillin.", ["allergic to peanuts", "allergic to penicillin"]
    )
    assert split.answer_correct and split.injected_correct


def test_summary_counts_and_rates(bench: ModuleType) -> None:
    def result(step: dict[str, Any], reply: str, memories: list[str]) -> dict[str, Any]:
        return bench.question_result(
            step,
            {"reply": reply, "memories_used": [{"text": m} for m in memories]},
            None,
            "s",
            "tune",
        )

    past = {"ask": "Before?", "category": "past", "expect": ["Lisbon"], "stale": []}
    results = [
        result(MOVED, "Porto", ["User lives in Porto"]),
        result(MOVED, "Lisbon", []),
        result(past, "Lisbon", []),
        bench.question_result(MOVED, {}, "chat exited 1", "s", "tune"),
        bench.question_result({**past, "expect": []}, {}, "no reply", "s", "tune"),
    ]
    figures = bench.summarise(results)
    assert figures["n"] == 5 and figures["answer_correct_count"] == 2
    assert figures["answer_correct"] == 0.4
    assert (figures["stale_leak_count"], figures["stale_checked"]) == (1, 3)
    assert (figures["injected_correct_count"], figures["injected_checked"]) == (1, 4)
    assert figures["errors"] == 2
    assert list(bench.summarise_by(results, "category")) == ["corrected", "past"]


def test_cli_forget_picks_the_matching_facts_else_the_matching_episodes(
    bench: ModuleType,
) -> None:
    hits = [
        {"memory_id": "e1", "kind": "episodic", "text": "I work as a nurse at night"},
        {"memory_id": "f1", "kind": "semantic", "text": "User works as a nurse"},
        {"memory_id": "f2", "kind": "semantic", "text": "User's sister is Hannah"},
    ]
    assert bench.choose_forget(hits, ["nurse"]) == (["f1"], False)
    assert bench.choose_forget(hits[:1], ["nurse"]) == (["e1"], True)
    assert bench.choose_forget(hits, ["teacher"]) == ([], False)


@pytest.mark.parametrize(("part", "at_least"), [("tune", 40), ("scored", 30)])
def test_the_scenario_data_is_well_formed(bench: ModuleType, part: str, at_least: int) -> None:
    scenarios = bench.load_part(part)
    asks = [s for sc in scenarios for session in sc["sessions"] for s in session if "ask" in s]
    assert len(asks) >= at_least
    assert {a["category"] for a in asks} == set(bench.CATEGORIES)
    assert len({sc["id"] for sc in scenarios}) == len(scenarios)
    for scenario in scenarios:
        assert len(scenario["sessions"]) >= 3, scenario["id"]
    for ask in asks:
        # A value in the question itself could be echoed back and count for or against.
        gone = ask.get("stale", []) + ask.get("forgotten", [])
        for form in bench.forms(ask.get("expect", []) + gone):
            assert not bench.has_form(ask["ask"], form), (ask["ask"], form)
        for form in bench.forms(gone):
            assert not any(bench.has_item(form, item) for item in ask.get("expect", []))
        if ask["category"] == "forgotten":
            assert ask.get("forgotten") and not ask.get("expect"), ask["ask"]


@pytest.mark.slow
def test_a_three_process_scenario_is_run_and_scored(bench: ModuleType, tmp_path: Path) -> None:
    problem = bench.keyring_problem(bench.Cli(tmp_path / "doctor"))
    if problem:
        if in_ci():
            pytest.fail(f"CI must run this test, but: {problem}")
        pytest.skip(f"run under bash packaging/with-keyring.sh ({problem})")
    scenario = {
        "id": "it-moves",
        "sessions": [
            [{"say": "I live in Lisbon, and my cat is called Biscuit."}],
            [{"say": "Actually, I moved to Porto last month."}],
            [
                MOVED,
                {"ask": "What's my cat called?", "category": "current", "expect": ["Biscuit"]},
            ],
        ],
    }
    bench.check_scenario(scenario)

    run = bench.run_scenario(scenario, "tune")

    # A chat process that crashes at exit is noted (and reported), its replies still count.
    assert all("chat_exit" in note for note in run["notes"]) and run["home"] is None
    assert [q["ask"] for q in run["questions"]] == [MOVED["ask"], "What's my cat called?"]
    for question, step in zip(run["questions"], scenario["sessions"][2], strict=True):
        assert question["error"] is None and question["model"]
        assert isinstance(question["reply"], str) and question["reply"].strip()
        assert all(isinstance(text, str) for text in question["memories_used"])
        again = bench.score_question(step, question["reply"], question["memories_used"])
        assert question["answer_correct"] == again.answer_correct
        assert question["stale_leak"] == again.stale_leak

        # Plant a stale value taken from the real reply: the detector must see it.
        word = next(w for w in question["reply"].split() if bench.normalise(w).strip())
        planted = bench.score_question(
            {**step, "stale": [word]}, question["reply"], question["memories_used"]
        )
        assert planted.stale_leak and planted.stale_in_reply == [word]
        for text in question["memories_used"]:  # and one from each injected memory
            word = next(w for w in reversed(text.split()) if bench.normalise(w).strip())
            planted = bench.score_question({**step, "stale": [word]}, "", [text])
            assert planted.stale_leak and planted.stale_in_memories == [word]
    figures = bench.summarise(run["questions"])
    assert figures["n"] == 2 and figures["stale_checked"] == 1 and figures["errors"] == 0


def test_the_core_only_run_scores_a_scenario_like_the_whole_chat() -> None:
    from bench.memory_answers_core import run_scenario
    from desktop_agent.embed import HashingEmbedder
    from desktop_agent.secrets.memory_backend import InMemoryKeyring

    scenario = {
        "id": "core-1",
        "sessions": [
            [{"say": "I live in Leeds and my dog is called Rex."}],
            [{"say": "I moved to York last month."}],
            [
                {"ask": "Where do I live?", "category": "corrected", "expect": ["York"],
                 "stale": ["Leeds"]},
                {"ask": "What's my dog called?", "category": "current", "expect": ["Rex"],
                 "stale": []},
            ],
        ],
    }  # fmt: skip
    ran = run_scenario(scenario, "tune", HashingEmbedder(), InMemoryKeyring())
    scored = {q["ask"]: (q["answer_correct"], q["stale_leak"]) for q in ran["questions"]}
    assert scored == {"Where do I live?": (True, False), "What's my dog called?": (True, False)}
