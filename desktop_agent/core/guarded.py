"""A reply that is checked before it is shown: produced whole off the caller's thread, then
emitted at once (a streamed reply cannot be taken back once the user has read it)."""

from __future__ import annotations

import dataclasses
import logging
import threading
from collections.abc import Callable

from desktop_agent.llm import Generation, GenerationResult

logger = logging.getLogger(__name__)

Producer = Callable[[threading.Event], tuple[str, GenerationResult]]


def guarded_generation(produce: Producer) -> Generation:
    """A Generation whose text is what ``produce(cancel_event)`` decides, emitted in one piece.

    ``produce`` runs on its own thread and may run the engine several times; Stop sets the
    event it is given.
    """
    outer = Generation()

    def run() -> None:
        try:
            text, result = produce(outer.cancel_event)
        except BaseException as error:  # the reader gets it from result()
            logger.warning("checked reply failed: %s", type(error).__name__)
            outer._finish(None, error)
            return
        if text:
            outer._emit(text)
        outer._finish(
            dataclasses.replace(result, text=text, cancelled=result.cancelled or outer.cancelled)
        )

    threading.Thread(target=run, name="checked-reply", daemon=True).start()
    return outer
