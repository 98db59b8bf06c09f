"""Whom "she" and "he" mean: in news ("news from Ingrid - she's moved to Bergen"), in the
telling part of a request ("what should I get my husband Rafael, he's into cycling") and in a
question that follows another ("What date is Keanu's birthday?" then "What is he into?"). Only
a sure reading is made: one person named before, and a pronoun that fits them."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from desktop_agent.core.assistant import Assistant
from desktop_agent.core.extraction_grammar import KNOWN_PEOPLE
from desktop_agent.core.question_pronouns import following_up, resolved
from tests.core.conftest import chat, facts


@pytest.fixture
def known() -> Iterator[None]:
    token = KNOWN_PEOPLE.set({"ingrid": "sister", "tom": "brother", "ama": "sister"})
    try:
        yield
    finally:
        KNOWN_PEOPLE.reset(token)


@pytest.mark.usefixtures("known")
@pytest.mark.parametrize(
    ("message", "key", "text"),
    [
        ("Oh, news from Ingrid — she's moved to Bergen, started a new post there last week.",
         "person:sister:home_city", "User's sister Ingrid has moved to Bergen"),
        ("Had lunch with my brother, he's moved to Leeds.",
         "person:brother:home_city", "User's brother has moved to Leeds"),
        ("random update, Ama finally did the big move, she and the kids are in Accra now.",
         "person:sister:home_city", "User's sister Ama and the kids are in Accra now"),
        ("what should I get my husband Rafael for our anniversary, he's into cycling.",
         "person:husband:likes:cycling", "User's husband Rafael is into cycling"),
        ("any ideas for my sister, she's 30 next week and loves baking",
         "person:sister:likes:baking", "User's sister loves baking"),
    ],
)  # fmt: skip
def test_news_through_a_pronoun_is_the_named_persons(message: str, key: str, text: str) -> None:
    found = facts(message)
    assert found.get(key) == text
    if "Ingrid" in message:
        assert "name_of:sister" not in found  # known by name already: only the news is new


@pytest.mark.usefixtures("known")
@pytest.mark.parametrize(
    "message",
    [
        "Had lunch with my brother, she's moved to Leeds.",  # "she" is not the brother
        "I saw Ingrid and Tom, she's moved to Leeds.",  # two people: nobody for sure
        "I met Ingrid's boss, she's moved to Leeds.",  # the boss, not Ingrid
        "I called Ingrid about Maria, she's moved to Leeds.",  # someone not known
        "My sister is in Rome for the week now.",  # a visit
    ],
)
def test_a_pronoun_with_no_sure_person_says_nothing(message: str) -> None:
    assert not [k for k in facts(message) if k.endswith("home_city")]


def test_a_name_before_a_possessive_is_the_name() -> None:
    found = facts("oh and it's going to my sister Ama's place in Kumasi, she's hosting.")
    assert found.get("name_of:sister") == "User's sister is named Ama"
    assert "Ama's" not in " ".join(found.values())


def test_what_someone_is_into_is_what_they_like() -> None:
    assert facts("My brother Tom is into cycling.").get("person:brother:likes:cycling") == (
        "User's brother Tom is into cycling"
    )


PEOPLE = {"keanu": "best friend", "ingrid": "sister", "rafael": "husband"}


@pytest.mark.parametrize(
    ("before", "question", "meant"),
    [
        ("What date is Keanu's birthday?", "What kind of music is he into?",
         "What kind of music is Keanu into?"),
        ("Where does Ingrid live now?", "And where was she living before that?",
         "And where was Ingrid living before that?"),
        ("where does my sister live", "what does her husband do?",
         "what does my sister's husband do?"),
        ("where does my sister live", "when did you last talk to her?",
         "when did you last talk to my sister?"),
    ],
)  # fmt: skip
def test_a_follow_up_question_means_the_person_before(
    before: str, question: str, meant: str
) -> None:
    assert resolved(question, before, PEOPLE) == meant


@pytest.mark.parametrize(
    ("before", "question"),
    [
        ("where does my brother live", "where does she work?"),  # "she" is not the brother
        ("Tell me about Ingrid and Keanu", "where does she work?"),  # two people
        ("What's the weather like?", "what does he do?"),  # nobody named
        ("Where does Ingrid live?", "Where does my brother live?"),  # no pronoun
        ("Where does Ingrid live?", "does Keanu know her?"),  # names someone itself
    ],
)
def test_a_follow_up_with_no_sure_person_is_left_as_asked(before: str, question: str) -> None:
    assert resolved(question, before, PEOPLE) == question


def test_a_follow_up_is_answered_about_the_person_before(assistant: Assistant) -> None:
    chat(assistant, assistant.start_conversation(), "My sister Ingrid lives in Tromsø.")
    chat(assistant, assistant.start_conversation(), "My brother Tom lives in Leeds.")
    conversation = assistant.start_conversation()
    chat(assistant, conversation, "What's Ingrid up to these days?")
    reply = chat(assistant, conversation, "Where does she live?")
    assert "Tromsø" in reply.text
    assert "Leeds" not in reply.text


@pytest.mark.parametrize(
    ("before", "question", "joined"),
    [
        ("What dose of my diabetes tablets am I taking now?",
         "And what was it before the doctor changed it?",
         "What dose of my diabetes tablets am I taking now? And what was it before the doctor "
         "changed it?"),
        ("who's taking my dog out these days?", "and who did it before he started?",
         "who's taking my dog out these days? and who did it before he started?"),
    ],
)  # fmt: skip
def test_a_follow_up_is_read_with_the_question_before(
    before: str, question: str, joined: str
) -> None:
    assert following_up(question, before) == joined


@pytest.mark.parametrize(
    ("before", "question"),
    [
        ("Where do I live?", "Is it sunny there today?"),  # asks the world, not the memory
        ("Where does my aunt live?", "What did Gloria do before she retired?"),  # names whom
        ("What is the capital of France?", "and what about Spain?"),  # nothing about the user
        ("Where do I live?", "Where did I live before?"),  # about the user on its own
    ],
)
def test_a_question_that_stands_alone_is_not_joined(before: str, question: str) -> None:
    assert following_up(question, before) is None


def test_a_follow_up_about_the_past_is_answered(assistant: Assistant) -> None:
    chat(assistant, assistant.start_conversation(), "My GP started me on metformin, 500 mg a day.")
    chat(
        assistant, assistant.start_conversation(), "The doctor increased the metformin to 1000 mg."
    )
    conversation = assistant.start_conversation()
    now = chat(assistant, conversation, "What dose of metformin am I on now?")
    assert "1000" in now.text
    before = chat(assistant, conversation, "And what was it before the doctor changed it?")
    assert "500" in before.text


def test_a_real_word_is_no_typo_of_a_known_one() -> None:
    found = facts("My sister Ingrid lives in Tromsø and teaches marine biology.")
    assert found.get("person:sister:home_city") == "User's sister Ingrid lives in Tromsø"
    assert "teacher" not in " ".join(found.values())  # "teaches" is not a typo of "teacher"
