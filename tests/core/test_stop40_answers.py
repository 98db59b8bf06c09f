"""Shapes seen in stop 40, worded apart from the tuning and blind scenarios: someone who does a
job for the user leaves (retires, moves away, hands in their notice, sells up) and a successor
is named, in the same message or the next, often without the role ("the new one is Dr Y",
"Y has taken over", "I've been handed over to Y")."""

from __future__ import annotations

import pytest

from desktop_agent.core.assistant import Assistant
from desktop_agent.core.forget_request import facts_to_forget
from desktop_agent.core.memory_service import MemoryService
from desktop_agent.core.successors import successors
from tests.core.conftest import chat, facts, said_in_turn


@pytest.fixture
def assistant(meaning: Assistant) -> Assistant:
    """With the app's real embedder: which sentence is quoted leans on nearness in meaning."""
    return meaning


@pytest.mark.parametrize(
    ("told", "asked", "new", "old"),
    [
        (
            [
                ["my dentist is Dr Pike, he's been doing my teeth since uni"],
                [
                    "so my dentist retired over the summer",
                    "The new one is Dr Oyelaran, very gentle",
                ],
            ],
            "who's my dentist?",
            "Oyelaran",
            "Pike",
        ),
        (
            [
                ["I'm a buyer at Ferncroft. my manager is Priti Shah"],
                [
                    "Priti left for a job at Ocado last month. Our new boss started Monday, Declan Hurst"
                ],
            ],
            "who's my manager now?",
            "Hurst",
            "Priti",
        ),
        (
            [
                ["my landlord is Mr Okafor, rent is 800 a month"],
                ["Okafor sold the flat! the new owner is a housing association, Clarion Homes"],
            ],
            "who's my landlord these days?",
            "Clarion",
            "Okafor",
        ),
        (
            [
                ["I row with the Tideway club, our coach is Ray Dunn"],
                ["Ray's stepped down as coach after 10 years. Kemi Bello has taken over"],
            ],
            "who's my coach now?",
            "Bello",
            "Ray",
        ),
        (
            [
                ["I see a counsellor, Hana Sato, on Friday mornings"],
                [
                    "my counsellor is going on sick leave for a while",
                    "I'm seeing Joel Amari while she's off",
                ],
            ],
            "who's my counsellor at the moment?",
            "Amari",
            "Sato",
        ),
        (
            [
                ["I've got a PT called Bex at the leisure centre, we do Tuesdays"],
                ["Bex is moving to Leeds so I've been handed over to Callum, he seems keen"],
            ],
            "who's my personal trainer now?",
            "Callum",
            "Bex",
        ),
    ],
)
def test_a_successor_named_after_the_one_who_left(
    assistant: Assistant, told: list[list[str]], asked: str, new: str, old: str
) -> None:
    reply = said_in_turn(assistant, told, asked)
    assert new in reply and old not in reply, reply


@pytest.mark.parametrize(
    ("message", "before", "known", "role", "name"),
    [
        ("The new one is Dr Oyelaran.", "my dentist retired", {}, "dentist", "Dr Oyelaran"),
        ("Our new manager started this week, Tom Reyes.", "", {}, "manager", "Tom Reyes"),
        ("Ana quit, so Lucia's taken over.", "", {"ana": "cleaner"}, "cleaner", "Lucia"),
        ("switched physios. Now I go to Dr. Lena Moss in town.", "", {}, "physio", "Dr. Lena Moss"),
        (
            "Gemma's moving away. We've gone with Mr Ward.",
            "",
            {"gemma": "tutor"},
            "tutor",
            "Mr Ward",
        ),
    ],
)
def test_successors_read_with_the_role_of_who_left(
    message: str, before: str, known: dict[str, str], role: str, name: str
) -> None:
    found = successors(message, before, known)
    assert [(s.role, s.name) for s in found] == [(role, name)]
    assert message[found[0].start : found[0].end].find(name) >= 0


