"""Corrections no rule reads: a sentence that says it changes something, about exactly one
remembered fact, replaces that fact with the user's own clause; news that takes nothing back,
what only adds, and questions leave the memory as it was."""

from __future__ import annotations

import pytest

from desktop_agent.core.assistant import Assistant
from desktop_agent.core.loose_corrections import corrections
from desktop_agent.core.memory_service import MemoryService
from desktop_agent.core.named_people import people_by_name
from tests.core.conftest import told_then_asked


def _found(memory: MemoryService, facts: list[tuple[str, str]], said: str) -> list[tuple[str, str]]:
    for key, text in facts:
        memory.remember(text, subject_key=key)
    people = people_by_name(memory)
    return [(c.old.text, c.text) for c in corrections(said, memory.active_facts(), people=people)]


@pytest.mark.parametrize(
    ("facts", "said", "old", "new"),
    [
        ([("plan:race", "User is training for the Leeds 10k in May")],
         "Update: the Leeds race got moved, it's now on the 14th of June.",
         "User is training for the Leeds 10k in May", "It's now on the 14th of June"),
        ([("phone", "User's phone number is 07700 900123")], "New number: 07700 900456",
         "User's phone number is 07700 900123", "New number"),
        ([("person:wife:birthday", "User's wife Priya's birthday is on the 12th of March")],
         "Correction: Priya's birthday is the 21st of March, not the 12th.",
         "User's wife Priya's birthday is on the 12th of March", "21st of March"),
        ([("routine:choir", "User sings in the choir on Tuesday evenings")],
         "They've switched choir practice to Thursday evenings.",
         "User sings in the choir on Tuesday evenings", "Thursday evenings"),
    ],
)  # fmt: skip
def test_a_sentence_that_changes_one_fact_replaces_it(
    memory: MemoryService, facts: list[tuple[str, str]], said: str, old: str, new: str
) -> None:
    found = _found(memory, facts, said)
    assert len(found) == 1
    assert found[0][0] == old
    assert new in found[0][1]


@pytest.mark.parametrize(
    ("facts", "said"),
    [
        # news about the same thing that takes nothing back
        ([("name_of:dog", "User's dog is named Biscuit")], "Biscuit is poorly now, poor thing."),
        # a name is what the fact is about, not what changed
        ([("name_of:daughter", "User's daughter is named Ananya")],
         "Ananya's school play got moved, it is now on 21st December."),
        # what only adds
        ([("learning", "User is learning guitar")], "I've started learning the drums too now."),
        ([("allergy:cats", "User is allergic to cats")],
         "Turns out I'm also allergic to latex, found out at the dentist."),
        # a question, and a request to forget, change nothing
        ([("home_city", "User lives in Leeds")], "Have I moved to York now?"),
        ([("home_city", "User lives in Leeds")], "Please forget that I moved to Leeds."),
        # what ended, with nothing said instead
        ([("vehicle", "User drives a silver Toyota Corolla")], "Finally traded in the Corolla!"),
        # two facts it could be about
        ([("person:sister:job", "User's sister works at the hospital"),
          ("person:brother:job", "User's brother works at the hospital")],
         "Actually the hospital moved to Salford now."),
    ],
)  # fmt: skip
def test_what_takes_nothing_back_changes_nothing(
    memory: MemoryService, facts: list[tuple[str, str]], said: str
) -> None:
    assert _found(memory, facts, said) == []


def test_the_replaced_fact_is_the_past_and_the_answer_says_the_new_words(
    assistant: Assistant, memory: MemoryService
) -> None:
    told = (
        "I'm a barista at Blue Bottle.|"
        "Long week. I'm not at Blue Bottle anymore, I quit and started as a dental hygienist."
    )
    reply = told_then_asked(assistant, told, "What do I do for work?")
    assert "dental hygienist" in reply and "barista" not in reply
    current = {i.subject_key: i.text for i in memory.active_facts()}
    assert "hygienist" in current["job"]
    past = [i.text for i in memory.items("semantic") if i.status == "superseded"]
    assert "User works as a barista at Blue Bottle" in past


def test_a_correction_said_plainly_replaces_through_the_whole_chat(assistant: Assistant) -> None:
    told = "My phone number is 07700 900123.|New number: 07700 900456"
    reply = told_then_asked(assistant, told, "What's my phone number?")
    assert "900456" in reply and "900123" not in reply


def test_the_new_words_keep_no_copy_of_the_replaced_fact(
    assistant: Assistant, memory: MemoryService
) -> None:
    told = (
        "I'm paying Eir 35 euro a month for my phone.|"
        "Sorted it. Switched to Vodafone, 20 euro a month now and the same unlimited data."
    )
    assert "Vodafone" in told_then_asked(assistant, told, "Who is my phone with now?")
    # (beside "User's network provider is Vodafone", learned by its own rule: stop 33)
    (new,) = [
        i
        for i in memory.active_facts()
        if "Vodafone" in i.text and not i.subject_key.startswith("provider:")
    ]
    old = next(i for i in memory.items("semantic") if "Eir" in i.text)
    assert (new.meta or {}).get("about_id") == old.id
    assert "Eir" not in str(new.meta)  # a link, not the words: forgetting it erases them
