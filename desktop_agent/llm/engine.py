"""LlamaEngine: one llama.cpp model, owned by one worker thread.

``Llama`` is not thread-safe, so one thread creates it and runs every request; callers get a
``Generation`` to iterate and cancel. Cancel sets an Event that the token loop checks, and the
same Event answers llama.cpp's abort callback, which interrupts prompt processing (a long prompt
can take seconds); after an abort the model state is reset so the next request starts clean.

The abort callback is installed only while the prompt is processed: llama.cpp calls it before
every node of the compute graph, about 600 times per token for the bundled model, and each call
enters Python through ctypes (about 0.3 us), so about 0.2 ms of each 10-15 ms token, with the
other compute thread waiting at the next barrier (issue 10). While tokens are generated the loop
checks the Event between tokens instead.
"""

from __future__ import annotations

import contextlib
import ctypes
import logging
import queue
import threading
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, TypeVar

from desktop_agent.errors import ModelError
from desktop_agent.llm.context import fit_to_context
from desktop_agent.llm.cpu_load import LoadWatch
from desktop_agent.llm.model_file import check_model_file, physical_cores
from desktop_agent.llm.types import (
    ChatMessage,
    EngineInfo,
    Generation,
    GenerationResult,
    GenerationSettings,
)

# Used when a GGUF file carries no chat template (ChatML is the most common convention).
FALLBACK_TEMPLATE = (
    "{% for message in messages %}<|im_start|>{{ message['role'] }}\n"
    "{{ message['content'] }}<|im_end|>\n{% endfor %}"
    "{% if add_generation_prompt %}<|im_start|>assistant\n{% endif %}"
)

_T = TypeVar("_T")


class _Stop:
    """Sentinel job that ends the worker thread."""


