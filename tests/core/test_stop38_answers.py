"""Shapes seen in stop 38, worded apart from the blind batches (t1361-t1392): a detail that was
forgotten, asked about, is said not to be known instead of answered by what else is known of
the person; forgetting asked for in other words ("scrap the bit about", "can you not
remember"), and of one detail of a sentence (what it cost, a diagnosis, a school's name); the
past asked without a word of the past ("what did the physio first think it was?", "which
dentist retired?", "my maiden name"); a switch told over two messages; a pet's vet; a class's
teacher; a thing asked by its bare name."""

from __future__ import annotations

import pytest

from desktop_agent.core.assistant import Assistant
from desktop_agent.core.intent import perceive
from desktop_agent.core.memory_service import MemoryService
from desktop_agent.core.questions import asks_the_past
from desktop_agent.core.statement_wording import what_is_so
from tests.core.conftest import said_in_turn


@pytest.fixture
def assistant(meaning: Assistant) -> Assistant:
    """With the app's real embedder: which sentence is quoted leans on nearness in meaning."""
    return meaning


def test_a_forgotten_detail_asked_is_not_known(assistant: Assistant) -> None:
    said_in_turn(
        assistant,
        [
            ["my colleague Marta is a dentist in Porto. she's expecting twins!! due in May."],
            ["forget what I said about Marta expecting and the due date", "yes"],
        ],
        "hi",
    )
    for asked in ("when is Marta due?", "is Marta pregnant?"):
        reply = said_in_turn(assistant, [], asked)
        assert "May" not in reply and "twins" not in reply, reply
        assert "dentist" not in reply and "Porto" not in reply, reply  # not what else is known
        assert "know" in reply, reply
    assert "dentist" in said_in_turn(assistant, [], "what does Marta do?")
    assert "Porto" in said_in_turn(assistant, [], "where does Marta live?")


@pytest.mark.parametrize(
    ("message", "topic"),
    [
        ("ok scrap the bit about my overdraft, I'd rather not have it saved", "my overdraft"),
        ("could you not remember Ines's operation? she's private about it", "Ines's operation"),
        (
            "I mentioned my brother's court case before. Please delete that, it's his business",
            "my brother's court case",
        ),
        ("can you forget how much my mortgage is", "how much my mortgage is"),
        ("please forget the whole parking ticket saga? it's paid", "parking ticket saga"),
        ("hey drop what I said about the loan from my aunt", "the loan from my aunt"),
        (
            "can you erase my blood sugar from your memory? and the target too, thanks",
            "my blood sugar and the target",
        ),
    ],
)
def test_forgetting_asked_for_in_other_words(message: str, topic: str) -> None:
    intent = perceive(message)
    assert (intent.kind, intent.command, intent.argument) == ("command", "forget", topic)


@pytest.mark.parametrize(
    "message",
    [
        "can you drop my daughter at swimming?",
        "forget the whole thing",
        "scrap that, let's talk about dinner",
        "I told you about my trip to Oslo. It was amazing",
    ],
)
def test_what_only_sounds_like_forgetting_is_not(message: str) -> None:
    assert perceive(message).command != "forget"


def test_forgetting_what_something_cost_keeps_the_rest(
    assistant: Assistant, by_meaning: MemoryService
) -> None:
    said_in_turn(
        assistant,
        [
            [
                "My brother Karim is opening a bakery in Ghent in April!! I'm doing the "
                "signage for him. he's sunk about 80 thousand euros into it, my dad is worried"
            ],
            ["please scratch the part about how much the bakery cost, that's his business", "yes"],
        ],
        "hi",
    )
    kept = " ".join(item.text for item in by_meaning.items("episodic"))
    assert "80" not in kept, kept
    assert "Ghent" in kept, kept  # the sentence saying only the bakery stays


def test_forgetting_someones_diagnosis_takes_the_sentence_saying_it(
    assistant: Assistant, by_meaning: MemoryService
) -> None:
    said_in_turn(
        assistant,
        [
            [
                "My mum Ingrid is 68 and lives in Tromsø. She was just diagnosed with "
                "glaucoma, which scared her. She paints watercolours most afternoons."
            ],
            ["I told you about my mum's diagnosis earlier. Please remove that", "yes"],
        ],
        "hi",
    )
    kept = " ".join(item.text for item in by_meaning.items("episodic"))
    assert "glaucoma" not in kept, kept
    assert "watercolours" in said_in_turn(assistant, [], "what does my mum do in the afternoons?")


