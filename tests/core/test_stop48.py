"""Stop 48: whom a run of pronouns means, and "who" answered by the one named. Cases written
before the rules."""

from __future__ import annotations

import pytest

from desktop_agent.core.assistant import Assistant
from desktop_agent.core.extraction import extract
from desktop_agent.core.memory_service import MemoryService
from desktop_agent.core.quote_now import said_as_now
from tests.core.conftest import said_in_turn


def test_a_name_told_two_messages_after_the_relation_is_theirs(meaning: Assistant) -> None:
    # "his" leans on "She's", which leans on "my sister": three messages, one person
    told = [
        "My sister has just qualified as a midwife.",
        "She's working at the Royal Infirmary in Leeds now, nights mostly",
        "oh and her name's Ingrid btw, she's 31",
    ]
    reply = said_in_turn(meaning, [told], "Which city does Ingrid work in?")
    assert "Leeds" in reply


def test_the_name_first_in_the_quote_is_who_was_picked(meaning: Assistant) -> None:
    # the venue's change names a month, not a new bridesmaid
    reply = said_in_turn(
        meaning,
        [
            ["we booked Foxglove Hall for 9 May!! Rosa is going to be my chief bridesmaid"],
            ["bad news, the hall double booked us so the wedding is now October 3rd"],
        ],
        "who did I pick as chief bridesmaid?",
    )
    assert "Rosa" in reply


def test_a_place_named_in_a_change_is_no_new_person(meaning: Assistant) -> None:
    reply = said_in_turn(
        meaning,
        [
            [
                "we're getting married on 3 May at a barn venue in Shropshire! my cousin Tomasz "
                "is going to be our best man, he nearly cried"
            ],
            [
                "wedding drama. the barn venue went bust, like actually out of business, we "
                "lost the deposit. so after a lot of stress we've moved it to 12 July at a farm "
                "in Devon instead, and honestly it might be nicer. Tomasz has been great "
                "through all of it"
            ],
        ],
        "who's our best man?",
    )
    assert "Tomasz" in reply


@pytest.mark.parametrize(
    ("sentence", "earlier", "asked", "said"),
    [
        (  # what ended, before the new one, is no part of what is so now
            "lost Harbourline as a client 😭 BUT picked up a design agency, Fernwood, and "
            "upped my day rate",
            "my main client is Harbourline, they pay on time",
            "who's my main client now?",
            "picked up a design agency, Fernwood, and upped my day rate",
        ),
        (  # nor after it
            "renamed the bakery to Larkin & Co, turns out Bramble was already taken",
            "my bakery is called Bramble",
            "what's my bakery called now?",
            "renamed the bakery to Larkin & Co",
        ),
        (  # the reason before the new one, naming the old
            "Dr Achebe kept cancelling on us so now Pepper sees Dr Lindqvist at Elmwood",
            "Pepper's vet is Dr Achebe",
            "who's Pepper's vet these days?",
            "now Pepper sees Dr Lindqvist at Elmwood",
        ),
    ],
)
def test_a_change_is_quoted_from_the_new_one(
    sentence: str, earlier: str, asked: str, said: str
) -> None:
    assert said_as_now(sentence, earlier, asked) == said


def test_a_known_name_typed_in_lower_case_is_theirs(
    meaning: Assistant, by_meaning: MemoryService
) -> None:
    # "biscuit": a pet's name that is also a word, which the reading does not take
    # for a name in lower case
    said_in_turn(
        meaning,
        [["my dog Biscuit is 6 and a total sofa hog"], ["biscuit turned 7 last week!"]],
        "how old is my dog?",
    )
    ages = [f.text for f in by_meaning.active_facts() if f.subject_key == "person:dog:age"]
    assert ages == ["User's dog Biscuit turned 7 last week"]


