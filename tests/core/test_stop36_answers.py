"""Shapes seen in the blind batches of stop 36 (t1265-t1328), worded apart from them: long
chatty messages that tell several people's news at once (whose is which, a change told in
passing, a heading and then the news), a new place of work told as "I'm at X now" a sentence
after the user left the old one, devices and pets named with their kind, a street address, and
the questions that ask for one kind of thing (when, where) of a change that says another."""

from __future__ import annotations

import pytest

from desktop_agent.core.assistant import Assistant
from desktop_agent.core.statement_wording import what_is_so
from tests.core.conftest import chat, facts, told_then_asked


@pytest.mark.parametrize(
    ("message", "key", "text"),
    [
        (
            "so i handed in my notice at the council in may. i'm at Hartley Logistics now, "
            "much shorter commute",
            "employer",
            "User works at Hartley Logistics",
        ),
        (
            "I work as a porter on the night shift at St Mary's",
            "job",
            "User works as a porter on the night shift at St Mary's",
        ),
        (
            "i'm a pharmacist in the hospital dispensary at Northgate Royal",
            "job",
            "User works as a pharmacist in the hospital dispensary at Northgate Royal",
        ),
        (
            "I'm a data engineer at a logistics firm in Lyon called Trakko",
            "job",
            "User works as a data engineer at a logistics firm called Trakko",
        ),
        ("I was a bus conductor for thirty years", "job", "User works as a bus conductor"),
    ],
)
def test_where_the_user_works_said_around_the_job(message: str, key: str, text: str) -> None:
    assert facts(message).get(key, "").startswith(text), facts(message)


@pytest.mark.parametrize(
    "message",
    [
        "I'm at Tesco now, need anything?",  # an errand, no talk of work
        "I left the house at six. I'm at Tesco now",
        "work was mad today. I'm at Gatwick now, flight's delayed",  # a trip
        "I'm a chef in a small restaurant at the weekend",
        "I'm doing overtime at Asda this week",
    ],
)
def test_being_somewhere_now_is_no_new_employer(message: str) -> None:
    said = facts(message)
    assert "employer" not in said and "studies" not in said, said
    assert "weekend" not in said.get("job", "")


@pytest.mark.parametrize(
    ("message", "key", "value"),
    [
        ("guess whattt we finally moved into a flat in Headingley!!", "home_city", "Headingley"),
        ("sold the old banger and got myself a used Mazda 2, red", "vehicle", "Mazda 2"),
        ("I've got a Samsung Galaxy A54 that keeps freezing", "device:phone", "Galaxy A54"),
        (
            "I have a Lenovo Yoga laptop and an iPad Air tablet for drawing",
            "device:laptop",
            "Lenovo Yoga",
        ),
        (
            "I have a Lenovo Yoga laptop and an iPad Air tablet for drawing",
            "device:tablet",
            "iPad Air",
        ),
        ("my husband Idris's a paramedic in Cardiff", "person:husband:job", "paramedic"),
        (
            "sorry, I mixed it up: my brother's the one who lives in Bristol now",
            "person:brother:home_city",
            "Bristol",
        ),
        (
            "my cousin Femi lives in Accra so we mostly video call",
            "person:cousin:home_city",
            "Accra",
        ),
        ("I'm in my final year studying geology at Durham University", "studies", "geology"),
        ("I changed my course to physiotherapy", "studies", "physiotherapy"),
        ("I catch the 6:50 bus into town for work", "routine:commute", "6:50 bus"),
        ("Their vet is Dr Moss at Parkside Vets", "name_of:vet", "Dr Moss"),
        ("our cat Juniper is a 7 year old British shorthair", "person:cat:age", "7"),
        ("our cat Juniper is a 7 year old British shorthair", "person:cat:breed", "shorthair"),
        ("I keep a canary called Pip", "name_of:parrot", "Pip"),
        ("i live in Gdańsk and teach piano", "home_city", "Gdańsk"),
        ("my address is 3 Mill Lane, Harrogate HG1 2AB", "address", "3 Mill Lane, Harrogate"),
        ("we're now at 41 Station Road, it's smaller but cosy", "address", "41 Station Road"),
    ],
)
def test_chat_shapes_that_hid_a_fact(message: str, key: str, value: str) -> None:
    learned = facts(message)
    assert value in learned.get(key, ""), learned


@pytest.mark.parametrize(
    ("message", "key"),
    [
        ("my sister is the one I trust most", "person:sister:age"),  # "the one" is no age
        ("I keep a diary", "pet:diary"),
        ("my son got a Galaxy for his birthday", "device:phone"),  # not the user's phone
    ],
)
def test_words_that_only_look_like_a_fact(message: str, key: str) -> None:
    assert key not in facts(message), facts(message)


def test_the_new_place_of_work_is_the_answer(assistant: Assistant) -> None:
    reply = told_then_asked(
        assistant,
        "I'm a radiographer at Westbrook Hospital|"
        "big change: i left Westbrook in the summer, the commute was awful. "
        "i'm at Lakeside Imaging now",
        "where do I work these days?",
    )
    assert "Lakeside Imaging" in reply
    assert "Westbrook" not in reply


