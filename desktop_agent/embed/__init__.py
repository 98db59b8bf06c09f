"""Sentence embeddings: the only package that imports sentence_transformers, torch and
onnxruntime."""

from desktop_agent.embed.embedder import (
    EMBEDDING_DIM,
    Embedder,
    HashingEmbedder,
    SentenceEmbedder,
    bundled_embedder_dir,
)
from desktop_agent.embed.onnx_embedder import OnnxEmbedder, exported_model_path

__all__ = [
    "EMBEDDING_DIM",
    "Embedder",
    "HashingEmbedder",
    "OnnxEmbedder",
    "SentenceEmbedder",
    "bundled_embedder_dir",
    "exported_model_path",
]
