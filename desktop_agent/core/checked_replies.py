"""Replies the core checks before they are shown: an answer about the user held against the
facts it came from, and a reply held against the user's remembered risks (an allergy, a
medication). Both are produced whole off the caller's thread (``core/guarded.py``)."""

from __future__ import annotations

import threading
from collections.abc import Sequence
from typing import TYPE_CHECKING

from desktop_agent.core.turn import FROM_MEMORY, canned_generation
from desktop_agent.llm import ChatEngine, ChatMessage, Generation, GenerationResult

if TYPE_CHECKING:
    from desktop_agent.core.grounding import GroundedAnswer
    from desktop_agent.core.memory_service import Recollection
    from desktop_agent.core.risks import Risk
    from desktop_agent.llm import GenerationSettings


def with_risks(found: list[Recollection], risks: Sequence[Risk]) -> list[Recollection]:
    """``found`` with the risks' memories first (those recall did not rank already)."""
    from desktop_agent.core.memory_changes import listed

    have = {r.item.id for r in found}
    added = [listed(r.memory) for r in risks if r.memory.id not in have]
    return [*added, *found]


def run_to_end(generation: Generation, cancel: threading.Event) -> GenerationResult:
    """Wait for a whole reply, passing a Stop on to it."""
    while not generation.done:
        if cancel.wait(0.05):
            generation.cancel()
            break
    return generation.result()


def answer_about_user(
    engine: ChatEngine,
    settings: GenerationSettings,
    messages: list[ChatMessage],
    answer: GroundedAnswer,
    answer_mode: str,
) -> Generation:
    """The composed answer; or the model's, when it is capable and its answer holds."""
    if answer_mode != "model" or not answer.known:
        return canned_generation(answer.text, FROM_MEMORY)
    from desktop_agent.core.grounding import check_answer
    from desktop_agent.core.guarded import guarded_generation

    def produce(cancel: threading.Event) -> tuple[str, GenerationResult]:
        result = run_to_end(engine.chat(messages, settings), cancel)
        if result.cancelled or check_answer(result.text, answer):
            return result.text, result
        return answer.text, result

    return guarded_generation(produce)


def risk_checked(
    engine: ChatEngine,
    settings: GenerationSettings,
    messages: list[ChatMessage],
    risks: list[Risk],
    text: str,
) -> Generation:
    """A reply checked against the remembered risks before it is shown: regenerated with
    the risks stated first if it breaks one, else a warning naming the memory appended.
    When the user names what a risk rules out ("would penicillin help?"), a reply that
    does not mention the risk gets a reminder of it."""
    from desktop_agent.core.guarded import guarded_generation
    from desktop_agent.core.risks import (
        denials,
        named_risks,
        reminder,
        risk_instruction,
        violations,
        warning,
    )

    named = named_risks(text, risks)

    def with_reason(reply: str) -> str:
        # Named by the user, or by the reply even to exclude it ("you should not cook
        # shellfish"): the reply says why, or the reminder does.
        spoken = [r for r in risks if r in named or named_risks(reply, [r])]
        # What the user named is answered with the risk itself; what the reply names is
        # fine when it leaves it out ("peanut-free").
        missing = [
            r for r in spoken if not (r.stated_in(reply) if r in named else r.mentioned_in(reply))
        ]
        return f"{reply.rstrip()}\n\n{reminder(missing)}" if missing else reply

    def produce(cancel: threading.Event) -> tuple[str, GenerationResult]:
        result = run_to_end(engine.chat(messages, settings), cancel)
        if result.cancelled:
            return result.text, result
        # (a reply saying the risk is not so, "you have no allergies", breaks it too)
        if not violations(result.text, risks) and not denials(result.text, risks):
            return with_reason(result.text), result
        system = f"{risk_instruction(risks)}\n\n{messages[0].content}"
        stated = [ChatMessage("system", system), *messages[1:]]
        retry = run_to_end(engine.chat(stated, settings), cancel)
        if retry.cancelled:
            return retry.text, retry
        denied = denials(retry.text, risks)
        broken = [*denied, *(r for r in violations(retry.text, risks) if r not in denied)]
        if not broken:
            return with_reason(retry.text), retry
        return f"{retry.text.rstrip()}\n\n{warning(broken, denied)}", retry

    return guarded_generation(produce)


def denied_line(risks: Sequence[Risk], reply: str) -> str:
    """The warning to follow a streamed reply that says one of ``risks`` is not so ("you have
    no allergies"), else ""."""
    from desktop_agent.core.risks import denials, warning

    denied = denials(reply, risks)
    return warning(denied, denied) if denied else ""
