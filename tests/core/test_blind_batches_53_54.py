"""Shapes from the blind batches of stop 27 (t721-t752): messages typed on a phone (no capital
letters, "whos", "wat", "w", "rn"), and changes told as events after a fact was learned
("Tomasz finally quit Hillcrest! he starts monday at a dialysis clinic called Renalcare",
"mum's airline cancelled her friday flight, she's now coming in on Sunday the 11th instead")."""

from __future__ import annotations

import pytest

from desktop_agent.core.assistant import Assistant
from desktop_agent.core.memory_service import MemoryService
from desktop_agent.core.questions import about_user, asks_only, plain_question
from desktop_agent.core.statement_wording import what_is_so
from tests.core.conftest import chat, facts, told_then_asked


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


def test_where_we_were_first_going_is_said_before_the_change(meaning: Assistant) -> None:
    """No word of the question is said: the change nearest in meaning, then what was said
    before it."""
    reply = told_then_asked(
        meaning,
        "Me and my girlfriend Aileen are heading to Skye in May for her 30th.|Change of plan, "
        "Aileen's gone and booked us a wee cottage in Orkney instead. Still May.",
        "Where were we originally going to go?",
    )
    assert "Skye" in reply
    assert "Orkney" not in reply


def test_what_is_so_now_is_the_newest_change(meaning: Assistant) -> None:
    reply = told_then_asked(
        meaning,
        "omg ok so me and jake are officially dating!!! also i made the school soccer team, "
        "coach put me at midfield|ugh ok update: jake and i broke up. ALSO coach moved me to "
        "defense which is lowkey better",
        "what position do i play rn?",
    )
    assert "defense" in reply


@pytest.mark.parametrize(
    "question",
    ["which practice did we ditch", "what name had they picked first for my niece?",
     "which streaming thing did i drop"],
)  # fmt: skip
def test_what_was_given_up_or_chosen_first_is_asked_of_the_past(question: str) -> None:
    asked = about_user(question)
    assert asked is not None
    assert asked.past


def test_forgetting_by_meaning_when_no_word_is_shared(
    meaning: Assistant, by_meaning: MemoryService
) -> None:
    """ "my salary" is "I'm making 62k now": offered (shown before anything goes), then
    forgotten from the message, the rest kept."""
    conversation = meaning.start_conversation()
    chat(
        meaning,
        conversation,
        "Hola! I play cello in the Palermo community orchestra, been 3 years now. Also just got "
        "a raise at work, I'm making 62k now which is nice",
    )
    forget = meaning.start_conversation()
    assert "62k" in chat(meaning, forget, "Please forget what I said about my salary.").text
    chat(meaning, forget, "yes")
    assert "62k" not in chat(meaning, meaning.start_conversation(), "how much do I make?").text
    said = " ".join(item.text for item in by_meaning.items("episodic"))
    assert "62k" not in said
    assert "Palermo community orchestra" in said


def test_forgetting_by_meaning_takes_the_nearest_clause(meaning: Assistant) -> None:
    chat(
        meaning,
        meaning.start_conversation(),
        "trying to get serious about money. I've got 18,000 saved in my Monzo pot for a house "
        "deposit, and I still owe my mate Lukas 300 quid from the Lisbon trip",
    )
    forget = meaning.start_conversation()
    offer = chat(meaning, forget, "Please forget that I owe Lukas money, it's sorted between us")
    assert "Lukas 300 quid" in offer.text
    assert "18,000" not in offer.text


def test_a_forget_elsewhere_leaves_the_words_before_a_change(meaning: Assistant) -> None:
    """Only the message that had words forgotten is left out, not every answer by meaning."""
    for message in (
        "Me and Tomasz are heading to Skye in May for our anniversary",
        "also just got a raise at work, I'm making 38k now",
        "Change of plan, Tomasz booked us a cottage in Orkney instead. Still May.",
    ):
        chat(meaning, meaning.start_conversation(), message)
    forget = meaning.start_conversation()
    chat(meaning, forget, "please forget what I said about my salary")
    chat(meaning, forget, "yes")
    reply = chat(meaning, meaning.start_conversation(), "Where were we originally going to go?")
    assert "Skye" in reply.text
