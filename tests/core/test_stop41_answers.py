"""Shapes seen in stop 41, worded apart from the tuning and blind scenarios."""

from __future__ import annotations

import pytest

from desktop_agent.core.assistant import Assistant
from desktop_agent.core.loose_corrections import corrections
from desktop_agent.core.memory_service import MemoryService
from desktop_agent.core.quote_now import said_as_now
from tests.core.conftest import facts, said_in_turn


@pytest.mark.parametrize(
    ("sentence", "earlier", "asked", "now", "old"),
    [
        # what it replaced said as "to replace X" / "replacing X"
        (
            "the school gave Nia a Chromebook to replace the old iPad, she's thrilled",
            "Nia does her homework on the old iPad",
            "what device does Nia use for homework now?",
            "Chromebook",
            "iPad",
        ),
        (
            "bought a Kia Niro replacing the Fiesta, mostly for the boot space",
            "I drive a little Fiesta to work",
            "what car am I driving these days?",
            "Niro",
            "Fiesta",
        ),
        # a farewell to the old one: "so goodbye X", "no more X"
        (
            "swim club is on thursday nights now, so goodbye wednesday pizza",
            "swim club is wednesday nights at the leisure centre",
            "when is swim club?",
            "thursday",
            "wednesday",
        ),
        (
            "the bins go out on fridays now, no more tuesday panic",
            "bin day is tuesday on our street",
            "which day are the bins collected?",
            "fridays",
            "tuesday",
        ),
        # the one before is moving away: "X is moving to Y so ... now"
        (
            "Hannah is moving to Cork in June so Bex walks the dogs for me now",
            "Hannah walks the dogs for me on weekdays",
            "who walks my dogs?",
            "Bex",
            "Hannah",
        ),
        # a cause that names the old time, before "so now ... instead"
        (
            "my dad started a night class on monday evenings so now he phones me on wednesdays "
            "instead",
            "my dad phones me every monday evening",
            "when does my dad phone me now?",
            "wednesdays",
            "monday",
        ),
        # put right with "X not Y", and what was said of it at first
        (
            "turns out the gig is actually at the Roundhouse not the Forum, the poster said "
            "Forum at first",
            "the gig is at the Forum in Kentish Town",
            "where is the gig now?",
            "Roundhouse",
            "Forum",
        ),
        # a cause that says "now" itself, before "so ... now"
        (
            "she has now decided ponies are babyish so it's a mermaid party now",
            "Lila wants a pony party for her 6th",
            "what's the theme of Lila's party?",
            "mermaid",
            "pony",
        ),
        # a cause before "so" and what replaced it
        (
            "the old hoover kept clogging so I replaced it with a Shark cordless",
            "my hoover is an old hoover from my gran, a bagged one",
            "what vacuum do I use now?",
            "Shark",
            "hoover",
        ),
        # given back, given up
        (
            "we handed the Corsa back last week and ended up leasing a Kia Ceed",
            "we lease a Corsa through work",
            "what car do we lease now?",
            "Ceed",
            "Corsa",
        ),
        (
            "I've deferred Paris and signed up for the Brighton marathon instead",
            "training for the Paris marathon in April",
            "which marathon am I training for?",
            "Brighton",
            "Paris",
        ),
    ],
)
def test_a_quoted_change_leaves_out_what_it_replaced(
    sentence: str, earlier: str, asked: str, now: str, old: str
) -> None:
    said = said_as_now(sentence, earlier, asked)
    assert now in said and old not in said, said


@pytest.mark.parametrize(
    ("sentence", "earlier", "asked"),
    [
        # the past is asked: the sentence whole
        (
            "bought a Kia Niro replacing the Fiesta, mostly for the boot space",
            "I drive a little Fiesta to work",
            "what did I drive before the Niro?",
        ),
        # a cause with no "now" or "instead" after it is how it came about, not the old value
        (
            "Dr Amari is away that week so they put me on the 14th",
            "filling with Dr Amari on the 9th",
            "who is doing my filling?",
        ),
        # the cause holds the only mention of who is asked about
        (
            "Mr Osei is away on a course so they moved my lesson to Friday",
            "driving lesson with Mr Osei on Tuesday",
            "who's my driving instructor?",
        ),
        # "moving" to something is the news itself
        (
            "we're moving to Whitby in the spring, finally",
            "we live in York",
            "where are we moving to?",
        ),
    ],
)
def test_a_quote_that_replaced_nothing_is_kept_whole(
    sentence: str, earlier: str, asked: str
) -> None:
    assert said_as_now(sentence, earlier, asked) == sentence


