"""Stop 47: forget requests typed the way people type to a chat app ("can u erase everything
about the therapist?", "can you wipe the sertraline note?") and confirmed the way they answer
("yep", "yeah go ahead"). Before, the first two were read as questions, and "yep" after an offer
was a new message, so nothing was forgotten while the user believed it was. Cases written
before the rules."""

from __future__ import annotations

import pytest

from desktop_agent.core.assistant import Assistant
from desktop_agent.core.chat_commands import confirms, declines
from desktop_agent.core.intent import perceive
from tests.core.conftest import chat


@pytest.mark.parametrize(
    ("request_", "argument"),
    [
        ("can u erase everything about the therapist?", "the therapist"),
        ("can you wipe the sertraline note?", "sertraline"),
        ("can u remove the loki thing, was just me moaning", "loki"),
        ("could u forget the bit about my ex", "my ex"),
        ("u can forget my bank pin now", "my bank pin"),
        ("pls get rid of the note about my overdraft", "my overdraft"),
        ("delete the entry about my therapist", "my therapist"),
        ("erase the note about Jess's pregnancy", "Jess's pregnancy"),
        ("get rid of anything about my weight", "my weight"),
        ("delete everything you know about Carla", "Carla"),
        ("i'd like you to forget my address", "my address"),
        ("can you take my phone number out of your memory", "my phone number"),
        ("remove the part where i talked about my ex", "my ex"),
        ("can you unlearn my old job", "my old job"),
        ("forget the gambling note", "gambling"),
        ("would ya delete the stuff about my landlord pls", "my landlord"),
        (
            "hmm actually please forget what I told you about my salary, I'd rather not keep "
            "that here",
            "my salary",
        ),
        ("btw, can you forget my locker code", "my locker code"),
        ("i don't want you remembering my address", "my address"),
        ("i dont want u to keep my salary", "my salary"),
        ("can you not save my address", "my address"),
        ("you don't need to remember my weight anymore", "my weight"),
        ("no need to remember my old number", "my old number"),
        ("clear out everything about Dan", "Dan"),
    ],
)
def test_forget_requests_as_typed(request_: str, argument: str) -> None:
    intent = perceive(request_, None)
    assert (intent.kind, intent.command, intent.argument) == ("command", "forget", argument)


@pytest.mark.parametrize(
    "message",
    [
        "can u remove the stain from my white shirt?",
        "how do I delete my instagram account",
        "can you help me get rid of ants in the kitchen",
        "delete the last paragraph",
        "i keep forgetting my keys lol",
        "can you take the bins out of the list",
        "i'd like you to write a note for my landlord",
        "can u wipe the floor with him at chess, any tips?",
        "don't keep asking me that",
        "i don't want you to keep asking",
        "stop saving money on the wrong things",
    ],
)
def test_not_a_forget_request(message: str) -> None:
    assert perceive(message, None).command != "forget"


@pytest.mark.parametrize(
    "answer",
    [
        "yes",
        "Yes.",
        "yep",
        "yeah",
        "yup!",
        "yes pls",
        "yeah go ahead",
        "sure, do it",
        "ok do it",
        "yes please delete it",
        "go ahead",
        "please do",
        "👍",
        "yes 👍",
    ],
)
def test_a_yes_as_typed_confirms(answer: str) -> None:
    assert confirms(answer) and not declines(answer)


@pytest.mark.parametrize(
    "answer",
    [
        "no",
        "nope",
        "nah",
        "no thanks",
        "no, keep it",
        "cancel",
        "actually no",
        "wait no",
        "don't",
        "yes but not the part about Sam",
    ],
)
def test_a_no_or_a_doubt_does_not_confirm(answer: str) -> None:
    assert not confirms(answer)


def test_nah_and_nope_decline() -> None:
    assert declines("nah") and declines("nope, keep it") and not declines("yep")
    assert declines("keep them") and declines("/no")


def test_a_typed_request_and_yep_erase_the_words(assistant: Assistant) -> None:
    chat(
        assistant,
        assistant.start_conversation(),
        "need to remember to pack my sertraline for japan, 50mg, enough for 3 weeks",
    )
    conversation = assistant.start_conversation()
    offer = chat(assistant, conversation, "actually can you wipe the sertraline note?").text
    assert "sertraline" in offer, offer
    receipt = chat(assistant, conversation, "yep").text
    assert receipt.startswith("Forgotten"), receipt
    said = " ".join(e.text for e in assistant.memory.items("episodic"))
    assert "sertraline" not in said.casefold() and "50mg" not in said, said


def test_the_name_is_erased_from_the_news_told_with_the_request(assistant: Assistant) -> None:
    # (before: "update: callum and sasha broke up" was kept, name and all, though the chat
    # showed it erased)
    chat(assistant, assistant.start_conversation(), "callum's got a new gf, sasha, she's a vet")
    conversation = assistant.start_conversation()
    chat(
        assistant,
        conversation,
        "update: callum and sasha broke up 😬 can you delete the sasha stuff",
    )
    assert chat(assistant, conversation, "yes please").text.startswith("Forgotten")
    said = [e.user_text for e in assistant.memory.items("episodic")]
    assert not any("sasha" in s.casefold() for s in said), said
    assert any("callum and" in s and "broke up" in s for s in said), said


def test_news_said_with_surprise_is_forgotten_and_the_news_after_it_kept(
    assistant: Assistant,
) -> None:
    # (before: a sentence ending "??" was a question, never offered, and "I don't remember
    # anything about “Jess's divorce and Mark”")
    chat(
        assistant,
        assistant.start_conversation(),
        "coffee with Jess today and she dumped SO much on me. she's getting divorced from Mark, "
        "he's been seeing someone from his office for months?? anyway on a happier note she's "
        "training for the Berlin marathon in September",
    )
    conversation = assistant.start_conversation()
    offer = chat(
        assistant,
        conversation,
        "hey, about Jess - please forget what I told you about her divorce and Mark",
    ).text
    assert "divorced from Mark" in offer, offer
    chat(assistant, conversation, "yes")
    said = " ".join(e.user_text for e in assistant.memory.items("episodic"))
    assert "Mark" not in said and "divorced" not in said, said
    reply = chat(assistant, assistant.start_conversation(), "What race is Jess training for?")
    assert "Berlin marathon" in reply.text, reply.text


def test_what_a_reminder_request_tells_can_be_forgotten(assistant: Assistant) -> None:
    chat(
        assistant,
        assistant.start_conversation(),
        "Also can you remind me I've got a fertility clinic appointment on Wednesday the 12th?",
    )
    conversation = assistant.start_conversation()
    offer = chat(
        assistant, conversation, "can you forget about the fertility clinic appointment?"
    ).text
    assert "fertility clinic appointment on Wednesday" in offer, offer
    chat(assistant, conversation, "yes")
    said = " ".join(e.user_text for e in assistant.memory.items("episodic"))
    assert "fertility" not in said, said
