"""Shapes seen in the blind batches of stop 37 (t1329-t1360), worded apart from them: news told
over several short messages (a headline, then what it was: "My brother just got a new job." |
"He's a paramedic in Bristol now."), a pet's breed asked by its kind, a forget that names the
person by name while the message said "she", a change said in other words than the question
("my endo ..." for "the endocrinologist"), and what a correction says stays the same."""

from __future__ import annotations

import pytest

from desktop_agent.core.assistant import Assistant
from desktop_agent.core.grounding import content_words
from desktop_agent.core.memory_service import MemoryService
from desktop_agent.core.statement_wording import what_is_so
from desktop_agent.llm import GenerationSettings
from desktop_agent.llm.fake import ScriptedEngine
from tests.core.conftest import facts, said_in_turn


@pytest.fixture
def assistant(meaning: Assistant) -> Assistant:
    """With the app's real embedder: which sentence is quoted leans on nearness in meaning."""
    return meaning


def test_a_headline_is_told_by_the_next_message(assistant: Assistant) -> None:
    reply = said_in_turn(
        assistant,
        [["My son got into college!!!", "Glasgow, to study law. he's buzzing"]],
        "which college is my son going to?",
    )
    assert "Glasgow" in reply, reply


def test_a_pronoun_opening_a_message_is_the_one_named_before(assistant: Assistant) -> None:
    conversation = [
        "My sister just started a new job.",
        "She's a midwife in Leeds now. long shifts but she loves it",
    ]
    reply = said_in_turn(assistant, [conversation], "what does my sister do for work?")
    assert "midwife" in reply, reply
    assert "Leeds" in said_in_turn(assistant, [], "where does my sister live?")


def test_a_change_told_as_a_headline_then_the_new_value(assistant: Assistant) -> None:
    reply = said_in_turn(
        assistant,
        [
            ["I do yoga on tuesdays and thursdays at the community hall"],
            ["had to change my yoga days, the hall got booked", "so it's mondays and fridays now"],
        ],
        "which days do I do yoga now?",
    )
    assert "mondays" in reply.casefold(), reply
    assert "tuesdays" not in reply.casefold(), reply


def test_the_next_message_of_another_conversation_is_not_joined(assistant: Assistant) -> None:
    reply = said_in_turn(
        assistant,
        [["My son got into college!!!"], ["Rome was lovely, we ate so much pasta"]],
        "which college is my son going to?",
    )
    assert "Rome" not in reply, reply


def test_a_breed_asked_by_its_kind_over_later_news(assistant: Assistant) -> None:
    reply = said_in_turn(
        assistant,
        [
            ["Pepper had her check-up today. she's a whippet, 2 years old and very dramatic"],
            ["we moved so Pepper is registered with Dr. Hale at Elm Vets now"],
        ],
        "What breed is Pepper?",
    )
    assert "whippet" in reply, reply


def test_forgetting_news_said_of_her_keeps_what_else_was_said(
    assistant: Assistant, by_meaning: MemoryService
) -> None:
    said_in_turn(
        assistant,
        [
            [
                "My friend Lena came round last night",
                "she's a dentist, lives out in Bath now so we rarely meet",
                "and she told me she's engaged!! wedding in June. nobody knows yet",
            ],
            ["please forget what I said about Lena getting engaged and the wedding date", "yes"],
        ],
        "hi",
    )
    kept = " ".join(item.text for item in by_meaning.items("episodic"))
    assert "engaged" not in kept and "June" not in kept, kept  # both sentences of the news
    assert "June" not in said_in_turn(assistant, [], "When is Lena's wedding?")
    assert "dentist" in said_in_turn(assistant, [], "What does Lena do for work?")


def test_a_change_found_in_other_words_than_the_question(assistant: Assistant) -> None:
    reply = said_in_turn(
        assistant,
        [
            ["my endo is Dr. Lowe at Parkside Endocrinology, next appt is May 4 at 9:30"],
            ["turns out Dr Lowe's office called, so the appointment got pushed to May 18"],
        ],
        "when am I seeing the endocrinologist?",
    )
    assert "18" in reply, reply
    assert "May 4" not in reply, reply


def test_what_a_correction_says_stays_is_not_changed(assistant: Assistant) -> None:
    reply = said_in_turn(
        assistant,
        [
            ["My wife got promoted today", "she's now head of sales at Larkspur, finally"],
            ["small correction: her title is actually Sales Director. same company still"],
        ],
        "Which company does my wife work for?",
    )
    assert "Larkspur" in reply, reply


def test_a_group_shuffled_to_other_days_is_a_change(assistant: Assistant) -> None:
    reply = said_in_turn(
        assistant,
        [
            ["I play badminton tuesdays and thursdays at Millbrook leisure centre, 7pm"],
            [
                "the centre let the hall on Tuesdays to a netball league, so our group got "
                "shuffled to Mondays"
            ],
        ],
        "which days am I playing badminton now?",
    )
    assert "Mondays" in reply, reply


