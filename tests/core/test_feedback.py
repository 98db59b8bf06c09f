"""Feedback on replies and stated answer styles: what they change in memory, and how well the
classifier reads the messages people actually type (real embedder, held-out scored part)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from desktop_agent.core.assistant import Assistant
from desktop_agent.core.feedback import read_by_model
from desktop_agent.core.feedback_model import examples_digest, model_for
from desktop_agent.core.feedback_weights import MODEL
from desktop_agent.core.intent import perceive, reading_of
from desktop_agent.core.memory_service import MemoryService
from desktop_agent.core.procedures import (
    STYLE_KEY,
    choose_action,
    choose_style,
    record_feedback,
    remembered_style,
    style_for,
)
from desktop_agent.embed import HashingEmbedder
from desktop_agent.llm import GenerationSettings
from desktop_agent.llm.fake import ScriptedEngine
from desktop_agent.memory import Vault
from desktop_agent.secrets import KeyringKeySource
from tests.core.conftest import chat

DATA = Path(__file__).parents[1] / "data" / "feedback_labelled.jsonl"
# Measured on the scored part (97 messages), which is never trained or tuned on
# (bench/feedback_quality.py): 0.948 with the classifier, 0.866 with the rules alone. The floors
# allow two or three more misses.
SCORED_FLOOR = 0.92
RULES_FLOOR = 0.83


def labelled(part: str) -> list[dict[str, str]]:
    rows = [json.loads(line) for line in DATA.read_text(encoding="utf-8").splitlines() if line]
    return [r for r in rows if r["part"] == part]


def system_prompt(engine: ScriptedEngine) -> str:
    return engine.prompts[-1][0].content


def strategies(memory: MemoryService) -> set[tuple[str, str, int, int]]:
    return {(s.context, s.action, s.successes, s.total) for s in memory.strategies()}


# --- record_feedback: the function the GUI's thumbs call ----------------------------------------


def test_a_content_complaint_marks_the_reply_and_leaves_the_styles_alone(
    assistant: Assistant,
) -> None:
    reply = chat(assistant, assistant.start_conversation(), "How do I boil an egg?")

    record_feedback(assistant.memory, reply.episode_id, positive=False, about="content")

    assert assistant.memory.item(reply.episode_id).meta["outcome"] == "negative"
    assert assistant.memory.strategies() == []


def test_a_thumbs_up_counts_for_the_style_once(assistant: Assistant) -> None:
    reply = chat(assistant, assistant.start_conversation(), "How do I boil an egg?")

    record_feedback(assistant.memory, reply.episode_id, positive=True)
    record_feedback(assistant.memory, reply.episode_id, positive=True)  # a second click

    assert strategies(assistant.memory) == {("question", "concise", 1, 1)}
    assert assistant.memory.item(reply.episode_id).meta["outcome"] == "positive"


def test_too_short_is_a_failure_of_the_style_used_and_a_win_for_detail(
    assistant: Assistant,
) -> None:
    reply = chat(assistant, assistant.start_conversation(), "How do I boil an egg?")

    record_feedback(assistant.memory, reply.episode_id, False, about="style", style="detailed")

    assert strategies(assistant.memory) == {
        ("question", "concise", 0, 1),
        ("question", "detailed", 1, 1),
    }
    assert assistant.memory.item(reply.episode_id).meta["outcome"] == "too_short"
    assert choose_action(assistant.memory.strategies(), "question") == "detailed"


def test_a_stated_style_wins_over_the_statistics(memory: MemoryService) -> None:
    memory.remember(
        "User prefers detailed answers with explanations",
        type="preference",
        subject_key=STYLE_KEY,
    )
    assert remembered_style(memory) == "detailed"
    assert style_for(memory, "question") == "detailed"

    # a later, contrary preference supersedes it
    memory.remember("User prefers short, direct answers", type="preference", subject_key=STYLE_KEY)
    assert remembered_style(memory) == "concise"
    (old,) = [m for m in memory.items("semantic") if not m.active]
    assert old.text.startswith("User prefers detailed")


def test_the_style_follows_edits_and_forgetting_in_what_i_know(memory: MemoryService) -> None:
    style = memory.remember(
        "User prefers short, direct answers", type="preference", subject_key=STYLE_KEY
    )
    assert remembered_style(memory) == "concise"

    memory.edit(style.id, text="User prefers detailed answers")
    assert remembered_style(memory) == "detailed"

    memory.forget([style.id])
    assert remembered_style(memory) is None


# --- through the agent loop (the assistant as it is wired today: rules, no embedder) -------------


def test_keep_it_short_is_remembered_as_a_preference(
    assistant: Assistant, engine: ScriptedEngine
) -> None:
    conversation = assistant.start_conversation()
    chat(assistant, conversation, "I prefer detailed explanations")
    reply = chat(assistant, conversation, "Actually, keep it short.")

    (style,) = [m for m in assistant.memory.preferences() if m.subject_key == STYLE_KEY]
    assert style.text == "User prefers short, direct answers"
    assert [m.id for m in reply.learned] == [style.id]
    assert style.provenance[0].episode_id == reply.episode_id
    # only the answer-style memory: no second "likes" fact from the same words
    assert [m.subject_key for m in assistant.memory.items("semantic") if m.active] == [STYLE_KEY]
    assert remembered_style(assistant.memory) == "concise"


def test_a_content_complaint_does_not_switch_the_style(
    assistant: Assistant, engine: ScriptedEngine
) -> None:
    conversation = assistant.start_conversation()
    chat(assistant, conversation, "How do I boil an egg?")
    chat(assistant, conversation, "that was wrong")
    chat(assistant, conversation, "How do I make tea?")

    assert "Answer briefly and directly." in system_prompt(engine)
    assert assistant.memory.strategies() == []
    first = assistant.memory.episodes(conversation.id)[0]
    assert first.meta["outcome"] == "negative"


def test_too_long_teaches_concise_answers(assistant: Assistant, engine: ScriptedEngine) -> None:
    conversation = assistant.start_conversation()
    chat(assistant, conversation, "How do I boil an egg?")
    chat(assistant, conversation, "way too long")

    assert strategies(assistant.memory) == {("question", "concise", 1, 1)}
    assert assistant.memory.episodes(conversation.id)[0].meta["outcome"] == "too_long"


def test_later_turns_use_the_stated_style(assistant: Assistant, engine: ScriptedEngine) -> None:
    conversation = assistant.start_conversation()
    chat(assistant, conversation, "I prefer detailed explanations")
    chat(assistant, conversation, "How do I boil an egg?")
    assert "Answer thoroughly, with explanations and examples." in system_prompt(engine)

    chat(assistant, conversation, "keep it short")
    chat(assistant, assistant.start_conversation(), "How do I make tea?")
    assert "Answer briefly and directly." in system_prompt(engine)


def test_more_detail_please_is_answered_in_detail(
    assistant: Assistant, engine: ScriptedEngine
) -> None:
    conversation = assistant.start_conversation()
    chat(assistant, conversation, "How do I boil an egg?")
    chat(assistant, conversation, "more detail please")
    assert "Answer thoroughly, with explanations and examples." in system_prompt(engine)


def test_choose_style_without_memory() -> None:
    assert choose_style(None, perceive("too short")) == "detailed"
    assert choose_style(None, perceive("How do I boil an egg?")) == "concise"


# --- the classifier --------------------------------------------------------------------------------


def test_the_classifier_stays_off_for_another_embedder() -> None:
    embedder = HashingEmbedder()
    assert model_for(embedder) is None
    assert read_by_model("meh, not for me", embedder).label == "none"
    assert perceive("way too long", embedder).style == "concise"  # the rules still work


def accuracy(rows: list[dict[str, str]], embedder: object) -> float:
    right = 0
    for row in rows:
        reading = reading_of(perceive(row["text"], embedder))
        right += reading.label == row["label"] and (
            reading.label != "preference" or reading.style == row.get("style")
        )
    return right / len(rows)


def test_the_labelled_set_is_large_and_split() -> None:
    tune, scored = labelled("tune"), labelled("scored")
    assert len(tune) + len(scored) >= 150
    assert not {r["text"] for r in tune} & {r["text"] for r in scored}
    assert sum(r["label"] == "none" for r in scored) >= 20


def test_the_shipped_classifier_was_trained_on_the_tune_part_as_it_is() -> None:
    # after editing the tune part: python bench/feedback_quality.py --train
    assert MODEL["trained_on"] == examples_digest((r["label"], r["text"]) for r in labelled("tune"))


def test_rules_alone_on_the_scored_part() -> None:
    assert accuracy(labelled("scored"), None) >= RULES_FLOOR


@pytest.fixture(scope="module")
def real_embedder():  # noqa: ANN201
    from desktop_agent.embed import SentenceEmbedder

    return SentenceEmbedder(threads=1)


@pytest.mark.slow
def test_the_shipped_classifier_matches_the_real_embedder(real_embedder: object) -> None:
    assert model_for(real_embedder) is not None


@pytest.mark.slow
def test_classifier_accuracy_on_the_held_out_scored_part(real_embedder: object) -> None:
    assert accuracy(labelled("scored"), real_embedder) >= SCORED_FLOOR


@pytest.mark.slow
@pytest.mark.parametrize(
    ("message", "label"),
    [
        ("meh", "content"),
        ("nah that's not it", "content"),
        ("perfect ty", "positive"),
        ("that was wrong", "content"),
        ("way too long", "shorter"),
        ("could you go into more detail", "longer"),
        ("thanks, also what about Spain?", "none"),
        ("Write a short poem about autumn", "none"),
    ],
)
def test_informal_feedback_with_the_real_embedder(
    real_embedder: object, message: str, label: str
) -> None:
    assert reading_of(perceive(message, real_embedder)).label == label


@pytest.mark.slow
def test_the_assistant_reads_informal_feedback_with_its_embedder(
    tmp_path: Path, key_source: KeyringKeySource, real_embedder: object
) -> None:
    vault = Vault.open(tmp_path / "real-vault", key_source)
    try:
        memory = MemoryService(vault, real_embedder)
        engine = ScriptedEngine()
        assistant = Assistant(engine, GenerationSettings(max_tokens=64), memory=memory)
        conversation = assistant.start_conversation()
        chat(assistant, conversation, "How do I boil an egg?")
        chat(assistant, conversation, "could you go into more detail")  # the classifier's

        assert strategies(memory) == {("question", "concise", 0, 1), ("question", "detailed", 1, 1)}
        chat(assistant, conversation, "How do I poach an egg?")
        assert "Answer thoroughly, with explanations and examples." in system_prompt(engine)
    finally:
        vault.close()


def test_thumbs_count_as_typed_feedback_does(assistant: Assistant) -> None:
    thumbed = chat(assistant, assistant.start_conversation(), "How do I boil an egg?")
    typed_in = assistant.start_conversation()
    chat(assistant, typed_in, "How do I make tea?")

    assistant.rate(thumbed.episode_id, positive=True)
    assistant.rate(thumbed.episode_id, positive=True)  # a second click counts once
    chat(assistant, typed_in, "Thanks, that was really helpful!")

    # Both replies were questions answered concisely, and both verdicts count the same way.
    assert strategies(assistant.memory) == {("question", "concise", 2, 2)}
    assert assistant.memory.item(thumbed.episode_id).meta["outcome"] == "positive"

    down = chat(assistant, assistant.start_conversation(), "How do I fry an egg?")
    assistant.rate(down.episode_id, positive=False)
    assert assistant.memory.item(down.episode_id).meta["outcome"] == "negative"
    assert strategies(assistant.memory) == {("question", "concise", 2, 2)}  # content, not style
