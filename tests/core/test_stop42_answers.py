"""Shapes seen in stop 42, worded apart from the tuning and blind scenarios."""

from __future__ import annotations

import pytest

from desktop_agent.core.assistant import Assistant
from desktop_agent.core.intent import perceive
from desktop_agent.core.learning import learn
from desktop_agent.core.memory_service import MemoryService
from desktop_agent.core.quote_now import said_as_now
from tests.core.conftest import facts, said_in_turn


@pytest.mark.parametrize(
    ("sentence", "earlier", "asked", "now", "old"),
    [
        # "swapped X for Y", "traded X for Y": Y is so now
        (
            "we swapped tuesday for wednesday because his gran is free then",
            "Rohan does Tuesday and Friday at Sunbeams nursery",
            "which days is Rohan at nursery?",
            "wednesday",
            "tuesday",
        ),
        # the old day said of the thing that moved: "the tuesday spin class moved to ..."
        (
            "heads up the thursday pottery class moved to mondays, same 6pm start",
            "pottery class is on thursday evenings at 6",
            "what day is my pottery class?",
            "mondays",
            "thursday",
        ),
        (
            "traded the Corsa for a Skoda Fabia estate last weekend",
            "my car is a Vauxhall Corsa",
            "what car do I drive?",
            "Fabia",
            "Corsa",
        ),
    ],
)
def test_a_swap_is_quoted_as_what_came_in(
    sentence: str, earlier: str, asked: str, now: str, old: str
) -> None:
    said = said_as_now(sentence, earlier, asked)
    assert now in said and old not in said, said


@pytest.fixture
def assistant(meaning: Assistant) -> Assistant:
    """With the app's real embedder: which sentence is quoted leans on nearness in meaning."""
    return meaning


def test_a_change_to_another_persons_plans_is_no_news_of_this_one(assistant: Assistant) -> None:
    told = [
        [
            "Busy term ahead. Priya starts Year 3 at Hillside, her teacher is Mr Adebayo and "
            "pickup is at 3pm. Rohan does two days at Sunbeams nursery, Tuesday and Friday."
        ],
        ["change of plan for rohan, we swapped tuesday for wednesday since his gran is free then"],
    ]
    reply = said_in_turn(assistant, told, "Who's Priya's teacher?")
    assert "Adebayo" in reply and "wednesday" not in reply.casefold(), reply


def test_days_said_short_answer_which_days(assistant: Assistant) -> None:
    told = [
        ["Kit goes to holiday club on Monday, Tuesday and Friday, drop off at 8"],
        ["change to kit's club days, we swapped monday for thursday. so its tue, thu, fri"],
    ]
    reply = said_in_turn(assistant, told, "Which days does Kit go to holiday club?")
    # (the days said short only in the sentence after the change)
    assert "tue, thu, fri" in reply and "monday" not in reply.casefold(), reply


def test_the_pets_vet_is_the_households(assistant: Assistant) -> None:
    told = [["we got a puppy!! a cocker spaniel called Bramble. her vet is Dr. Haines at Oakfield"]]
    reply = said_in_turn(assistant, told, "who's the dog's vet?")
    assert "Haines" in reply, reply


def test_an_ending_then_what_came_instead_quotes_what_came(assistant: Assistant) -> None:
    told = [
        ["my current account is with natwest, wages land on the 25th"],
        [
            "no longer with natwest!! moved it all over to starling last month, the switch "
            "service did the direct debits"
        ],
    ]
    reply = said_in_turn(assistant, told, "which bank is my current account with now?")
    assert "starling" in reply and "natwest" not in reply.casefold(), reply


@pytest.mark.parametrize(
    "message",
    ["luis got a chef job there and she's going freelance now", "so Dan is going freelance"],
)
def test_someone_elses_going_freelance_is_not_the_users_work(message: str) -> None:
    assert not {"job", "employer"} & facts(message).keys()


def test_the_users_going_freelance_is_still_theirs() -> None:
    assert facts("quit the agency and going freelance")["employer"] == "User works freelance"


def test_a_forget_of_him_and_one_more_thing_names_both() -> None:
    intent = perceive(
        "could you forget everything about him please? and the Porto trip, it's off anyway"
    )
    assert intent.command == "forget"
    assert "Porto trip" in intent.argument and "please" not in intent.argument, intent


def test_forgetting_him_after_a_break_up_forgets_his_name_everywhere(assistant: Assistant) -> None:
    told = [
        ["my boyfriend Tomás and I are off to Porto in June for his birthday!! I'm a welder"],
        [
            "well that's done. Tomás and I broke up on Sunday.",
            "can you forget everything about him please? and the Porto trip, it's off anyway",
            "yes",
        ],
    ]
    reply = said_in_turn(assistant, told, "what was my ex-boyfriend's name?")
    assert "Tomás" not in reply, reply
    kept = [item.text for item in assistant.memory.items()]
    assert not [t for t in kept if "Tomás" in t or "Porto" in t], kept
    assert any("welder" in t for t in kept), kept


def test_forgetting_someone_with_facts_and_a_thing_only_said_forgets_both(
    assistant: Assistant,
) -> None:
    told = [
        ["my brother Rui is a pilot for TAP, he lives in Lisbon. I teach maths"],
        [
            "Rui and I had a huge row at the Algarve house last weekend.",
            "can you forget everything about him please? and the Algarve house, it's too raw",
            "yes",
        ],
    ]
    reply = said_in_turn(assistant, told, "who's my brother?")
    assert "Rui" not in reply, reply
    kept = [item.text for item in assistant.memory.items()]
    assert not [t for t in kept if "Rui" in t or "Algarve" in t or "TAP" in t], kept
    assert any("maths" in t for t in kept), kept


