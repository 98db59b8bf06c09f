"""Is this a statement about the user or their people, and of which type? A small classifier.

Softmax regression over all-MiniLM-L6-v2 sentence vectors (the app's embedder), trained on the
tuning part of the labelled extraction set (``tests/data/extraction_tune.jsonl``) by
``bench/train_statement_classifier.py`` and committed as ``extraction_classifier.npz``: 7
classes x 384 weights, 11 kB. Classes: "none" (questions, small talk, requests, states of the
moment, facts about the world) and the memory types of the first thing labelled in a message
("fact", "preference", "plan", "risk", "task", "decision").

Extraction asks it one thing: whether a sentence that fits no slot is a lasting fact about the
user ("I'm dyslexic") or small talk ("I'm so bored"). One sentence embeds in about 10 ms.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np
from numpy.typing import NDArray

WEIGHTS = Path(__file__).with_name("extraction_classifier.npz")


class StatementClassifier:
    """Reads sentences with ``embedder`` (the app's all-MiniLM-L6-v2) and the committed weights."""

    def __init__(self, embedder: Any, weights: Path = WEIGHTS) -> None:
        self.embedder = embedder
        with np.load(weights) as data:
            self.classes: tuple[str, ...] = tuple(str(c) for c in data["classes"])
            self.weights: NDArray[np.float32] = data["weights"].astype(np.float32)
            self.bias: NDArray[np.float32] = data["bias"].astype(np.float32)
            self.threshold = float(data["threshold"])

    def probabilities(self, texts: Sequence[str]) -> NDArray[np.float32]:
        vectors = self.embedder.embed(list(texts))
        return softmax(vectors @ self.weights.T + self.bias)

    def classify(self, text: str) -> tuple[str, float]:
        """The most likely class of ``text`` and its probability."""
        row = self.probabilities([text])[0]
        best = int(row.argmax())
        return self.classes[best], float(row[best])

    def is_lasting(self, text: str) -> bool:
        """Whether ``text`` says something about the user worth keeping."""
        none = self.classes.index("none")
        return float(self.probabilities([text])[0][none]) < self.threshold


def softmax(logits: NDArray[np.float32]) -> NDArray[np.float32]:
    shifted = logits - logits.max(axis=1, keepdims=True)
    exp = np.exp(shifted)
    probabilities: NDArray[np.float32] = (exp / exp.sum(axis=1, keepdims=True)).astype(np.float32)
    return probabilities


def fit(
    vectors: NDArray[np.float32],
    labels: Sequence[int],
    n_classes: int,
    *,
    l2: float = 1e-3,
    steps: int = 3000,
    rate: float = 2.0,
) -> tuple[NDArray[np.float32], NDArray[np.float32]]:
    """Softmax regression by full-batch gradient descent (a few hundred examples: a second)."""
    n, dim = vectors.shape
    targets = np.zeros((n, n_classes), dtype=np.float32)
    targets[np.arange(n), labels] = 1.0
    weights = np.zeros((n_classes, dim), dtype=np.float32)
    bias = np.zeros(n_classes, dtype=np.float32)
    for _ in range(steps):
        error = softmax(vectors @ weights.T + bias) - targets
        weights -= rate * (error.T @ vectors / n + l2 * weights)
        bias -= rate * error.mean(axis=0)
    return weights, bias


__all__ = ["WEIGHTS", "StatementClassifier", "fit", "softmax"]
