"""Recall overhead at 100k memories through the app's real path.

    python bench/recall_speed.py --json       # or: python bench/recall_quality.py --overhead

A real encrypted Vault (temporary folder, in-memory keyring) holds ``n`` memories: 90% imported
history turns (conversations of 50 turns, through ``MemoryService.import_history``) and 10%
semantic facts. Each timed step is what a turn adds before the model sees its prompt:
``MemoryService.search`` (the agent loop's recall: both kinds, limit 10) plus
``core.prompt.build_system_prompt``. The query's embedding is looked up (precomputed) and its
real cost is reported apart as ``query_embedding_ms`` (all-MiniLM-L6-v2, one sentence), since
it depends on the embedder, not on the number of memories.

For comparison the bare ``Recaller`` over the same index (no vault, facts from a dict) runs
interleaved with the service path, query by query, so both see the same machine load; medians
are reported, and minima because the machine is shared. So does the bare Recaller without
pseudo-relevance feedback (``plain_recaller_no_feedback_ms_100k``): what the second pass costs. A third of the questions name a time
("last week"). ``recall_after_write_ms_100k`` is the first recall after a new episode is stored
(what every turn after the first pays).

Vectors are random (embedding 100k texts would take many minutes here and says nothing about
recall's own cost); texts draw 12 words from a 5,000-word vocabulary.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
import time
from collections.abc import Sequence
from datetime import UTC, datetime, timedelta
from pathlib import Path

import numpy as np
from numpy.typing import NDArray

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from desktop_agent.core.history_import import HistoryMessage  # noqa: E402
from desktop_agent.core.memory_service import MemoryService  # noqa: E402
from desktop_agent.core.prompt import build_system_prompt  # noqa: E402
from desktop_agent.core.recall import (  # noqa: E402
    MemoryFacts,
    Recaller,
    RecallWeights,
    neighbour_map,
)
from desktop_agent.core.timeparse import parse_time_window  # noqa: E402
from desktop_agent.memory import Vault  # noqa: E402
from desktop_agent.memory.model import NewMemory  # noqa: E402
from desktop_agent.secrets import KeyringKeySource  # noqa: E402
from desktop_agent.secrets.memory_backend import InMemoryKeyring  # noqa: E402

DIM = 384
BASE = "You are a helpful private assistant running on the user's computer."


class LookupEmbedder:
    """Random unit vectors, fixed per text: the bulk import, and queries precomputed."""

    dim = DIM

    def __init__(self, seed: int) -> None:
        self.rng = np.random.default_rng(seed)
        self.known: dict[str, NDArray[np.float32]] = {}

    def embed(self, texts: Sequence[str]) -> NDArray[np.float32]:
        out = np.empty((len(texts), DIM), np.float32)
        for row, text in enumerate(texts):
            vector = self.known.get(text)
            if vector is None:
                vector = self.rng.standard_normal(DIM).astype(np.float32)
                vector /= np.linalg.norm(vector)
            out[row] = vector
        return out

    def remember(self, texts: Sequence[str]) -> None:
        for text, vector in zip(texts, self.embed(texts), strict=True):
            self.known[text] = vector


def fill(memory: MemoryService, n: int, rng: np.random.Generator, start: datetime) -> None:
    words = np.array([f"w{i}" for i in range(5000)])
    episodes = n * 9 // 10
    batch = 10_000
    for first in range(0, episodes, batch):
        messages = []
        for i in range(first, min(first + batch, episodes)):
            messages.append(
                HistoryMessage(
                    conversation=f"c{i // 50}",
                    id=f"t{i}",
                    speaker=("Ana", "Ben")[i % 2],
                    text=" ".join(rng.choice(words, size=12)),
                    timestamp=start + timedelta(minutes=i),
                    line_number=i + 1,
                )
            )
        memory.import_history(messages)
    facts = n - episodes
    vectors = memory.embedder.embed([f"fact {i}" for i in range(facts)])
    rows = [
        NewMemory(
            "semantic",
            "User " + " ".join(rng.choice(words, size=6)),
            vectors[i],
            meta={"type": "fact", "importance": float(rng.random()), "status": "active"},
            created_at=start + timedelta(minutes=9 * i),
        )
        for i in range(facts)
    ]
    with memory.lane:
        for first in range(0, facts, batch):
            memory.vault.add_many(rows[first : first + batch])


def plain_recaller(memory: MemoryService, weights: RecallWeights | None = None) -> Recaller:
    """The same index with facts from a dict: what recall costs without the service."""
    items = memory.items()
    around = neighbour_map(
        (i.id, i.conversation_id or "", i.created_at) for i in items if i.kind == "episodic"
    )
    facts = {
        i.id: MemoryFacts(
            kind=i.kind,
            created_at=i.created_at,
            importance=i.importance,
            neighbours=around.get(i.id, ()),
            speaker=(i.meta or {}).get("speaker"),
        )
        for i in items
    }
    return Recaller(memory.vault.index, memory.embedder, facts.get, weights)


def measure(n: int = 100_000, queries: int = 30, seed: int = 7) -> dict[str, object]:
    rng = np.random.default_rng(seed)
    embedder = LookupEmbedder(seed)
    start = datetime(2024, 1, 1, tzinfo=UTC)
    now = start + timedelta(minutes=n) + timedelta(days=1)
    words = [f"w{i}" for i in range(5000)]
    questions = []
    for q in range(queries):
        text = " ".join(rng.choice(words, size=6))
        questions.append(text + (" last week" if q % 3 == 0 else ""))
    embedder.remember(questions)
    with tempfile.TemporaryDirectory(prefix="recall-speed-") as folder:
        vault = Vault.open(Path(folder) / "vault", KeyringKeySource(InMemoryKeyring()), dim=DIM)
        try:
            t0 = time.perf_counter()
            memory = MemoryService(vault, embedder, clock=lambda: now)
            fill(memory, n, rng, start)
            vault.warm()
            fill_s = time.perf_counter() - t0
            plain = plain_recaller(memory)
            no_feedback = plain_recaller(memory, RecallWeights(feedback=0.0))
            first_ms = _service_ms(memory, questions[1], now)  # builds neighbours, BM25 caches
            service, bare, bare_no_feedback = [], [], []
            for question in questions:
                service.append(_service_ms(memory, question, now))
                bare.append(_plain_ms(plain, memory, question, now))
                bare_no_feedback.append(_plain_ms(no_feedback, memory, question, now))
            after_write = []
            for k, question in enumerate(questions[:5]):
                memory.record_episode("live", f"hello {k}", "hi")
                after_write.append(_service_ms(memory, question, now))
        finally:
            vault.close()
    embed_ms = _embed_ms()
    median = statistics.median(service)
    return {
        "n_memories": n,
        "recall_overhead_ms_100k": round(median, 2),
        "recall_overhead_ms_100k_p90": round(float(np.percentile(service, 90)), 2),
        "recall_overhead_ms_100k_min": round(min(service), 2),
        "recall_after_write_ms_100k": round(statistics.median(after_write), 2),
        "first_recall_after_unlock_ms_100k": round(first_ms, 2),
        "plain_recaller_ms_100k": round(statistics.median(bare), 2),
        "plain_recaller_ms_100k_min": round(min(bare), 2),
        "plain_recaller_no_feedback_ms_100k": round(statistics.median(bare_no_feedback), 2),
        "plain_recaller_no_feedback_ms_100k_min": round(min(bare_no_feedback), 2),
        "query_embedding_ms": embed_ms,
        "recall_overhead_ms_100k_including_embedding": (
            None if embed_ms is None else round(median + embed_ms, 2)
        ),
        "fill_seconds": round(fill_s, 1),
        "queries": queries,
    }


def _service_ms(memory: MemoryService, question: str, now: datetime) -> float:
    t0 = time.perf_counter()
    found = memory.search(question, limit=10, now=now)
    build_system_prompt(BASE, found)
    return (time.perf_counter() - t0) * 1000


def _plain_ms(recaller: Recaller, memory: MemoryService, question: str, now: datetime) -> float:
    t0 = time.perf_counter()
    with memory.vault.lock:
        index = recaller.index
        recaller.rank(
            index.vector_scores(memory.embedder.embed([question])[0]),
            index.keyword_scores(question),
            limit=10,
            now=now,
            window=parse_time_window(question, now),
            query=question,
        )
    return (time.perf_counter() - t0) * 1000


def _embed_ms() -> float | None:
    try:
        from desktop_agent.embed import SentenceEmbedder

        embedder = SentenceEmbedder()
        embedder.embed(["warm up"])
    except Exception:  # noqa: BLE001 - the overhead figure stands without it
        return None
    times = []
    for i in range(10):
        t0 = time.perf_counter()
        embedder.embed([f"what did I say about the trip to Lisbon last week {i}?"])
        times.append((time.perf_counter() - t0) * 1000)
    return round(statistics.median(times), 2)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument("-n", type=int, default=100_000, help="memories (default 100k)")
    parser.add_argument("--queries", type=int, default=30)
    args = parser.parse_args()
    result = measure(args.n, args.queries)
    if args.json:
        print(json.dumps(result, indent=2))
    else:
        for key, value in result.items():
            print(f"{key:>45}: {value}")


if __name__ == "__main__":
    main()
