"""Fitting a conversation into the context window, with a token counter we control."""

from __future__ import annotations

from collections.abc import Sequence

import pytest

from desktop_agent.errors import InputError
from desktop_agent.llm import ChatMessage
from desktop_agent.llm.context import fit_to_context


def words(messages: Sequence[ChatMessage]) -> int:
    return sum(len(m.content.split()) + 2 for m in messages)


def conversation(exchanges: int) -> list[ChatMessage]:
    messages = [ChatMessage("system", "be kind")]
    for i in range(exchanges):
        messages += [
            ChatMessage("user", f"question {i} " * 5),
            ChatMessage("assistant", f"answer {i} " * 5),
        ]
    return messages + [ChatMessage("user", "last question")]


def test_everything_kept_when_it_fits() -> None:
    fitted = fit_to_context(conversation(2), words, n_ctx=1000, max_tokens=100)
    assert fitted.dropped_messages == 0
    assert len(fitted.messages) == 6
    assert fitted.max_tokens == 100


def test_oldest_exchanges_dropped_first_and_whole() -> None:
    messages = conversation(10)
    fitted = fit_to_context(messages, words, n_ctx=150, max_tokens=40)

    assert fitted.dropped_messages > 0 and fitted.dropped_messages % 2 == 0
    assert fitted.messages[0].role == "system"
    assert fitted.messages[-1].content == "last question"
    assert fitted.messages[1].role == "user"
    assert fitted.messages[1:] == tuple(messages[1 + fitted.dropped_messages :])
    assert fitted.prompt_tokens + fitted.max_tokens <= 150


def test_reply_budget_shrinks_before_giving_up() -> None:
    messages = [ChatMessage("system", "s"), ChatMessage("user", "w " * 80)]
    fitted = fit_to_context(messages, words, n_ctx=130, max_tokens=500)
    assert 32 <= fitted.max_tokens <= 130 - fitted.prompt_tokens


def test_a_single_message_too_long_is_an_input_error() -> None:
    messages = [ChatMessage("system", "s"), ChatMessage("user", "w " * 500)]
    with pytest.raises(InputError, match="too long"):
        fit_to_context(messages, words, n_ctx=200, max_tokens=50)


def test_empty_conversation_is_an_input_error() -> None:
    with pytest.raises(InputError):
        fit_to_context([], words, n_ctx=200, max_tokens=50)
