"""Shapes seen in the themed blind batches of stop 30 (t913-t944), worded apart from them: a
salary forgotten by "the salary figure" when only the amount was said; a job title after "I'm
now" without an article; a dose "bumped" to a new one; why a change was made, after "since";
a "replacement" as the thing that is so now."""

from __future__ import annotations

from desktop_agent.core.assistant import Assistant
from desktop_agent.core.memory_service import MemoryService
from desktop_agent.core.statement_wording import what_is_so
from tests.core.conftest import chat, facts, told_then_asked


def test_the_salary_figure_is_the_amount_said_as_earned(
    assistant: Assistant, memory: MemoryService
) -> None:
    chat(
        assistant,
        assistant.start_conversation(),
        "signed the offer today! I'm a product designer at Monzo on 61k. three days in the office",
    )
    conversation = assistant.start_conversation()
    offer = chat(assistant, conversation, "please forget the salary figure, I'd rather not")
    assert "61k" in offer.text and "yes or no" in offer.text
    assert "Forgotten" in chat(assistant, conversation, "yes").text
    asked = chat(assistant, assistant.start_conversation(), "how much do I earn?")
    assert "61k" not in asked.text
    # only that sentence is erased: the rest of the message is kept
    told = next(
        i.user_text
        for i in memory.items("episodic")
        if "Monzo" not in i.user_text and "office" in i.user_text
    )
    assert "signed the offer today!" in told and "three days in the office" in told
    assert "61k" not in "".join(i.text for i in memory.items())


def test_forgetting_the_salary_leaves_the_other_amounts(assistant: Assistant) -> None:
    chat(
        assistant,
        assistant.start_conversation(),
        "saving up for a flat, the goal is 25k and I've put away 9,300 so far. I'm on 39k "
        "which makes it slow",
    )
    conversation = assistant.start_conversation()
    offer = chat(assistant, conversation, "forget what I said about my salary please")
    assert "39k" in offer.text
    assert "25k" not in offer.text and "9,300" not in offer.text
    assert "Forgotten" in chat(assistant, conversation, "yes").text
    goal = chat(assistant, assistant.start_conversation(), "what's my savings goal for the flat?")
    assert "25k" in goal.text and "39k" not in goal.text


def test_a_title_after_i_am_now_is_the_job() -> None:
    assert facts("got promoted!! I'm now Platform Lead, same team")["job"] == (
        "User works as a Platform Lead"
    )
    assert facts("i'm now the head chef at Rosa's")["job"].startswith("User works as a head chef")
    # "now" before what is no job says no job
    assert "job" not in facts("I'm now working from home on fridays")
    assert "job" not in facts("I'm now vegetarian")


def test_a_dose_bumped_up_is_what_is_taken_now(assistant: Assistant) -> None:
    reply = told_then_asked(
        assistant,
        "the GP started me on propranolol 40 mg for the migraines|"
        "saw the GP again, she bumped me to 80 mg as the headaches kept coming",
        "what dose of propranolol am I on?",
    )
    assert "80 mg" in reply and "40 mg" not in reply


def test_why_after_since_is_left_out_of_the_quote() -> None:
    question = "what dose am I on?"
    said = "she's bumped the levothyroxine up to 75mcg since the 50 wasn't touching my TSH"
    assert what_is_so(said, question) == "she's bumped the levothyroxine up to 75mcg."
    # "since" with a time after it is no reason
    kept = "I've been on levothyroxine 50mcg since March"
    assert what_is_so(kept, question) == kept


def test_the_replacement_is_what_is_so_now(meaning: Assistant) -> None:
    # no word of the question is said: found by meaning (the real embedder), then the change
    reply = told_then_asked(
        meaning,
        "my Galaxy S21 keeps freezing, so annoying|"
        "left the Galaxy on a train in Leeds, gone forever. the replacement Pixel 9 is "
        "fine though, the camera is great",
        "what phone am I using?",
    )
    assert "Pixel 9" in reply and "Galaxy" not in reply


def test_only_the_clause_saying_the_amount_is_forgotten(
    assistant: Assistant, memory: MemoryService
) -> None:
    chat(
        assistant,
        assistant.start_conversation(),
        "new contract at Barclays, I'm on 52k, and we sit in Canary Wharf",
    )
    conversation = assistant.start_conversation()
    # a topic of three words, one of them the amount's: said by the amount alone
    offer = chat(assistant, conversation, "please forget my yearly salary figure")
    assert "52k" in offer.text and "Canary Wharf" not in offer.text
    assert "Forgotten" in chat(assistant, conversation, "yes").text
    told = "".join(i.user_text for i in memory.items("episodic"))
    assert "52k" not in told and "Canary Wharf" in told


def test_the_work_done_for_a_named_place_says_the_employer() -> None:
    told = facts("I do payroll for Hartwell Group, mostly from home")
    assert told["employer"] == "User works at Hartwell Group"
    assert told["job"] == "User works in payroll"
    assert facts("still doing reception at Greenway Dental, three days a week")["employer"] == (
        "User works at Greenway Dental"
    )
    # "for the ... department at": the place after it
    assert facts("I've moved over to doing IT for the housing team at Leeds City Council")[
        "employer"
    ].startswith("User works at Leeds City Council")
    # what is done for pleasure, and work with no place named, say no employer
    assert "employer" not in facts("I do yoga at Triyoga on sundays")
    assert "employer" not in facts("I do admin for a living")
    assert "employer" not in facts("doing some research for my thesis at UCL")


def test_the_job_got_at_a_place_is_the_new_employer(assistant: Assistant) -> None:
    assert facts("got the job at Lidl!! start in june")["employer"] == "User works at Lidl"
    # the new job said after "now" replaces the work said before
    assert facts("I've started at Aldi now as a shift manager")["job"] == (
        "User works as a shift manager at Aldi"
    )
    reply = told_then_asked(
        assistant,
        "I'm still doing payroll at Hartwell Group, it pays the bills|"
        "finally got the job at Wexford Council! start in june",
        "where do I work?",
    )
    assert "Wexford Council" in reply and "Hartwell" not in reply
