"""Feedback reading quality: what perceive makes of short messages after a reply.

    python bench/feedback_quality.py [--json]   # accuracy per class, tune and scored parts
    python bench/feedback_quality.py --train    # refit the classifier on the tune part only

Labels (tests/data/feedback_labelled.jsonl): positive, content (negative about content), shorter
and longer (negative about length or style), preference (a stated answer style, with the style
expected) and none (not feedback). The scored part is never trained or tuned on. Scores are for
the whole of perceive: rules, then the classifier over all-MiniLM-L6-v2 (the app's embedder);
"rules" is perceive without an embedder.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from collections import defaultdict
from pathlib import Path
from typing import Any

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from desktop_agent.core.feedback import LABELS, is_short, read_by_rules  # noqa: E402
from desktop_agent.core.feedback_model import (  # noqa: E402
    PROBE,
    FeedbackModel,
    examples_digest,
    train,
)
from desktop_agent.core.intent import perceive, reading_of  # noqa: E402

DATA = ROOT / "tests" / "data" / "feedback_labelled.jsonl"
WEIGHTS = ROOT / "desktop_agent" / "core" / "feedback_weights.py"


def load(part: str | None = None) -> list[dict[str, Any]]:
    rows = [json.loads(line) for line in DATA.read_text(encoding="utf-8").splitlines() if line]
    return [r for r in rows if part is None or r["part"] == part]


def predicted(text: str, embedder: Any) -> tuple[str, str | None]:
    reading = reading_of(perceive(text, embedder))
    return reading.label, reading.style


def score(rows: list[dict[str, Any]], embedder: Any) -> dict[str, Any]:
    """Accuracy overall and per class (a preference counts when its style is right too)."""
    per: dict[str, list[int]] = defaultdict(lambda: [0, 0])
    misses = []
    for row in rows:
        label, style = predicted(row["text"], embedder)
        right = label == row["label"] and (label != "preference" or style == row.get("style"))
        per[row["label"]][0] += right
        per[row["label"]][1] += 1
        if not right:
            misses.append({"text": row["text"], "expected": row["label"], "got": label})
    correct = sum(c for c, _ in per.values())
    return {
        "n": len(rows),
        "accuracy": round(correct / len(rows), 3),
        "per_class": {k: round(c / n, 3) for k, (c, n) in sorted(per.items())},
        "misses": misses,
    }


def timing(rows: list[dict[str, Any]], embedder: Any) -> dict[str, Any]:
    """ms per message for perceive with the classifier: over every labelled message, and over
    those the rules leave to the classifier (one embedding each)."""
    perceive("warm up", embedder)
    took, model_took = [], []
    for row in rows:
        start = time.perf_counter()
        perceive(row["text"], embedder)
        ms = (time.perf_counter() - start) * 1000
        took.append(ms)
        if read_by_rules(row["text"]).label == "none" and is_short(row["text"]):
            model_took.append(ms)
    return {"all": _summary(took), "classifier_path": _summary(model_took)}


def _summary(took: list[float]) -> dict[str, float]:
    took = sorted(took)
    return {
        "n": len(took),
        "mean_ms": round(statistics.fmean(took), 2),
        "p95_ms": round(took[int(0.95 * (len(took) - 1))], 2),
        "max_ms": round(took[-1], 2),
    }


def _embedder() -> Any:
    from desktop_agent.embed import SentenceEmbedder

    embedder = SentenceEmbedder(threads=1)  # as in the app
    embedder.load()
    return embedder


def training_rows(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """What the classifier can see: short messages with words (emoji alone are the rules')."""
    from desktop_agent.core.feedback import _strip_emoji

    kept = []
    for row in rows:
        text = _strip_emoji(row["text"])
        if text and "?" not in text and is_short(text):
            kept.append({**row, "text": text})
    return kept


def cross_validate(
    vectors: np.ndarray, labels: list[str], probe: np.ndarray, **params: Any
) -> float:
    """5-fold accuracy of the classifier alone on the tune part (to pick its settings)."""
    order = np.random.default_rng(0).permutation(len(labels))
    right = 0
    for fold in range(5):
        test = set(order[fold::5].tolist())
        train_at = [i for i in range(len(labels)) if i not in test]
        model = train(
            vectors[train_at], [labels[i] for i in train_at], probe_vector=probe, **params
        )
        right += sum(model.label_of(vectors[i])[0] == labels[i] for i in test)
    return right / len(labels)


def fit(embedder: Any) -> dict[str, Any]:
    rows = training_rows(load("tune"))
    texts, labels = [r["text"] for r in rows], [r["label"] for r in rows]
    vectors = embedder.embed(texts)
    probe = embedder.embed([PROBE])[0]
    grid = [{"l2": l2, "threshold": t} for l2 in (1e-4, 1e-3, 1e-2) for t in (0.3, 0.4, 0.5, 0.6)]
    scored = [(cross_validate(vectors, labels, probe, **p), p) for p in grid]
    best_cv, best = max(scored, key=lambda s: (s[0], -s[1]["l2"], s[1]["threshold"]))
    digest = examples_digest((r["label"], r["text"]) for r in load("tune"))
    model = train(vectors, labels, probe_vector=probe, trained_on=digest, **best)
    write_weights(model)
    return {"examples": len(rows), "cv_accuracy": round(best_cv, 3), **best}


def write_weights(model: FeedbackModel) -> None:
    """As a Python module (package data needs no build change), formatted as ruff would."""
    entries = "".join(
        f"    {json.dumps(k)}: {json.dumps(v)},\n" for k, v in model.to_blob().items()
    )
    WEIGHTS.write_text(
        '"""Generated by `bench/feedback_quality.py --train`: do not edit. The feedback '
        "classifier's\nweights, trained on the tune part of tests/data/feedback_labelled.jsonl "
        'with all-MiniLM-L6-v2."""\n\n'
        "from typing import Any\n\n"
        f"MODEL: dict[str, Any] = {{\n{entries}}}\n",
        encoding="utf-8",
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument("--train", action="store_true", help="refit on the tune part")
    args = parser.parse_args()
    embedder = _embedder()
    if args.train:
        print(json.dumps(fit(embedder), indent=2))
        return
    result: dict[str, Any] = {"labels": list(LABELS)}
    for part in ("tune", "scored"):
        rows = load(part)
        result[part] = score(rows, embedder)
        result[part]["rules_only"] = {k: v for k, v in score(rows, None).items() if k != "misses"}
    everything = load()
    result["timing"] = timing(everything, embedder)
    if args.json:
        print(json.dumps(result, indent=2, ensure_ascii=False))
        return
    for part in ("tune", "scored"):
        r = result[part]
        print(
            f"{part}: n={r['n']} accuracy={r['accuracy']} rules only={r['rules_only']['accuracy']}"
        )
        for label, accuracy in r["per_class"].items():
            print(f"  {label:<11} {accuracy}")
        for miss in r["misses"]:
            print(f"  miss: {miss['text']!r} expected {miss['expected']}, got {miss['got']}")
    print(f"timing: {result['timing']}")


if __name__ == "__main__":
    main()
