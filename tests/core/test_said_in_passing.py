"""What people tell in passing: names inside requests and asides ("help me text my landlord,
Mr Okafor"), the telling part of a request ("could you remember that I ..."), sentences
without "I" in a message about the user, and the other words for a person ("my GP" is the
doctor asked about)."""

from __future__ import annotations

import pytest

from desktop_agent.core import user_sentences
from desktop_agent.core.assistant import Assistant
from desktop_agent.core.memory_service import MemoryService
from tests.core.conftest import chat, facts, told_then_asked, told_then_replied


@pytest.mark.parametrize(
    ("message", "key", "text"),
    [
        ("need to text my landlord, Mr Okafor, can you help me word it politely?",
         "name_of:landlord", "User's landlord is Mr Okafor"),
        ("also my roommate Priyanka is feeding my cat Mochi while im gone",
         "name_of:cat", "User's cat is named Mochi"),
        ("Please help me draft a birthday wish for my elder brother Rohan.",
         "name_of:brother", "User's brother is named Rohan"),
    ],
)  # fmt: skip
def test_a_name_said_in_passing_is_learned(message: str, key: str, text: str) -> None:
    assert facts(message).get(key) == text


@pytest.mark.parametrize(
    "message",
    ["I told my mum, Friday works.", "I asked my boss And she said no.", "my dog Is sick"],
)
def test_what_follows_a_relation_is_not_always_a_name(message: str) -> None:
    assert not [k for k in facts(message) if k.startswith("name_of:")]


@pytest.mark.parametrize(
    ("message", "said"),
    [
        ("need to text my landlord, Mr Okafor, can you help me word it politely?",
         "need to text my landlord, Mr Okafor"),
        ("Could you remember for me that I have an appointment with Dr Okafor on Thursday?",
         "I have an appointment with Dr Okafor on Thursday"),
        ("can you make me a meal plan? aiming for about 140g protein a day.",
         "aiming for about 140g protein a day."),
    ],
)  # fmt: skip
def test_the_telling_part_of_a_message_can_be_quoted(message: str, said: str) -> None:
    located = user_sentences.located(message)
    assert said in [sentence for sentence, _ in located]
    sentence, (start, end) = next(item for item in located if item[0] == said)
    assert message[start:end] == sentence  # the span is where the words stand


def test_a_question_of_the_users_is_never_quoted_as_told() -> None:
    assert user_sentences.located("Can you suggest a meal plan? What about lunch?") == []


@pytest.mark.parametrize(
    ("told", "asked", "answer"),
    [
        ("I take warfarin, and my GP is Dr Patel at the Elmwood surgery.",
         "What's my doctor's name again?", "Patel"),
        ("need to text my landlord, Mr Okafor, can you help me word it politely?",
         "remind me what my landlord's called", "Okafor"),
        ("can you make me a meal plan? aiming for about 140g protein a day.",
         "how much protein am I aiming for each day?", "140g"),
        ("For context I lift at Planet Fitness on Monday mornings.", "which gym do I go to?",
         "Planet Fitness"),
    ],
)  # fmt: skip
def test_said_in_passing_is_answered(
    assistant: Assistant, told: str, asked: str, answer: str
) -> None:
    reply = told_then_asked(assistant, told, asked)
    assert answer in reply
    assert not reply.startswith("For context")


@pytest.mark.parametrize(
    ("told", "asked", "answer", "not_said"),
    [
        # a name told only in the user's words, asked about without "my"
        ("Can you help me keep track of the kids' stuff? Zara has swimming on Wednesdays, and "
         "Omar's football is Saturday mornings at 9.", "When does Omar have football?",
         "Saturday mornings at 9", "You said"),
        ("My grandson Eli is three and he loves trains.", "How old is Eli?", "three",
         "You said"),
        # the name alone does not make a sentence the answer, nor the question one about
        # the user
        ("We adopted a cat called Mochi.|Vet visit today for Mochi.", "How old is Mochi?",
         "", "Vet visit"),
        ("I'm learning Python at night school.", "What is Python?", "You said", "learning"),
    ],
)  # fmt: skip
def test_a_name_from_the_users_words_is_answered_from_them(
    assistant: Assistant, told: str, asked: str, answer: str, not_said: str
) -> None:
    reply = told_then_asked(assistant, told, asked)
    assert answer in reply and not_said not in reply


def test_a_quote_leaves_out_why_and_shows_only_the_sentence(
    assistant: Assistant, memory: MemoryService
) -> None:
    for told in (
        "I do spin at CoreFit every Tuesday.",
        "switched gyms lol, im at Iron Republic now bc corefit put their prices up.",
    ):
        chat(assistant, assistant.start_conversation(), told)
    reply = chat(assistant, assistant.start_conversation(), "which gym am i going to now?")
    assert "Iron Republic" in reply.text and "corefit" not in reply.text.casefold()
    (used,) = reply.memories_used
    assert "corefit" not in used.item.text.casefold()  # the lens shows the quoted sentence
    assert memory.record(used.item.id).text.startswith("User: switched gyms")  # of the episode
    asked = chat(assistant, assistant.start_conversation(), "what gym did I use to go to?")
    assert "corefit" in asked.text.casefold()  # the past keeps the reason that names it


