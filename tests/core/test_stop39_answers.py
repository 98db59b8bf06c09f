"""Shapes seen in stop 39, worded apart from the tuning and blind scenarios: a quoted change
says only what is so now, not the value it replaced ("switched from X to Y", "X left, so Y
...", "the blue looked cold"); a named thing's colour or name asked; someone replaced said as
"Y is training me now" or "registered with Dr Y now"; a change to another person of the same
message is no change to the one asked about."""

from __future__ import annotations

import pytest

from desktop_agent.core.assistant import Assistant
from desktop_agent.core.grounding import DONT_KNOW
from desktop_agent.core.guarded import without_made_up_quote
from desktop_agent.core.intent import perceive
from desktop_agent.core.memory_service import MemoryService
from desktop_agent.core.quote_now import said_as_now
from desktop_agent.llm import ChatMessage, GenerationSettings
from desktop_agent.llm.fake import ScriptedEngine
from tests.core.conftest import chat, facts, said_in_turn


@pytest.fixture
def assistant(meaning: Assistant) -> Assistant:
    """With the app's real embedder: which sentence is quoted leans on nearness in meaning."""
    return meaning


@pytest.mark.parametrize(
    ("sentence", "earlier", "asked", "now", "old"),
    [
        (
            "we repainted the hallway white, the blue looked cold in there",
            "we painted the hallway duck-egg blue last weekend",
            "what colour is the hallway now?",
            "white",
            "blue",
        ),
        (
            "Sandra retired at Easter, so her partner Dr Lowe does my fillings now",
            "my dentist is Sandra Quinn, she's very gentle",
            "who does my fillings these days?",
            "Lowe",
            "Sandra",
        ),
        (
            "moved the savings out of Monzo into a Chase account, better rate",
            "my savings are in Monzo, about 4k",
            "where are my savings now?",
            "Chase",
            "Monzo",
        ),
        (
            "swapped from the Tuesday group to the Thursday one",
            "I do the Tuesday group at the climbing wall",
            "which group do I climb with?",
            "Thursday",
            "Tuesday",
        ),
    ],
)
def test_a_quoted_change_says_what_is_so_now(
    sentence: str, earlier: str, asked: str, now: str, old: str
) -> None:
    said = said_as_now(sentence, earlier, asked)
    assert now in said and old not in said, said


@pytest.mark.parametrize(
    ("sentence", "earlier", "asked"),
    [
        # no change said: nothing is cut
        ("Ben is at Hill Top Primary and loves it", "Ben started school", "where does Ben go?"),
        # the old value is what is asked
        (
            "switched from Sky to Virgin, way cheaper",
            "broadband is Sky",
            "who was my broadband with before?",
        ),
        # what is new was named before as an option: "ended up going with the Skoda"
        (
            "we ended up going with the Skoda after all, picked it up saturday.",
            "down to a Skoda or a Corolla",
            "which car did we end up buying?",
        ),
        # an amount or a time is one clause ("£35,000", "13:40")
        (
            "we've bumped the target up to £35,000, it's scary",
            "deposit target is £30,000",
            "what's our deposit target now?",
        ),
        # a reason is no ending: the dentist off sick is still the dentist
        (
            "Dr Haddad is off sick that day so they moved me to Thursday",
            "crown with Dr Haddad on Tuesday",
            "what's the name of the dentist doing my crown?",
        ),
        # moved there is the news, not how the old one ended
        (
            "they shuffled the classes and Theo's been moved to Mr. Brennan's class",
            "Theo's teacher is Mrs Alvarez",
            "who's my boy's teacher?",
        ),
        # the words said before are the ones asked about
        (
            "the new teacher is Mr Holt, Ava likes him",
            "Ava's teacher is Mrs Day",
            "who is Ava's teacher now?",
        ),
    ],
)
def test_a_quote_without_a_replaced_value_is_kept_whole(
    sentence: str, earlier: str, asked: str
) -> None:
    assert said_as_now(sentence, earlier, asked) == sentence


