"""Procedural memory: which way of answering works, per kind of request, learned from feedback.

Each (context, action) pair is one procedural memory counting successes and trials. The
assistant picks the action with the best Laplace-smoothed success rate for the request's
context; with no evidence it uses the default, so a new user sees no experiments.
"""

from __future__ import annotations

from desktop_agent.core.memory_model import PROCEDURAL, Strategy, strategy_from_record
from desktop_agent.core.memory_service import MemoryChange, MemoryService

ACTIONS = ("concise", "detailed", "step_by_step")
DEFAULT_ACTION = "concise"


def choose_action(strategies: list[Strategy], context: str) -> str:
    """The action with the best success rate for ``context``. Untried actions count as even
    odds, so after a failure the next one gets its turn; ties go to the default."""
    rates = dict.fromkeys(ACTIONS, 0.5)
    for strategy in strategies:
        if strategy.context == context and strategy.action in rates:
            rates[strategy.action] = strategy.success_rate
    return max(ACTIONS, key=lambda action: (rates[action], action == DEFAULT_ACTION))


def record_outcome(memory: MemoryService, context: str, action: str, success: bool) -> Strategy:
    """Count one more trial of ``action`` in ``context`` (one vault write)."""
    existing = next(
        (s for s in memory.strategies() if s.context == context and s.action == action), None
    )
    successes = (existing.successes if existing else 0) + int(success)
    total = (existing.total if existing else 0) + 1
    meta = {"context": context, "action": action, "successes": successes, "total": total}
    text = (
        f"For a {context}, answering {action.replace('_', ' ')} worked {successes} of {total} times"
    )
    vault = memory.vault
    if existing is None:
        record = vault.add(PROCEDURAL, text, vector=memory.embedder.embed([text])[0], meta=meta)
    else:
        record = vault.update(existing.id, text=text, meta=meta)
    memory.notify(
        MemoryChange(
            added=() if existing else (str(record.id),),
            edited=(str(record.id),) if existing else (),
        )
    )
    return strategy_from_record(record)
