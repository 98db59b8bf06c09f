"""Engine-neutral types: what the core sends to a chat engine and what comes back."""

from __future__ import annotations

import queue
import threading
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from typing import Literal, Protocol

Role = Literal["system", "user", "assistant"]


@dataclass(frozen=True, slots=True)
class ChatMessage:
    role: Role
    content: str


@dataclass(frozen=True, slots=True)
class GenerationSettings:
    temperature: float = 0.7
    top_p: float = 0.9
    max_tokens: int = 512
    repeat_penalty: float = 1.1
    seed: int = -1


@dataclass(frozen=True, slots=True)
class GenerationResult:
    text: str
    prompt_tokens: int
    completion_tokens: int
    # Conversation turns left out so the prompt fits the context window.
    dropped_messages: int
    cancelled: bool
    finish_reason: str
    time_to_first_token_s: float
    tokens_per_second: float


class Generation:
    """One streamed reply: iterate for text pieces, ``cancel()`` from any thread.

    The engine's worker thread produces into a queue; whoever iterates consumes. ``result()``
    blocks until the reply has finished (or was cancelled) and raises the worker's error, if any.
    """

    _END = object()

    def __init__(self) -> None:
        self.cancel_event = threading.Event()
        self._pieces: queue.SimpleQueue[object] = queue.SimpleQueue()
        self._done = threading.Event()
        self._result: GenerationResult | None = None
        self._error: BaseException | None = None
        self._chunks: list[str] = []

    # --- the worker's side ---
    def _emit(self, piece: str) -> None:
        self._pieces.put(piece)

    def _finish(self, result: GenerationResult | None, error: BaseException | None = None) -> None:
        self._result, self._error = result, error
        self._done.set()
        self._pieces.put(self._END)

    # --- the caller's side ---
    def cancel(self) -> None:
        self.cancel_event.set()

    @property
    def cancelled(self) -> bool:
        return self.cancel_event.is_set()

    @property
    def done(self) -> bool:
        return self._done.is_set()

    def __iter__(self) -> Iterator[str]:
        while True:
            piece = self._pieces.get()
            if piece is self._END:
                self._pieces.put(self._END)  # later iterations end at once too
                return
            assert isinstance(piece, str)
            self._chunks.append(piece)
            yield piece

    def result(self, timeout: float | None = None) -> GenerationResult:
        if not self._done.wait(timeout):
            raise TimeoutError("generation still running")
        if self._error is not None:
            raise self._error
        assert self._result is not None
        return self._result


@dataclass(frozen=True, slots=True)
class EngineInfo:
    model_path: str
    model_name: str
    n_ctx: int
    n_threads: int
    chat_template: str
    metadata: dict[str, str] = field(default_factory=dict)


class ChatEngine(Protocol):
    """What the core needs from a chat engine; `LlamaEngine` is the real one."""

    def start(self) -> None: ...

    def chat(self, messages: Sequence[ChatMessage], settings: GenerationSettings) -> Generation: ...

    def count_tokens(self, text: str) -> int: ...

    @property
    def info(self) -> EngineInfo: ...

    def close(self) -> None: ...
