"""A reasoning model's thinking: ``<think>...</think>`` before its answer. Shown folded, never
remembered: the episode, the conversation history sent back to the model and everything
learned from a turn carry the answer only."""

from __future__ import annotations

import re
from typing import Final

_THINK: Final = re.compile(r"<think>(.*?)(?:</think>|\Z)", re.DOTALL | re.IGNORECASE)


def split_thinking(text: str) -> tuple[str, str]:
    """(thinking, answer): "<think>hmm</think>Paris." -> ("hmm", "Paris."). A reply cut off
    while still thinking has no answer yet."""
    thoughts = [m.group(1).strip() for m in _THINK.finditer(text)]
    if not thoughts:
        return "", text
    answer = _THINK.sub("", text)
    return "\n\n".join(t for t in thoughts if t), answer.strip()
