"""Building the prompt: the system message, what memory contributes, and the answer style.

Each memory kind gets its own token budget so that one kind (say, long episodes) cannot crowd
out another (the user's stated facts). Tokens are estimated from characters: counting them
exactly would need a round trip to the engine's thread on every turn.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from desktop_agent.core.memory_model import EPISODIC, SEMANTIC, MemoryItem
from desktop_agent.core.memory_service import Recollection
from desktop_agent.llm import ChatMessage

if TYPE_CHECKING:
    from desktop_agent.core.assistant_setup import AssistantSetup
    from desktop_agent.core.conversation import Conversation

CHARS_PER_TOKEN = 4

# A recalled memory goes into the prompt only when it shares a keyword with the message or is
# this close in meaning, and scores at least this share of the best hit. Measured with
# all-MiniLM-L6-v2: "What food should I avoid?" / "User is allergic to peanuts" 0.254,
# "Where do I live?" / "User lives in Lisbon" 0.326; unrelated pairs 0.04-0.24 ("What is the
# capital of France?" / "User lives in Lisbon" 0.239).
MIN_COSINE = 0.25
RELATIVE_RECALL_FLOOR = 0.3


@dataclass(frozen=True, slots=True)
class PromptBudget:
    """Tokens of the prompt each memory kind may take."""

    semantic: int = 300
    episodic: int = 300
    working: int = 200


STYLES = {
    "concise": "Answer briefly and directly.",
    "detailed": "Answer thoroughly, with explanations and examples.",
    "step_by_step": "Answer as short numbered steps.",
}


@dataclass(frozen=True, slots=True)
class BuiltPrompt:
    system: str
    injected: tuple[Recollection, ...]


def build_system_prompt(
    base: str,
    recollections: Sequence[Recollection],
    *,
    style: str = "concise",
    working_summary: str = "",
    goal: str = "",
    budget: PromptBudget | None = None,
) -> BuiltPrompt:
    """The system message for one turn, and the memories that made it in (the memory lens)."""
    budget = budget or PromptBudget()
    parts = [base, STYLES.get(style, STYLES["concise"])]
    injected: list[Recollection] = []
    facts = _fit(
        [r for r in recollections if r.item.kind == SEMANTIC and r.item.active],
        budget.semantic,
        lambda r: f"- {_as_fact(r.item.text)}",
    )
    if facts:
        parts.append("Facts you remember about the user:\n" + "\n".join(line for _, line in facts))
        injected += [r for r, _ in facts]
    # Superseded facts reach a prompt only for a question about the past, dated.
    past = _fit(
        [r for r in recollections if r.item.kind == SEMANTIC and not r.item.active],
        budget.semantic // 2,
        lambda r: f"- {_as_fact(r.item.text)}{_until(r.item)}",
    )
    if past:
        parts.append(
            "No longer true (the facts above replaced them):\n"
            + "\n".join(line for _, line in past)
        )
        injected += [r for r, _ in past]
    episodes = _fit(
        [r for r in recollections if r.item.kind == EPISODIC],
        budget.episodic,
        lambda r: f"- [{r.item.created_at:%d %b %Y}] {_said(r.item)}",
    )
    if episodes:
        parts.append(
            "Earlier conversations that may be relevant:\n"
            + "\n".join(line for _, line in episodes)
        )
        injected += [r for r, _ in episodes]
    if goal:
        parts.append(
            f"The user's current goal: {_clip(goal, budget.working * CHARS_PER_TOKEN // 2)}"
        )
    if working_summary:
        parts.append(
            f"Earlier in this conversation: {_clip(working_summary, budget.working * CHARS_PER_TOKEN)}"
        )
    return BuiltPrompt("\n\n".join(parts), tuple(injected))


def _fit(
    items: Sequence[Recollection], tokens: int, render: Callable[[Recollection], str]
) -> list[tuple[Recollection, str]]:
    """Best-first items whose rendered lines fit in ``tokens``; an item too long is clipped."""
    room = tokens * CHARS_PER_TOKEN
    kept = []
    for item in items:
        line = render(item)
        if len(line) > room:
            if room < 80:
                break
            line = _clip(line, room)
        kept.append((item, line))
        room -= len(line) + 1
        if room <= 0:
            break
    return kept


def _as_fact(text: str) -> str:
    # "The user lives in Lisbon" is what the bundled model most often carries into its answer
    # (measured against "User lives in ..." and second-person phrasings).
    if text.startswith("User ") or text.startswith("User's "):
        return "The u" + text[1:]
    return text


def _said(episode: MemoryItem) -> str:
    """Only the user's words: the assistant's past replies are never evidence about the user
    (a wrong reply quoted back as memory made the next answers repeat it)."""
    if (episode.meta or {}).get("user_end"):
        return f"The user said: “{_one_line(episode.user_text)}”"
    return _one_line(episode.text)


def _until(item: MemoryItem) -> str:
    return f" (until {item.valid_to:%d %b %Y})" if item.valid_to else ""


def _clip(text: str, chars: int) -> str:
    return text if len(text) <= chars else text[: max(chars - 1, 0)].rstrip() + "…"


def _one_line(text: str) -> str:
    return " ".join(text.split())


def relevant(found: list[Recollection]) -> list[Recollection]:
    """Only the hits worth acting on: a weak match costs prompt tokens and misleads a small
    model, and /forget must not offer unrelated memories.

    Fused scores are normalised per query (the best candidate always looks good), so the
    test is on the raw signals: a shared keyword, or a cosine that all-MiniLM-L6-v2 gives
    related sentences; then within reach of the best hit.
    """
    related = [r for r in found if r.hit.keyword_score > 0 or r.hit.vector_score >= MIN_COSINE]
    if not related:
        return []
    floor = RELATIVE_RECALL_FLOOR * related[0].hit.score
    return [r for r in related if r.hit.score >= floor]


def chat_messages(
    setup: AssistantSetup,
    conversation: Conversation,
    text: str,
    recollections: Sequence[Recollection],
    action: str,
) -> tuple[list[ChatMessage], tuple[Recollection, ...]]:
    """The messages sent to the model for ``text``: the system prompt (the assistant's, the
    user's instructions, what memory contributes, the answer style), the recent history within
    its share of the context, and the message; with the recollections that made it in."""
    from desktop_agent.core.working_memory import working_memory

    budget = setup.n_ctx - setup.generation_settings.max_tokens
    working = working_memory(
        conversation.history_for_the_model(),
        history_tokens=max(budget // 2, 256),
        goal=conversation.goal,
    )
    base = setup.system_prompt
    instructions = (conversation.instructions or setup.instructions).strip()
    if instructions:
        base = f"{base}\n\nThe user's instructions for how you answer:\n{instructions}"
    built = build_system_prompt(
        base,
        recollections,
        style=action,
        working_summary=working.summary,
        goal=working.goal,
    )
    messages = [ChatMessage("system", built.system), *working.recent, ChatMessage("user", text)]
    return messages, built.injected
