"""Shapes seen in the blind batches of stop 33 (t1073-t1136), worded apart from them: a
forget asked for with a thing named first ("the bonus thing, can you scrub that?"), with
"scrub", or as "forget I ever ..."; the question mark that ends what is to be forgotten;
"between us" that is no part of what is learned; where one was before a place named
("where did we live before Leeds?"), said as a place in the same message or in one that
shares a word with it; an earlier message that names the old value beside a change to
something else ("he upped the dose" beside "my review with Dr Patel")."""

from __future__ import annotations

import pytest

from desktop_agent.core.assistant import Assistant
from desktop_agent.core.intent import Intent, perceive
from tests.core.conftest import facts, told_then_asked


@pytest.mark.parametrize(
    ("message", "argument"),
    [
        # the thing named first, then the request that points back at it
        ("ok the bonus thing, can you scrub that? my boss reads over my shoulder", "the bonus"),
        ("the stuff about my ex, please delete it", "my ex"),
        ("so the surgery thing - could you wipe that please?", "the surgery"),
        # "scrub" asks to forget as "wipe" does
        ("can you scrub my old address from your memory", "my old address"),
        ("please scrub everything about Tariq", "Tariq"),
        # "forget I ever ...": what was done is what to forget; a "?" ends it
        (
            "and could you forget I ever applied at Monzo? it came to nothing",
            "applied at Monzo",
        ),
        ("forget that I ever mentioned the tattoo", "the tattoo"),
        ("please forget I mentioned the loan, it's sorted", "the loan"),
    ],
)
def test_more_ways_to_ask_to_forget(message: str, argument: str) -> None:
    assert perceive(message) == Intent("command", command="forget", argument=argument)


@pytest.mark.parametrize(
    "message",
    [
        "the plumber thing, can you remind me about it tomorrow?",
        "my phone, can you believe it, died again",
        "the kids scrub the pans after dinner now",
        "I never forget I ever met her",
        "the car thing, can you explain that?",
    ],
)
def test_not_more_ways_to_ask_to_forget(message: str) -> None:
    assert perceive(message).command != "forget"


def test_between_us_is_no_part_of_what_is_learned() -> None:
    learned = facts("between us, I'm applying to Spotify next month")
    assert learned and all("between" not in text.casefold() for text in learned.values())
    assert all("Between" not in t for t in facts("between you and me I work at Aldi now").values())


def test_where_one_lived_before_a_place_first_named_in_the_same_message(
    assistant: Assistant,
) -> None:
    reply = told_then_asked(
        assistant,
        "we're still renting in Norwich for now, a tiny flat near Magdalen Street. "
        "Tess got a research post at the uni in Durham so we'll be moving in the summer|"
        "all unpacked!! we're proper Durham residents now, found a house in Gilesgate",
        "where did we live before Durham?",
    )
    assert "Norwich" in reply


def test_where_one_lived_before_a_place_said_in_a_message_sharing_a_word(
    assistant: Assistant,
) -> None:
    reply = told_then_asked(
        assistant,
        "moving in with Oskar in a few weeks!! bye bye to the Hackney houseshare|"
        "first night in Stroud, Oskar has already taken over the bathroom shelf",
        "where was I living before Stroud?",
    )
    assert "Hackney" in reply


def test_where_one_worked_before_a_company_named_in_the_same_message(
    assistant: Assistant,
) -> None:
    reply = told_then_asked(
        assistant,
        "quick background: qualified at Deloitte in Leeds, 5 years in tax. "
        "now I'm head of finance at Gousto in London, since 2020",
        "where did I work before Gousto?",
    )
    assert "Deloitte" in reply


def test_where_someone_worked_before_the_thing_named(assistant: Assistant) -> None:
    reply = told_then_asked(
        assistant,
        "my husband Kofi is a physio, been at the Nuffield gym clinic for 4 years|"
        "big news: Kofi handed in his notice at Nuffield! he's starting with the physio team "
        "at Royal Derby Hospital in April",
        "where did Kofi work before the hospital?",
    )
    assert "Nuffield" in reply


def test_the_old_value_beside_a_change_to_something_else(assistant: Assistant) -> None:
    reply = told_then_asked(
        assistant,
        "diabetes check with Dr Mensah at Parkside Surgery, she upped my metformin a bit. "
        "also need to book the eye screening|"
        "sad news, Dr Mensah is leaving, I've been moved to a Dr Lindqvist at the same surgery",
        "who was my doctor before Dr Lindqvist?",
    )
    assert "Mensah" in reply


def test_a_relation_in_brackets_after_the_name_names_them() -> None:
    assert facts("and Biscuit (my dog, a daft spaniel) is coming too")["name_of:dog"] == (
        "User's dog is named Biscuit"
    )
    assert facts("Priya (my wife) is a dentist in Bath")["name_of:wife"] == (
        "User's wife is named Priya"
    )
    assert "name_of:dog" not in facts("Biscuit (my favourite snack) is gone")


def test_a_pet_named_with_its_relation_in_brackets_is_known_by_name(
    assistant: Assistant,
) -> None:
    reply = told_then_asked(
        assistant,
        "new job in Vilnius confirmed! I start in May, and Mango (my cat, an old tabby) "
        "is coming with me of course",
        "what's my cat called?",
    )
    assert "Mango" in reply
