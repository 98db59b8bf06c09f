"""The real engine with the bundled SmolLM2 model: streaming, cancel, context, templates."""

from __future__ import annotations

import threading
import time
from pathlib import Path

import pytest

from desktop_agent.errors import InputError
from desktop_agent.llm import ChatMessage, Generation, GenerationSettings
from desktop_agent.llm import engine as engine_module
from desktop_agent.llm.engine import LlamaEngine

GREEDY = GenerationSettings(temperature=0.0, max_tokens=40, seed=7)


def ask(text: str) -> list[ChatMessage]:
    return [ChatMessage("system", "You are helpful."), ChatMessage("user", text)]


def test_streams_a_reply_piece_by_piece(engine: LlamaEngine) -> None:
    generation = engine.chat(ask("Name three colours."), GREEDY)

    pieces = list(generation)
    result = generation.result(timeout=60)

    assert len(pieces) > 3
    assert "".join(pieces) == result.text
    assert result.text.strip()
    assert result.completion_tokens > 3
    assert not result.cancelled
    assert result.tokens_per_second > 0


def test_greedy_decoding_is_repeatable(engine: LlamaEngine) -> None:
    first = engine.chat(ask("What is the capital of France?"), GREEDY).result(timeout=60)
    second = engine.chat(ask("What is the capital of France?"), GREEDY).result(timeout=60)

    assert first.text == second.text


def test_cancel_mid_stream_stops_and_engine_stays_usable(engine: LlamaEngine) -> None:
    long_reply = GenerationSettings(temperature=0.0, max_tokens=400, seed=1)
    generation = engine.chat(ask("Write a long story about a dragon."), long_reply)

    received = []
    for piece in generation:
        received.append(piece)
        if len(received) == 5:
            generation.cancel()
    result = generation.result(timeout=60)

    assert result.cancelled
    assert result.finish_reason == "cancelled"
    assert 5 <= result.completion_tokens < 50
    after = engine.chat(ask("Say hello."), GREEDY).result(timeout=60)
    assert after.text.strip() and not after.cancelled


def test_cancel_during_prompt_processing(engine: LlamaEngine) -> None:
    # About 1,900 prompt tokens: long enough that processing takes a noticeable time.
    long_prompt = ask("Summarise this: " + "the quick brown fox jumps over the lazy dog " * 190)
    started = time.perf_counter()
    full = engine.chat(long_prompt, GenerationSettings(temperature=0.0, max_tokens=1)).result(
        timeout=120
    )
    full_time = time.perf_counter() - started
    engine.chat(ask("Reset the cache."), GREEDY).result(timeout=60)  # avoid prefix-cache reuse

    generation = engine.chat(long_prompt, GenerationSettings(temperature=0.0, max_tokens=50))
    threading.Timer(0.02, generation.cancel).start()
    started = time.perf_counter()
    result = generation.result(timeout=120)
    cancelled_time = time.perf_counter() - started

    assert full.prompt_tokens > 1500
    assert result.cancelled
    assert result.completion_tokens == 0
    assert cancelled_time < full_time
    after = engine.chat(ask("Say hello."), GREEDY).result(timeout=60)
    assert after.text.strip()


class CountingEvent(threading.Event):
    """A cancel flag that counts how often it is checked."""

    def __init__(self) -> None:
        super().__init__()
        self.checks = 0

    def is_set(self) -> bool:
        self.checks += 1
        return super().is_set()


