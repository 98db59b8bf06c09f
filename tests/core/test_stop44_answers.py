"""Stop 44: the last resort before the model. A question about something the user told of,
which no rule recognised ("how heavy is Rolo?", "how much is the deposit?"), is answered by
the user's own sentence that names the thing and says the kind of thing asked; questions that
ask for advice or for what nobody told are still the model's. Cases written before the rule."""

from __future__ import annotations

import pytest

from desktop_agent.core.assistant import Assistant
from desktop_agent.core.memory_service import MemoryService
from desktop_agent.llm import GenerationSettings
from desktop_agent.llm.fake import ScriptedEngine
from tests.core.conftest import chat, told_then_asked


@pytest.mark.parametrize(
    ("told", "asked", "answer"),
    [
        (
            "rolo had his check-up today, he weighs 9kg now and the vet's happy",
            "how heavy is rolo?",
            "9kg",
        ),
        (
            "booked the cottage in Wales for half term! the deposit is £150, rest due in june",
            "how much is the deposit?",
            "£150",
        ),
        (
            "physio for my shoulder is every tuesday, 7.30am at the Bridge clinic with Carys",
            "what time is physio",
            "7.30am",
        ),
        (
            "Nia started swimming lessons, saturdays at Parkside pool with coach Dermot",
            "where does Nia swim?",
            "Parkside",
        ),
        (
            "our allotment plot is number 14 at Hill Lane, we share it with Baz",
            "which plot is the allotment?",
            "14",
        ),
    ],
)
def test_a_question_no_rule_knows_is_answered_by_the_sentence_that_says_it(
    assistant: Assistant, told: str, asked: str, answer: str
) -> None:
    reply = told_then_asked(assistant, f"{told}|ok thanks", asked)
    assert answer in reply and reply.startswith("You told me"), reply


@pytest.mark.parametrize(
    ("told", "asked"),
    [
        ("we're off to Peru in March, so excited", "what's the capital of Peru?"),
        (
            "Nia's birthday is on the 3rd of May, she'll be 7",
            "what should I get Nia for her birthday?",
        ),
        ("rolo weighs 9kg now", "how heavy is a blue whale?"),
        ("the deposit for the cottage is £150", "can you explain how a tenancy deposit works?"),
    ],
)
def test_questions_for_advice_or_about_the_world_are_left_to_the_model(
    assistant: Assistant, told: str, asked: str
) -> None:
    reply = told_then_asked(assistant, told, asked)
    assert not reply.startswith("You told me"), reply


def test_whom_a_role_names_is_found_by_the_words_when_a_forget_is_near(
    assistant: Assistant,
) -> None:
    # "physio" asks of the user's physio; its other words ("physiotherapist") are no more
    # needed in the sentence than the role itself (the meaning fallback is off: a forgotten
    # message is among the nearest)
    told = [
        "started physio for my knee, it's at kinetic physio on fridays 9am, my physio is orla",
        "also started seeing a counsellor called wilhelmina frost, monday evenings",
    ]
    for message in told:
        chat(assistant, assistant.start_conversation(), message)
    conversation = assistant.start_conversation()
    chat(assistant, conversation, "can you forget the stuff about wilhelmina and the counselling?")
    chat(assistant, conversation, "yes")
    reply = chat(assistant, assistant.start_conversation(), "who's my physio again?").text
    assert "orla" in reply and "wilhelmina" not in reply.casefold(), reply


def test_a_quote_from_memory_is_no_history_the_model_reads(memory: MemoryService) -> None:
    # Tried as a user: after two quoted answers in a chat, the bundled model opened its reply
    # to "what should I cook tonight?" with "You told me", copied from them, and the guard
    # against made-up quotes answered "I don't know that yet: you haven't told me."
    engine = ScriptedEngine()
    assistant = Assistant(engine, GenerationSettings(max_tokens=48), memory=memory)
    chat(assistant, assistant.start_conversation(), "our dog rolo weighs 11kg now")
    conversation = assistant.start_conversation()
    assert chat(assistant, conversation, "how heavy is rolo?").text.startswith("You told me")
    chat(assistant, conversation, "what should I cook tonight?")
    read = [m.content for m in engine.prompts[-1][1:]]
    assert read == ["what should I cook tonight?"], read
    # the chat on screen keeps the exchange
    assert any(m.content.startswith("You told me") for m in conversation.messages)
