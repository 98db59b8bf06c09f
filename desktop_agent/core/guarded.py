"""A reply that is checked before it is shown: produced whole off the caller's thread, then
emitted at once (a streamed reply cannot be taken back once the user has read it)."""

from __future__ import annotations

import dataclasses
import logging
import threading
from collections.abc import Callable

from desktop_agent.core.turn import QUOTE_OPENING
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


def without_made_up_quote(inner: Generation, instead: str) -> Generation:
    """``inner`` streamed as it comes, unless it opens the way the core quotes the user ("You
    told me: “...”"): the model copies that from the answers earlier in the chat, and what it
    puts in the quotes is made up (asked of a forgotten hallway's colour, "the hallway is now
    in the shape of a rainbow"). Such a reply is replaced by ``instead``. Only the opening is
    held back, until it cannot be that one."""
    outer = Generation()
    outer.cancel_event = inner.cancel_event  # a Stop reaches the model at once

    def run() -> None:
        held, decided, made_up = "", False, False
        try:
            for piece in inner:
                if decided:
                    if not made_up:
                        outer._emit(piece)
                    continue
                held += piece
                opening = held.lstrip()
                if len(opening) >= len(QUOTE_OPENING) or not QUOTE_OPENING.startswith(opening):
                    decided, made_up = True, opening.startswith(QUOTE_OPENING)
                    if not made_up:
                        outer._emit(held)
            result = inner.result()
        except BaseException as error:  # the reader gets it from result()
            outer._finish(None, error)
            return
        if not decided and held:
            made_up = held.lstrip().startswith(QUOTE_OPENING)
            if not made_up:
                outer._emit(held)
        if made_up:
            logger.info("a quote the model made up was replaced")
            outer._emit(instead)
        text = instead if made_up else result.text
        outer._finish(
            dataclasses.replace(result, text=text, cancelled=result.cancelled or outer.cancelled)
        )

    threading.Thread(target=run, name="quote-guard", daemon=True).start()
    return outer


def with_line_after(inner: Generation, line_for: Callable[[str], str]) -> Generation:
    """``inner`` streamed as it comes, then the line ``line_for(whole reply)`` gives, if any,
    after a blank line: a streamed reply cannot be taken back, but the warning that it says a
    remembered risk is not so ("you have no allergies") can follow it."""
    outer = Generation()
    outer.cancel_event = inner.cancel_event  # a Stop reaches the model at once

    def run() -> None:
        try:
            for piece in inner:
                outer._emit(piece)
            result = inner.result()
        except BaseException as error:  # the reader gets it from result()
            outer._finish(None, error)
            return
        line = "" if result.cancelled else line_for(result.text)
        text = result.text
        if line:
            added = f"\n\n{line}" if text.strip() else line
            outer._emit(added)
            text += added
        outer._finish(
            dataclasses.replace(result, text=text, cancelled=result.cancelled or outer.cancelled)
        )

    threading.Thread(target=run, name="line-after", daemon=True).start()
    return outer
