"""The embedder without torch: the ONNX export made at install gives the same vectors as
sentence-transformers (within 1e-4 cosine) and the app uses it, so no process imports torch
to embed."""

from __future__ import annotations

import subprocess
import sys

import numpy as np
import pytest

from desktop_agent.embed import OnnxEmbedder, SentenceEmbedder, exported_model_path

SENTENCES = [
    "I moved to Porto last month and work at the children's hospital.",
    "What am I allergic to?",
    "Mum still lives in Naples, she refuses to move.",
    "ok",
    "Ünïcödé, emoji 🙂 and numbers 1234",
    "a much longer message " * 60,
]


@pytest.fixture(scope="module")
def exported() -> None:
    assert OnnxEmbedder.available(), f"run `make install`: {exported_model_path()} is missing"


def test_onnx_vectors_match_sentence_transformers(exported: None) -> None:
    reference = SentenceEmbedder().embed(SENTENCES)
    vectors = OnnxEmbedder(threads=1, batch_size=4).embed(SENTENCES)
    assert vectors.shape == (len(SENTENCES), 384) and vectors.dtype == np.float32
    cosines = np.sum(reference * vectors, axis=1)
    assert float(cosines.min()) >= 1 - 1e-4
    assert np.allclose(np.linalg.norm(vectors, axis=1), 1.0, atol=1e-5)


def test_the_app_embeds_without_importing_torch(exported: None) -> None:
    code = (
        "import sys\n"
        "from desktop_agent.app import App\n"
        "embedder = App().embedder\n"
        "vector = embedder.embed(['where do I live'])\n"
        "assert vector.shape == (1, 384), vector.shape\n"
        "print(type(embedder).__name__, 'torch' in sys.modules)\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=120, check=True
    )
    assert done.stdout.split() == ["OnnxEmbedder", "False"]


def test_a_missing_export_is_a_clear_error(tmp_path) -> None:  # noqa: ANN001
    from desktop_agent.embed.embedder import EmbedderError

    missing = tmp_path / "none.onnx"
    assert not OnnxEmbedder.available(missing)
    with pytest.raises(EmbedderError, match="make install"):
        OnnxEmbedder(missing).embed(["x"])


def test_a_lone_surrogate_is_embedded_not_a_traceback(exported: None) -> None:
    vectors = OnnxEmbedder(threads=1).embed(["caf\udce9 bad", "café bad"])
    assert vectors.shape == (2, 384) and float(vectors[0] @ vectors[1]) > 0.5