def test_cancel_flag_is_checked_per_token_not_per_graph_node(
    engine: LlamaEngine, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Given a generation whose cancel flag counts its checks
    flags: list[CountingEvent] = []

    def counting_generation() -> Generation:
        generation = Generation()
        generation.cancel_event = CountingEvent()
        flags.append(generation.cancel_event)
        return generation

    monkeypatch.setattr(engine_module, "Generation", counting_generation)
    # When it generates 64 tokens
    settings = GenerationSettings(temperature=0.0, max_tokens=64, seed=1)
    result = engine.chat(ask("Write a long story about a dragon."), settings).result(timeout=60)
    # Then llama.cpp's abort callback (one check per graph node, about 600 per token) ran only
    # for the prompt, and the token loop checked the flag a few times per token
    assert result.completion_tokens == 64
    assert flags[0].checks < 64 * 600 / 4
    # and cancel still interrupts prompt processing (test_cancel_during_prompt_processing)


def test_long_conversation_drops_oldest_turns_to_fit(model_path: Path) -> None:
    history = [ChatMessage("system", "You are helpful.")]
    for i in range(30):
        history.append(ChatMessage("user", f"Tell me fact number {i} about the sea and its tides."))
        history.append(
            ChatMessage("assistant", f"Fact {i}: the sea is salty and the tides follow the moon.")
        )
    history.append(ChatMessage("user", "Thanks! What is 2 plus 2?"))

    with LlamaEngine(model_path, n_ctx=512) as small:
        result = small.chat(history, GenerationSettings(temperature=0.0, max_tokens=64)).result(
            timeout=60
        )
        kept = small.count_prompt_tokens(history[:1] + history[1 + result.dropped_messages :])

    assert result.dropped_messages > 0
    assert result.dropped_messages % 2 == 0  # whole exchanges, never half of one
    assert result.prompt_tokens + 64 <= 512
    assert kept == result.prompt_tokens
    assert result.text.strip()


def test_message_longer_than_the_context_is_a_clear_error(model_path: Path) -> None:
    with LlamaEngine(model_path, n_ctx=256) as small:
        generation = small.chat(ask("word " * 600), GREEDY)
        with pytest.raises(InputError, match="too long for the model's context"):
            generation.result(timeout=60)
        # The engine is still usable after refusing.
        assert small.chat(ask("Hi"), GREEDY).result(timeout=60).text.strip()


def test_chat_template_comes_from_the_gguf_metadata(engine: LlamaEngine) -> None:
    prompt = engine.render_prompt(ask("Hi there"))

    assert "<|im_start|>user\nHi there<|im_end|>" in prompt
    assert prompt.rstrip().endswith("<|im_start|>assistant")
    assert "<|im_start|>" in engine.info.chat_template


def test_chat_template_override(model_path: Path) -> None:
    template = (
        "{% for m in messages %}[{{ m['role'] | upper }}] {{ m['content'] }}\n{% endfor %}"
        "{% if add_generation_prompt %}[ASSISTANT] {% endif %}"
    )
    with LlamaEngine(model_path, n_ctx=512, chat_template=template) as custom:
        prompt = custom.render_prompt(ask("Hi there"))
        reply = custom.chat(ask("Hi"), GREEDY).result(timeout=60)

    assert prompt == "[SYSTEM] You are helpful.\n[USER] Hi there\n[ASSISTANT] "
    assert reply.completion_tokens > 0


def test_threads_default_to_physical_cores(engine: LlamaEngine) -> None:
    from desktop_agent.llm.model_file import physical_cores

    assert engine.info.n_threads == physical_cores() >= 1
    assert engine.info.n_ctx == 2048


def test_complete_json_decodes_under_the_schema(engine: LlamaEngine) -> None:
    import json

    from desktop_agent.core.extraction_model import PROMPT, SCHEMA

    raw = engine.complete_json(PROMPT.format(message="I'm allergic to shellfish."), SCHEMA)

    value = json.loads(raw)  # grammar-constrained: always valid JSON of the schema's shape
    assert set(value) >= set(SCHEMA.get("required", []))


def test_model_assisted_extraction_never_loses_what_the_rules_find(engine: LlamaEngine) -> None:
    from desktop_agent.core.extraction import extract
    from desktop_agent.core.extraction_model import ModelAssistedExtractor

    message = "My name is Ana and I'm allergic to shellfish."
    found = ModelAssistedExtractor(engine).extract(message)

    rule_keys = {f.subject_key for f in extract(message)}
    assert rule_keys <= {f.subject_key for f in found}
    assert all(f.text for f in found)


def test_gpu_layers_follow_the_build() -> None:
    from desktop_agent.llm.engine import gpu_layers, gpu_offload

    supported, backend = gpu_offload()
    assert gpu_layers(0) == 0 and gpu_layers(12) == 12
    assert gpu_layers(-1) == (-1 if supported else 0)
    if not supported:
        assert backend == ""


def test_doctor_reports_gpu_offload(capsys) -> None:  # noqa: ANN001
    import json

    from desktop_agent.cli import main

    main(["doctor", "--json"])
    checks = {c["name"]: c for c in json.loads(capsys.readouterr().out)["checks"]}
    gpu = checks["gpu offload"]
    assert gpu["required"] is False
    assert "supported" in gpu["detail"] or "DESKTOP_AGENT_LLAMA_BACKEND" in gpu["detail"]