def test_the_way_to_work_is_no_change_of_job(assistant: Assistant) -> None:
    reply = told_then_asked(
        assistant,
        "I'm a lab technician at the university and get the 8:05 train in for work"
        "|done with the trains. sold my railcard, I cycle to work now, 25 minutes door to door",
        "what's my job?",
    )
    assert "lab technician" in reply, reply


def test_the_users_own_news_changes_nothing_of_their_people(assistant: Assistant) -> None:
    reply = told_then_asked(
        assistant,
        "my girlfriend Noor works in HR at a bank, she hates the commute"
        "|ugh I dropped my laptop down the stairs at work on monday, new one now",
        "what does Noor do for work?",
    )
    assert "HR" in reply, reply


def test_still_there_is_no_change_of_there(assistant: Assistant) -> None:
    reply = told_then_asked(
        assistant,
        "I live in Norwich and my brother Sam lives in Ipswich"
        "|I got it wrong before: my brother's the one who lives in Cambridge now, "
        "I'm still in Norwich",
        "which city do I live in?",
    )
    assert "Norwich" in reply, reply
    assert "Cambridge" not in reply, reply


def test_a_heading_is_told_by_what_follows(assistant: Assistant) -> None:
    reply = told_then_asked(
        assistant,
        "I'm getting married!! Theo and I picked 3 May at a farm in Devon"
        "|wedding chaos. the farm flooded and cancelled on us. after a lot of phone calls "
        "we've moved it to 12 July at a hotel in Dorset instead",
        "when's my wedding?",
    )
    assert "12 July" in reply, reply
    assert "3 May" not in reply, reply


def test_who_is_not_answered_by_a_change_of_place(assistant: Assistant) -> None:
    reply = told_then_asked(
        assistant,
        "my best friend Hana is going to be my bridesmaid, she screamed when I asked"
        "|the venue fell through so we've moved it to a castle in Wales instead",
        "who's my bridesmaid?",
    )
    assert "Hana" in reply, reply


def test_forgetting_a_things_name_forgets_no_ones_name(assistant: Assistant) -> None:
    chat(
        assistant,
        assistant.start_conversation(),
        "I work remotely for an agency in Oslo called Fjordly. my partner Kemi lives in Leeds",
    )
    forgetting = assistant.start_conversation()
    chat(assistant, forgetting, "please forget the name of the agency I work for")
    chat(assistant, forgetting, "yes")
    reply = chat(assistant, assistant.start_conversation(), "where does Kemi live?")
    assert "Leeds" in reply.text, reply.text


def test_an_aside_after_a_question_keeps_it_a_question(assistant: Assistant) -> None:
    reply = told_then_asked(
        assistant,
        "I have a budgie called Kiwi",
        "What is my bird called? My memory is going.",
    )
    assert "Kiwi" in reply, reply


def test_a_statement_that_asks_not_to_be_let_forget(assistant: Assistant) -> None:
    reply = told_then_asked(
        assistant,
        "Our anniversary is 2 March, don't let me forget it",
        "when's our anniversary?",
    )
    assert "2 March" in reply, reply


def test_asked_when_the_time_said_wins_among_corrections(assistant: Assistant) -> None:
    reply = told_then_asked(
        assistant,
        "I work at a bakery called Crust, my shift starts at 5am"
        "|they changed my shift, now I start at 7:30 instead"
        "|my car died so I get the bus to work now",
        "what time do I start work these days?",
    )
    assert "7:30" in reply, reply


def test_asked_where_a_change_of_day_is_no_answer(assistant: Assistant) -> None:
    reply = told_then_asked(
        assistant,
        "my sister Ada is getting married in Lagos on the 9th of May"
        "|change of plans, the wedding has been pushed to the 16th of May",
        "which city is the wedding in?",
    )
    assert "Lagos" in reply, reply


def test_a_renamed_pet_by_its_old_name(assistant: Assistant) -> None:
    reply = told_then_asked(
        assistant,
        "we adopted a rescue whippet, the shelter called her Dot"
        "|we renamed her Fig, she never answered to Dot",
        "what's my dog called?",
    )
    assert "Fig" in reply, reply
    assert "Dot" not in reply, reply


def test_a_move_across_town_is_a_new_address(assistant: Assistant) -> None:
    told = (
        "my address is 5 Elm Grove, Bath BA1 3EF"
        "|moved across town, new place is 27 Kings Road. still in Bath"
    )
    now = told_then_asked(assistant, told, "what's my address?")
    assert "Kings Road" in now and "Elm Grove" not in now, now
    before = chat(assistant, assistant.start_conversation(), "what was my old address?")
    assert "Elm Grove" in before.text, before.text


def test_what_came_instead_is_said_without_the_old_one() -> None:
    said = what_is_so("I switched gyms, going to Anytime in town instead of puregym, cheaper")
    assert "puregym" not in said and "Anytime" in said, said
