"""Whether anything consolidation cares about changed since this service's last run.

The watch lives on the memory service (``MemoryService.consolidation_watch``), one per
service, and follows its changes like any listener: a run finding nothing changed since the
last one returns at once, which lets the app call it every few turns.
"""

from __future__ import annotations

import threading
from typing import TYPE_CHECKING

from desktop_agent.core.memory_model import SEMANTIC, TOPIC

if TYPE_CHECKING:
    from desktop_agent.core.memory_changes import MemoryChange
    from desktop_agent.memory.vault import Vault


class ConsolidationWatch:
    """Whether anything semantic changed since the last run in this process (``clean``)."""

    def __init__(self, vault: Vault) -> None:
        self.vault = vault
        self.clean = False
        # One run at a time per service: a background run and a rebuild after a forget would
        # otherwise both create the same missing topic.
        self.running = threading.RLock()
        # Semantic and topic ids at the end of the last run: an edit may turn one into an episode.
        self.known: frozenset[str] = frozenset()
        # True while a run tells the listeners what it wrote: its own changes call for no run.
        self.own = False

    def follow(self, change: MemoryChange) -> None:
        """A listener on the service: a change to a semantic or topic memory, or any forget,
        makes the next run do its work."""
        if self.own:
            return
        ids = (*change.added, *change.edited)
        if change.forgotten or any(
            i in self.known or self.vault.kind_of(i) in (SEMANTIC, TOPIC) for i in ids
        ):
            self.clean = False