class LlamaEngine:
    """The real chat engine. ``start()`` loads the model on the worker thread (blocking until
    loaded, so load errors surface to the caller); ``chat()`` queues a request."""

    def __init__(
        self,
        model_path: Path,
        *,
        n_ctx: int = 4096,
        n_threads: int = 0,
        chat_template: str = "",
        n_batch: int = 512,
        n_gpu_layers: int = -1,
    ) -> None:
        self.model_path = Path(model_path)
        self.n_gpu_layers = n_gpu_layers
        self.n_ctx = n_ctx
        self.n_threads = n_threads or physical_cores()
        # 0 (the default setting) lets each generation take the cores the machine leaves free.
        self.adaptive_threads = n_threads == 0
        self._load_watch: LoadWatch | None = None
        self.last_threads = self.n_threads
        self.template_override = chat_template
        self.n_batch = n_batch
        self._jobs: queue.SimpleQueue[Any] = queue.SimpleQueue()
        self._thread: threading.Thread | None = None
        self._ready = threading.Event()
        self._load_error: BaseException | None = None
        self._llm: Any = None
        self._formatter: Any = None
        self._info: EngineInfo | None = None
        # The Generation being produced; the abort callback reads its cancel flag.
        self._current: Generation | None = None
        self._abort_callback: Any = None
        self._no_abort_callback: Any = None

    # --- lifecycle ---------------------------------------------------------------------------
    def start(self) -> None:
        if self._thread is None:
            check_model_file(self.model_path)
            self._thread = threading.Thread(target=self._run, name="llm-worker", daemon=True)
            self._thread.start()
        self._ready.wait()
        if self._load_error is not None:
            raise self._load_error

    def close(self) -> None:
        if self._thread is not None and self._thread.is_alive():
            if self._current is not None:
                self._current.cancel()
            self._jobs.put(_Stop())
            self._thread.join(timeout=30)
        self._thread = None

    def __enter__(self) -> LlamaEngine:
        self.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    @property
    def info(self) -> EngineInfo:
        self.start()
        assert self._info is not None
        return self._info

    # --- requests ----------------------------------------------------------------------------
    def chat(self, messages: Sequence[ChatMessage], settings: GenerationSettings) -> Generation:
        self.start()
        generation = Generation()
        self._jobs.put(("chat", tuple(messages), settings, generation))
        return generation

    def count_tokens(self, text: str) -> int:
        return self._call(
            lambda: len(
                self._llm.tokenize(
                    text.encode("utf-8", "surrogatepass"), add_bos=False, special=True
                )
            )
        )

    def complete_json(self, prompt: str, schema: dict[str, Any], max_tokens: int = 768) -> str:
        """One reply to ``prompt`` decoded under ``schema`` (llama.cpp turns the JSON schema into
        a grammar), greedy. For model-assisted extraction; callers still validate the result:
        a small model fills a valid shape with wrong content."""

        def run() -> str:
            reply = self._llm.create_chat_completion(
                messages=[{"role": "user", "content": prompt}],
                response_format={"type": "json_object", "schema": schema},
                temperature=0.0,
                max_tokens=max_tokens,
            )
            return str(reply["choices"][0]["message"]["content"] or "")

        return self._call(run)

    def render_prompt(self, messages: Sequence[ChatMessage]) -> str:
        """The exact text the chat template makes of ``messages`` (for tests and debugging)."""
        return self._call(lambda: str(self._render(messages).prompt))

    def count_prompt_tokens(self, messages: Sequence[ChatMessage]) -> int:
        return self._call(lambda: len(self._tokenize_prompt(messages)))

    def _call(self, function: Callable[[], _T]) -> _T:
        """Run ``function`` on the worker thread and wait for its result."""
        self.start()
        box: queue.SimpleQueue[tuple[bool, Any]] = queue.SimpleQueue()
        self._jobs.put(("call", function, box))
        ok, value = box.get()
        if not ok:
            raise value
        result: _T = value
        return result

    # --- the worker thread -------------------------------------------------------------------
    def _run(self) -> None:
        try:
            self._load()
        except BaseException as exc:  # reported to start()'s caller
            self._load_error = exc
            self._ready.set()
            return
        self._ready.set()
        while True:
            job = self._jobs.get()
            if isinstance(job, _Stop):
                break
            if job[0] == "call":
                _, function, box = job
                try:
                    box.put((True, function()))
                except BaseException as exc:
                    box.put((False, exc))
            else:
                _, messages, settings, generation = job
                self._generate(messages, settings, generation)
        self._llm = None

    def _load(self) -> None:
        import llama_cpp
        from llama_cpp.llama_chat_format import Jinja2ChatFormatter

        try:
            self._llm = llama_cpp.Llama(
                model_path=str(self.model_path),
                n_ctx=self.n_ctx,
                n_threads=self.n_threads,
                n_threads_batch=self.n_threads,
                n_batch=self.n_batch,
                n_gpu_layers=gpu_layers(self.n_gpu_layers),
                verbose=False,
            )
        except (ValueError, RuntimeError, OSError) as exc:
            raise ModelError(
                f"cannot load model {self.model_path}: the file is damaged, truncated or not a "
                f"model llama.cpp supports ({exc})"
            ) from None
        # llama.cpp logs routine cache housekeeping to stderr, which would land in the middle of
        # a terminal chat; failures reach the user through our own messages instead. (Set after
        # Llama() because its constructor resets the level.)
        logging.getLogger("llama-cpp-python").setLevel(logging.CRITICAL + 1)
        metadata = dict(self._llm.metadata)
        template = (
            self.template_override or metadata.get("tokenizer.chat_template") or FALLBACK_TEMPLATE
        )
        model = self._llm._model
        eos = model.token_get_text(model.token_eos()) if model.token_eos() >= 0 else ""
        bos = model.token_get_text(model.token_bos()) if model.token_bos() >= 0 else ""
        self._formatter = Jinja2ChatFormatter(template=template, eos_token=eos, bos_token=bos)
        self._install_abort_callback(llama_cpp)
        if self.adaptive_threads:
            self._load_watch = LoadWatch(self.n_threads)
        self._info = EngineInfo(
            model_path=str(self.model_path),
            model_name=metadata.get("general.name") or self.model_path.stem,
            n_ctx=self._llm.n_ctx(),
            n_threads=self.n_threads,
            chat_template=template,
            metadata={k: v for k, v in metadata.items() if k != "tokenizer.chat_template"},
        )

    def _install_abort_callback(self, llama_cpp: Any) -> None:
        def should_abort(_data: Any) -> bool:
            current = self._current
            return current is not None and current.cancel_event.is_set()

        # Keep a reference: ctypes callbacks are freed when garbage collected.
        self._abort_callback = llama_cpp.ggml_abort_callback(should_abort)
        self._no_abort_callback = llama_cpp.ggml_abort_callback()  # a NULL function pointer

    def _watch_cancel(self, watching: bool) -> None:
        """Install the abort callback (for the prompt) or remove it (for the tokens; see the
        module docstring)."""
        import llama_cpp

        callback = self._abort_callback if watching else self._no_abort_callback
        llama_cpp.llama_set_abort_callback(self._llm._ctx.ctx, callback, ctypes.c_void_p(0))

    def _choose_threads(self) -> None:
        """Use the cores other programs leave free (``cpu_load``); a fixed setting is kept."""
        if self._load_watch is None:
            return
        threads = self._load_watch.threads()
        if threads != self.last_threads:
            _set_threads(self._llm, threads)
            self.last_threads = threads

    def _render(self, messages: Sequence[ChatMessage]) -> Any:
        return self._formatter(messages=[{"role": m.role, "content": m.content} for m in messages])

    def _tokenize_prompt(self, messages: Sequence[ChatMessage]) -> list[int]:
        rendered = self._render(messages)
        text = rendered.prompt.encode("utf-8", "surrogatepass")
        tokens: list[int] = self._llm.tokenize(
            text, add_bos=not rendered.added_special, special=True
        )
        return tokens

    def _generate(
        self, messages: Sequence[ChatMessage], settings: GenerationSettings, generation: Generation
    ) -> None:
        self._current = generation
        started = time.perf_counter()
        first_token_at: float | None = None
        pieces: list[str] = []
        completion_tokens = 0
        finish_reason = "stop"
        try:
            fitted = fit_to_context(
                messages, lambda ms: len(self._tokenize_prompt(ms)), self.n_ctx, settings.max_tokens
            )
            prompt = self._tokenize_prompt(fitted.messages)
            self._choose_threads()
            self._watch_cancel(True)
            stream = self._llm.create_completion(
                prompt=prompt,
                max_tokens=fitted.max_tokens,
                temperature=settings.temperature,
                top_p=settings.top_p,
                repeat_penalty=settings.repeat_penalty,
                seed=None if settings.seed < 0 else settings.seed,
                stream=True,
            )
            try:
                for chunk in stream:
                    if completion_tokens == 0:
                        self._watch_cancel(False)  # the prompt is processed
                    if generation.cancel_event.is_set():
                        break
                    choice = chunk["choices"][0]
                    piece = choice.get("text") or ""
                    if choice.get("finish_reason"):
                        finish_reason = choice["finish_reason"]
                        break
                    completion_tokens += 1
                    if first_token_at is None:
                        first_token_at = time.perf_counter()
                    if piece:
                        pieces.append(piece)
                        generation._emit(piece)
            finally:
                stream.close()
                self._watch_cancel(False)
        except RuntimeError as exc:
            # llama_decode returns 2 when the abort callback stopped it.
            if not generation.cancel_event.is_set():
                self._llm.reset()
                self._current = None
                generation._finish(None, ModelError(f"generation failed: {exc}"))
                return
        except BaseException as exc:
            self._current = None
            generation._finish(None, exc)
            return
        cancelled = generation.cancel_event.is_set()
        if cancelled:
            # A decode interrupted half-way leaves the KV cache in an unknown state.
            self._llm.reset()
            finish_reason = "cancelled"
        ended = time.perf_counter()
        decode_time = ended - (first_token_at or ended)
        self._current = None
        generation._finish(
            GenerationResult(
                text="".join(pieces),
                prompt_tokens=len(prompt) if "prompt" in locals() else 0,
                completion_tokens=completion_tokens,
                dropped_messages=fitted.dropped_messages if "fitted" in locals() else 0,
                cancelled=cancelled,
                finish_reason=finish_reason,
                time_to_first_token_s=(first_token_at or ended) - started,
                tokens_per_second=(completion_tokens - 1) / decode_time
                if completion_tokens > 1 and decode_time > 0
                else 0.0,
            )
        )


def _set_threads(llm: Any, threads: int) -> None:
    import llama_cpp

    llama_cpp.llama_set_n_threads(llm._ctx.ctx, threads, threads)


def gpu_offload() -> tuple[bool, str]:
    """Whether this llama.cpp build can offload to a GPU, and which backend it was built with."""
    import llama_cpp

    supported = bool(llama_cpp.llama_supports_gpu_offload())
    info = llama_system_info().upper()
    backend = next(
        (name for name in ("CUDA", "VULKAN", "METAL", "HIP", "SYCL") if name in info), ""
    )
    return supported, backend.lower() if supported else ""


def gpu_layers(setting: int) -> int:
    """llama.cpp's n_gpu_layers for a setting: -1 (automatic) offloads every layer when the
    build supports a GPU, none otherwise; 0 or N as given."""
    if setting >= 0:
        return setting
    supported, _backend = gpu_offload()
    return -1 if supported else 0


def llama_system_info() -> str:
    """llama.cpp's build and CPU feature line (for `doctor`)."""
    import llama_cpp

    with contextlib.suppress(Exception):
        return str(llama_cpp.llama_print_system_info().decode("utf-8", "replace").strip())
    return "unknown"
