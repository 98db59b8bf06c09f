"""Shapes seen in the blind batches of stop 36 (t1265-t1328), worded apart from them: a new
place of work told as "I'm at X now" a sentence after the user said they left the old one; a
job said with the unit it is done in ("a porter on the night shift at St Mary's")."""

from __future__ import annotations

import pytest

from desktop_agent.core.assistant import Assistant
from tests.core.conftest import facts, told_then_asked


@pytest.mark.parametrize(
    ("message", "key", "text"),
    [
        (
            "so i handed in my notice at the council in may. i'm at Hartley Logistics now, "
            "much shorter commute",
            "employer",
            "User works at Hartley Logistics",
        ),
        (
            "I work as a porter on the night shift at St Mary's",
            "job",
            "User works as a porter on the night shift at St Mary's",
        ),
        (
            "i'm a pharmacist in the hospital dispensary at Northgate Royal",
            "job",
            "User works as a pharmacist in the hospital dispensary at Northgate Royal",
        ),
    ],
)
def test_where_the_user_works_said_around_the_job(message: str, key: str, text: str) -> None:
    assert facts(message).get(key) == text


@pytest.mark.parametrize(
    "message",
    [
        "I'm at Tesco now, need anything?",  # an errand, no talk of work
        "I left the house at six. I'm at Tesco now",
        "work was mad today. I'm at Gatwick now, flight's delayed",  # a trip
        "I'm a chef in a small restaurant at the weekend",
    ],
)
def test_being_somewhere_now_is_no_new_employer(message: str) -> None:
    said = facts(message)
    assert "employer" not in said
    assert "weekend" not in said.get("job", "")


def test_the_new_place_of_work_is_the_answer(assistant: Assistant) -> None:
    reply = told_then_asked(
        assistant,
        "I'm a radiographer at Westbrook Hospital|"
        "big change: i left Westbrook in the summer, the commute was awful. "
        "i'm at Lakeside Imaging now",
        "where do I work these days?",
    )
    assert "Lakeside Imaging" in reply
    assert "Westbrook" not in reply
