"""Which messages only ask, which ask about the user, and how facts are said back."""

from __future__ import annotations

import pytest

from desktop_agent.core.grounding import second_person
from desktop_agent.core.questions import about_user, asks_only
from tests.core.conftest import chat


@pytest.mark.parametrize(
    "message",
    [
        "What is my name and which city do I live in?",
        "where do i live",
        "Hi! What's my sister's name?",
        "Can you remind me what I'm allergic to?",
        "Do I have any pets?",
    ],
)
def test_messages_that_only_ask(message: str) -> None:
    assert asks_only(message)


@pytest.mark.parametrize(
    "message",
    [
        "My name is Dana.",
        "I live in Ghent, do you know any bakeries there?",
        "What should I cook tonight? Keep in mind my peanut allergy",
        "Thanks!",
    ],
)
def test_messages_that_tell_something(message: str) -> None:
    assert not asks_only(message)


@pytest.mark.parametrize(
    ("message", "everything", "past"),
    [
        ("What am I allergic to?", False, False),
        ("Where do I live now?", False, False),
        ("What's my sister's name?", False, False),
        ("What do you know about me?", True, False),
        ("Who am I?", True, False),
        ("Where did I live before I moved?", False, True),
        ("What was my old job?", False, True),
        ("Do you remember my name?", False, False),
        ("What do I do for a living?", False, False),
        ("Is there anything I can't eat?", False, False),
        ("How do I take my coffee?", False, False),
        ("Where were we living last year?", False, True),
        ("What did I do before freelancing?", False, True),
        ("Where was I born?", False, False),
    ],
)
def test_questions_about_the_user(message: str, everything: bool, past: bool) -> None:
    found = about_user(message)
    assert found is not None
    assert (found.everything, found.past) == (everything, past)


@pytest.mark.parametrize(
    "message",
    [
        "What is the capital of France?",
        "What should I cook tonight?",
        "How do I reverse a list in Python?",
        "Can you help me write an email to my boss?",
        "Tell me about living in Lisbon",
        "Do you know where I could buy shoes?",
        "My name is Dana.",
        "How do I fix my bike?",
        "What can I cook tonight?",
    ],
)
def test_other_messages_are_not_questions_about_the_user(message: str) -> None:
    assert about_user(message) is None


@pytest.mark.parametrize(
    ("fact", "said"),
    [
        ("User is allergic to peanuts", "You are allergic to peanuts"),
        ("User lives in Porto", "You live in Porto"),
        ("User's sister is called Ana", "Your sister is called Ana"),
        ("User does not eat pork", "You do not eat pork"),
        ("User has a dog called Pickle", "You have a dog called Pickle"),
        ("User watches films with User's sister", "You watch films with your sister"),
        ("User studies law", "You study law"),
        ("buy milk on Friday", "You told me: “buy milk on Friday”"),
        (
            "Every Sunday User plays cricket with User's cousins",
            "Every Sunday you play cricket with your cousins",
        ),
    ],
)
def test_facts_are_said_back_in_the_second_person(fact: str, said: str) -> None:
    assert second_person(fact) == said


# --- answers to questions asked the way people ask them (written before their rules) ----------

ASKED_FACTS = (
    "My wife Mei is a pharmacist and our son Leo just turned 7.",
    "I'm a software developer at Infosys in Pune.",
    "I'm on blood thinners, so careful with advice.",
    "My flight to Tokyo is on March 3rd.",
    "My dentist is Dr. Okafor, she's great.",
)


@pytest.fixture
def told(assistant):  # noqa: ANN001, ANN201
    for text in ASKED_FACTS:
        chat(assistant, assistant.start_conversation(), text)
    return assistant


@pytest.mark.parametrize(
    ("question", "expected", "not_expected"),
    [
        ("How old is my son?", "7", "nothing earlier"),  # "old" here is not the past
        ("Remind me what my son is called", "Leo", "7"),
        ("Where do I work?", "Infosys", "Pune"),  # the job, not the city "where" points at
        ("Anything you remember about my health?", "blood thinners", "Infosys"),
        ("What medication am I on?", "blood thinners", "Pune"),
        ("Where am I flying to?", "Tokyo", "Pune"),
        ("What's my name?", "don't know", "Okafor"),  # the dentist's name is not the user's
        ("Who is Leo?", "son", "Infosys"),
        ("What do you know about my family?", "Mei", "Infosys"),
    ],
)
def test_questions_asked_in_other_words(
    told,
    question: str,
    expected: str,
    not_expected: str,  # noqa: ANN001
) -> None:
    reply = chat(told, told.start_conversation(), question).text
    assert expected in reply and not_expected not in reply, reply


def test_who_is_someone_never_mentioned_is_for_the_model(told) -> None:  # noqa: ANN001
    reply = chat(told, told.start_conversation(), "Who is Ada?")
    assert reply.text == "You said: Who is Ada?"  # the scripted model's echo


