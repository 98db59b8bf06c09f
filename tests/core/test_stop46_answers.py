"""Stop 46: the chat's own spelling. People type names in lower case ("when's gareth's
birthday"), use short forms ("callum's bday", "booking ref"), and go on about someone in the next
message ("planning a surprise 40th for gareth!!" | "his actual birthday is 9 march btw"). What
they told is answered though they asked it in other words, and a code asked for ("the booking
reference") is found in the short sentence that says it."""

from __future__ import annotations

import pytest

from desktop_agent.core.assistant import Assistant
from desktop_agent.core.intent import perceive
from desktop_agent.core.statements import names_asked
from desktop_agent.core.user_sentences import as_typed
from tests.core.conftest import chat, said_in_turn, told_then_asked


@pytest.mark.parametrize(
    ("told", "asked", "answer"),
    [
        ("rhodri's bday is 3 june, he's in cardiff now", "when is rhodri's birthday?", "3 june"),
        ("my mate declan's bday is on the 19th of may", "when's declan's birthday", "19th of may"),
        (
            "rhys has a new gf, ffion, she's a nurse in bangor. seems lovely",
            "who's rhys's girlfriend?",
            "ffion",
        ),
        (
            "eurostar to paris for our anniversary, 11 feb, coach 7 seats 44 and 45. booking ref "
            "QZLMRT",
            "whats the eurostar booking reference",
            "QZLMRT",
        ),
        (
            "flights to rome booked!! ryanair from stansted on 3 april, conf number 88XK21",
            "what's the booking reference for rome?",
            "88XK21",
        ),
    ],
)
def test_what_was_told_in_short_forms_answers_the_words_in_full(
    assistant: Assistant, told: str, asked: str, answer: str
) -> None:
    reply = told_then_asked(assistant, told, asked)
    # (case aside: "ffion" is asked as told, whatever case a reply gives it)
    assert answer.casefold() in reply.casefold() and reply.startswith("You told me"), reply


def test_he_in_the_next_message_is_the_one_named_in_the_message_before(
    assistant: Assistant,
) -> None:
    reply = said_in_turn(
        assistant,
        [["planning a surprise 40th for oisin!! booked the upstairs room at the fox", "his "
          "actual birthday is 12 april btw"]],
        "when's oisin's birthday?",
    )  # fmt: skip
    assert "12 april" in reply.casefold(), reply


def test_the_code_is_kept_when_a_change_says_it_stayed_the_same(assistant: Assistant) -> None:
    reply = said_in_turn(
        assistant,
        [
            ["booked the ferry to santander, 2 july, brittany ferries, booking ref BF40913"],
            ["ferry moved to the 4th of july now. same booking ref tho"],
        ],
        "what's the ferry booking reference?",
    )
    assert "BF40913" in reply, reply


@pytest.mark.parametrize(
    ("question", "names"),
    [
        ("when's gareth's birthday", {"gareth"}),
        ("When is Rhodri's birthday?", {"rhodri"}),
        ("whats the host's name?", set()),
        ("what is my mum's address", set()),
        ("what's the dog's name", set()),
    ],
)
def test_the_names_a_question_asks_about(question: str, names: set[str]) -> None:
    assert names_asked(question) == names


def test_a_sentence_naming_its_own_person_does_not_lean_on_the_message_before(
    assistant: Assistant,
) -> None:
    reply = said_in_turn(
        assistant,
        [
            ["catching up: Chiara still in Milan, working at a design studio"],
            ["Chiara moved to Lisbon! she got a remote contract", "also Ollie asked me not to "
             "talk about his new job yet"],
        ],
        "Where does Chiara live now?",
    )  # fmt: skip
    assert "Lisbon" in reply and "Ollie" not in reply, reply


def test_a_change_to_another_thing_of_the_topic_is_not_quoted_for_it(
    assistant: Assistant,
) -> None:
    reply = said_in_turn(
        assistant,
        [
            ["we're spending £150 on priya and tom's wedding present. wedding is 21 sept"],
            ["lol the wedding's moved to the 28th"],
        ],
        "how much are we spending on the wedding present?",
    )
    assert "150" in reply, reply


@pytest.mark.parametrize(
    ("message", "forgotten"),
    [
        (
            "the new date is 20th June. and don't keep the bit about his first theory score, he'd "
            "be mortified",
            "his first theory score",
        ),
        ("don't keep the stuff about my overdraft", "my overdraft"),
    ],
)
def test_dont_keep_asks_to_forget(message: str, forgotten: str) -> None:
    intent = perceive(message)
    assert intent.command == "forget" and forgotten in intent.argument, intent


@pytest.mark.parametrize("message", ["I love my job, don't keep asking", "i don't keep receipts"])
def test_dont_keep_alone_asks_nothing(message: str) -> None:
    assert perceive(message).command is None


def test_who_of_someone_named_asks_for_someone_else(assistant: Assistant) -> None:
    told = (
        "my son Kieran is 17 and learning to drive, his instructor is Maureen, she takes him "
        "saturday mornings"
    )
    reply = told_then_asked(assistant, told, "who's teaching Kieran to drive?")
    assert "Maureen" in reply, reply
    # (and a question of who they are is answered by the fact)
    said = chat(assistant, assistant.start_conversation(), "who's Kieran?").text
    assert "son" in said, said


def test_a_quote_keeps_the_case_the_user_typed(assistant: Assistant) -> None:
    told = "oh and the router at the cabin works now, password is heron-lantern-42"
    reply = told_then_asked(assistant, told, "what's the password for the cabin router?")
    assert "heron-lantern-42" in reply, reply


def test_as_typed_puts_back_each_word() -> None:
    message = "we're at casa alfama for 3 nights, Tom booked it"
    assert as_typed("we're at Casa Alfama for 3 nights, Tom booked it", message) == message
