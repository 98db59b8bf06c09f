"""What the assistant is built from: the parts and settings that a change of settings, a Lock
or an unlock replace, together and at once (``Assistant.use``)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from desktop_agent.core.null_memory import NullMemoryService

if TYPE_CHECKING:
    from desktop_agent.core.learning import Extractor
    from desktop_agent.core.memory_service import MemoryService
    from desktop_agent.llm import ChatEngine, GenerationSettings

SYSTEM_PROMPT = (
    "You are a helpful, honest assistant running privately on the user's own computer. "
    "Answer clearly and briefly."
)


@dataclass(frozen=True, slots=True)
class AssistantSetup:
    """The chat engine, how it generates, the memory service (a ``NullMemoryService`` when
    there is none) and the settings of the loop."""

    engine: ChatEngine
    generation_settings: GenerationSettings
    memory: MemoryService | NullMemoryService = NullMemoryService()
    memory_enabled: bool = True
    recall_limit: int = 8
    n_ctx: int = 4096
    system_prompt: str = SYSTEM_PROMPT
    instructions: str = ""
    # None: the deterministic rules (the bundled model's JSON is unreliable).
    extractor: Extractor | None = None
    # Questions about the user: "composed" from the facts by the core, or "model" (checked).
    answer_mode: str = "composed"
