"""Extraction precision and recall on the project's labelled user messages.

    python bench/extraction_quality.py --json

An extracted item is right when its type and subject_key match a label; for free-text slots
(note, plan, decision, task) the label is "<family>:*" and only the family must match. With the
bundled model, model-assisted extraction is off (its JSON is unreliable), so what runs is the
deterministic extractor: "mode": "deterministic".
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from desktop_agent.core.extraction import ExtractedFact, extract  # noqa: E402

DEFAULT_DATA = ROOT / "tests" / "data" / "extraction_labelled.jsonl"


def matches(label: dict[str, object], fact: ExtractedFact) -> bool:
    key = str(label["subject_key"])
    if label["type"] != fact.type:
        return False
    if key.endswith(":*"):
        return fact.subject_key.startswith(key[:-1])
    return key == fact.subject_key


def score(path: Path = DEFAULT_DATA) -> dict[str, object]:
    counts: Counter[str] = Counter()
    misses, wrong = [], []
    messages = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line]
    for record in messages:
        facts = extract(record["text"])
        labels = list(record["expected"])
        for fact in facts:
            hit = next((label for label in labels if matches(label, fact)), None)
            if hit is None:
                counts["false_positive"] += 1
                wrong.append({"text": record["text"], "got": fact.subject_key})
                continue
            labels.remove(hit)
            counts["true_positive"] += 1
            counts["correction_agrees"] += fact.is_correction == bool(hit.get("correction"))
        counts["false_negative"] += len(labels)
        misses.extend({"text": record["text"], "missed": label["subject_key"]} for label in labels)
        counts["silent_ok"] += not record["expected"] and not facts
        counts["silent_expected"] += not record["expected"]
    tp, fp, fn = counts["true_positive"], counts["false_positive"], counts["false_negative"]
    return {
        "mode": "deterministic",
        "precision": round(tp / (tp + fp), 4) if tp + fp else 1.0,
        "recall": round(tp / (tp + fn), 4) if tp + fn else 1.0,
        "n_messages": len(messages),
        "n_labelled_items": tp + fn,
        "true_positive": tp,
        "false_positive": fp,
        "false_negative": fn,
        "nothing_expected_and_nothing_found": f"{counts['silent_ok']}/{counts['silent_expected']}",
        "correction_flag_accuracy": round(counts["correction_agrees"] / tp, 4) if tp else 1.0,
        "false_positives": wrong,
        "misses": misses,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, default=DEFAULT_DATA)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    result = score(args.data)
    if args.json:
        print(json.dumps(result, indent=2, ensure_ascii=False))
    else:
        for key, value in result.items():
            print(f"{key:>36}: {value}")


if __name__ == "__main__":
    main()
