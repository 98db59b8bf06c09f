"""Throughput of the app's engine against raw llama-cpp-python, same model, prompt and settings.

Three conditions, each with the load started by the bench so both sides face the same: idle,
one competing busy thread, two (``ratio``, ``loaded_ratio``, ``loaded2_ratio``: app over raw).
The app chooses its threads per generation from the machine's load; raw llama-cpp-python runs at
its default threads (half the CPUs for a token), and a second raw side at every core
(``*_raw_all_tok_s``), so each condition also shows the best fixed thread count
(``*_best_fixed_ratio``: app over the faster raw side). Runs are interleaved (app, raw, raw, app, ...) so machine noise hits both alike; the figures are
medians. Each run's prompt starts with a fresh tag so neither side reuses a cached prefix.

The raw side runs in a child process: two llama.cpp contexts that have both computed in one
process slow each other down about threefold here (each keeps its own OpenMP thread team on the
same two cores), which would measure that clash instead of the app's overhead.

    python bench/llm_throughput.py [--runs 7] [--max-tokens 128] [--model PATH] [--no-embed] [--json]
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


def raw_worker(model: str, settings: GenerationSettings, conn, threads: int | None) -> None:  # noqa: ANN001
    """Child process: a raw Llama at llama-cpp-python's default threads (half the CPUs for a
    token, all of them for the prompt) or at ``threads`` for both, that times one completion per
    prompt it is sent."""
    import llama_cpp

    raw = llama_cpp.Llama(
        model_path=model,
        n_ctx=4096,
        n_batch=512,
        n_threads=threads,
        n_threads_batch=threads,
        verbose=False,
    )
    conn.send("ready")
    while (prompt_text := conn.recv()) is not None:
        tokens = raw.tokenize(prompt_text.encode(), add_bos=False, special=True)
        conn.send(time_raw(raw, tokens, settings))


def busy_loop() -> None:
    """A competing program: one thread that never rests."""
    while True:
        pass


CONDITIONS = {"idle": 0, "loaded": 1, "loaded2": 2}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--max-tokens", type=int, default=128)
    parser.add_argument("--model", type=Path, default=None)
    parser.add_argument(
        "--no-embed", action="store_true", help="skip the after-the-embedder part (torch)"
    )
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    model = args.model or bundled_model_path()
    if model is None:
        print("bench: the bundled model is not installed (make install)", file=sys.stderr)
        return 1

    import multiprocessing

    settings = GenerationSettings(
        temperature=0.0, top_p=1.0, max_tokens=args.max_tokens, repeat_penalty=1.1, seed=1
    )
    engine = LlamaEngine(model, n_ctx=4096)  # threads chosen per generation, as in the app
    engine.start()
    context = multiprocessing.get_context("spawn")
    pipes, workers = {}, []
    for side, threads in (("raw", None), ("raw_all", physical_cores())):
        parent, child = context.Pipe()
        worker = context.Process(
            target=raw_worker, args=(str(model), settings, child, threads), daemon=True
        )
        worker.start()
        parent.recv()
        pipes[side] = parent
        workers.append(worker)
    prompts = [engine.render_prompt(messages(i)) for i in range(args.runs + 1)]

    def raw_run(side: str, run: int) -> tuple[float, float, int]:
        pipes[side].send(prompts[run])
        return pipes[side].recv()

    time_app(engine, args.runs, settings)  # warm-up, every side
    for side in pipes:
        raw_run(side, args.runs)

    result: dict[str, object] = {}
    for name, competing in CONDITIONS.items():
        # The bench starts the load itself, so both sides face the same.
        loads = [context.Process(target=busy_loop, daemon=True) for _ in range(competing)]
        for load in loads:
            load.start()
        time.sleep(0.5 if loads else 0)
        app_rates, raw_rates, raw_all_rates, app_ttft, raw_ttft, threads = [], [], [], [], [], []
        try:
            for run in range(args.runs):
                order = ("app", "raw", "raw_all")
                for side in order if run % 2 == 0 else reversed(order):
                    if side == "app":
                        rate, ttft, _ = time_app(engine, run, settings)
                        app_rates.append(rate)
                        app_ttft.append(ttft)
                        threads.append(engine.last_threads)
                    elif side == "raw":
                        rate, ttft, _ = raw_run(side, run)
                        raw_rates.append(rate)
                        raw_ttft.append(ttft)
                    else:
                        raw_all_rates.append(raw_run(side, run)[0])
        finally:
            for load in loads:
                load.terminate()
                load.join()
        prefix = "" if name == "idle" else f"{name}_"
        app, raw = statistics.median(app_rates), statistics.median(raw_rates)
        result[f"{prefix}app_tok_s"] = round(app, 2)
        result[f"{prefix}raw_tok_s"] = round(raw, 2)
        result[f"{name}_ratio" if prefix else "ratio"] = round(app / raw, 4) if raw else 0.0
        best = max(raw, statistics.median(raw_all_rates))
        result[f"{prefix}raw_all_tok_s"] = round(statistics.median(raw_all_rates), 2)
        result[f"{prefix}best_fixed_ratio"] = round(app / best, 4) if best else 0.0
        result[f"{prefix}app_ttft_ms"] = round(statistics.median(app_ttft), 1)
        result[f"{prefix}raw_ttft_ms"] = round(statistics.median(raw_ttft), 1)
        result[f"{prefix}app_threads"] = statistics.median_low(threads)
    if not args.no_embed:
        # The app also embeds in the same process (recall): its engine must keep its speed after.
        from desktop_agent.app import App

        embedder = App().embedder
        after_embed = []
        for run in range(args.runs):
            embedder.embed([f"question {run}: where do I live?"])
            after_embed.append(time_app(engine, 100 + run, settings)[0])
        result["app_after_embed_tok_s"] = round(statistics.median(after_embed), 2)
        result["after_embed_ratio"] = round(
            statistics.median(after_embed) / float(result["raw_tok_s"]),  # type: ignore[arg-type]
            4,
        )
    engine.close()
    for pipe in pipes.values():
        pipe.send(None)
    for worker in workers:
        worker.join(timeout=30)

    result |= {
        "runs": args.runs,
        "max_tokens": args.max_tokens,
        "cores": physical_cores(),
        "model": model.name,
    }
    if args.json:
        print(json.dumps(result))
    else:
        for key, value in result.items():
            print(f"{key:>22}: {value}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