@pytest.fixture
def assistant(meaning: Assistant) -> Assistant:
    """With the app's real embedder: which sentence is quoted leans on nearness in meaning."""
    return meaning


@pytest.mark.usefixtures("classifier")
@pytest.mark.parametrize(
    ("told", "asked", "new", "old"),
    [
        (
            [
                ["my daughter Esme (she's 11) goes to a ballet club on Saturdays and loves it"],
                [
                    "busy week! the boiler finally got fixed. and Esme has quit ballet and joined "
                    "a fencing club of all things, she says the masks are cool"
                ],
            ],
            "which club does Esme go to these days?",
            "fencing",
            "ballet",
        ),
        (
            [
                [
                    "my flatmate Jonah is a nurse, he works nights so I tiptoe around in the mornings"
                ],
                ["also Jonah got engaged!!! to his boyfriend Ruben, they met at uni"],
            ],
            "who's Jonah engaged to?",
            "Ruben",
            "nurse",
        ),
    ],
)
def test_a_persons_news_answers_what_their_other_facts_do_not(
    assistant: Assistant, told: list[list[str]], asked: str, new: str, old: str
) -> None:
    reply = said_in_turn(assistant, told, asked)
    assert new in reply and old not in reply, reply


@pytest.mark.parametrize(
    ("message", "city"),
    [
        ("now that we're in the new house in Hexham the school run is a breeze", "Hexham"),
        ("since I'm at the new flat in Aberdeen I can cycle to the lab", "Aberdeen"),
    ],
)
def test_a_move_said_in_passing_is_where_the_user_lives(message: str, city: str) -> None:
    assert facts(message).get("home_city") == f"User lives in {city}"


def test_someone_elses_new_place_is_not_the_users_home() -> None:
    assert "home_city" not in facts("my brother's at the new flat in Aberdeen now, he loves it")


@pytest.mark.parametrize(
    ("message", "phone"),
    [
        (
            "cracked the galaxy beyond repair at the weekend. went with a Pixel 9 this time",
            "device:phone",
        ),
        ("the office finally sent me a MacBook Pro, bye bye windows", "device:laptop"),
        ("my employer sent me a ThinkPad X1 last week", "device:laptop"),
        ("ended up with an iPhone 15 after the old one died", "device:phone"),
    ],
)
def test_a_device_got_in_other_words_is_the_users_now(message: str, phone: str) -> None:
    found = facts(message)
    assert phone in found, found


def test_a_device_given_to_someone_else_is_not_the_users() -> None:
    assert "device:phone" not in facts("my mum sent my brother a Pixel 8 for his birthday")


@pytest.mark.parametrize(
    "message",
    [
        "our box closed so we all moved to Northside CrossFit across town",
        "moved to Harbour Yoga after the old studio shut",
    ],
)
def test_a_gym_moved_to_is_no_home(message: str) -> None:
    assert "home_city" not in facts(message)


def _corrected(memory: MemoryService, key: str, fact: str, said: str) -> list[str]:
    """The new words of each correction ``said`` makes to ``fact``, remembered first."""
    memory.remember(fact, subject_key=key)
    return [c.text for c in corrections(said, memory.active_facts())]


def test_a_correction_is_its_change_not_the_reason_after_it(memory: MemoryService) -> None:
    found = _corrected(
        memory,
        "person:daughter:said:swims northgate otters",
        "User's daughter Aisha swims for the Northgate Otters juniors",
        "heads up: coach moved Otters training to fridays at 7 because the pool got sold",
    )
    assert found == ["Coach moved Otters training to fridays at 7"], found


@pytest.mark.parametrize(
    ("message", "name"),
    [
        ("anyway I've been seeing someone new, her name is Maren, she's a vet", "Maren"),
        ("oh and i started seeing someone, his name's Kofi", "Kofi"),
        ("been dating a guy called Ruairi for a month or so", "Ruairi"),
    ],
)
def test_a_new_partner_said_as_begun_is_the_partner(message: str, name: str) -> None:
    assert facts(message).get("name_of:partner") == f"User's partner is named {name}"