def test_forgetting_someones_ex_reaches_the_ex_husband_not_the_users_partner(
    assistant: Assistant,
) -> None:
    told = [
        [
            "book club is at my friend Dina's on the last friday of the month. Dina's been "
            "through a lot, her ex-husband Pavel emptied their joint account before he left. my "
            "boyfriend Kwame calls book club wine club"
        ],
        ["can you forget what I said about Dina's ex and the money thing?", "yes"],
    ]
    reply = said_in_turn(assistant, told, "what was Dina's ex-husband called?")
    assert "Pavel" not in reply, reply
    kept = " ".join(item.text for item in assistant.memory.items())
    assert "Pavel" not in kept and "Kwame" in kept, kept


def learn_from(memory: MemoryService, message: str) -> None:
    """Learn ``message`` as the chat does, in a conversation of its own."""
    episode = memory.record_episode("c1", message, "Noted.")
    with memory.lane:
        learn(memory, episode, message)


@pytest.mark.parametrize(
    ("told", "now", "before"),
    [
        (
            [
                "my cousin Annika lives in Malmö, she's a vet",
                "annika's moved to gothenburg!! new job",
            ],
            "Gothenburg",
            "Malmö",
        ),
        (
            ["my brother Idris lives in Leeds", "my brother just moved to newcastle for work"],
            "Newcastle",
            "Leeds",
        ),
    ],
)
def test_someones_move_typed_in_lower_case_is_where_they_live(
    memory: MemoryService, told: list[str], now: str, before: str
) -> None:
    for message in told:
        learn_from(memory, message)
    homes = [i.text for i in memory.active_facts() if i.subject_key.endswith(":home_city")]
    assert len(homes) == 1 and now in homes[0] and before not in homes[0], homes


def test_a_lower_case_move_in_a_capitalised_message_is_not_read_as_a_place(
    memory: MemoryService,
) -> None:
    learn_from(memory, "my sister Ana lives in Porto")
    learn_from(memory, "Ana moved to tears by the film, honestly")
    homes = [i.text for i in memory.active_facts() if i.subject_key.endswith(":home_city")]
    assert homes == ["User's sister Ana lives in Porto"], homes


def test_insurance_asked_is_said_as_insured(assistant: Assistant) -> None:
    told = [["Car stuff: it's a 2019 Ford Fiesta, blue. Insured with Aviva, renewal is 3 March."]]
    reply = said_in_turn(assistant, told, "who's my car insurance with?")
    assert "Aviva" in reply, reply


def test_a_direct_debit_said_short_is_the_direct_debit(assistant: Assistant) -> None:
    told = [
        ["bills: energy is with EDF, direct debit is £130 a month on the 2nd. water is Severn"],
        ["small win, EDF dropped our dd to £104 after I sent a meter reading"],
    ]
    reply = said_in_turn(assistant, told, "how much is the energy direct debit now?")
    assert "104" in reply and "130" not in reply, reply


@pytest.mark.parametrize(
    "message",
    [
        "so... I've started seeing someone 🙈 her name's Priti, she's a midwife",
        "i started seeing someone his name is Dev",
    ],
)
def test_a_partner_begun_is_named(message: str) -> None:
    assert facts(message)["name_of:partner"].split()[-1] in message


def test_how_much_is_not_answered_by_a_fact_saying_no_amount(assistant: Assistant) -> None:
    told = [
        ["bills for the record: energy is with Bulb, direct debit is £96 a month on the 1st."],
        ["good news for once, bulb dropped our dd to £81 after the meter reading"],
    ]
    reply = said_in_turn(assistant, told, "How much is our energy direct debit?")
    assert "81" in reply and "96" not in reply, reply


def test_where_someone_moved_away_from_is_their_home_before(assistant: Assistant) -> None:
    told = [
        ["my old flatmate Sunniva lives in Bergen, she teaches piano"],
        ["Sunniva moved to Oslo!! her partner got a job there"],
    ]
    reply = said_in_turn(assistant, told, "Which city did Sunniva move away from?")
    assert "Bergen" in reply, reply


def test_a_change_to_what_is_asked_outranks_a_newer_one_to_its_neighbour(
    assistant: Assistant,
) -> None:
    told = [
        ["my current account is with santander, wages land on the 27th. energy is with Octopus"],
        ["no longer with santander!! moved it all over to monzo last month"],
        ["good news, octopus dropped our dd to £95 after the meter reading"],
    ]
    reply = said_in_turn(assistant, told, "which bank is my current account with now?")
    assert "monzo" in reply and "santander" not in reply.casefold(), reply


def test_news_of_someone_named_first_in_the_message_answers_of_them(
    assistant: Assistant,
) -> None:
    told = [
        [
            "Ada starts Year 4 at Fernhill, her teacher is Mr Achebe. Leon does nursery Monday and Tuesday"
        ],
        ["quick one about leon, we swapped monday for friday. so its tue, fri"],
    ]
    reply = said_in_turn(assistant, told, "which days does Leon go to nursery?")
    assert "tue, fri" in reply and "monday" not in reply.casefold(), reply
    reply = said_in_turn(assistant, [], "who's Ada's teacher?")
    assert "Achebe" in reply, reply
