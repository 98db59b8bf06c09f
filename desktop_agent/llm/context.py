"""Fitting a conversation into the model's context window."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from desktop_agent.errors import InputError
from desktop_agent.llm.types import ChatMessage

# Never leave the model less room than this to answer, even if max_tokens asks for more.
MIN_REPLY_TOKENS = 32


@dataclass(frozen=True, slots=True)
class FittedPrompt:
    messages: tuple[ChatMessage, ...]
    prompt_tokens: int
    max_tokens: int
    dropped_messages: int


def fit_to_context(
    messages: Sequence[ChatMessage],
    count_prompt_tokens: Callable[[Sequence[ChatMessage]], int],
    n_ctx: int,
    max_tokens: int,
) -> FittedPrompt:
    """Drop the oldest turns (never system messages nor the last message) until the prompt and
    the reply fit in ``n_ctx``; shrink the reply budget before giving up.

    Raises InputError when even the system prompt and the last message alone cannot fit.
    """
    if not messages:
        raise InputError("nothing to send: the conversation is empty")
    system = [m for m in messages[:-1] if m.role == "system"]
    history = [m for m in messages[:-1] if m.role != "system"]
    last = messages[-1]
    dropped = 0
    while True:
        candidate = (*system, *history, last)
        used = count_prompt_tokens(candidate)
        room = n_ctx - used
        if room >= min(max_tokens, n_ctx // 4) or (room >= MIN_REPLY_TOKENS and not history):
            return FittedPrompt(candidate, used, min(max_tokens, room), dropped)
        if not history:
            raise InputError(
                f"the message is too long for the model's context window: the prompt needs "
                f"{used} tokens and the context holds {n_ctx}; shorten it or raise the context size"
            )
        # Drop a whole exchange at a time so the model never sees a reply without its question.
        drop = (
            2
            if len(history) >= 2 and history[0].role == "user" and history[1].role == "assistant"
            else 1
        )
        history = history[drop:]
        dropped += drop
