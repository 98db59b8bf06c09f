"""Perceive: the kind of each user message."""

from __future__ import annotations

import pytest

from desktop_agent.core.intent import Intent, perceive


@pytest.mark.parametrize(
    ("message", "kind"),
    [
        ("What is my name?", "question"),
        ("where do I live", "question"),
        ("Is it going to rain tomorrow?", "question"),
        ("I love hiking in the Alps", "preference"),
        ("I can't stand loud music", "preference"),
        ("remind me to call mom", "task"),
        ("Write a short poem about autumn", "task"),
        ("I need to finish the report by Friday", "task"),
        ("Great idea, now write a haiku about it", "task"),
        ("My name is Ana", "statement"),
        ("I think so", "statement"),
        ("I like that idea", "statement"),
    ],
)
def test_kinds(message: str, kind: str) -> None:
    assert perceive(message).kind == kind


@pytest.mark.parametrize(
    ("message", "positive"),
    [
        ("thanks, that worked", True),
        ("Thank you!", True),
        ("Perfect, that is exactly what I needed", True),
        ("that's wrong", False),
        ("No, that's not what I asked", False),
        ("it didn't work", False),
    ],
)
def test_feedback_has_a_polarity(message: str, positive: bool) -> None:
    intent = perceive(message)
    assert (intent.kind, intent.positive, intent.feedback_about) == (
        "feedback",
        positive,
        "content",
    )


# --- feedback people actually give, read by the rules alone (no embedder) ------------------------


@pytest.mark.parametrize(
    ("message", "positive"),
    [
        ("👍", True),
        ("🙏🙏", True),
        ("❤️", True),
        ("👍🏽", True),
        ("perfect ty", True),
        ("Thanks!! 😊", True),
        ("👎", False),
        ("😡", False),
        ("meh", False),
        ("nah that's not it", False),
        ("that was wrong", False),
        ("Nope.", False),
        ("you got it wrong", False),
    ],
)
def test_content_feedback_without_an_embedder(message: str, positive: bool) -> None:
    assert perceive(message) == Intent("feedback", positive=positive, feedback_about="content")


@pytest.mark.parametrize(
    ("message", "wanted"),
    [
        ("too long", "concise"),
        ("way too long", "concise"),
        ("That's way too long!", "concise"),
        ("too wordy", "concise"),
        ("just the answer please", "concise"),
        ("tl;dr", "concise"),
        ("too short", "detailed"),
        ("more detail", "detailed"),
        ("more detail please", "detailed"),
        ("that's a bit thin", "detailed"),
        ("could you elaborate", "detailed"),
    ],
)
def test_length_feedback_says_which_style_is_wanted(message: str, wanted: str) -> None:
    assert perceive(message) == Intent(
        "feedback", positive=False, feedback_about="style", style=wanted
    )


@pytest.mark.parametrize(
    ("message", "style"),
    [
        ("keep it short", "concise"),
        ("Please keep answers brief.", "concise"),
        ("from now on, be concise", "concise"),
        ("I prefer detailed explanations", "detailed"),
        ("I'd like thorough answers", "detailed"),
        ("use bullet points", "step_by_step"),
    ],
)
def test_a_stated_answer_style_is_a_preference(message: str, style: str) -> None:
    assert perceive(message) == Intent("preference", style=style)


@pytest.mark.parametrize(
    ("message", "kind"),
    [
        ("thanks, also what about Spain?", "question"),
        ("What does tl;dr mean", "question"),
        ("Is that too long?", "question"),
        ("long story short, I got the job", "statement"),
        ("the report is too long for the journal, help me cut it", "task"),
        ("Write a short poem about autumn", "task"),
        ("ok", "statement"),
        ("the answer is 42 in the book", "statement"),
        ("too long ago to remember", "statement"),
        ("I'm allergic to peanuts", "statement"),
    ],
)
def test_messages_that_are_not_feedback(message: str, kind: str) -> None:
    assert perceive(message).kind == kind


def test_a_question_about_correctness_is_not_feedback() -> None:
    assert perceive("Is that right?").kind == "question"


@pytest.mark.parametrize(
    ("message", "command", "argument"),
    [
        ("/remember I take my coffee black", "remember", "I take my coffee black"),
        ("/forget my old address", "forget", "my old address"),
        ("/FORGET", "forget", ""),
        ("forget that I live in Lisbon", "forget", "I live in Lisbon"),
        ("Please forget about my ex.", "forget", "my ex"),
        ("Delete my phone number please.", "forget", "my phone number"),
        ("Forget my dog.", "forget", "my dog"),
        ("Please don't remember my salary.", "forget", "my salary"),
        ("Can you remove what I told you about my therapist?", "forget", "my therapist"),
        # politeness before, and the reason after, are not part of what to forget
        ("Kindly forget that I am taking metformin.", "forget", "I am taking metformin"),
        ("please forget everything about jake, i don't want him in here at all", "forget", "jake"),
        ("Forget my address because I'm moving soon.", "forget", "my address"),
        ("forget that my sister Ana, she's a nurse", "forget", "my sister Ana, she's a nurse"),
        # "the ... I told you about" names something told
        (
            "Please forget the dentist appointment I told you about, I cancelled it",
            "forget",
            "dentist appointment",
        ),
        ("forget the car I mentioned earlier", "forget", "car"),
        ("Please forget where I live.", "forget", "where I live"),
    ],
)
def test_commands(message: str, command: str, argument: str) -> None:
    assert perceive(message) == Intent("command", command=command, argument=argument)


@pytest.mark.parametrize(
    "message",
    ["Don't forget my mum's birthday is Friday.", "I forget my keys all the time.",
     "Delete the second paragraph of that email.", "Remove the bullet points, please.",
     "Forget the last bit, write it as a poem.", "I forget where I put my keys."],
)  # fmt: skip
def test_not_a_forget_command(message: str) -> None:
    assert perceive(message).command != "forget"