def test_the_answer_to_a_change_in_place_leaves_out_the_old_colour(assistant: Assistant) -> None:
    reply = said_in_turn(
        assistant,
        [
            ["we painted the hallway duck-egg blue last weekend, took ages"],
            ["we repainted the hallway white, the blue looked cold in there"],
        ],
        "what colour is the hallway now?",
    )
    assert "white" in reply and "blue" not in reply, reply


def test_a_replacement_named_as_doing_the_work_now(assistant: Assistant) -> None:
    told = [
        ["my personal trainer is Gemma, she's brutal but fair"],
        ["Gemma moved to Spain, so her colleague Rhys is training me now"],
    ]
    reply = said_in_turn(assistant, told, "who trains me these days?")
    assert "Rhys" in reply and "Gemma" not in reply, reply


def test_a_pet_registered_with_a_new_vet(assistant: Assistant) -> None:
    told = [
        ["our dog Pepper is a collie, 5 years old. our vet is Dr. Shah at Parkside Vets"],
        ["we moved house so Pepper is registered with Dr. Ito at Hillview Animal Hospital now"],
    ]
    reply = said_in_turn(assistant, told, "who's Pepper's vet now?")
    assert "Ito" in reply and "Shah" not in reply, reply


def test_the_colour_of_a_car_named_or_new(assistant: Assistant) -> None:
    told = [["finally sold the old Polo. picked up a red 2018 Mazda 3 on friday, lovely to drive"]]
    assert "red" in said_in_turn(assistant, told, "what colour is the new car?")
    assert "red" in said_in_turn(assistant, [], "what colour is the Mazda?")


def test_the_name_of_someones_nursery_said_without_the_word_name(assistant: Assistant) -> None:
    told = [
        ["Mia's in reception at St Anne's now and Jude started nursery in september"],
        ["Jude stays at Bumblebees for now, mornings only"],
    ]
    reply = said_in_turn(assistant, told, "what's the name of Jude's nursery?")
    assert "Bumblebees" in reply, reply


def test_a_change_to_someone_else_in_the_message_is_no_change_to_them(
    assistant: Assistant,
) -> None:
    told = [
        [
            "school run report: Sam is 8 and his teacher is Mrs. Doyle. Ruby is 2 and goes to "
            "Tiny Steps daycare two days a week"
        ],
        ["Mrs. Doyle left, her husband got a job in Cork, so Sam has Mr. Byrne now. Ruby is fine"],
    ]
    reply = said_in_turn(assistant, told, "which daycare does Ruby go to?")
    assert "Tiny Steps" in reply, reply


def test_a_pets_breed_said_before_its_age() -> None:
    learned = facts("our dog Pepper is a collie, 5 years old.")
    assert learned["person:dog:breed"] == "User's dog Pepper is a collie"
    assert learned["person:dog:age"] == "User's dog Pepper is 5 years old"


@pytest.mark.parametrize(
    ("message", "key", "name"),
    [
        ("also Rolo (our beagle) ate a sock again, he is a menace", "name_of:dog", "Rolo"),
        ("Tilly (my rescue cat) finally let me stroke her", "name_of:cat", "Tilly"),
    ],
)
def test_a_pet_named_with_its_kind_in_brackets(message: str, key: str, name: str) -> None:
    learned = facts(message)
    assert key in learned and name in learned[key], learned


def test_no_pet_in_brackets_of_a_person() -> None:
    assert "name_of:dog" not in facts("Priya (my neighbour) walked the dogs")


def test_a_change_told_as_a_headline_then_its_value_in_the_next_message(
    assistant: Assistant,
) -> None:
    told = [
        ["I do swimming on mondays at 7, at the leisure centre"],
        ["had to move my swimming days, they cancelled the monday sessions", "so it's fridays now"],
    ]
    reply = said_in_turn(assistant, told, "which days do I go swimming now?")
    assert "fridays" in reply, reply


def test_a_breakup_told_with_the_partners_name_ends_them(assistant: Assistant) -> None:
    told = [
        ["My boyfriend Tariq and I have been together four years."],
        ["Tariq and I broke up in the summer. I'm seeing someone new, her name is Ines."],
    ]
    reply = said_in_turn(assistant, told, "Who am I going out with?")
    assert "Ines" in reply and "Tariq" not in reply, reply
    assert "Tariq" in said_in_turn(assistant, [], "Who was my ex?")


