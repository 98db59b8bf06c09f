"""Consolidation off the chat's thread: at most one run at a time, errors logged and kept."""

from __future__ import annotations

import logging
import threading
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from desktop_agent.core.memory_service import MemoryService

logger = logging.getLogger(__name__)


class BackgroundConsolidation:
    """Runs ``consolidate(memory)`` on a daemon thread; ``settle`` waits for the last run."""

    def __init__(self) -> None:
        self._running = threading.Lock()
        self._thread: threading.Thread | None = None
        self.last_error: str | None = None

    def start(self, memory: MemoryService) -> threading.Thread | None:
        """Start a run unless one is going (a run asked for meanwhile is folded into it)."""
        if not self._running.acquire(blocking=False):
            return None

        def run() -> None:
            from desktop_agent.core.consolidation import consolidate

            try:
                consolidate(memory)
            except Exception as error:  # never let a background run take the chat down
                self.last_error = str(error)
                logger.exception("consolidation failed")
            finally:
                self._running.release()

        thread = threading.Thread(target=run, name="consolidation", daemon=True)
        thread.start()
        self._thread = thread
        return thread

    def settle(self, timeout: float | None = None) -> bool:
        """Wait for the run, if any; False if it is still running after ``timeout`` seconds."""
        thread = self._thread
        if thread is not None:
            thread.join(timeout)
            return not thread.is_alive()
        return True