@pytest.mark.parametrize(
    "told",
    [
        "so tom and I broke up in the spring. it was mutual-ish",
        "me and jonas split up last month, it's fine",
    ],
)
def test_a_break_up_typed_in_lower_case_ends_the_partner(assistant: Assistant, told: str) -> None:
    name = "Tom" if "tom" in told else "Jonas"
    reply = said_in_turn(
        assistant, [[f"my boyfriend {name} and I are off to Crete in June"], [told]],
        "who's my boyfriend?",
    )  # fmt: skip
    assert f"boyfriend is named {name}" not in reply, reply


def test_a_change_naming_no_one_new_leaves_who_as_it_was(assistant: Assistant) -> None:
    reply = said_in_turn(
        assistant,
        [
            ["my brother Kieran is marrying Sophie on 3 May in Bath! I'm best man, help"],
            ["wedding's been moved - the venue in Bath double-booked so it's now 21 June"],
        ],
        "who is Kieran marrying?",
    )
    assert "Sophie" in reply, reply


def test_a_change_naming_someone_new_is_who_now(assistant: Assistant) -> None:
    reply = said_in_turn(
        assistant,
        [
            ["the plumber doing our bathroom is Gary, starts on the 4th"],
            ["Gary let us down so we've switched to a plumber called Imran, same start date"],
        ],
        "who's the plumber doing our bathroom?",
    )
    assert "Imran" in reply, reply


def test_pets_named_in_a_list_have_no_breed_of_a_name() -> None:
    found = facts("our rabbits are Clover and Pip")
    assert found.get("name_of:rabbits") == "User's rabbits are called Clover and Pip", found
    assert not any(key.endswith(":breed") for key in found), found


@pytest.mark.parametrize(
    ("message", "vehicle"),
    [
        ("car is a 2015 toyota yaris, 90k miles on it", "User drives a 2015 toyota yaris"),
        ("picked up a 2020 Ford Ranger from a dealer in Omagh", "User drives a 2020 Ford Ranger"),
    ],
)
def test_a_vehicle_said_without_my_or_before_where_from(message: str, vehicle: str) -> None:
    assert facts(message).get("vehicle", "").casefold() == vehicle.casefold()


def test_someone_elses_car_said_with_the_is_not_the_users() -> None:
    assert "vehicle" not in facts("the car is a rental, a Toyota Yaris")


def test_facts_of_the_person_in_another_slot_leave_the_question_to_their_words(
    assistant: Assistant,
) -> None:
    reply = said_in_turn(
        assistant,
        [["my dad Kenji turns 65 in March, and he's been in Sapporo since he retired"]],
        "where does my dad live?",
    )
    assert "Sapporo" in reply, reply


@pytest.mark.parametrize(
    ("sentence", "earlier", "asked", "kept"),
    [
        # what is not so, said for itself, is kept: the past is asked of it
        (
            "test results are in and it's not gluten at all, it's a dairy thing",
            "the GP thinks it's gluten making me bloated",
            "what did the GP think was causing it?",
            "gluten",
        ),
        # a cause naming who is asked, before "so ... now"
        (
            "Ms Brandt's hours changed so Ollie's lesson is on Thursdays now",
            "Ollie has violin with Ms Brandt on Mondays",
            "who teaches Ollie violin?",
            "Brandt",
        ),
    ],
)
def test_a_quote_keeps_what_is_asked(sentence: str, earlier: str, asked: str, kept: str) -> None:
    assert kept in said_as_now(sentence, earlier, asked)


def test_a_correction_is_the_clause_naming_the_new_one_without_why(memory: MemoryService) -> None:
    found = _corrected(
        memory,
        "routine:collect prescription",
        "User collects User's prescription from the Lloyds on Bridge Street",
        "also switched chemists, it's Rowlands on Mill Lane now since Lloyds kept messing up",
    )
    assert found == ["It's Rowlands on Mill Lane now"], found


def test_a_clause_saying_no_change_corrects_nothing(memory: MemoryService) -> None:
    found = _corrected(
        memory,
        "provider:energy",
        "User's energy supplier is Octopus",
        "great news for once, octopus dropped our payment to £95 after the meter reading",
    )
    assert "Great news for once" not in found, found


def test_a_corrections_new_words_leave_out_what_they_replaced(memory: MemoryService) -> None:
    found = _corrected(
        memory,
        "provider:music",
        "User's music streaming is Deezer",
        "and I moved the family off Deezer onto Tidal since it came with the new phone deal",
    )
    assert found and all("Deezer" not in text and "Tidal" in text for text in found), found
