"""Phrasings from the thirteenth batch of whole-chat scenarios (t135-t146), written before the
rules that read them: a nickname beside the name, an introduction with the age before the job,
where a liked thing is done, a new dentist, a class moved to another day."""

from __future__ import annotations

import pytest

from desktop_agent.core.assistant import Assistant
from desktop_agent.core.extraction_changes import read
from desktop_agent.core.memory_service import MemoryService
from desktop_agent.core.questions import about_user
from tests.core.conftest import chat, facts


@pytest.mark.parametrize(
    ("message", "key", "text"),
    [
        ("My name's Alexandra but everyone calls me Sasha.", "name:nickname",
         "User goes by Sasha"),
        ("My name's Alexandra but everyone calls me Sasha.", "name", "User's name is Alexandra"),
        ("Quick intro: I'm Amara, 38, a GP in Leeds, married to Tunde.", "job",
         "User works as a GP"),
        ("hey im jonah, i work nights as a security guard at the airport", "job",
         "User works as a security guard (nights)"),
        ("I love hiking in the Peak District.", "likes:hiking",
         "User loves hiking in the Peak District"),
        ("I changed dentists, I go to Dr Lindqvist now.", "name_of:dentist",
         "User's dentist is Dr Lindqvist"),
        ("I switched doctors, my new one is Dr Patel.", "name_of:doctor",
         "User's doctor is Dr Patel"),
    ],
)  # fmt: skip
def test_the_thirteenth_batch(message: str, key: str, text: str) -> None:
    assert facts(message).get(key) == text


def test_a_liked_thing_keeps_no_common_noun_place() -> None:
    assert facts("I love swimming in the sea.").get("likes:swimming") == "User loves swimming"


def test_a_thing_moved_to_another_day_is_named_in_the_change() -> None:
    changes = read("The pottery class moved to Thursdays.")
    assert [(c.kind, c.old, c.new) for c in changes] == [("redate", "pottery class", "Thursdays")]
    (plan,) = read("It's been pushed back to June.")
    assert (plan.kind, plan.old) == ("redate", "")


def test_a_weekly_class_moved_to_another_day_keeps_its_place(
    assistant: Assistant, memory: MemoryService
) -> None:
    told = "Every Tuesday evening I go to a pottery class at the community centre."
    chat(assistant, assistant.start_conversation(), told)
    chat(assistant, assistant.start_conversation(), "The pottery class moved to Thursdays.")

    texts = [i.text for i in memory.active_facts() if "pottery" in i.text]
    assert texts == ["Every Thursday evening User goes to a pottery class at the community centre"]


@pytest.mark.parametrize("asked", ["What should you call me?", "What do people call me?"])
def test_what_the_user_is_called_is_about_the_user(asked: str) -> None:
    assert about_user(asked) is not None
