"""Sentence embeddings: the only package that imports sentence_transformers."""

from desktop_agent.embed.embedder import (
    EMBEDDING_DIM,
    Embedder,
    HashingEmbedder,
    SentenceEmbedder,
    bundled_embedder_dir,
)

__all__ = [
    "EMBEDDING_DIM",
    "Embedder",
    "HashingEmbedder",
    "SentenceEmbedder",
    "bundled_embedder_dir",
]