@pytest.mark.parametrize(
    ("message", "before", "known"),
    [
        # nobody left: a newcomer is no successor
        ("The new receptionist is Sandra.", "my GP is Dr Abbott", {}),
        # someone left, nobody named after them
        ("my dentist retired and I haven't found a new one yet", "", {}),
        # the one who left had no role the assistant knows
        ("Tom moved to Leeds, so I've been handed over to Callum", "", {}),
        # the user is the one who left
        ("I left Ferncroft. The new place is great, my boss Dana is lovely", "", {}),
        # whose the new teacher is, nobody said: the child's, in a new class, perhaps
        ("Mrs. Ito left. the new teacher is Mr. Dahl and Ben loves him", "", {}),
        # someone else's
        ("her new coach is Sam Hill", "", {}),
        # a friend who moved away is no role someone else takes
        ("Tom moved to Leeds, so I'm seeing Ana more", "", {"tom": "friend"}),
        # leaving for the day, moving premises: no one left the role
        ("I'm with Sarah Lowe at the pub", "my boss left early today", {}),
        ("my dentist moved to a new building. I'm seeing Dr Webb there", "", {}),
    ],
)
def test_no_successor_without_someone_who_left_a_role(
    message: str, before: str, known: dict[str, str]
) -> None:
    assert successors(message, before, known) == []


@pytest.mark.parametrize(
    ("told", "asked", "expected"),
    [
        ([["my cleaner is Ana, she comes fridays"]], "who's cleaning the house these days?", "Ana"),
        (
            [["my son Kit plays for Hove Harriers, his coach is Sal Reid"]],
            "who coaches Kit's team?",
            "Reid",
        ),
    ],
)
def test_a_role_asked_by_what_they_do(
    assistant: Assistant, told: list[list[str]], asked: str, expected: str
) -> None:
    reply = said_in_turn(assistant, told, asked)
    assert expected in reply, reply


def test_who_left_is_asked_as_the_past(assistant: Assistant) -> None:
    told = [
        ["my accountant is Gwen Ashby, she does my self assessment"],
        ["Gwen is retiring, so the firm has passed me on to one of the partners, Omar Siddiqui"],
    ]
    assert "Siddiqui" in said_in_turn(assistant, told, "who does my taxes now?")
    assert "Ashby" in said_in_turn(assistant, [], "which accountant retired?")


def test_a_successor_from_another_team_and_a_titled_name_with_a_dot() -> None:
    found = successors(
        "Ines handed in her notice. Raj Mehta from the data team is taking over as our lead",
        "",
        {"ines": "team lead"},
    )
    assert [(s.role, s.name) for s in found] == [("team lead", "Raj Mehta")]
    found = successors(
        "Dr. Hale is retiring and I'm now with a Dr. Moreno at the same practice.",
        "",
        {"hale": "dentist"},
    )
    assert [(s.role, s.name) for s in found] == [("dentist", "Dr. Moreno")]


def test_a_pet_is_with_a_new_vet(assistant: Assistant) -> None:
    told = [
        ["our cat Miso is 3, her vet is Dr. Brandt at Eastside Vets"],
        ["we changed vets, too pricey. Miso is with Dr. Oduya at Hill Lane now"],
    ]
    reply = said_in_turn(assistant, told, "who's Miso's vet now?")
    assert "Oduya" in reply and "Brandt" not in reply, reply


def test_one_to_ones_said_as_numbers() -> None:
    assert "one-to-ones" in next(iter(facts("we do our 1:1s every friday morning").values()))


def test_a_question_about_a_routine_with_someone_answers_the_routine(
    assistant: Assistant,
) -> None:
    told = [["my manager is Lena Voss. we have our catch-ups every Tuesday at 10"]]
    reply = said_in_turn(assistant, told, "when are my catch-ups with my manager?")
    assert "Tuesday" in reply, reply


def test_forgetting_what_was_said_of_someone_forgets_the_rest_of_that_sentence(
    assistant: Assistant, by_meaning: MemoryService
) -> None:
    told = "rough week. my uncle Ray has a gambling problem, he owes about 4000 to the bookies"
    chat(assistant, assistant.start_conversation(), told)
    conversation = assistant.start_conversation()
    chat(assistant, conversation, "please forget what I said about Ray's gambling")
    chat(assistant, conversation, "yes")
    known = " ".join(item.text for item in by_meaning.active_facts())
    assert "4000" not in known and "gambling" not in known, known