@pytest.mark.parametrize(
    ("told", "question", "expected"),
    [
        ("My daughter's name is Amara and she's 4.", "How old is Amara?", "daughter is 4"),
        ("My partner Jess is a chef at a Thai restaurant.", "Where does Jess work?", "chef"),
        ("My mum's birthday is on 4 May.", "When is my mum's birthday?", "Your mum's birthday"),
        ("I work night shifts at the hospital as a nurse.", "What shifts do I work?", "night"),
        ("I'm a huge Arsenal fan.", "Which football team do I support?", "Arsenal"),
        ("I've got asthma, so I carry an inhaler.", "Do I have any medical conditions?", "asthma"),
        ("I live in Oslo.", "Where was my old address?", "Oslo"),
    ],
)
def test_answers_to_questions_in_other_words(
    assistant,
    told: str,
    question: str,
    expected: str,  # noqa: ANN001
) -> None:
    chat(assistant, assistant.start_conversation(), told)
    reply = chat(assistant, assistant.start_conversation(), question).text
    assert expected in reply, reply


@pytest.mark.parametrize(
    ("asked", "key", "text"),
    [
        (
            "What instrument am I learning?",
            "learning:cello",
            "User has been learning the cello for two years",
        ),
        ("Which language am I learning?", "learning:korean", "User is learning Korean"),
        ("What sport do I do these days?", "routine:swim", "User swims every morning"),
    ],
)
def test_a_question_naming_a_kind_finds_a_fact_naming_one_of_its_kind(
    asked: str, key: str, text: str
) -> None:
    from datetime import UTC, datetime

    from desktop_agent.core.grounding import select_facts
    from desktop_agent.core.memory_changes import listed
    from desktop_agent.core.memory_model import MemoryItem
    from desktop_agent.core.questions import about_user

    now = datetime.now(UTC)
    item = MemoryItem(
        id="m1", kind="semantic", text=text, created_at=now, updated_at=now, subject_key=key
    )
    other = MemoryItem(
        id="m2",
        kind="semantic",
        text="User works at a bookshop",
        created_at=now,
        updated_at=now,
        subject_key="employer",
    )
    question = about_user(asked)
    assert question is not None
    chosen = select_facts(question, [listed(item), listed(other)])
    assert [r.item.id for r in chosen] == ["m1"]


def test_did_i_use_to_asks_about_the_past() -> None:
    from desktop_agent.core.questions import about_user

    asked = about_user("Which city did I use to live in?")
    assert asked is not None and asked.past


def test_a_pet_of_any_species_answers_what_pet_and_our_asks_too() -> None:
    from datetime import UTC, datetime

    from desktop_agent.core.grounding import select_facts
    from desktop_agent.core.memory_changes import listed
    from desktop_agent.core.memory_model import MemoryItem
    from desktop_agent.core.questions import about_user

    now = datetime.now(UTC)
    pip = MemoryItem(
        id="pip",
        kind="semantic",
        text="User's guinea pig is named Pip",
        created_at=now,
        updated_at=now,
        subject_key="name_of:guinea pig",
    )
    question = about_user("What pet do we have now?")
    assert question is not None
    assert [r.item.id for r in select_facts(question, [listed(pip)])] == ["pip"]
    past = about_user("What was our hamster called?")
    assert past is not None and past.past


def _facts(*pairs: tuple[str, str]):  # noqa: ANN202
    from datetime import UTC, datetime

    from desktop_agent.core.memory_changes import listed
    from desktop_agent.core.memory_model import MemoryItem

    now = datetime.now(UTC)
    return [
        listed(
            MemoryItem(
                id=key, kind="semantic", text=text, created_at=now, updated_at=now, subject_key=key
            )
        )
        for key, text in pairs
    ]


@pytest.mark.parametrize(
    ("asked", "wanted"),
    [
        ("What am I afraid of?", "fear:flying"),
        ("What am I scared of?", "fear:flying"),
        ("How do I get to work?", "routine:commute"),
        ("How did I use to commute?", "routine:commute"),
        ("What does my best friend do?", "person:best friend:job"),
    ],
)
def test_the_tenth_batch_questions_find_their_slot(asked: str, wanted: str) -> None:
    from desktop_agent.core.grounding import select_facts

    found = _facts(
        ("fear:flying", "User is terrified of flying"),
        ("routine:commute", "User takes the bus to work now"),
        ("name_of:best friend", "User's best friend is Marguerite"),
        ("person:best friend:job", "User's best friend is a vet in Nantes"),
        ("person:best friend:home_city", "User's best friend is based in Nantes"),
        ("routine:take train", "User always takes the train"),
    )
    question = about_user(asked)
    assert question is not None
    assert [r.item.subject_key for r in select_facts(question, found)] == [wanted]


def test_what_a_family_calls_its_own_needs_no_my() -> None:
    asked = about_user("Where did grandma live before?")
    assert asked is not None and asked.past
    assert about_user("Where did Ada Lovelace live?") is None


def test_how_do_i_get_to_work_is_about_the_user_but_how_to_requests_are_not() -> None:
    assert about_user("How do I get to work?") is not None
    assert about_user("How do I make pancakes?") is None


def test_what_do_i_do_now_asks_for_advice_not_the_job() -> None:
    from desktop_agent.core.grounding import select_facts

    found = _facts(("job", "User works as a nurse"), ("fear:flying", "User is afraid of flying"))
    for asked, wanted in (("What do I do these days?", ["job"]), ("What do I do now?", [])):
        question = about_user(asked)
        assert question is not None
        assert [r.item.subject_key for r in select_facts(question, found)] == wanted, asked
