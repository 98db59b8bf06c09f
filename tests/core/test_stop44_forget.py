"""Stop 44: a forget request that says what it means after the thing ("the therapy stuff? like
Dr. Lindqvist and all that") forgets what it names there too. Before, only "therapy" was looked
for, the user's sentences said "session with Dr. Lindqvist ... the anxiety stuff", and the
answer was "I don't remember anything about “therapy”". Cases written before the rule."""

from __future__ import annotations

import pytest

from desktop_agent.core.assistant import Assistant
from desktop_agent.core.intent import perceive
from tests.core.conftest import chat


@pytest.mark.parametrize(
    ("request_", "argument"),
    [
        (
            "actually can you forget the therapy stuff? like Dr. Lindqvist and all that, I'd "
            "rather not have it saved",
            "therapy and Dr. Lindqvist",
        ),
        ("please forget the court case stuff, e.g. Mr Okoro", "court case and Mr Okoro"),
        (
            "forget the money stuff, especially the loan from Jamal",
            "money and the loan from Jamal",
        ),
        ("forget that I like pizza", "I like pizza"),
        # why, said after it, is not part of it
        (
            "can you delete the gym door pin i gave you, probably shouldnt have shared that",
            "gym door pin",
        ),
        ("please forget my bank details, honestly not sure why I said them", "my bank details"),
        # what it means, listed after it and closed with "all of it"
        (
            "hey can you delete everything about the court case? solicitor, hearing, all of "
            "it. I don't want it sitting here",
            "court case and solicitor and hearing",
        ),
        (
            "could you forget all the medication stuff I told you last time? the lithium and "
            "the dose and all that, I'd rather not have it stored",
            "medication and the lithium and the dose",
        ),
        # "delete the X info": a thing of the memory, never a text to edit
        ("and can you delete the swimming info, she's stopped going", "swimming"),
        ("please remove the allotment details", "allotment details"),
        (
            "hey, about Jess - please forget what I told you about her divorce and Mark, that "
            "really wasn't mine to share",
            "Jess's divorce and Mark",
        ),
    ],
)
def test_what_a_request_says_it_means_is_forgotten_too(request_: str, argument: str) -> None:
    intent = perceive(request_, None)
    assert (intent.command, intent.argument) == ("forget", argument)


def _forgotten(assistant: Assistant, told: list[str], request_: str) -> tuple[str, str]:
    """Each of ``told`` said in a chat of its own, then ``request_`` and "yes" in another: the
    offer, and every episode's text after it."""
    for message in told:
        chat(assistant, assistant.start_conversation(), message)
    conversation = assistant.start_conversation()
    offer = chat(assistant, conversation, request_).text
    chat(assistant, conversation, "yes")
    return offer, " ".join(e.text for e in assistant.memory.items("episodic"))


def test_the_therapist_named_after_like_is_offered_and_forgotten(assistant: Assistant) -> None:
    told = (
        "had my session with Dr. Halvorsen today for the anxiety stuff, she suggested "
        "journaling. also Pip knocked my tea off the desk"
    )
    offer, said = _forgotten(
        assistant, [told], "can you forget the therapy stuff? like Dr. Halvorsen and all that"
    )
    assert "Halvorsen" in offer, offer
    assert "Halvorsen" not in said and "Pip knocked my tea" in said, said


def test_a_pin_asked_to_be_deleted_with_why_after_it_goes_and_the_gym_stays(
    assistant: Assistant,
) -> None:
    offer, said = _forgotten(
        assistant,
        ["joined puregym in leeds, £27.99 a month. door pin is 55190"],
        "can you delete the gym door pin i gave you, probably shouldnt have shared that",
    )
    assert "55190" in offer, offer
    assert "55190" not in said and "puregym in leeds" in said, said


@pytest.mark.parametrize(
    ("told", "request_", "offered", "kept"),
    [
        (
            [
                "my dad Joe just retired and took up pottery, loves it. he lives at 9 Mill "
                "Lane, Ely if you ever need it."
            ],
            "can you delete my dad's address? i don't want that stored",
            "Mill Lane",
            "pottery",
        ),
        (
            [
                "so my ex tom has the kids sundays at 4 for his weekends",
                "he's just moved to croydon apparently, some flat by the park",
            ],
            "also please forget what i said about where tom lives, not really my business",
            "croydon",
            "sundays",
        ),
    ],
)
def test_an_address_is_the_sentence_saying_where_they_live(
    assistant: Assistant, told: list[str], request_: str, offered: str, kept: str
) -> None:
    for message in told:
        chat(assistant, assistant.start_conversation(), message)
    offer = chat(assistant, assistant.start_conversation(), request_).text
    assert offered in offer and kept not in offer, offer


def test_what_a_request_lists_after_the_thing_is_forgotten_with_it(assistant: Assistant) -> None:
    told = [
        "about my kids: Ines is 12 and does violin, they keep me busy",
        "the custody stuff with my ex Pavel is getting messy. my solicitor is Greta Lind, next "
        "hearing is 9 July",
    ]
    _, said = _forgotten(
        assistant,
        told,
        "hey can you delete everything about the custody case? solicitor, hearing, all of it.",
    )
    assert "Greta" not in said and "9 July" not in said and "violin" in said, said
    facts = " ".join(f.text for f in assistant.memory.active_facts())
    assert "Greta" not in facts, facts
