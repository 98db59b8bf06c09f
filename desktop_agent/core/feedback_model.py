"""The feedback classifier: softmax regression over all-MiniLM-L6-v2 sentence embeddings.

Trained on the tune part of tests/data/feedback_labelled.jsonl by `bench/feedback_quality.py
--train`, which writes its weights into feedback_weights.py (a module: package data would need a
build change, and loading it costs nothing at a turn). The weights only mean something for the
embedder they were trained with: a probe sentence's vector is compared with the one stored at
training time, and any other embedder (the hashing one of unit tests) leaves the rules alone.
"""

from __future__ import annotations

import base64
import hashlib
import logging
import threading
import weakref
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any, Final

import numpy as np
from numpy.typing import NDArray

logger = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class FeedbackModel:
    """Multinomial logistic regression over sentence embeddings."""

    labels: tuple[str, ...]
    weights: NDArray[np.float32]  # (labels, dim)
    bias: NDArray[np.float32]  # (labels,)
    # Below this probability the best feedback label is not trusted: "none".
    threshold: float
    probe: str
    probe_vector: NDArray[np.float32]
    # examples_digest() of what it was trained on: the tests notice a stale model.
    trained_on: str = ""

    def probabilities(self, vectors: NDArray[np.float32]) -> NDArray[np.float32]:
        logits = vectors @ self.weights.T + self.bias
        logits -= logits.max(axis=1, keepdims=True)
        exp = np.exp(logits)
        return np.asarray(exp / exp.sum(axis=1, keepdims=True), dtype=np.float32)

    def label_of(self, vector: NDArray[np.float32]) -> tuple[str, float]:
        """The most likely label and its probability ("none" below the threshold)."""
        probs = self.probabilities(vector[None, :])[0]
        best = int(np.argmax(probs))
        label, confidence = self.labels[best], float(probs[best])
        return ("none" if confidence < self.threshold else label), confidence

    def to_blob(self) -> dict[str, Any]:
        return {
            "labels": list(self.labels),
            "weights": _encode(self.weights),
            "bias": _encode(self.bias),
            "shape": list(self.weights.shape),
            "threshold": self.threshold,
            "probe": self.probe,
            "probe_vector": _encode(self.probe_vector),
            "trained_on": self.trained_on,
        }

    @staticmethod
    def from_blob(blob: dict[str, Any]) -> FeedbackModel:
        shape = tuple(blob["shape"])
        return FeedbackModel(
            tuple(blob["labels"]),
            _decode(blob["weights"]).reshape(shape),
            _decode(blob["bias"]),
            float(blob["threshold"]),
            str(blob["probe"]),
            _decode(blob["probe_vector"]),
            str(blob.get("trained_on", "")),
        )


def _encode(array: NDArray[np.float32]) -> str:
    return base64.b64encode(np.ascontiguousarray(array, dtype="<f4").tobytes()).decode("ascii")


def _decode(text: str) -> NDArray[np.float32]:
    return np.frombuffer(base64.b64decode(text), dtype="<f4").astype(np.float32)


PROBE: Final = "that answer was far too long, thanks"


def examples_digest(examples: Iterable[tuple[str, str]]) -> str:
    """A fingerprint of (label, text) training examples, in any order."""
    lines = sorted(f"{label}\t{text}" for label, text in examples)
    return hashlib.sha256("\n".join(lines).encode("utf-8")).hexdigest()[:16]


def train(
    vectors: NDArray[np.float32],
    labels: Sequence[str],
    *,
    probe_vector: NDArray[np.float32],
    l2: float = 1e-3,
    steps: int = 600,
    rate: float = 2.0,
    threshold: float = 0.4,
    trained_on: str = "",
) -> FeedbackModel:
    """Softmax regression by full-batch gradient descent, classes weighted to balance."""
    names = tuple(sorted(set(labels)))
    index = {name: i for i, name in enumerate(names)}
    y = np.array([index[label] for label in labels])
    onehot = np.eye(len(names), dtype=np.float32)[y]
    counts = onehot.sum(axis=0)
    sample_weight = (len(y) / (len(names) * counts))[y][:, None]
    weights = np.zeros((len(names), vectors.shape[1]), dtype=np.float32)
    bias = np.zeros(len(names), dtype=np.float32)
    model = FeedbackModel(names, weights, bias, threshold, PROBE, probe_vector)
    for _ in range(steps):
        error = (model.probabilities(vectors) - onehot) * sample_weight / len(y)
        weights -= rate * (error.T @ vectors + l2 * weights)
        bias -= rate * error.sum(axis=0)
    return FeedbackModel(names, weights, bias, threshold, PROBE, probe_vector, trained_on)


_model_lock = threading.Lock()
# One verdict per embedder object (weakly held, so that a closed service's embedder goes).
_checked: weakref.WeakKeyDictionary[Any, FeedbackModel | None] = weakref.WeakKeyDictionary()


def model_for(embedder: Any) -> FeedbackModel | None:
    """The shipped classifier, if ``embedder`` is the one it was trained with (checked once
    per embedder with the probe sentence: one embedding)."""
    with _model_lock:
        if embedder in _checked:
            return _checked[embedder]
        model = _shipped_model()
        if model is not None:
            try:
                vector = np.asarray(embedder.embed([model.probe])[0], dtype=np.float32)
            except Exception:
                logger.exception("feedback classifier off: the embedder failed on the probe")
                vector = np.zeros_like(model.probe_vector)
            same = vector.shape == model.probe_vector.shape
            if not same or float(vector @ model.probe_vector) < 0.98:
                logger.info("feedback classifier off: not the embedder it was trained with")
                model = None
        _checked[embedder] = model
        return model


def _shipped_model() -> FeedbackModel | None:
    from desktop_agent.core.feedback_weights import MODEL

    return FeedbackModel.from_blob(MODEL) if MODEL else None
