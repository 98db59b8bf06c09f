"""Statements told as the past: "I used to be a bank teller", "I was a chef before I became a
teacher", "I used to live in Glasgow before moving to London". ``extraction`` reads what the
present would say ("I'm a bank teller") with its rules and keeps the facts as the slot's history
(``ExtractedFact.past``), so "what did I do before?" has an answer and the current value stays;
"before moving to London" and "before I became a teacher" also say what is true now.
"""

from __future__ import annotations

import re
from typing import Final

_USED_TO: Final = re.compile(
    r"^i\s+(?:used\s+to\s+(?:(?P<be>be)\s+)?|(?P<was>was)\s+(?=an?\s))(?P<rest>\w.*)$",
    re.IGNORECASE,
)
_BEFORE_MOVING: Final = re.compile(r"\bbefore\s+(?:moving|relocating)\s+(to\s+[A-Z].*)$")
_BEFORE_BECOMING: Final = re.compile(
    r"\bbefore\s+(?:i\s+)?(?:became|becoming|retrained\s+as|retraining\s+as|qualified\s+as)\s+"
    r"(an?\s+.+)$",
    re.IGNORECASE,
)


# "Before I moved to Glasgow I lived in Dundee": the earlier place, and the move since.
_BEFORE_I_MOVED: Final = re.compile(
    r"^before\s+(?:i\s+moved|moving|i\s+relocated|relocating)\s+(?P<to>to\s+[A-Z][^,]*?)\s*,?\s+"
    r"i\s+(?P<verb>lived|was\s+living|used\s+to\s+live)\s+(?P<rest>\w.*)$",
    re.IGNORECASE,
)
# "I moved from Manchester to Bath last spring": where the user lived, and lives now.
_MOVED_FROM: Final = re.compile(
    r"^(?:[Ii]|[Ww]e)(?:'ve|\s+have)?\s+(?:just\s+|recently\s+|finally\s+)?(?:moved|relocated)\s+"
    r"(?:house\s+)?from\s+(?P<from>[A-Z][\w'’-]*(?:\s+[A-Z][\w'’-]*)*)\s+(?:(?:down|up|over|out|back)\s+)?"
    r"(?P<to>to\s+[A-Z].*)$"
)
# "I lived in Berlin for three years": where the user lived, which is the past.
_LIVED: Final = re.compile(
    r"^(?:[Ii]|[Ww]e)\s+(?:once\s+|previously\s+)?lived\s+(?P<rest>in\s+[A-Z].*)$"
)
# "I retired last year after 30 years as a postman": the career before, and retired now.
_RETIRED_AFTER: Final = re.compile(
    r"^i(?:'ve|\s+have)?\s+retired\b.*?\bafter\s+(?:\w+\s+){0,3}?"
    r"(?:years?|decades?|a\s+(?:long\s+)?career|a\s+lifetime)\s+as\s+(?P<job>an?\s+.+)$",
    re.IGNORECASE,
)


def told_past(clause: str) -> tuple[str, str | None] | None:
    """A clause told as the past: what the present would have said then, and what it says is
    true now, if it does ("Before I moved to Glasgow I lived in Dundee" -> "I live in Dundee",
    "I moved to Glasgow"); None for any other clause."""
    if found := _BEFORE_I_MOVED.match(clause):
        return f"I live {found['rest']}", f"I moved {found['to']}"
    if found := _MOVED_FROM.match(clause):
        return f"I live in {found['from']}", f"I moved {found['to']}"
    if found := _LIVED.match(clause):
        return f"I live {found['rest']}", None
    if found := _RETIRED_AFTER.match(clause):
        return f"I'm {found['job']}", "I'm retired"
    if (now := as_present(clause)) is not None:
        return now, moved_since(now)
    return None


def as_present(clause: str) -> str | None:
    """ "I used to be a bank teller" and "I was a bank teller" -> "I'm a bank teller"; "I used
    to live in Leeds" -> "I live in Leeds"; None for any other clause."""
    found = _USED_TO.match(clause)
    if found is None:
        return None
    return f"I'm {found['rest']}" if found["be"] or found["was"] else f"I {found['rest']}"


def moved_since(present: str) -> str | None:
    """What is true now, said after "before": "... in Glasgow before moving to London" -> "I
    moved to London"; "... a chef for ten years before I became a teacher" -> "I became a
    teacher"."""
    if found := _BEFORE_MOVING.search(present):
        return f"I moved {found[1]}"
    if found := _BEFORE_BECOMING.search(present):
        return f"I became {found[1]}"
    return None


__all__ = ["as_present", "moved_since", "told_past"]
