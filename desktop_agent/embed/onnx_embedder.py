"""all-MiniLM-L6-v2 through ONNX Runtime: the same vectors as sentence-transformers (within
1e-4 cosine, checked when the model is exported at install) without importing torch, which
took about 8 s of every process's start and put torch's thread team beside llama.cpp's.

The model is BERT: tokens -> last hidden states; the sentence vector is their mean over the
real tokens (attention mask), normalised to unit length, as the model's pooling config says.
"""

from __future__ import annotations

import sys
import threading
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np
from numpy.typing import NDArray

from desktop_agent.embed.embedder import EMBEDDING_DIM, EmbedderError, bundled_embedder_dir

ONNX_FILE = "all-MiniLM-L6-v2.onnx"
# sentence-transformers' max_seq_length for this model (sentence_bert_config.json).
MAX_TOKENS = 256


def exported_model_path() -> Path:
    """Where install puts the exported model: the venv's shared data."""
    return Path(sys.prefix) / "share" / "desktop-agent" / ONNX_FILE


class OnnxEmbedder:
    dim = EMBEDDING_DIM

    def __init__(
        self,
        onnx_path: Path | None = None,
        model_dir: Path | None = None,
        batch_size: int = 64,
        threads: int = 0,
    ) -> None:
        self.onnx_path = onnx_path or exported_model_path()
        self.model_dir = model_dir or bundled_embedder_dir()
        self.batch_size = batch_size
        self.threads = threads
        self._session: Any = None
        self._tokenizer: Any = None
        self._lock = threading.Lock()

    @staticmethod
    def available(onnx_path: Path | None = None) -> bool:
        path = onnx_path or exported_model_path()
        if not path.exists():
            return False
        try:
            import onnxruntime  # noqa: F401
            import tokenizers  # noqa: F401
        except ImportError:
            return False
        return True

    @property
    def loaded(self) -> bool:
        return self._session is not None

    def load(self) -> None:
        with self._lock:
            if self._session is not None:
                return
            if self.model_dir is None or not self.onnx_path.exists():
                raise EmbedderError(
                    f"the exported embedder {self.onnx_path} is missing: run `make install`"
                )
            import onnxruntime
            from tokenizers import Tokenizer

            options = onnxruntime.SessionOptions()
            if self.threads:
                options.intra_op_num_threads = self.threads
                options.inter_op_num_threads = 1
            self._session = onnxruntime.InferenceSession(
                str(self.onnx_path), options, providers=["CPUExecutionProvider"]
            )
            tokenizer = Tokenizer.from_file(str(self.model_dir / "tokenizer.json"))
            tokenizer.enable_truncation(MAX_TOKENS)
            tokenizer.enable_padding(pad_id=0, pad_token="[PAD]")
            self._tokenizer = tokenizer

    def embed(self, texts: Sequence[str]) -> NDArray[np.float32]:
        self.load()
        if not texts:
            return np.zeros((0, self.dim), dtype=np.float32)
        rows = [self._embed_batch(texts[i : i + self.batch_size])
                for i in range(0, len(texts), self.batch_size)]  # fmt: skip
        return np.concatenate(rows).astype(np.float32)

    def _embed_batch(self, texts: Sequence[str]) -> NDArray[np.float32]:
        # A lone surrogate cannot be tokenised; it carries no meaning anyway.
        clean = [t.encode("utf-8", "replace").decode("utf-8") for t in texts]
        encoded = self._tokenizer.encode_batch(clean)
        ids = np.array([e.ids for e in encoded], dtype=np.int64)
        mask = np.array([e.attention_mask for e in encoded], dtype=np.int64)
        types = np.array([e.type_ids for e in encoded], dtype=np.int64)
        (hidden,) = self._session.run(
            ["last_hidden_state"],
            {"input_ids": ids, "attention_mask": mask, "token_type_ids": types},
        )
        weights = mask[:, :, None].astype(np.float32)
        summed = (hidden * weights).sum(axis=1)
        counts = np.clip(weights.sum(axis=1), 1e-9, None)
        vectors = summed / counts
        norms = np.linalg.norm(vectors, axis=1, keepdims=True)
        normalised: NDArray[np.float32] = (vectors / np.clip(norms, 1e-12, None)).astype(np.float32)
        return normalised
