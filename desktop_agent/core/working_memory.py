"""Working memory: the current goal, and a summary of the turns that no longer fit.

The bundled model is too weak to summarise reliably, so the summary is extractive: the first
sentence of each older user message, newest kept when space runs out. It keeps the thread of
the conversation without a model call on every turn.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from desktop_agent.core.prompt import CHARS_PER_TOKEN
from desktop_agent.llm import ChatMessage

_SENTENCE_END = re.compile(r"(?<=[.!?])\s")


@dataclass(frozen=True, slots=True)
class WorkingMemory:
    recent: tuple[ChatMessage, ...]
    summary: str
    goal: str


def working_memory(
    history: Sequence[ChatMessage], *, history_tokens: int, goal: str = "", summary_chars: int = 600
) -> WorkingMemory:
    """Keep the most recent turns that fit ``history_tokens``; summarise the rest."""
    room = history_tokens * CHARS_PER_TOKEN
    keep = 0
    for message in reversed(history):
        room -= len(message.content) + 16
        if room < 0:
            break
        keep += 1
    # Never keep a reply without the message it answered.
    while keep and keep < len(history) and history[len(history) - keep].role == "assistant":
        keep -= 1
    older, recent = history[: len(history) - keep], history[len(history) - keep :]
    points = [first_sentence(m.content) for m in older if m.role == "user"]
    kept: list[str] = []
    used = 0
    for point in reversed(points):  # the newest points matter most
        used += len(point) + 2
        if used > summary_chars:
            break
        kept.insert(0, point)
    summary = "the user said: " + "; ".join(kept) if kept else ""
    return WorkingMemory(tuple(recent), summary, goal)


def first_sentence(text: str, limit: int = 160) -> str:
    sentence = _SENTENCE_END.split(" ".join(text.split()), maxsplit=1)[0]
    return sentence if len(sentence) <= limit else sentence[: limit - 1] + "…"
