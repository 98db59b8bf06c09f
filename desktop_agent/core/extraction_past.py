"""Statements told as the past: "I used to be a bank teller", "I used to live in Glasgow before
moving to London". ``extraction`` reads what the present would say ("I'm a bank teller") with
its rules and keeps the facts as the slot's history (``ExtractedFact.past``), so "what did I do
before?" has an answer and the current value stays; "before moving to London" also says where
the user lives now.
"""

from __future__ import annotations

import re
from typing import Final

_USED_TO: Final = re.compile(r"^i\s+used\s+to\s+(?:(?P<verb>be)\s+)?(?P<rest>\w.*)$", re.IGNORECASE)
_BEFORE_MOVING: Final = re.compile(r"\bbefore\s+(?:moving|relocating)\s+(to\s+[A-Z].*)$")


def as_present(clause: str) -> str | None:
    """ "I used to be a bank teller" -> "I'm a bank teller"; None for any other clause."""
    found = _USED_TO.match(clause)
    if found is None:
        return None
    return f"I'm {found['rest']}" if found["verb"] else f"I {found['rest']}"


def moved_since(present: str) -> str | None:
    """ "I live in Glasgow before moving to London" -> "I moved to London"."""
    found = _BEFORE_MOVING.search(present)
    return f"I moved {found[1]}" if found else None


__all__ = ["as_present", "moved_since"]
