"""Shapes from the blind batches (t323-t400), written by helpers who never saw the rules: a
move "from Hobart up to Launceston", a holiday "trip to Japan" changed "instead", and "I said
Durham before but my MA is at Newcastle University"."""

from __future__ import annotations

import pytest

from desktop_agent.core.assistant import Assistant
from desktop_agent.core.extraction_changes import read
from tests.core.conftest import told_then_asked


@pytest.mark.parametrize(
    ("message", "old", "new"),
    [
        ("Big news, we've just moved from Hobart up to Launceston! Boxes everywhere.", "Hobart",
         "Launceston"),
        ("Sorry, I said Durham before but my MA is at Newcastle University.", "Durham",
         "Newcastle University"),
    ],
)  # fmt: skip
def test_a_change_said_in_passing_is_read(message: str, old: str, new: str) -> None:
    assert [(c.old, c.new) for c in read(message) if c.kind == "replace"] == [(old, new)]


@pytest.mark.parametrize(
    ("told", "asked", "answer", "not_said"),
    [
        ("I live in Hobart with my wife.|Big news, we've just moved from Hobart up to "
         "Launceston! Boxes everywhere.", "Where do I live?", "Launceston", "Hobart"),
        ("I'm saving up £3,000 for a trip to Japan next April.|Change of plan on the holiday: "
         "we're going to South Korea instead, the flights were way cheaper.",
         "Where am I going on holiday in April?", "South Korea", "Japan"),
        ("I study at Durham.|Sorry, I said Durham before but "
         "my MA is at Newcastle University.", "Which university am I studying at?",
         "Newcastle", "Durham"),
    ],
)  # fmt: skip
def test_the_answer_says_the_new_value(
    assistant: Assistant, told: str, asked: str, answer: str, not_said: str
) -> None:
    reply = told_then_asked(assistant, told, asked)
    assert answer in reply and not_said not in reply
