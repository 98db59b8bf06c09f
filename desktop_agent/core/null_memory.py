"""The memory service when there is no memory: turned off, locked, or unable to open (no
keyring, a busy data dir). The assistant always has a memory service; this one finds nothing,
ignores bookkeeping and refuses every write, as the assistant without memory always did."""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Collection, Iterator
from datetime import datetime
from typing import TYPE_CHECKING, Any, NoReturn

from desktop_agent.errors import InputError

if TYPE_CHECKING:
    from desktop_agent.core.conversation_index import ConversationSummary
    from desktop_agent.core.memory_changes import MemoryChange, Recollection
    from desktop_agent.core.memory_model import MemoryItem, Strategy

LOCKED = "memory is locked: unlock it in Settings to use it"


class NullMemoryService:
    """``MemoryService``'s reads, answered with nothing; its writes, refused with ``reason``."""

    is_open = False  # MemoryService.is_open is True
    embedder = None  # no embedder: intents are told apart by their words alone

    def __init__(self, reason: str = LOCKED) -> None:
        self.reason = reason

    @property
    @contextlib.contextmanager
    def lane(self) -> Iterator[None]:
        """No writes to order: entering the lane does nothing."""
        yield

    def subscribe(self, listener: Callable[[MemoryChange], None]) -> None:
        """Nothing will change: the listener is never called."""

    # --- reads: nothing remembered ---------------------------------------------------------
    def items(self, kind: str | None = None, *, include_inactive: bool = True) -> list[MemoryItem]:
        return []

    def learned_from(self, episode_ids: Collection[str]) -> list[MemoryItem]:
        return []

    def outdated_episodes(self) -> frozenset[str]:
        return frozenset()

    def active_facts(self) -> tuple[MemoryItem, ...]:
        return ()

    def inbox(self) -> list[MemoryItem]:
        return []

    def preferences(self) -> list[MemoryItem]:
        return []

    def strategies(self) -> list[Strategy]:
        return []

    def conversations(self) -> list[ConversationSummary]:
        return []

    def episodes(self, conversation_id: str) -> list[MemoryItem]:
        return []

    def usage(self, memory_id: str) -> tuple[int, datetime | None]:
        return 0, None

    def search(self, query: str, **options: Any) -> list[Recollection]:
        return []

    def item(self, memory_id: str) -> NoReturn:
        self._refuse()

    # --- bookkeeping: nothing to keep --------------------------------------------------------
    def mark_used(self, memory_ids: Collection[str]) -> None:
        """No use to count."""

    def flush(self) -> None:
        """Nothing counted in RAM."""

    def close_conversation(self, conversation_id: str) -> None:
        """Nothing of it is stored, so nothing can come back."""

    # --- writes: refused -------------------------------------------------------------------
    def remember(self, text: str, **options: Any) -> NoReturn:
        self._refuse()

    def edit(self, memory_id: str, **changes: Any) -> NoReturn:
        self._refuse()

    def forget(self, memory_ids: Collection[str], **options: Any) -> NoReturn:
        self._refuse()

    def forget_words(self, spans: Any) -> NoReturn:
        self._refuse()

    def forget_preview(self, memory_ids: Collection[str]) -> NoReturn:
        self._refuse()

    def forget_conversation(self, conversation_id: str) -> NoReturn:
        self._refuse()

    def rename_conversation(self, conversation_id: str, title: str) -> NoReturn:
        self._refuse()

    def pin_conversation(self, conversation_id: str, pinned: bool) -> NoReturn:
        self._refuse()

    def set_conversation_instructions(self, conversation_id: str, instructions: str) -> NoReturn:
        self._refuse()

    def record_episode(self, conversation_id: str, user: str, reply: str, **meta: Any) -> NoReturn:
        self._refuse()

    def _refuse(self) -> NoReturn:
        raise InputError(self.reason)