def test_forgetting_a_proposal_offers_the_plan_to_propose_beside_the_ring(
    assistant: Assistant,
    by_meaning: MemoryService,
    classifier: None,
) -> None:
    """ "the proposal" is said by "propose": offered with the ring, not left out as less
    specific than the fact that says "ring" (which the statement classifier learns)."""
    told = [
        "secret: I'm planning to propose to Sam in Rome.",
        "ring's from Goldsmiths, I've set myself a budget of 2000",
    ]
    for message in told:
        chat(assistant, assistant.start_conversation(), message)
    offered = " ".join(
        r.item.text
        for r in facts_to_forget(by_meaning, "everything about the ring and the proposal")
    )
    assert "propose" in offered and "Goldsmiths" in offered, offered


def test_a_new_network_by_jumping_ship() -> None:
    assert facts("contract ran out so I jumped ship to Smarty, 8 quid a month")[
        "provider:mobile"
    ].endswith("Smarty")


@pytest.mark.parametrize(
    ("message", "employer"),
    [
        (
            "I've been at Brightwater Foods for four years now, working in dispatch",
            "Brightwater Foods",
        ),
        ("i have been at Ocado since 2021", "Ocado"),
    ],
)
def test_where_the_user_has_been_for_years_is_their_employer(message: str, employer: str) -> None:
    assert facts(message).get("employer") == f"User works at {employer}", facts(message)


def test_years_at_a_university_or_a_night_at_a_hotel_are_no_employer() -> None:
    assert "employer" not in facts("I've been at Leeds Uni for two years")
    assert "employer" not in facts("I've been at the Hilton for 3 nights")


def test_my_folks_are_my_parents(assistant: Assistant) -> None:
    told = [["my parents Rita and Joe live in Galway, I see them every Christmas"]]
    assert "Galway" in said_in_turn(assistant, told, "where are my folks based?")


def test_for_a_living_asks_work_not_home(assistant: Assistant) -> None:
    told = [
        ["my boyfriend Tom lives in Derby, he's a plumber"],
        ["we're living together in Derby now, the house is on Ash Road"],
    ]
    reply = said_in_turn(assistant, told, "what does Tom do for a living?")
    assert "plumber" in reply, reply


def test_what_was_so_before_a_transfer(
    assistant: Assistant,
    classifier: None,  # (which learns the transfer)
) -> None:
    told = [
        [
            "hiya, I'm Bea. I'm a porter at Kings Mill, been on the maternity unit for about 2 years now"
        ],
        ["big news, I got transferred to the surgical unit, started monday"],
    ]
    reply = said_in_turn(assistant, told, "Before my transfer, what unit was I on?")
    assert "maternity" in reply, reply


def test_the_past_dated_by_an_event_with_someone(assistant: Assistant) -> None:
    told = [
        ["I live in Bath. my boyfriend Kai lives in Bristol, he's a chef"],
        ["moved in with Kai at last! I'm a Bristol resident now"],
    ]
    reply = said_in_turn(assistant, told, "where was I living before I moved in with my boyfriend?")
    assert "Bath" in reply, reply


def test_a_headline_before_mum_and_dad_moving() -> None:
    learned = facts("family update: mum and dad sold up and moved to Whitby to be near the sea")
    assert "Whitby" in learned.get("person:parents:home_city", ""), learned


@pytest.mark.parametrize(
    ("message", "topic"),
    [
        (
            "actually no, forget what I said about Noor, it's far too early to write that down",
            "Noor",
        ),
        ("wait, forget my gym", "my gym"),
        (
            "can you forget everything I told you about my counsellor? rather it wasn't saved",
            "my counsellor",
        ),
        ("forget everything I've said about the wedding", "the wedding"),
    ],
)
def test_a_forget_after_taking_it_back_or_of_everything_told(message: str, topic: str) -> None:
    from desktop_agent.core.intent import perceive

    intent = perceive(message)
    assert (intent.kind, intent.argument) == ("command", topic), intent


@pytest.mark.parametrize("message", ["no forget it", "no, I work at Monzo now"])
def test_no_before_something_else_is_no_forget(message: str) -> None:
    from desktop_agent.core.intent import perceive

    assert perceive(message).kind != "command"
