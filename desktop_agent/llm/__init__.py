"""The chat engine: the only package that imports llama_cpp (and only inside engine.py).

Importing this package is cheap: llama_cpp loads when an engine starts.
"""

from desktop_agent.llm.types import (
    ChatEngine,
    ChatMessage,
    Generation,
    GenerationResult,
    GenerationSettings,
)

__all__ = ["ChatEngine", "ChatMessage", "Generation", "GenerationResult", "GenerationSettings"]
