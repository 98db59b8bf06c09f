"""A deterministic stand-in for the engine, for fast unit tests of the core (as httpx ships
MockTransport). It records every prompt it was given; integration tests use LlamaEngine."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Sequence

from desktop_agent.llm.types import (
    ChatMessage,
    EngineInfo,
    Generation,
    GenerationResult,
    GenerationSettings,
)


class ScriptedEngine:
    """Replies with ``reply(messages)`` (by default an echo of the last message), word by word."""

    def __init__(
        self, reply: Callable[[Sequence[ChatMessage]], str] | None = None, delay: float = 0.0
    ) -> None:
        self.reply = reply or (lambda messages: f"You said: {messages[-1].content}")
        # Seconds per word, so a test can stop a reply half-way.
        self.delay = delay
        self.prompts: list[tuple[ChatMessage, ...]] = []
        self._info = EngineInfo("scripted", "Scripted engine", 4096, 1, "")

    def start(self) -> None:
        return None

    @property
    def info(self) -> EngineInfo:
        return self._info

    def count_tokens(self, text: str) -> int:
        return len(text.split())

    def chat(self, messages: Sequence[ChatMessage], settings: GenerationSettings) -> Generation:
        self.prompts.append(tuple(messages))
        generation = Generation()
        words = self.reply(messages).split(" ")[: settings.max_tokens]

        def produce() -> None:
            pieces = []
            for i, word in enumerate(words):
                if generation.cancel_event.is_set():
                    break
                if self.delay:
                    time.sleep(self.delay)
                pieces.append(word if i == 0 else " " + word)
                generation._emit(pieces[-1])
            text = "".join(pieces)
            cancelled = generation.cancel_event.is_set()
            generation._finish(
                GenerationResult(
                    text,
                    len(messages),
                    len(pieces),
                    0,
                    cancelled,
                    "cancelled" if cancelled else "stop",
                    0.0,
                    0.0,
                )
            )

        threading.Thread(target=produce, daemon=True).start()
        return generation

    def close(self) -> None:
        return None