@pytest.mark.parametrize(
    ("message", "team"),
    [
        ("joined Kallio Hornets last month, they play sundays", "name_of:team"),
        ("I joined Shopify, the team there is great", "employer"),
    ],
)
def test_a_team_joined_is_no_employer(message: str, team: str) -> None:
    assert team in facts(message), facts(message)


def test_who_said_as_he_is_named_by_the_sentence_before(assistant: Assistant) -> None:
    told = [
        ["my physio is Joanna, she's working on my shoulder"],
        ["Joanna went on maternity leave. I'm seeing Mr Adeyemi now. He's doing my rehab plan"],
    ]
    reply = said_in_turn(assistant, told, "who's doing my rehab plan?")
    assert "Adeyemi" in reply, reply


def test_what_someone_named_does_said_as_he_is_a(assistant: Assistant) -> None:
    told = [["met someone lovely, Idris - he's a paramedic, works nights mostly"]]
    assert "paramedic" in said_in_turn(assistant, told, "what does Idris do for a living?")


def test_a_fact_that_only_names_the_one_asked_about_answers_nothing(assistant: Assistant) -> None:
    told = [
        ["off to Lisbon in May! Rolo (my beagle) is going to Happy Tails kennels"],
        ["change of plan: Rolo is staying with my brother Tomas instead, he's thrilled"],
    ]
    reply = said_in_turn(assistant, told, "who's looking after Rolo while I'm away?")
    assert "Tomas" in reply, reply
    assert "Rolo" in said_in_turn(assistant, [], "what's my dog called?")


@pytest.mark.parametrize(
    ("said", "shown"),
    [
        # the core's way of quoting, copied by the model from earlier answers: made up
        ("You told me: “the hallway is in the shape of a rainbow”", DONT_KNOW),
        ("  You told me the hallway is green", DONT_KNOW),
        # anything else streams as it is, short or long
        ("You", "You"),
        ("Yours truly, the hallway", "Yours truly, the hallway"),
        ("Sure! Hallways look good in white.", "Sure! Hallways look good in white."),
    ],
)
def test_a_quote_the_model_makes_up_is_not_shown(said: str, shown: str) -> None:
    engine = ScriptedEngine(lambda messages: said)
    generation = without_made_up_quote(
        engine.chat([ChatMessage("user", "what colour is the hallway?")], GenerationSettings()),
        DONT_KNOW,
    )
    streamed = "".join(generation)
    assert streamed.strip() == shown.strip()
    assert generation.result().text.strip() == shown.strip()


def test_the_assistant_replaces_a_made_up_quote(memory: MemoryService) -> None:
    engine = ScriptedEngine(lambda messages: "You told me: “your cat is called Zeus”")
    assistant = Assistant(engine, GenerationSettings(max_tokens=32), memory=memory)
    reply = chat(assistant, assistant.start_conversation(), "tell me a story about a cat")
    assert reply.text == DONT_KNOW


@pytest.mark.parametrize(
    ("message", "topic"),
    [
        (
            "the plumber came at last, all fixed. oh and that bit I wrote about my dad's "
            "overdraft, take it out of your memory please, I shouldn't have shared it",
            "my dad's overdraft",
        ),
        (
            "my flatmate nearly read this over my shoulder 🙈 please forget everything about "
            "the surprise party",
            "the surprise party",
        ),
        (
            "I told you about Nadia's court case, it's not my story to tell. can you delete "
            "that please",
            "Nadia's court case",
        ),
        ("oh and the tax rebate thing, can you just forget I mentioned it?", "the tax rebate"),
    ],
)
def test_forgetting_asked_inside_a_longer_message(message: str, topic: str) -> None:
    intent = perceive(message)
    assert intent.command == "forget" and intent.argument == topic, intent


def test_a_part_after_an_emoji_is_no_forget_without_asking() -> None:
    assert perceive("lunch at Crumb & Co 😋 the soup was great").command is None