def test_forgetting_the_name_of_a_school_takes_the_sentence_naming_it(
    assistant: Assistant, by_meaning: MemoryService
) -> None:
    said_in_turn(
        assistant,
        [
            [
                "my daughter Aoife is 6, she's at St Kevin's Primary, senior infants. "
                "swimming every Wednesday after school and she's mad about horses"
            ],
            ["please don't keep the name of Aoife's school", "yes"],
        ],
        "hi",
    )
    kept = " ".join(item.text for item in by_meaning.items("episodic"))
    assert "Kevin" not in kept, kept
    assert "Wednesday" in kept, kept


def test_a_reason_ends_where_the_news_goes_on() -> None:
    sentence = (
        "the GP sent me for a scan because the pain wasn't easing and it's actually a torn "
        "ligament in my left ankle"
    )
    said = what_is_so(sentence, "what did my ankle turn out to be?")
    assert "torn ligament" in said, said
    assert "easing" not in said, said


def test_what_someone_first_thought_is_asked_of_the_past() -> None:
    assert asks_the_past("what did the vet first think was wrong with her paw?")
    assert asks_the_past("what's my maiden name?")
    assert asks_the_past("which teacher retired?")
    assert not asks_the_past("what did the vet say about her paw?")


def test_she_after_the_one_named_by_role_is_asked_as_them(assistant: Assistant) -> None:
    reply = said_in_turn(
        assistant,
        [
            [
                "my wrist has been sore for a month. Saw an osteopath in Leith today, Morag "
                "Baird. She thinks it's just tendonitis, gave me some stretches."
            ],
            ["update: the scan showed it's actually a hairline fracture, cast for 4 weeks"],
        ],
        "what did the osteopath first think was wrong with my wrist?",
    )
    assert "tendonitis" in reply, reply


def test_a_switch_told_then_the_new_one_in_the_next_message(assistant: Assistant) -> None:
    reply = said_in_turn(
        assistant,
        [
            ["My GP is Dr Hallam at the Elm Street surgery"],
            [
                "had to switch doctors, Hallam moved to Devon",
                "I'm with Dr Adeyemi now, at Northgate",
            ],
        ],
        "who's my doctor now?",
    )
    assert "Adeyemi" in reply, reply
    assert "Hallam" in said_in_turn(assistant, [], "which doctor moved away?")


def test_a_pets_vet_is_the_households(assistant: Assistant) -> None:
    reply = said_in_turn(
        assistant,
        [["Our cat Pumpkin is 3. Our vet is Dr. Novak at Riverside Pets."]],
        "who is Pumpkin's vet?",
    )
    assert "Novak" in reply, reply


def test_who_teaches_a_class_is_its_teacher(assistant: Assistant) -> None:
    reply = said_in_turn(
        assistant,
        [["joined a life drawing class at the arts centre, Mondays 7pm, teacher is Bartek"]],
        "who teaches my drawing class?",
    )
    assert "Bartek" in reply, reply


def test_when_a_thing_is_asked_by_its_bare_name(assistant: Assistant) -> None:
    reply = said_in_turn(
        assistant,
        [
            ["started a climbing course at the wall in Hackney, Monday nights"],
            ["work got busy so I moved climbing to the Saturday morning group"],
        ],
        "when is climbing now?",
    )
    assert "Saturday" in reply, reply
    assert "capital" not in said_in_turn(assistant, [], "when is sunrise?")


def test_a_full_name_then_a_married_one(assistant: Assistant) -> None:
    said_in_turn(
        assistant,
        [
            ["for the paperwork, my full name is Siobhan Mary Keane"],
            ["we got married!! I'm taking Tom's name so I'm Siobhan Price now"],
        ],
        "hi",
    )
    assert "Keane" in said_in_turn(assistant, [], "what's my maiden name?")
    assert "Price" in said_in_turn(assistant, [], "what surname should I use on the form now?")


def test_a_phone_and_its_network_in_one_breath(assistant: Assistant) -> None:
    said_in_turn(assistant, [["my phone's a Galaxy S21, on Vodafone. battery is dying tho"]], "hi")
    assert "Galaxy" in said_in_turn(assistant, [], "what phone do I have?")
    assert "Vodafone" in said_in_turn(assistant, [], "which network am I on?")


def test_forgetting_news_said_in_other_words_takes_its_fragment_too(
    assistant: Assistant, by_meaning: MemoryService
) -> None:
    said_in_turn(
        assistant,
        [
            ["my flatmate Josie is a paramedic in Hull. she's expecting!! Due in August."],
            ["could you not remember Josie being pregnant? it's early days", "yes"],
        ],
        "hi",
    )
    kept = " ".join(item.text for item in by_meaning.items("episodic"))
    assert "expecting" not in kept and "August" not in kept, kept
    assert "paramedic" in said_in_turn(assistant, [], "what does Josie do?")
