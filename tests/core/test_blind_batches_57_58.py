"""Shapes from the blind batches of stop 28 (t785-t816): long messages like dictated voice notes,
with a forget asked for in the middle of them, and questions asked every which way ("when's
the dentist?", "the wifi password?", "how much is Spotify costing me now?", "what was the
starting dose?"). Worded apart from the batches, which are in the tuning part."""

from __future__ import annotations

import pytest

from desktop_agent.core.assistant import Assistant
from desktop_agent.core.intent import perceive
from desktop_agent.core.questions import asks_the_past, of_me
from desktop_agent.core.redaction import MARK
from desktop_agent.core.statement_wording import what_is_so
from desktop_agent.core.user_sentences import told_sentences
from tests.core.conftest import chat, told_then_asked


def test_the_users_own_forgetting_is_no_request_to_forget() -> None:
    message = "the alarm code at the studio is 9931 in case I forget (I always forget)"
    assert told_sentences(message) == [message]
    assert told_sentences("please forget my old alarm code") == []


def test_a_lower_case_sentence_after_a_forgotten_one_that_says_whose_it_is_stays() -> None:
    said = told_sentences(f"{MARK} unrelated but my locker number is 212")
    assert said == ["unrelated but my locker number is 212"]
    assert told_sentences(f"I went to Rome. {MARK} for three nights at the Hilton") == [
        "I went to Rome."
    ]


@pytest.mark.parametrize(
    ("question", "asks"),
    [
        ("how much is the gym costing me now?", True),
        ("who's coming to Kraków with me?", True),
        ("how much did the course set me back?", True),
        ("can you tell me a joke?", False),
        ("what would you recommend for me?", False),
        ("give me three dinner ideas?", False),
    ],
)
def test_me_alone_asks_of_the_user_unless_a_request_is_for_them(question: str, asks: bool) -> None:
    assert of_me(question) is asks


def test_what_the_user_pays_asked_with_me_alone(assistant: Assistant) -> None:
    reply = told_then_asked(
        assistant,
        "budget time. the climbing gym is 52 a month and the phone is 18",
        "how much is the climbing gym costing me?",
    )
    assert "52" in reply


def test_a_request_for_me_still_goes_to_the_model(assistant: Assistant) -> None:
    reply = told_then_asked(
        assistant, "my favourite poet is Szymborska", "can you tell me a joke about cats?"
    )
    assert reply == "You said: can you tell me a joke about cats?"  # the scripted model's


def test_when_is_the_thing_told_of(assistant: Assistant) -> None:
    reply = told_then_asked(
        assistant,
        "finally booked the optician, took me ages lol. Specsavers on Hill Street, June 4th "
        "at 11:20",
        "when's the optician?",
    )
    assert "June 4th" in reply


def test_one_word_thing_asked_otherwise_goes_to_the_model(assistant: Assistant) -> None:
    reply = told_then_asked(
        assistant, "the weather was awful the whole week in Bergen", "what's the weather like?"
    )
    assert "Bergen" not in reply


def test_a_sentence_saying_the_user_may_forget_answers(assistant: Assistant) -> None:
    reply = told_then_asked(
        assistant,
        "oh and the router at the cabin works now, password is heron-lantern-42 in case I forget",
        "the router password?",
    )
    assert "heron-lantern-42" in reply


def test_a_later_sentence_of_the_same_message_on_something_else_is_no_change(
    assistant: Assistant,
) -> None:
    reply = told_then_asked(
        assistant,
        "money check. subscriptions: Audible at 7.99 a month, Netflix basic at 6.99. the kids "
        "mostly watch YouTube. I should probably cut something",
        "how much is Audible costing me each month?",
    )
    assert "7.99" in reply


def test_a_quote_that_says_the_change_is_not_replaced_by_the_next_new_thing(
    assistant: Assistant,
) -> None:
    reply = told_then_asked(
        assistant,
        "Leila had her first recital today on the flute, she's 10, lessons with Mr Brandt|"
        "so Leila announced she wants to play the drums instead and we said yes, so she's "
        "switched. new teacher is Ms Varga, Fridays after school.",
        "what instrument does Leila play these days?",
    )
    assert "drums" in reply


def test_a_change_already_in_the_quote_keeps_what_the_question_asks(meaning: Assistant) -> None:
    """ "dr." ends no sentence to a reader: the quote joins the change after it, and that
    change is no later news to put in its place (it says nothing of the vet asked about)."""
    reply = told_then_asked(
        meaning,
        "olá! ok so big news, I adopted a cat last weekend 🐱 her name is Pimenta, grey tabby, "
        "about 2 yrs old according to the shelter. she has already claimed the sofa lol|also "
        "I booked her first checkup at Clínica Veterinária Alvalade for thursday, can you keep "
        "that in mind? I'm terrible with dates|ugh the vet clinic just rang, dr. Sousa is off "
        "sick so they moved Pimenta's checkup to monday instead. same time, 10am",
        "when is my cat's vet appointment again?",
    )
    assert "monday" in reply


def test_a_pet_renamed_later_is_asked_by_its_new_name(assistant: Assistant) -> None:
    told = (
        "we adopted a rescue lurcher!! her name's Waffle, she's 3|vet rang, jabs moved to the "
        "20th. oh and we're calling her Juniper now, Waffle just didn't suit her"
    )
    reply = told_then_asked(assistant, told, "what's my dog called?")
    assert "Juniper" in reply
    assert "Waffle" not in reply


def test_a_change_to_a_pets_appointment_does_not_rename_it(assistant: Assistant) -> None:
    reply = told_then_asked(
        assistant,
        "I adopted a cat, her name is Tofu|the vet rang, they moved Tofu's checkup to friday "
        "instead. same time, 9am",
        "what did I name my cat?",
    )
    assert "Tofu" in reply


