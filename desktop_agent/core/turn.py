"""One reply of the assistant: the streamed ``Turn`` and the finished ``Reply`` it yields."""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from desktop_agent.llm import Generation, GenerationResult

if TYPE_CHECKING:
    from desktop_agent.core.memory_model import MemoryItem
    from desktop_agent.core.memory_service import Recollection
    from desktop_agent.core.reply_versions import ReplyVersions
    from desktop_agent.memory.model import ForgetReceipt


@dataclass(frozen=True, slots=True)
class Reply:
    conversation_id: str
    text: str
    result: GenerationResult
    memories_used: tuple[Recollection, ...] = field(default=())
    learned: tuple[MemoryItem, ...] = field(default=())
    episode_id: str | None = None
    receipt: ForgetReceipt | None = None
    thinking: str = ""  # a reasoning model's <think> part, shown folded, never stored
    # This reply among the versions of its exchange (Regenerate adds one); None for commands.
    versions: ReplyVersions | None = None


class Turn:
    """One streamed reply. Iterate for text pieces (from any one thread), ``cancel()`` from any
    thread, then ``finish()`` for the Reply; reflection happens exactly once, in finish()."""

    def __init__(
        self,
        generation: Generation,
        on_finish: Callable[[GenerationResult], Reply],
        memories_used: tuple[Recollection, ...] = (),
    ) -> None:
        self._generation = generation
        self._on_finish = on_finish
        self._reply: Reply | None = None
        self._lock = threading.Lock()
        # Known before the first token: the GUI can show the memory lens while streaming.
        self.memories_used = memories_used

    def __iter__(self) -> Iterator[str]:
        return iter(self._generation)

    def cancel(self) -> None:
        self._generation.cancel()

    @property
    def cancelled(self) -> bool:
        return self._generation.cancelled

    def finish(self) -> Reply:
        with self._lock:
            if self._reply is None:
                self._reply = self._on_finish(self._generation.result())
            return self._reply


# finish_reason of a reply the core wrote from memory (a grounded answer), not the model.
FROM_MEMORY = "memory"
# How the core opens a quote of the user's own words ("You told me: “...”"); the model never
# has one to give.
QUOTE_OPENING = "You told me"


def canned_generation(text: str, finish_reason: str = "stop") -> Generation:
    """A finished Generation holding ``text``: replies the model does not write (commands,
    answers composed from memory)."""
    generation = Generation()
    generation._emit(text)
    generation._finish(GenerationResult(text, 0, 0, 0, False, finish_reason, 0.0, 0.0))
    return generation
