"""Benchmark the encrypted vault against plain NumPy and a plaintext LanceDB table.

    .venv/bin/python bench/vault.py --json            # 10k and 100k memories
    .venv/bin/python bench/vault.py --sizes 10000     # quicker

Data: 384-d random unit vectors and synthetic texts; half the memories are episodic turns in
conversations of ten (one data key per conversation), half semantic (one data key each), so
unlock opens about 0.55 x N data keys. Keys live in an in-memory keyring (the bench never
touches the real one). Timings are wall-clock on whatever else the machine is doing. ``unlock_s`` is the normal
unlock (from the encrypted snapshot); ``unlock_full_s`` decrypts row by row.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import shutil
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from desktop_agent.memory import NewMemory, Vault  # noqa: E402
from desktop_agent.secrets import KeyringKeySource  # noqa: E402
from desktop_agent.secrets.memory_backend import InMemoryKeyring  # noqa: E402

DIM = 384
WORDS = (
    "hike dog coffee mountain book rain music garden travel paris work meeting sister birthday "
    "project deadline recipe pasta bike train lisbon doctor appointment gift movie piano chess "
    "python report budget holiday beach camera photo river forest tea morning evening weekend"
).split()


def unit_vectors(n: int, seed: int) -> np.ndarray:
    vectors = np.random.default_rng(seed).standard_normal((n, DIM)).astype(np.float32)
    vectors /= np.linalg.norm(vectors, axis=1, keepdims=True)
    return vectors


def texts(n: int, seed: int) -> list[str]:
    rng = np.random.default_rng(seed)
    picks = rng.integers(0, len(WORDS), size=(n, 12))
    return [" ".join(WORDS[j] for j in row) + f" #{i}" for i, row in enumerate(picks)]


def items(vectors: np.ndarray, bodies: list[str], start: int) -> list[NewMemory]:
    out = []
    for offset, (vector, text) in enumerate(zip(vectors, bodies, strict=True)):
        i = start + offset
        if i % 2 == 0:
            out.append(NewMemory("episodic", text, vector, conversation_id=f"conv-{i // 20}"))
        else:
            out.append(NewMemory("semantic", text, vector, meta={"salience": 0.5, "type": "fact"}))
    return out


def percentiles(samples: list[float]) -> tuple[float, float]:
    ordered = sorted(samples)
    return statistics.median(ordered), ordered[min(len(ordered) - 1, int(0.95 * len(ordered)))]


def timed(fn: Callable[[], object], repeat: int) -> list[float]:
    out = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        out.append(time.perf_counter() - start)
    return out


def numpy_top(matrix: np.ndarray, query: np.ndarray, k: int) -> np.ndarray:
    scores = matrix @ (query / np.linalg.norm(query))
    best = np.argpartition(-scores, k - 1)[:k]
    return best[np.argsort(-scores[best])]


def run_size(n: int, root: Path, queries: np.ndarray, lancedb_queries: int) -> dict[str, float]:
    tag = f"{n // 1000}k"
    source = KeyringKeySource(InMemoryKeyring())
    directory = root / f"vault-{tag}"
    vectors = unit_vectors(n, seed=n)
    bodies = texts(n, seed=n + 1)
    result: dict[str, float] = {}

    with Vault.open(directory, source) as vault:
        start = time.perf_counter()
        for first in range(0, n, 10_000):
            vault.add_many(
                items(vectors[first : first + 10_000], bodies[first : first + 10_000], first)
            )
        result[f"add_bulk_per_s_{tag}"] = n / (time.perf_counter() - start)
        single = 100
        start = time.perf_counter()
        for i in range(single):
            vault.add("semantic", f"single add {i} {bodies[i]}", vector=vectors[i])
        result[f"add_single_per_s_{tag}"] = single / (time.perf_counter() - start)

        start = time.perf_counter()
    result[f"close_with_snapshot_write_s_{tag}"] = time.perf_counter() - start

    # Without the snapshot (first unlock after a crash, or below snapshot.MIN_ROWS): row by row.
    (directory / "snapshot.bin").unlink()
    start = time.perf_counter()
    vault = Vault.open(directory, source)
    result[f"unlock_full_s_{tag}"] = time.perf_counter() - start
    vault.close()  # writes the snapshot again
    unlocks = []
    for attempt in range(3):
        start = time.perf_counter()
        vault = Vault.open(directory, source)
        unlocks.append(time.perf_counter() - start)
        if attempt < 2:
            vault.close()
    result[f"unlock_s_{tag}"] = statistics.median(unlocks)
    result[f"unlock_min_s_{tag}"] = min(unlocks)

    try:
        # Vault and NumPy queries alternate so both see the same load from other processes.
        matrix = np.ascontiguousarray(vectors)
        vector_ms, numpy_ms = [], []
        for q in queries:
            vector_ms += [t * 1000 for t in timed(lambda q=q: vault.search(q, None, 10), 1)]
            numpy_ms += [t * 1000 for t in timed(lambda q=q: numpy_top(matrix, q, 10), 1)]
        result[f"search_p50_ms_{tag}"], result[f"search_p95_ms_{tag}"] = percentiles(vector_ms)
        result[f"numpy_search_p50_ms_{tag}"], result[f"numpy_search_p95_ms_{tag}"] = percentiles(
            numpy_ms
        )
        result[f"search_vs_numpy_p50_{tag}"] = (
            result[f"search_p50_ms_{tag}"] / result[f"numpy_search_p50_ms_{tag}"]
        )
        start = time.perf_counter()
        vault.warm()
        result[f"keyword_index_build_s_{tag}"] = time.perf_counter() - start
        words = [
            " ".join(WORDS[(i * 7 + j) % len(WORDS)] for j in range(3)) for i in range(len(queries))
        ]
        hybrid_ms = [
            t * 1000
            for q, w in zip(queries, words, strict=True)
            for t in timed(lambda q=q, w=w: vault.search(q, w, 10), 1)
        ]
        result[f"hybrid_search_p50_ms_{tag}"], result[f"hybrid_search_p95_ms_{tag}"] = percentiles(
            hybrid_ms
        )

        semantic = [r.id for r in vault.list(kind="semantic")[:3]]
        forget_s = [
            t for memory_id in semantic for t in timed(lambda m=memory_id: vault.forget([m]), 1)
        ]
        result[f"forget_s_{tag}"] = statistics.median(forget_s)
        episodic = vault.list(conversation_id="conv-3")[0].id
        result[f"forget_episodic_with_siblings_s_{tag}"] = timed(
            lambda: vault.forget([episodic]), 1
        )[0]
    finally:
        vault.close()

    result.update(
        lancedb_baseline(root / f"plain-{tag}", vectors, bodies, queries[:lancedb_queries], tag)
    )
    shutil.rmtree(directory, ignore_errors=True)
    return result


def lancedb_baseline(
    path: Path, vectors: np.ndarray, bodies: list[str], queries: np.ndarray, tag: str
) -> dict[str, float]:
    """The same vector searches on a plaintext LanceDB table (flat scan: no ANN index)."""
    import lancedb
    import pyarrow as pa

    db = lancedb.connect(path)
    table = db.create_table(
        "plain",
        pa.table(
            {
                "text": bodies,
                "vector": pa.FixedSizeListArray.from_arrays(pa.array(vectors.reshape(-1)), DIM),
            }
        ),
    )
    samples = [
        t * 1000
        for q in queries
        for t in timed(lambda q=q: table.search(q).metric("cosine").limit(10).to_arrow(), 1)
    ]
    p50, p95 = percentiles(samples)
    shutil.rmtree(path, ignore_errors=True)
    return {f"lancedb_search_p50_ms_{tag}": p50, f"lancedb_search_p95_ms_{tag}": p95}


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--sizes", type=int, nargs="+", default=[10_000, 100_000])
    parser.add_argument("--queries", type=int, default=200)
    parser.add_argument("--lancedb-queries", type=int, default=50)
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    args = parser.parse_args()
    queries = unit_vectors(args.queries, seed=7)
    report: dict[str, object] = {
        "date": datetime.now(UTC).isoformat(timespec="seconds"),
        "machine": f"{platform.machine()}, {os.cpu_count()} cores, {platform.python_implementation()} {platform.python_version()}",
        "queries": args.queries,
    }
    root = Path(tempfile.mkdtemp(prefix="vault-bench-"))
    try:
        for n in args.sizes:
            report.update(run_size(n, root, queries, args.lancedb_queries))
    finally:
        shutil.rmtree(root, ignore_errors=True)
    if args.json:
        print(
            json.dumps(
                {k: round(v, 4) if isinstance(v, float) else v for k, v in report.items()}, indent=2
            )
        )
    else:
        for key, value in report.items():
            print(f"{key:40} {value:.4g}" if isinstance(value, float) else f"{key:40} {value}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