def test_a_move_told_over_two_messages(assistant: Assistant) -> None:
    reply = said_in_turn(
        assistant,
        [
            ["I live in Croydon"],
            ["I moved out!!", "got my own studio in Walthamstow, first time living alone"],
        ],
        "Where do I live these days?",
    )
    assert "Walthamstow" in reply and "Croydon" not in reply, reply


def test_a_new_job_and_home_told_as_news() -> None:
    assert facts("just finished my first week at Norrsken Energy!! loving it")["employer"] == (
        "User works at Norrsken Energy"
    )
    assert facts("got my own flat in Harehills, first time alone")["home_city"] == (
        "User lives in Harehills"
    )
    assert "home_city" not in facts("my parents got a flat in Spain")


def test_what_ended_is_cut_from_a_quote() -> None:
    question = "Which ward am I on these days?"
    assert "surgical" not in what_is_so("so I'm on the cardiac ward instead of surgical", question)
    said = what_is_so("her title is actually Sales Director, not head of sales.", question)
    assert "head of sales" not in said and "Sales Director" in said, said


def test_my_car_told_with_its_year_and_miles() -> None:
    assert facts("my car is a 2011 honda civic with like 190k miles on it")["vehicle"] == (
        "User drives a 2011 honda civic"
    )


def test_a_question_of_the_business_the_user_runs(assistant: Assistant) -> None:
    reply = said_in_turn(
        assistant,
        [
            [
                "I own a little bakery in Whitby called Crumbs. 3 of us on the tills. we're "
                "closed Tuesdays",
                "all our orders go through Square right now",
            ]
        ],
        "which day is the shop shut?",
    )
    assert "Tuesdays" in reply, reply


def test_a_specialist_asked_of_what_their_clinic_said(assistant: Assistant) -> None:
    reply = said_in_turn(
        assistant,
        [
            [
                "Some background: I have AFib, diagnosed in 2019. I see Dr. Imran Shah at the "
                "city cardiology clinic every three months.",
                "I work from home as a bookkeeper for Hale & Sons, mostly payroll.",
            ]
        ],
        "who's my cardiologist?",
    )
    assert "Shah" in reply, reply


def test_a_masters_asked_of_the_msc_told(assistant: Assistant) -> None:
    reply = said_in_turn(
        assistant,
        [
            [
                "hey I'm Ade, came over from Accra in September for an MSc in Robotics at "
                "Heriot-Watt. flat in Gorgie with two flatmates",
                "i work 15 hrs a week doing stock at the Tesco on Dalry Road",
            ]
        ],
        "which uni am I doing my masters at?",
    )
    assert "Heriot-Watt" in reply, reply


def test_forgetting_a_grievance_takes_what_is_said_of_him(by_meaning: MemoryService) -> None:
    assistant = Assistant(ScriptedEngine(), GenerationSettings(max_tokens=48), memory=by_meaning)
    said_in_turn(
        assistant,
        [
            [
                "my landlord is being awful about the deposit, he's trying to keep 450 quid "
                "over a scuffed skirting board"
            ],
            ["can you forget the landlord and deposit thing? it's sorted now", "yes"],
        ],
        "hi",
    )
    kept = " ".join(item.text for item in by_meaning.items("episodic"))
    assert "450" not in kept and "skirting" not in kept, kept


def test_a_specialist_and_their_field_are_one_word_asked() -> None:
    assert {"neurology", "neurologist"} <= content_words("who's my neurologist?")
    assert "psychiatrist" in content_words("what did psychiatry say?")


def test_who_took_the_place_of_someone_who_bailed(assistant: Assistant) -> None:
    reply = said_in_turn(
        assistant,
        [
            ["Lisbon is booked!!! flying out on 3 May with Marta, 5 nights in Alfama"],
            ["ugh Marta had to bail, her boss said no. my friend Joe is taking her spot"],
        ],
        "who am I going to Lisbon with?",
    )
    assert "Joe" in reply and "Marta" not in reply, reply


def test_a_change_headline_is_told_by_the_new_value_not_why(assistant: Assistant) -> None:
    reply = said_in_turn(
        assistant,
        [
            ["My physio is Tom Kowal, his clinic is on Mill Lane. been seeing him for a year."],
            [
                "I finally switched physios. Kowal kept cancelling on me. Now I see Amy Reid at "
                "Core Physio on Bridge Street."
            ],
        ],
        "who's my physio these days?",
    )
    assert "Reid" in reply and "Kowal" not in reply, reply


def test_a_district_beside_the_city_is_no_new_home() -> None:
    said = facts("Big news: we finally moved! We're in Calgary now, got a condo in Kensington.")
    assert said["home_city"] == "User lives in Calgary", said
