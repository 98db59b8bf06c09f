"""Shapes seen in the blind batches of stop 35 (t1201-t1264), worded apart from them: a
follow-up that points back at what the question before asked of ("and what time is that?",
"where is it?", "what breed is he?", "where's her office?"), a chain of them, and questions
that lean on nothing; a pet named by "named her ..." or after a word saying what it is like; a
question in other everyday words than the fact ("yearly" for "annual")."""

from __future__ import annotations

import pytest

from desktop_agent.core.assistant import Assistant
from desktop_agent.core.question_pronouns import leaning_on
from tests.core.conftest import chat, facts, told_then_asked


@pytest.mark.parametrize(
    ("question", "earlier", "leaning"),
    [
        (
            "and what time is that?",
            ["when is the puppy's vaccination?"],
            "what time is the puppy's vaccination?",
        ),
        ("what time?", ["when is my smear test?"], "what time is my smear test?"),
        (
            "where is it?",
            ["which garage do I take my car to?"],
            "where is the garage I take my car to?",
        ),
        (
            "how much does it cost me?",
            ["what's the name of the climbing wall I go to?"],
            "how much does the climbing wall I go to cost me?",
        ),
        ("how old is she?", ["what do we call our tortoise?"], "how old is our tortoise?"),
        ("when's her birthday?", ["where does my aunt live?"], "when's my aunt's birthday?"),
        (
            "what time's his swimming lesson",
            ["what day is Rory's football?"],
            "what time's Rory's swimming lesson",
        ),
        (
            "where's his surgery?",
            ["who looks after my eyes these days?"],
            "where's the surgery of whoever looks after my eyes?",
        ),
        # a chain: "he" after "that" after the question that named the dog
        (
            "what breed is he?",
            ["when is the puppy's vaccination?", "and what time is that?"],
            "what breed is the puppy?",
        ),
    ],
)
def test_a_follow_up_is_read_with_what_the_question_before_asked_of(
    question: str, earlier: list[str], leaning: str
) -> None:
    assert leaning_on(question, earlier) == leaning


@pytest.mark.parametrize(
    ("question", "earlier"),
    [
        ("is it raining?", ["what is the capital of Peru?"]),  # not about the user
        ("where is it?", ["recommend me a good Thai restaurant"]),  # asked nothing
        ("where does my brother work?", ["where do I live?"]),  # points at nothing
        ("and who did I see before her?", ["who's my dentist?"]),  # the past: following_up's
        ("where does Tomasz work?", ["where does my sister work?"]),  # names whom it asks of
        ("where is it?", []),
    ],
)
def test_a_question_that_leans_on_nothing_is_left_as_asked(
    question: str, earlier: list[str]
) -> None:
    assert leaning_on(question, earlier) is None


def test_a_follow_up_in_the_chat_is_answered_from_memory(assistant: Assistant) -> None:
    chat(assistant, assistant.start_conversation(), "I drive a 2018 Kia Niro, it's grey")
    asking = assistant.start_conversation()
    first = chat(assistant, asking, "what car do I drive?")
    assert "Kia" in first.text
    follow = chat(assistant, asking, "what year is it?")
    assert "2018" in follow.text, follow.text
    assert follow.memories_used


def test_a_follow_up_alone_in_a_new_chat_points_at_nothing(assistant: Assistant) -> None:
    chat(assistant, assistant.start_conversation(), "I drive a 2018 Kia Niro, it's grey")
    alone = chat(assistant, assistant.start_conversation(), "what year is it?")
    assert "2018" not in alone.text


def test_a_name_after_two_kinds_is_nobodys() -> None:
    learned = facts("my sister got a new kitten and named her Luna")
    assert not any(k.startswith("name_of:") for k in learned), learned


def test_a_question_in_other_everyday_words(assistant: Assistant) -> None:
    chat(
        assistant,
        assistant.start_conversation(),
        "I have my annual physical with Dr Ruiz on June 9th at 11am",
    )
    reply = chat(assistant, assistant.start_conversation(), "when is my yearly checkup?")
    assert "June 9th" in reply.text, reply.text


@pytest.mark.parametrize(
    ("message", "key", "value"),
    [
        # an emoji between words ends the sentence: the job is not "... Analyst 🎉 took"
        ("I got promoted to Lead Designer 🎉 took five years, here we are", "job", "Lead Designer"),
        # "grandma update 💛 she ...": she is the grandma
        (
            "grandma update 💛 she moved into Ashgrove Court last week",
            "person:grandmother:home_city",
            "Ashgrove Court",
        ),
        # "<Name> and I are ...": what "we" do
        ("Priya and I are getting married on May 2nd", "plan:getting married", "May 2nd"),
        # a pet renamed: the new name, then "now"
        ("the hamster is called Nugget now, the kids decided", "name_of:hamster", "Nugget"),
        # "the dog is home!! we ended up naming him ...": named after "the"
        ("so the dog is home!! we ended up naming him Waffle", "name_of:dog", "Waffle"),
        # a pet named by "named her ...", or after words saying what it is like
        ("We rescued a cat last week! Named her Tofu.", "name_of:cat", "Tofu"),
        ("we got a rescue dog and called him Rufus", "name_of:dog", "Rufus"),
        ("We adopted a retired greyhound! His name is Dash.", "name_of:dog", "Dash"),
    ],
)
def test_chat_shapes_that_hid_a_fact(message: str, key: str, value: str) -> None:
    learned = facts(message)
    assert value in learned.get(key, ""), learned


def test_a_known_name_renamed_is_the_same_ones_new_name(assistant: Assistant) -> None:
    chat(assistant, assistant.start_conversation(), "We got a kitten! Named her Olive.")
    chat(
        assistant,
        assistant.start_conversation(),
        "update: Olive is now called Pesto, the kids won the vote",
    )
    reply = chat(assistant, assistant.start_conversation(), "what's my cat called?")
    assert "Pesto" in reply.text, reply.text
    assert "Olive" not in reply.text, reply.text


def test_a_new_amount_in_the_same_measure_is_the_change(assistant: Assistant) -> None:
    reply = told_then_asked(
        assistant,
        "gp started me on lamotrigine, 25mg, I take it at night"
        "|clinic review went fine, dose is up to 50mg now"
        "|ugh another review, she's put me on 100mg. hopefully that's it for a while",
        "what dose of lamotrigine am I on at the moment?",
    )
    assert "100mg" in reply, reply
    assert "50mg" not in reply, reply


def test_a_new_amount_is_no_answer_to_when(assistant: Assistant) -> None:
    reply = told_then_asked(
        assistant,
        "on sertraline, 50mg, I take it in the morning|I'm taking it at bedtime now"
        "|had my review, doubled it to 100mg",
        "when in the day am I meant to take it?",
    )
    assert "bedtime" in reply, reply


def test_asked_when_of_the_pet_is_not_answered_by_what_the_pet_is(assistant: Assistant) -> None:
    reply = told_then_asked(
        assistant,
        "we adopted a retired greyhound, his name is Dash and he has his first vet check on"
        " Tuesday at 10am at Riverside Vets",
        "when is the greyhound going to the vet?",
    )
    assert "Tuesday" in reply, reply
