"""Train the statement classifier of ``core/extraction_classifier.py`` on the tuning part.

    python bench/train_statement_classifier.py [--check]

Embeds every message of ``tests/data/extraction_tune.jsonl`` with the app's all-MiniLM-L6-v2,
fits softmax regression (class "none" for messages that should yield nothing, else the type of
their first label), picks the "none" threshold by 5-fold cross-validation (best F0.5 for "worth
keeping": a wrong memory costs more than a missed one), and writes the weights. Never reads the
scored part. ``--check`` prints the cross-validated figures without writing.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from desktop_agent.core.extraction_classifier import WEIGHTS, fit, softmax  # noqa: E402
from desktop_agent.embed.embedder import SentenceEmbedder  # noqa: E402

TUNE = ROOT / "tests" / "data" / "extraction_tune.jsonl"
CLASSES = ("none", "fact", "preference", "plan", "risk", "task", "decision")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true")
    args = parser.parse_args()
    records = [json.loads(line) for line in TUNE.read_text(encoding="utf-8").splitlines() if line]
    labels = np.array(
        [CLASSES.index(r["expected"][0]["type"]) if r["expected"] else 0 for r in records]
    )
    vectors = SentenceEmbedder(threads=1).embed([r["text"] for r in records])
    none_prob = np.zeros(len(records), dtype=np.float32)
    folds = np.arange(len(records)) % 5
    for fold in range(5):
        train, test = folds != fold, folds == fold
        weights, bias = fit(vectors[train], labels[train].tolist(), len(CLASSES))
        none_prob[test] = softmax(vectors[test] @ weights.T + bias)[:, 0]
    keep = labels != 0
    best = (0.0, 0.5)
    for threshold in np.arange(0.2, 0.81, 0.05):
        said = none_prob < threshold
        tp, fp, fn = (said & keep).sum(), (said & ~keep).sum(), (~said & keep).sum()
        precision, recall = tp / max(tp + fp, 1), tp / max(tp + fn, 1)
        f = 1.25 * precision * recall / max(0.25 * precision + recall, 1e-9)
        print(
            f"threshold {threshold:.2f}: precision {precision:.3f} recall {recall:.3f} F0.5 {f:.3f}"
        )
        best = max(best, (float(f), float(threshold)))
    print(
        f"chosen threshold {best[1]:.2f} (cross-validated F0.5 {best[0]:.3f}), {len(records)} messages"
    )
    if args.check:
        return
    weights, bias = fit(vectors, labels.tolist(), len(CLASSES))
    np.savez_compressed(
        WEIGHTS,
        classes=np.array(CLASSES),
        weights=weights.astype(np.float16),
        bias=bias,
        threshold=np.float32(best[1]),
    )
    print(f"wrote {WEIGHTS.relative_to(ROOT)} ({WEIGHTS.stat().st_size} bytes)")


if __name__ == "__main__":
    main()