def test_a_dose_changed_in_the_same_unit_is_the_dose_now_and_before(
    assistant: Assistant,
) -> None:
    told = (
        "doc put me on lisinopril, 10mg, in the mornings|dose went up to 20mg last week, "
        "feeling fine"
    )
    assert "20mg" in told_then_asked(assistant, told, "how much lisinopril am I on now?")


def test_the_starting_dose_is_asked_of_the_past() -> None:
    assert asks_the_past("what was the starting dose?")
    assert asks_the_past("what was the original budget?")
    assert not asks_the_past("what is the dose?")


def test_the_starting_dose_is_the_words_before_the_change(assistant: Assistant) -> None:
    told = (
        "doc put me on lisinopril, 10mg, in the mornings|dose went up to 20mg last week, "
        "feeling fine"
    )
    reply = told_then_asked(assistant, told, "what was the starting dose?")
    assert "10mg" in reply
    assert "20mg" not in reply


@pytest.mark.parametrize(
    ("sentence", "question", "now", "old"),
    [
        ("Ana can't make it anymore :( my brother Luis is coming instead",
         "who's coming to Oslo with me?", "Luis", "Ana"),
        ("Rosewood Barn emailed, they double booked us, so after a lot of tears we've moved "
         "it to Elm Court and the date's now 9 August", "where is the party now?", "Elm Court",
         "Rosewood"),
    ],
)  # fmt: skip
def test_what_is_so_leaves_out_who_dropped_out_and_what_forced_the_change(
    sentence: str, question: str, now: str, old: str
) -> None:
    said = what_is_so(sentence, question)
    assert now in said
    assert old not in said


def test_a_forget_asked_for_inside_a_long_message_is_a_forget() -> None:
    intent = perceive(
        "so big week, I started at Lidl head office as a buyer, normal hours!! also, one "
        "thing, can you please forget what I told you about my salary, I don't want that "
        "number kept. gym update, nothing to report"
    )
    assert intent.kind == "command" and intent.command == "forget"
    assert intent.argument == "my salary"
    assert intent.told.endswith("normal hours")
    assert perceive("I love my job, don't keep asking though").kind != "command"


def test_a_forget_inside_a_message_offers_it_and_learns_the_rest(assistant: Assistant) -> None:
    chat(
        assistant,
        assistant.start_conversation(),
        "still at Kessler Freight doing dispatch. pay is 39k which is fine I guess.",
    )
    conversation = assistant.start_conversation()
    offer = chat(
        assistant,
        conversation,
        "update: I've started at Ocado now as an operations planner. also, can you please "
        "forget what I told you about my salary, I don't want that number around",
    )
    assert "39k" in offer.text and "yes or no" in offer.text
    assert "Forgotten" in chat(assistant, conversation, "yes").text
    asked = assistant.start_conversation()
    assert "Ocado" in chat(assistant, asked, "who's my employer now?").text
    assert "39k" not in chat(assistant, asked, "how much did I say I earn?").text


def test_a_plan_fact_answers_when_the_thing_it_names_happens(assistant: Assistant) -> None:
    """ "move" is a word of the home slot, which the plan does not fill: the thing named with
    "the" is what the fact must say."""
    reply = told_then_asked(
        assistant,
        "big news, we're moving to Tallinn in October!!! Priit got the transfer approved|"
        "change of plans, Tallinn rents were insane, we're going to Riga instead. still "
        "october tho",
        "when is the move happening?",
    )
    assert "October" in reply


def test_a_change_that_says_no_amount_does_not_answer_how_much(assistant: Assistant) -> None:
    reply = told_then_asked(
        assistant,
        "started italian evening classes at the Dante Institute. Mondays 6pm, 10 week course, "
        "cost me 290 euros|italian got moved to wednesdays from next week, same time",
        "how much did the course set me back?",
    )
    assert "290" in reply


def test_a_change_to_the_appointment_a_short_clause_names(assistant: Assistant) -> None:
    """ "the crown thing" only names what the clause before it is about."""
    reply = told_then_asked(
        assistant,
        "things to remember: dentist with Dr Mensah is Monday the 9th at 9.15, the filling "
        "thing, dreading it|ugh so the surgery texted me, a pipe burst and they've moved me. "
        "it's now Thursday the 12th, same time 9.15, still Dr Mensah.",
        "when's my filling appointment now?",
    )
    assert "Thursday" in reply
    assert "Monday" not in reply


def test_remortgaged_says_a_change(assistant: Assistant) -> None:
    reply = told_then_asked(
        assistant,
        "so our mortgage is with Barclays, on a fixed rate at 4.6%, and the fix ends in May|"
        "good news, the broker found us a better deal and we've remortgaged with Santander, "
        "two year fix at 3.75%",
        "what interest rate are we paying on the mortgage now?",
    )
    assert "3.75" in reply
    assert "4.6" not in reply


def test_the_choice_made_after_so_leaves_out_the_one_turned_down() -> None:
    said = what_is_so(
        "the dogs wouldn't get in the Fiat, so we ended up going with the Volvo after all",
        "what car did we end up buying?",
    )
    assert "Volvo" in said
    assert "Fiat" not in said


def test_one_question_beside_a_plea_is_the_question(assistant: Assistant) -> None:
    reply = told_then_asked(
        assistant,
        "my brother Kwame's birthday is 14th of August and I always miss it",
        "when is Kwame's birthday? don't let me mess this up",
    )
    assert "14th of August" in reply


def test_actually_started_at_a_place_is_a_new_job() -> None:
    from tests.core.conftest import facts

    assert (
        "User works at Ocado"
        in facts(
            "I've actually started at Ocado now as an operations planner, normal hours"
        ).values()
    )
