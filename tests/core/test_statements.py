"""The user's own words answer a question no learned fact answers (core/statements.py)."""

from __future__ import annotations

from desktop_agent.core.assistant import Assistant
from desktop_agent.core.memory_model import EPISODIC
from desktop_agent.core.memory_service import MemoryService
from tests.core.conftest import chat

KEY = "I keep the spare key under the blue flowerpot by the door."
DONT_KNOW = "I don't know that yet: you haven't told me."


def test_a_statement_no_fact_was_learned_from_is_quoted_and_linked(
    assistant: Assistant, memory: MemoryService
) -> None:
    chat(assistant, assistant.start_conversation(), f"Busy day. {KEY} Anyway, what's for lunch?")
    assert not any("flowerpot" in i.text for i in memory.items("semantic"))

    reply = chat(assistant, assistant.start_conversation(), "Where do I keep my spare key?")

    assert reply.text == f"You told me: “{KEY}”"
    assert [r.item.kind for r in reply.memories_used] == [EPISODIC]
    assert KEY in reply.memories_used[0].item.user_text


def test_a_question_is_never_quoted_as_the_answer(assistant: Assistant) -> None:
    conversation = assistant.start_conversation()
    chat(assistant, conversation, "Where do I keep my spare key?")

    reply = chat(assistant, conversation, "Where do I keep my spare key?")

    assert reply.text == DONT_KNOW
    assert reply.memories_used == ()


def test_words_sharing_nothing_with_the_question_are_not_an_answer(assistant: Assistant) -> None:
    chat(assistant, assistant.start_conversation(), KEY)

    reply = chat(assistant, assistant.start_conversation(), "What is my dentist called?")

    assert reply.text == DONT_KNOW


def test_what_taught_a_superseded_fact_is_never_quoted(
    assistant: Assistant, memory: MemoryService
) -> None:
    chat(assistant, assistant.start_conversation(), f"I live in Lisbon. {KEY}")
    chat(assistant, assistant.start_conversation(), "Actually, I moved to Porto last month.")
    assert [i.text for i in memory.active_facts() if "live" in i.text] == ["User lives in Porto"]

    reply = chat(assistant, assistant.start_conversation(), "Where do I keep my spare key?")

    # The rest of that message still answers (stop 25); the words of the old fact never do.
    assert "Lisbon" not in reply.text
    assert "flowerpot" in reply.text


def test_a_sentence_naming_a_superseded_value_is_never_quoted(
    assistant: Assistant, memory: MemoryService
) -> None:
    told = "I live in Lisbon. I keep the spare key with my Lisbon neighbour, under her mat."
    chat(assistant, assistant.start_conversation(), told)
    chat(assistant, assistant.start_conversation(), "Actually, I moved to Porto last month.")

    reply = chat(assistant, assistant.start_conversation(), "Where do I keep my spare key?")

    # better unknown than Lisbon
    assert "Lisbon" not in reply.text
    assert reply.text == DONT_KNOW


def test_a_forgotten_span_is_never_quoted(assistant: Assistant, memory: MemoryService) -> None:
    chat(assistant, assistant.start_conversation(), "My sister is called Ana. She keeps bees.")
    sister = [i for i in memory.active_facts() if "Ana" in i.text]
    assert sister
    memory.forget([i.id for i in sister])

    reply = chat(assistant, assistant.start_conversation(), "What is my sister called?")

    assert "Ana" not in reply.text
    assert all("Ana" not in r.item.text for r in reply.memories_used)


def test_forgetting_words_no_fact_holds_erases_just_those_words(
    assistant: Assistant, memory: MemoryService
) -> None:
    told = assistant.start_conversation()
    chat(assistant, told, "Here is my phone number: 07700 900123. I work as a designer.")
    conversation = assistant.start_conversation()

    offer = chat(assistant, conversation, "Delete my phone number please.")
    assert "“Here is my phone number: 07700 900123.”" in offer.text and "yes or no" in offer.text
    done = chat(assistant, conversation, "yes")

    assert done.text.startswith("Forgotten: those words, erased from 1 message")
    said = " ".join(e.text for e in memory.items("episodic"))
    assert "900123" not in said and "I work as a designer" in said
    assert "designer" in chat(assistant, assistant.start_conversation(), "What's my job?").text
    answer = chat(assistant, assistant.start_conversation(), "What's my phone number?")
    assert answer.text == DONT_KNOW


def test_a_forgotten_job_is_not_answered_by_the_city(
    assistant: Assistant, memory: MemoryService
) -> None:
    chat(assistant, assistant.start_conversation(), "I work at Deloitte. I live in Leeds.")
    memory.forget([i.id for i in memory.active_facts() if "Deloitte" in i.text])

    reply = chat(assistant, assistant.start_conversation(), "Where do I work?")

    assert reply.text == DONT_KNOW


def test_news_of_the_users_people_said_without_i_is_quoted_over_the_older_words(
    assistant: Assistant,
) -> None:
    told = "We have twins, Otto and Greta, they're seven and go to Hillcrest Primary."
    chat(assistant, assistant.start_conversation(), told)
    news = "The twins changed schools, they're at Oakfield now."
    chat(assistant, assistant.start_conversation(), news)

    reply = chat(assistant, assistant.start_conversation(), "Which school do my twins go to?")

    assert reply.text == "You told me: “The twins changed schools, they're at Oakfield now.”"


def test_no_sentence_is_quoted_with_a_hole_where_an_old_fact_was(
    assistant: Assistant, memory: MemoryService
) -> None:
    """The whole sentence that taught an outdated fact goes, not just its words."""
    chat(assistant, assistant.start_conversation(), "Wedding mode on, Marco and I live in Milan.")
    chat(assistant, assistant.start_conversation(), "Actually, I moved to Turin last month.")

    reply = chat(assistant, assistant.start_conversation(), "What mode am I in with Marco?")

    assert "Milan" not in reply.text
    assert "Marco and ." not in reply.text
    assert reply.text == DONT_KNOW