def test_what_was_paid_before_a_rise_is_the_amount_said(meaning: Assistant) -> None:
    reply = said_in_turn(
        meaning,
        [
            [
                "landlord's a guy called Tomas Ferreira, really nice. rent is £980 a month, due on the 1st"
            ],
            ["ugh tomas emailed, rent's going up to £1,050 from april, still due on the 1st"],
        ],
        "what was i paying before he put it up?",
    )
    assert "£980" in reply, reply


def test_a_place_the_quoted_message_named_is_no_new_person(meaning: Assistant) -> None:
    reply = said_in_turn(
        meaning,
        [
            [
                "booked!! Lisbon, 2–9 May, me and my mate Joel, apartment in Alfama. my "
                "neighbour Anika said she'll feed the fish and Rolo (my cat) is going to "
                "the cattery"
            ],
            ["change of plans: flights got moved so it's now 20–27 June, still Lisbon."],
        ],
        "who is feeding my fish?",
    )
    assert "Anika" in reply, reply


def test_a_change_of_the_users_own_is_no_change_of_someone_named(meaning: Assistant) -> None:
    reply = said_in_turn(
        meaning,
        [
            [
                "Doing the lunch order for the team. I'll have my usual chicken wrap with "
                "hummus, and can you keep track of the others: Omar eats a falafel bowl, "
                "Greta's a tuna melt."
            ],
            ["gone right off hummus tbh, it's pesto in my wrap from now on"],
        ],
        "What does Omar eat?",
    )
    assert "falafel" in reply, reply


@pytest.mark.parametrize(
    ("message", "city"),
    [
        ("massive news, I moved!! took a job at a design studio so I'm in Ghent now", "Ghent"),
        ("we did it!! signed a lease in Tartu, two rooms, 600 euros a month", "Tartu"),
        ("we moved the standup, I'm in Bristol now for the day", None),  # a visit
        ("im in Prague now lol, conference is great", None),  # no move told
    ],
)
def test_where_the_user_is_now_after_a_move_is_home(message: str, city: str | None) -> None:
    homes = [f.value for f in extract(message) if f.subject_key == "home_city"]
    assert homes == ([city] if city else [])


def test_im_with_someone_new_after_the_old_one_left(meaning: Assistant) -> None:
    told = [
        ["tore a hamstring at football 🙃 physio is Marguerite, twice a week"],
        ["marguerite moved to glasgow so im with Tobias at the sports clinic now"],
    ]
    assert "Tobias" in said_in_turn(meaning, told, "who's my physio?")
    first = said_in_turn(meaning, [], "what was the name of my first physio")
    assert "Marguerite" in first, first


def test_which_means_tells_and_her_is_the_one_before(meaning: Assistant) -> None:
    told = [
        [
            "my son starts year 1 on monday",
            "His name's Rafferty btw. His teacher is going to be Mrs Pennington",
        ],
        [
            "so Rafferty's been moved into the other year 1 class, they split the numbers",
            "which means his teacher is Mr Adeyemi now, not Mrs Pennington.",
        ],
    ]
    reply = said_in_turn(meaning, told, "who's my son's teacher these days?")
    assert "Adeyemi" in reply and "Pennington" not in reply, reply


def test_the_one_who_cannot_any_more_and_who_came_instead(meaning: Assistant) -> None:
    told = [
        ["off to Riga 3-9 may, my neighbour Tamsin is feeding the cat (Mochi) while im away"],
        [
            "tamsin can't do it anymore, her dad's ill. found a sitter on Rover instead, a guy named Oskar"
        ],
    ]
    reply = said_in_turn(meaning, told, "who's looking after mochi while I'm in riga?")
    assert "Oskar" in reply and "Tamsin" not in reply, reply


def test_what_stayed_the_same_is_answered_from_before_the_change(meaning: Assistant) -> None:
    told = [
        ["yoga is with Ines at Lotus Loft, wednesdays at 7:30pm"],
        ["ines moved my yoga to fridays btw, same time"],
    ]
    assert "7:30pm" in said_in_turn(meaning, told, "what time is it at?")
    day = said_in_turn(meaning, [], "what day's my yoga now?")
    assert "fridays" in day and "wednesdays" not in day, day
