"""Stop 47: answers that the user's own words give, cut short or taken from another thing.
Cases written before the rules."""

from __future__ import annotations

from desktop_agent.core.assistant import Assistant
from desktop_agent.core.statement_wording import what_is_so
from tests.core.conftest import chat


def _told_then_asked(assistant: Assistant, told: list[str], asked: str) -> str:
    for message in told:
        chat(assistant, assistant.start_conversation(), message)
    return chat(assistant, assistant.start_conversation(), asked).text


def test_what_stayed_the_same_after_a_change_is_kept_in_the_quote() -> None:
    said = "He's moved training to Sundays at 10, still at Ridgeway Park though"
    assert "Ridgeway Park" in what_is_so(said, "Where does Leo's team train?")
    # (what follows a switch and says neither is still why, and left out)
    assert (
        what_is_so(
            "swapped the internet to Hyperoptic, Virgin kept dropping every evening",
            "who is my internet with?",
        )
        == "swapped the internet to Hyperoptic"
    )


def test_a_where_question_after_a_change_of_day_gets_the_place_still_said(
    meaning: Assistant,
) -> None:
    reply = _told_then_asked(
        meaning,
        [
            "My son Leo plays for the Ridgeway Rovers under 10s. Coach is Dave Mulligan, "
            "training is Saturday 9am at Ridgeway Park",
            "Dave's stepped down as coach. He's moved training to Sundays at 10, still at "
            "Ridgeway Park though",
        ],
        "Where does Leo's team train?",
    )
    assert "Ridgeway Park" in reply, reply


_CLUBS = [
    "ezra does judo tuesdays 5pm at the leisure centre, coach is Big Dave. his sister Nia has "
    "violin saturday mornings w mr. hollis",
    "nia quit violin 😭 she's doing swim club at the Aquadrome on saturdays instead",
]


def test_a_change_to_another_sentence_of_the_message_is_not_quoted(meaning: Assistant) -> None:
    # (before: "nia quit violin ..." was quoted as a change to Ezra's judo, which the message
    # told beside her violin)
    reply = _told_then_asked(meaning, _CLUBS, "when's ezra's judo")
    assert "tuesdays" in reply and "5pm" in reply, reply
    assert "violin" not in reply, reply


def test_the_change_to_that_sentence_still_is(meaning: Assistant) -> None:
    reply = _told_then_asked(meaning, _CLUBS, "what's nia doing on saturday mornings these days?")
    assert "swim club" in reply, reply


def test_what_came_before_said_in_the_same_sentence_answers_the_past(
    meaning: Assistant,
) -> None:
    # (before: "I have nothing earlier on record. As far as I know, you live in Graz.")
    told = [
        "Grüß Gott. I am Hans, retired train conductor. After 35 years in Linz my wife Gerda "
        "and I moved to Graz last spring, to be closer to our grandchildren"
    ]
    reply = _told_then_asked(meaning, told, "where did we live before Graz?")
    assert "Linz" in reply, reply
    assert "Graz" in _told_then_asked(meaning, [], "where do I live?")


def test_a_new_name_is_a_change_of_the_name(meaning: Assistant) -> None:
    told = [
        "been hacking on a side project in the evenings - plant watering reminder app called "
        "Drooply. flutter + firebase",
        "renamed the app to Sprig 😤",
    ]
    reply = _told_then_asked(meaning, told, "whats my app called now?")
    assert "Sprig" in reply, reply


def test_news_that_opens_with_guess_who_is_told_not_asked(meaning: Assistant) -> None:
    told = [
        "chess club is wednesdays at the red lion pub lol. my rating's 1420 atm",
        "GUESS WHO GAINED 90 POINTS at the weekend rapid tournament, rating is 1510 now 😎",
    ]
    reply = _told_then_asked(meaning, told, "What's my chess rating?")
    assert "1510" in reply, reply


def test_an_amount_said_in_words_is_an_amount() -> None:
    from desktop_agent.core.statement_wording import kind_asked

    amount = kind_asked("how many hives have I got?")
    assert amount is not None
    assert amount.search("so I'm down to two hives now")
    assert not amount.search("one of the colonies just upped and left")


def test_a_name_answers_what_someone_is_called_without_the_word_name(meaning: Assistant) -> None:
    told = [
        "oh and Biscuit's vet is Dr. Okonkwo at Maple Paws, i always forget to write that down "
        "anywhere so there you go"
    ]
    reply = _told_then_asked(meaning, told, "what's the name of the vet again?")
    assert "Okonkwo" in reply, reply


def test_a_place_that_closed_down_is_an_ending_and_what_came_instead_answers() -> None:
    said = "noooo pho huong closed down 😭 new go-to is Saigon Corner on Dundas"
    assert what_is_so(said, "what's our usual takeaway spot now?") == (
        "new go-to is Saigon Corner on Dundas"
    )
