"""Shapes from the blind batches of stop 27 (t721-t752): messages typed on a phone (no capital
letters, "whos", "wat", "w", "rn"), and changes told as events after a fact was learned
("Tomasz finally quit Hillcrest! he starts monday at a dialysis clinic called Renalcare",
"mum's airline cancelled her friday flight, she's now coming in on Sunday the 11th instead")."""

from __future__ import annotations

import pytest

from desktop_agent.core.assistant import Assistant
from desktop_agent.core.questions import about_user, asks_only, plain_question
from desktop_agent.core.statement_wording import what_is_so
from tests.core.conftest import facts, told_then_asked


@pytest.mark.parametrize(
    ("typed", "plain"),
    [
        ("whos my gp", "who's my gp"),
        ("wat rate am i getting on my savings", "what rate am I getting on my savings"),
        ("how far thru the running plan am i", "how far through the running plan am I"),
        ("wat r u up to", "what are you up to"),
        ("is Dr. R in on monday?", "is Dr. R in on monday?"),  # a capital letter is a name
    ],
)  # fmt: skip
def test_texting_words_are_written_out_in_a_question(typed: str, plain: str) -> None:
    assert plain_question(typed) == plain


@pytest.mark.parametrize(
    "question", ["whos my gp", "wats my cats name again", "wat rate am i getting on my savings"]
)
def test_a_texted_question_is_a_question_about_the_user(question: str) -> None:
    assert asks_only(question)
    assert about_user(plain_question(question)) is not None


def test_a_texted_question_is_never_learned_as_a_fact() -> None:
    assert facts("wat rate am i getting on my savings") == {}


def test_names_typed_in_lower_case_are_learned() -> None:
    assert facts("had a rough wk. my therapist dr nakamura says i need firmer boundaries") == {
        "name_of:therapist": "User's therapist is Dr Nakamura"
    }


def test_my_new_roommate_is_a_name_that_replaces_the_old_one() -> None:
    assert facts("so haruka moved out :( my new roommate is emi, a friend from uni.") == {
        "name_of:flatmate": "User's roommate is Emi"
    }


@pytest.mark.parametrize(
    ("told", "changed", "asked", "says", "not_said"),
    [
        ("my husband Tomasz is a nurse at Hillcrest General, he does mostly night shifts",
         "big news in our house: Tomasz finally quit Hillcrest! he starts monday at a dialysis "
         "clinic called Renalcare, day shifts only. I might actually get to sleep",
         "Where does my husband work these days?", "Renalcare", "Hillcrest"),
        ("my mum Fatima is flying in from Casablanca to stay with us for two weeks!! she lands "
         "Friday the 9th in the evening.",
         "mum's airline cancelled her friday flight, she's now coming in on Sunday the 11th "
         "instead. so annoying, I already took friday off",
         "What day is my mum arriving?", "Sunday the 11th", "9th"),
    ],
)  # fmt: skip
def test_a_fact_changed_by_a_later_event_is_not_stated(
    assistant: Assistant, told: str, changed: str, asked: str, says: str, not_said: str
) -> None:
    reply = told_then_asked(assistant, f"{told}|{changed}", asked)
    assert says in reply
    assert not_said not in reply


def test_a_later_message_naming_the_value_without_a_change_leaves_the_fact(
    assistant: Assistant,
) -> None:
    reply = told_then_asked(
        assistant,
        "my husband Tomasz is a nurse at Hillcrest General|Tomasz says Hillcrest has a lovely "
        "garden for the patients",
        "Where does my husband work?",
    )
    assert "Hillcrest" in reply


def test_the_past_of_a_fact_changed_later_is_the_fact(assistant: Assistant) -> None:
    reply = told_then_asked(
        assistant,
        "my husband Tomasz is a nurse at Hillcrest General|Tomasz finally quit Hillcrest! he "
        "starts monday at a dialysis clinic called Renalcare",
        "what hospital was Tomasz at before his current job?",
    )
    assert "Hillcrest" in reply


def test_a_change_to_a_persons_plan_answers_a_question_naming_them(assistant: Assistant) -> None:
    """The change does not name Noor; the sentence it changes does."""
    reply = told_then_asked(
        assistant,
        "planning Noor's 7th birthday!! party is saturday the 22nd at Jumpz trampoline park|"
        "Jumpz double-booked us, absolute chaos. we're doing the party in our backyard now "
        "instead, same date.",
        "Where is Noor's birthday party happening?",
    )
    assert "backyard" in reply
    assert "Jumpz" not in reply


@pytest.mark.parametrize(
    ("sentence", "question", "quoted"),
    [
        ("dentist's office called, Dr Okonkwo has a conference tuesday so they moved me to "
         "thursday 10:30 in the morning.", "when's my dentist appointment?",
         "they moved me to thursday 10:30 in the morning."),
        ("dentist's office called, Dr Okonkwo has a conference tuesday so they moved me to "
         "thursday 10:30 in the morning.", "what's my dentist called?",
         "dentist's office called, Dr Okonkwo has a conference tuesday so they moved me to "
         "thursday 10:30 in the morning."),
        # the cause names no old value: kept
        ("the clinic rang, Dr Haddad is off sick that day so they moved me to Thursday the 16th",
         "when is my appointment?",
         "the clinic rang, Dr Haddad is off sick that day so they moved me to Thursday the 16th"),
        ("I was tired so I went to bed early", "when did I go to bed?",
         "I was tired so I went to bed early"),
    ],
)  # fmt: skip
def test_the_cause_of_a_change_is_left_out_when_it_names_the_old_value(
    sentence: str, question: str, quoted: str
) -> None:
    assert what_is_so(sentence, question) == quoted


def test_the_thing_the_user_told_of_is_asked_about_without_my(assistant: Assistant) -> None:
    reply = told_then_asked(
        assistant,
        "we're redoing the kitchen!! sage green cabinets, contractor is Kowalski & Sons|went "
        "over budget ofc, now 15k. and we swapped the cabinets to navy, sage looked grim",
        "colour of the new cabinets?",
    )
    assert "navy" in reply
    assert "sage green" not in reply


@pytest.mark.parametrize(
    "question", ["what's the best way to paint cabinets?", "what's the capital of France?"]
)
def test_a_general_question_sharing_one_word_is_left_to_the_model(
    assistant: Assistant, question: str
) -> None:
    reply = told_then_asked(
        assistant, "we're redoing the kitchen!! sage green cabinets. off to France in May", question
    )
    assert "You told me" not in reply
