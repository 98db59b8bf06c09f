"""Exact cosine search over a dense float32 matrix held in RAM."""

from __future__ import annotations

import numpy as np
from numpy.typing import NDArray


class VectorIndex:
    """Unit-normalised vectors in one growable matrix; removal swaps the last row in."""

    def __init__(self, dim: int) -> None:
        self.dim = dim
        self._matrix = np.zeros((0, dim), dtype=np.float32)
        self._count = 0

    def __len__(self) -> int:
        return self._count

    @property
    def matrix(self) -> NDArray[np.float32]:
        return self._matrix[: self._count]

    def append(self, vectors: NDArray[np.float32]) -> None:
        vectors = _normalised(np.asarray(vectors, dtype=np.float32).reshape(-1, self.dim))
        needed = self._count + len(vectors)
        if needed > len(self._matrix):
            grown = np.zeros((max(needed, 2 * len(self._matrix), 1024), self.dim), dtype=np.float32)
            grown[: self._count] = self._matrix[: self._count]
            self._matrix = grown
        self._matrix[self._count : needed] = vectors
        self._count = needed

    def set(self, slot: int, vector: NDArray[np.float32]) -> None:
        self._matrix[slot] = _normalised(np.asarray(vector, dtype=np.float32).reshape(1, self.dim))[
            0
        ]

    def swap_remove(self, slot: int) -> None:
        last = self._count - 1
        if slot != last:
            self._matrix[slot] = self._matrix[last]
        self._matrix[last] = 0.0
        self._count = last

    def scores(self, query: NDArray[np.float32]) -> NDArray[np.float32]:
        """Cosine similarity of ``query`` with every stored vector."""
        q = _normalised(np.asarray(query, dtype=np.float32).reshape(1, self.dim))[0]
        scores: NDArray[np.float32] = self.matrix @ q
        return scores


def _normalised(vectors: NDArray[np.float32]) -> NDArray[np.float32]:
    norms = np.linalg.norm(vectors, axis=1, keepdims=True)
    norms[norms == 0] = 1.0
    normalised: NDArray[np.float32] = vectors / norms
    return normalised
