"""Throughput of the app's engine against raw llama-cpp-python, same model, prompt and settings.

Runs are interleaved (app, raw, raw, app, ...) so machine noise hits both alike; the figures are
medians. Each run's prompt starts with a fresh tag so neither side reuses a cached prefix.

    python bench/llm_throughput.py [--runs 7] [--max-tokens 128] [--model PATH] [--json]
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path

from desktop_agent.llm import ChatMessage, GenerationSettings
from desktop_agent.llm.engine import LlamaEngine
from desktop_agent.llm.model_file import bundled_model_path, physical_cores

QUESTION = "Explain in a few paragraphs how tides work and why there are two each day."


def messages(run: int) -> list[ChatMessage]:
    return [
        ChatMessage("system", f"Session {run}. You are a helpful assistant."),
        ChatMessage("user", QUESTION),
    ]


def time_app(
    engine: LlamaEngine, run: int, settings: GenerationSettings
) -> tuple[float, float, int]:
    started = time.perf_counter()
    stamps = []
    for _ in engine.chat(messages(run), settings):
        stamps.append(time.perf_counter())
    return rates(started, stamps)


def time_raw(
    llm, prompt_tokens: list[int], settings: GenerationSettings
) -> tuple[float, float, int]:
    started = time.perf_counter()
    stamps = []
    for chunk in llm.create_completion(
        prompt=prompt_tokens,
        max_tokens=settings.max_tokens,
        temperature=settings.temperature,
        top_p=settings.top_p,
        repeat_penalty=settings.repeat_penalty,
        seed=settings.seed,
        stream=True,
    ):
        if chunk["choices"][0].get("finish_reason"):
            break
        if chunk["choices"][0].get("text"):
            stamps.append(time.perf_counter())
    return rates(started, stamps)


def rates(started: float, stamps: list[float]) -> tuple[float, float, int]:
    """(tokens per second after the first, time to first token in ms, pieces)."""
    if len(stamps) < 2:
        return 0.0, 0.0, len(stamps)
    return (len(stamps) - 1) / (stamps[-1] - stamps[0]), (stamps[0] - started) * 1000, len(stamps)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--max-tokens", type=int, default=128)
    parser.add_argument("--model", type=Path, default=None)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    model = args.model or bundled_model_path()
    if model is None:
        print("bench: the bundled model is not installed (make install)", file=sys.stderr)
        return 1

    import llama_cpp

    threads = physical_cores()
    settings = GenerationSettings(
        temperature=0.0, top_p=1.0, max_tokens=args.max_tokens, repeat_penalty=1.1, seed=1
    )
    engine = LlamaEngine(model, n_ctx=4096, n_threads=threads)
    engine.start()
    raw = llama_cpp.Llama(
        model_path=str(model),
        n_ctx=4096,
        n_threads=threads,
        n_threads_batch=threads,
        n_batch=512,
        verbose=False,
    )
    prompts = [
        raw.tokenize(engine.render_prompt(messages(i)).encode(), add_bos=False, special=True)
        for i in range(args.runs + 1)
    ]
    time_app(engine, args.runs, settings)  # warm-up, both sides
    time_raw(raw, prompts[args.runs], settings)

    app_rates, raw_rates, app_ttft, raw_ttft = [], [], [], []
    for run in range(args.runs):
        order = ("app", "raw") if run % 2 == 0 else ("raw", "app")
        for side in order:
            if side == "app":
                rate, ttft, _ = time_app(engine, run, settings)
                app_rates.append(rate)
                app_ttft.append(ttft)
            else:
                rate, ttft, _ = time_raw(raw, prompts[run], settings)
                raw_rates.append(rate)
                raw_ttft.append(ttft)
    engine.close()

    result = {
        "app_tok_s": round(statistics.median(app_rates), 2),
        "raw_tok_s": round(statistics.median(raw_rates), 2),
        "ratio": round(statistics.median(app_rates) / statistics.median(raw_rates), 4),
        "app_ttft_ms": round(statistics.median(app_ttft), 1),
        "raw_ttft_ms": round(statistics.median(raw_ttft), 1),
        "runs": args.runs,
        "max_tokens": args.max_tokens,
        "threads": threads,
        "model": model.name,
    }
    if args.json:
        print(json.dumps(result))
    else:
        for key, value in result.items():
            print(f"{key:>12}: {value}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
