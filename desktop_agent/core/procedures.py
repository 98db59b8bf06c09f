"""Procedural memory: which way of answering works, per kind of request, learned from feedback.

Each (context, action) pair is one procedural memory counting successes and trials. The
assistant picks the action with the best Laplace-smoothed success rate for the request's
context; with no evidence it uses the default, so a new user sees no experiments. A style the
user asked for ("keep it short") is a semantic preference and wins over the statistics.

Feedback moves the statistics only when it says something about the style: "too long" is a
failure of the style used and a win for the concise one; "that's wrong" marks the reply's
outcome and leaves the styles alone (a wrong answer would have been as wrong in steps).
"""

from __future__ import annotations

import logging
import threading
import weakref
from typing import Any, Final

from desktop_agent.core.feedback import style_named
from desktop_agent.core.memory_model import (
    PROCEDURAL,
    SEMANTIC,
    MemoryItem,
    Provenance,
    Strategy,
    strategy_from_record,
)
from desktop_agent.core.memory_service import MemoryChange, MemoryService

logger = logging.getLogger(__name__)

ACTIONS = ("concise", "detailed", "step_by_step")
DEFAULT_ACTION = "concise"
# The semantic preference that names the user's answer style: a later one supersedes it.
STYLE_KEY: Final = "answer_style"
STYLE_TEXT: Final = {
    "concise": "User prefers short, direct answers",
    "detailed": "User prefers detailed answers with explanations",
    "step_by_step": "User prefers answers as bullet points or numbered steps",
}
# The outcome an episode is marked with, by what the feedback said.
_STYLE_OUTCOME: Final = {"concise": "too_long", "detailed": "too_short"}


def choose_action(strategies: list[Strategy], context: str, preferred: str | None = None) -> str:
    """The action with the best success rate for ``context``, unless the user stated a
    ``preferred`` style. Untried actions count as even odds, so after a failure the next one
    gets its turn; ties go to the default."""
    if preferred in ACTIONS:
        return str(preferred)
    rates = dict.fromkeys(ACTIONS, 0.5)
    for strategy in strategies:
        if strategy.context == context and strategy.action in rates:
            rates[strategy.action] = strategy.success_rate
    return max(ACTIONS, key=lambda action: (rates[action], action == DEFAULT_ACTION))


def choose_style(memory: MemoryService | None, intent: Any) -> str:
    """The answer style for this turn: the one a length complaint asks for ("more detail
    please" is answered in detail), else the remembered preference, else the statistics for
    the kind of request; the default without memory."""
    wanted = getattr(intent, "style", None)
    if intent.kind == "feedback" and wanted in ACTIONS:
        return str(wanted)
    if memory is None:
        return DEFAULT_ACTION
    return style_for(memory, intent.kind)


def style_for(memory: MemoryService, context: str) -> str:
    """The answer style for a request in ``context``: the remembered preference, else the
    statistics."""
    return choose_action(memory.strategies(), context, remembered_style(memory))


# The preference is looked up on every turn; listing the semantic memories decodes the whole
# vault, so the answer is kept until an answer-style memory is written or something forgotten.
_UNKNOWN: Final = object()
_styles: weakref.WeakKeyDictionary[MemoryService, object] = weakref.WeakKeyDictionary()
_watched: weakref.WeakSet[MemoryService] = weakref.WeakSet()
_styles_lock = threading.Lock()
# Bumped by every invalidation: a lookup that raced with a write does not cache its answer.
_generation = 0


def remembered_style(memory: MemoryService) -> str | None:
    """The answer style the user asked for, from the current answer-style preference (its text
    first, so that an edit in What I know counts)."""
    with _styles_lock:
        cached = _styles.get(memory, _UNKNOWN)
        generation = _generation
        if memory not in _watched:
            _watched.add(memory)
            memory.subscribe(lambda change: _forget_style(memory, change))
    if cached is not _UNKNOWN:
        return cached if isinstance(cached, str) else None
    style = None
    for item in memory.items(SEMANTIC, include_inactive=False):
        if item.subject_key == STYLE_KEY:
            named = style_named(item.text) or (item.meta or {}).get(STYLE_KEY)
            style = named if named in ACTIONS else None
            break
    with _styles_lock:
        if generation == _generation:
            _styles[memory] = style
    return style


def _forget_style(memory: MemoryService, change: MemoryChange) -> None:
    """Drop the cached style when an answer-style memory was written, or anything forgotten
    (rare; the forgotten one's subject is gone with it)."""
    vault = memory.vault

    def names_style(memory_id: str) -> bool:
        if memory_id not in vault or vault.kind_of(memory_id) != SEMANTIC:
            return False
        return vault.get(memory_id).meta.get("subject_key") == STYLE_KEY

    global _generation
    if change.forgotten or any(names_style(i) for i in (*change.added, *change.edited)):
        with _styles_lock:
            _styles.pop(memory, None)
            _generation += 1


def remember_style(
    memory: MemoryService,
    style: str,
    provenance: tuple[Provenance, ...] = (),
    conversation_id: str | None = None,
) -> MemoryItem:
    """Store "answer like this from now on" as the user's answer-style preference; an earlier
    one is superseded (kept in its history). It shows in What I know like any preference."""
    return memory.remember(
        STYLE_TEXT[style],
        type="preference",
        subject_key=STYLE_KEY,
        importance=0.8,
        provenance=provenance,
        reviewed=False,
        conversation_id=conversation_id,
        extra={STYLE_KEY: style},
    )


def record_feedback(
    memory: MemoryService,
    episode_id: str,
    positive: bool,
    about: str = "content",
    style: str | None = None,
) -> MemoryItem:
    """The user's verdict on one reply (typed feedback, or the GUI's thumbs).

    ``about="content"``: the reply's outcome is marked; a positive one also counts as a success
    of the style it was given in, a negative one leaves the styles alone. ``about="style"``: the
    style used counts a failure (or success), and ``style``, the one wanted ("too long" ->
    "concise"), a success. The same verdict given twice on one reply counts once.
    """
    with memory.lane:  # one job: a verdict given twice at once still counts once
        return _record_feedback(memory, episode_id, positive, about, style)


def _record_feedback(
    memory: MemoryService, episode_id: str, positive: bool, about: str, style: str | None
) -> MemoryItem:
    episode = memory.item(episode_id)
    meta = episode.meta or {}
    if about == "style" and not positive:
        outcome = _STYLE_OUTCOME.get(style or "", "wrong_style")
    else:
        outcome = "positive" if positive else "negative"
    if meta.get("outcome") == outcome:
        return episode
    marked = memory.set_outcome(episode_id, outcome)
    context, used = str(meta.get("intent") or ""), str(meta.get("action") or "")
    if not context or used not in ACTIONS:
        return marked
    if positive:
        record_outcome(memory, context, used, True)
    elif about == "style":
        if style != used:
            record_outcome(memory, context, used, False)
        if style in ACTIONS:
            record_outcome(memory, context, str(style), True)
    logger.info("feedback on %s: %s (%s)", episode_id, outcome, about)
    return marked


def record_outcome(memory: MemoryService, context: str, action: str, success: bool) -> Strategy:
    """Count one more trial of ``action`` in ``context`` (one vault write)."""
    with memory.lane:  # read, count and write as one job: two outcomes never lose one
        return _record_outcome(memory, context, action, success)


def _record_outcome(memory: MemoryService, context: str, action: str, success: bool) -> Strategy:
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