def test_a_title_ends_no_sentence() -> None:
    assert user_sentences.located("Also his vet is Dr. Alvarez over at Maple Grove. We love him.")[
        0
    ][0] == ("Also his vet is Dr. Alvarez over at Maple Grove.")


def test_what_is_told_after_a_request_is_quoted_too() -> None:
    message = (
        "I'll have my usual flat white, and can you keep track of the others: Dev wants a "
        "cortado, Siobhan's a long black."
    )
    said = [sentence for sentence, _ in user_sentences.located(message)]
    assert said == ["I'll have my usual flat white", "Dev wants a cortado, Siobhan's a long black."]


@pytest.mark.parametrize(
    ("message", "key", "text"),
    [
        ("G'day! Our kelpie Ruby's been scratching like mad lately, any tips?", "name_of:dog",
         "User's kelpie is named Ruby"),
    ],
)  # fmt: skip
def test_a_breed_and_a_name_with_has(message: str, key: str, text: str) -> None:
    assert facts(message).get(key) == text


@pytest.mark.parametrize(
    ("told", "asked", "answer", "not_said"),
    [
        ("I am working as a software tester at Infosys, Pune office.|Small update: I have "
         "joined Wipro from this month as a business analyst.",
         "Where was I working before this?", "Infosys", "nothing earlier"),
        ("I'm paying Eir 35 euro a month for my phone.|Sorted it. Switched to Vodafone, 20 "
         "euro a month now and the same unlimited data.", "Who was I with before I switched?",
         "Eir", "don't know"),
        ("I'm paying Eir 35 euro a month for my phone.|Sorted it. Switched to Vodafone, 20 "
         "euro a month now and the same unlimited data.", "What do I pay for my mobile now?",
         "Vodafone", "35"),
    ],
)  # fmt: skip
def test_the_earlier_value_of_a_change_said_loosely(
    assistant: Assistant, told: str, asked: str, answer: str, not_said: str
) -> None:
    reply = told_then_asked(assistant, told, asked)
    assert answer in reply and not_said not in reply


@pytest.mark.parametrize(
    ("told", "asked", "answer", "not_said"),
    [
        ("I have my flat white with oat milk.|gone right off oat milk tbh, it's almond in my "
         "flat white from now on", "What milk do I have in my coffee?", "almond", "oat"),
        ("Can you remind me to book winter tires for my Honda Civic?|Traded the Civic in on "
         "the weekend, I'm driving a Subaru Outback now.", "What am I driving these days?",
         "Subaru", "Civic"),
    ],
)  # fmt: skip
def test_a_quote_leaves_out_what_ended(
    assistant: Assistant, told: str, asked: str, answer: str, not_said: str
) -> None:
    reply = told_then_replied(assistant, told, asked)
    assert answer in reply.text and not_said not in reply.text
    assert all(not_said not in m.item.text for m in reply.memories_used)


@pytest.mark.parametrize(
    ("told", "asked", "answer", "not_said"),
    [
        # a statement need not say "I"
        ("Pottery class is Saturday mornings at 10, at the studio in Hebden Bridge.",
         "What time is my pottery class?", "10", "don't know"),
        # a question about the past wants the earlier words of two that say as much
        ("Saving up for a trip to Patagonia, my goal is 4,000 euros by next spring.|Flights got "
         "pricier so I've bumped my Patagonia savings goal up to 5,500 euros.",
         "What was my original savings goal for Patagonia?", "4,000", "5,500"),
    ],
)  # fmt: skip
def test_which_words_are_quoted(
    assistant: Assistant, told: str, asked: str, answer: str, not_said: str
) -> None:
    reply = told_then_asked(assistant, told, asked)
    assert answer in reply and not_said not in reply


@pytest.mark.parametrize(
    ("told", "asked", "answer"),
    [
        ("I'm learning the cello, lesson every Wednesday at 6:30pm with Mrs Oyelaran.",
         "Who teaches me cello?", "Oyelaran"),
        ("I see my therapist, Dr Anand, every Monday at 4pm.", "When's my therapy appointment?",
         "Monday"),
    ],
)  # fmt: skip
def test_other_ways_to_ask_about_ones_people(
    assistant: Assistant, told: str, asked: str, answer: str
) -> None:
    assert answer in told_then_asked(assistant, told, asked)


def test_a_request_with_me_is_not_about_the_user() -> None:
    from desktop_agent.core.questions import about_user

    assert about_user("Can you tell me a joke?") is None
    assert about_user("Who teaches me cello?") is not None
