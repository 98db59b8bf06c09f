"""Extraction precision and recall on the project's labelled user messages, by part and kind.

    python bench/extraction_quality.py --json [--embedder]

Two parts: ``tests/data/extraction_tune.jsonl``, which the rules were tuned on, and
``tests/data/extraction_scored.jsonl``, written at the same time and only scored. An extracted
item is right when its type and subject_key match a label (for free-text slots the label is
"<family>:*" and only the family must match), it is about the labelled person, and its negation
agrees. Recall per kind counts the labels of each kind of message found; for the kind
"negative" (questions, hypotheticals, small talk, facts about the world) it is the share of
messages that yielded nothing. ``extraction_ms_*`` time one ``extract`` call per message after
the parser is loaded. ``--embedder`` registers the app's embedder for the statement classifier.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from collections import Counter, defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from desktop_agent.core.extraction import ExtractedFact, extract  # noqa: E402

DATA = ROOT / "tests" / "data"
PARTS = {"tune": DATA / "extraction_tune.jsonl", "scored": DATA / "extraction_scored.jsonl"}


def matches(label: dict[str, object], fact: ExtractedFact) -> bool:
    key = str(label["subject_key"])
    if label["type"] != fact.type:
        return False
    if bool(label.get("negated")) != fact.negated:
        return False
    if str(label.get("person", "")) != fact.person:
        return False
    if key.endswith(":*"):
        return fact.subject_key.startswith(key[:-1])
    return key == fact.subject_key


def load(path: Path) -> list[dict[str, object]]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line]


def score(path: Path = PARTS["scored"]) -> dict[str, object]:
    counts: Counter[str] = Counter()
    by_kind: dict[str, Counter[str]] = defaultdict(Counter)
    misses, wrong, timings = [], [], []
    messages = load(path)
    for record in messages:
        started = time.perf_counter()
        facts = extract(str(record["text"]))
        timings.append((time.perf_counter() - started) * 1000)
        labels = list(record["expected"])  # type: ignore[call-overload]
        kind = str(record.get("kind", ""))
        by_kind[kind]["labels"] += len(labels)
        for fact in facts:
            hit = next((label for label in labels if matches(label, fact)), None)
            if hit is None:
                counts["false_positive"] += 1
                wrong.append({"text": record["text"], "got": fact.subject_key, "as": fact.text})
                continue
            labels.remove(hit)
            counts["true_positive"] += 1
            by_kind[kind]["found"] += 1
            counts["correction_agrees"] += fact.is_correction == bool(hit.get("correction"))
        counts["false_negative"] += len(labels)
        misses.extend({"text": record["text"], "missed": label["subject_key"]} for label in labels)
        if not record["expected"]:
            by_kind[kind]["labels"] += 1
            by_kind[kind]["found"] += not facts
    tp, fp, fn = counts["true_positive"], counts["false_positive"], counts["false_negative"]
    return {
        "precision": round(tp / (tp + fp), 4) if tp + fp else 1.0,
        "recall": round(tp / (tp + fn), 4) if tp + fn else 1.0,
        "n_messages": len(messages),
        "n_labelled_items": tp + fn,
        "true_positive": tp,
        "false_positive": fp,
        "false_negative": fn,
        "recall_by_kind": {
            kind: f"{c['found']}/{c['labels']}" for kind, c in sorted(by_kind.items())
        },
        "correction_flag_accuracy": round(counts["correction_agrees"] / tp, 4) if tp else 1.0,
        "extraction_ms_p50": round(statistics.median(timings), 2),
        "extraction_ms_p95": round(sorted(timings)[int(len(timings) * 0.95) - 1], 2),
        "false_positives": wrong,
        "misses": misses,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--part", choices=[*PARTS, "both"], default="both")
    parser.add_argument("--embedder", action="store_true", help="use the statement classifier")
    args = parser.parse_args()
    from desktop_agent import nlp

    started = time.perf_counter()
    nlp.warm()
    result: dict[str, object] = {
        "parser": nlp.MODEL if nlp.available() else None,
        "parser_load_s": round(time.perf_counter() - started, 2),
        "classifier": "patterns and grammar",
    }
    if args.embedder:
        from desktop_agent.core.extraction_fallback import use_embedder
        from desktop_agent.embed.embedder import SentenceEmbedder

        embedder = SentenceEmbedder(threads=1)
        embedder.load()
        use_embedder(embedder)
        result["classifier"] = "all-MiniLM-L6-v2 statement classifier"
    for part, path in PARTS.items():
        if args.part in (part, "both"):
            result[part] = score(path)
    if args.json:
        print(json.dumps(result, indent=2, ensure_ascii=False))
    else:
        for part in PARTS:
            if part in result:
                summary = {
                    k: v for k, v in result[part].items() if k not in ("misses", "false_positives")
                }  # type: ignore[union-attr]
                print(part, json.dumps(summary, ensure_ascii=False))


if __name__ == "__main__":
    main()
