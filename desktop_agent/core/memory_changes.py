"""What the memory service hands back: a recollection with its scores, what a write changed,
what a forget will take with it, and the error for a write to a deleted conversation."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from desktop_agent.errors import InputError

if TYPE_CHECKING:
    from desktop_agent.core.memory_model import MemoryItem
    from desktop_agent.core.recall_types import RecallHit
    from desktop_agent.memory.model import ForgetReceipt


@dataclass(frozen=True, slots=True)
class Recollection:
    """A recalled memory with the numbers that explain why (the memory lens)."""

    item: MemoryItem
    hit: RecallHit

    def as_json(self) -> dict[str, Any]:
        hit = self.hit
        return {
            "memory_id": self.item.id,
            "source_id": self.item.source_id,
            "kind": self.item.kind,
            "type": self.item.type,
            "text": self.item.text,
            "score": round(hit.score, 4),
            "vector_score": round(hit.vector_score, 4),
            "keyword_score": round(hit.keyword_score, 4),
            "vector_rank": hit.vector_rank,
            "keyword_rank": hit.keyword_rank,
            "recency": round(hit.recency, 4),
            "importance": round(hit.importance, 4),
            "use_boost": round(hit.use_boost, 4),
            "feedback_score": round(hit.feedback_score, 4),
            "in_time_window": hit.in_time_window,
            "superseded": hit.superseded,
            "created_at": self.item.created_at.isoformat(),
        }


@dataclass(frozen=True, slots=True)
class MemoryChange:
    """What a write changed, for panels to refresh from one signal (Anki's OpChanges)."""

    added: tuple[str, ...] = ()
    edited: tuple[str, ...] = ()
    forgotten: tuple[str, ...] = ()
    receipt: ForgetReceipt | None = None


@dataclass(frozen=True, slots=True)
class ForgetPreview:
    """What a forget will take with it, besides the memories asked for."""

    ids: tuple[str, ...]
    topics: tuple[str, ...]  # summaries that quoted them (rebuilt without them)
    redacted: tuple[str, ...]  # episodes whose words taught them (those words are erased)
    # Facts learned only from messages being forgotten (a PIN told in a message is a fact too).
    learned: tuple[str, ...] = ()
    # Of ``redacted``, the exchanges whose reply only repeated a forgotten name.
    repeated: tuple[str, ...] = ()

    def describe(self) -> str:
        """ "and 2 messages it came from": what else goes, in the user's words."""
        return also_touched(
            len(self.redacted) - len(self.repeated),
            len(self.topics),
            len(self.learned),
            len(self.repeated),
        )

    def to_json(self) -> dict[str, Any]:
        return {
            "ids": list(self.ids),
            "topics": list(self.topics),
            "redacted": list(self.redacted),
            "learned": list(self.learned),
            "repeated": list(self.repeated),
        }


def receipt_touched(receipt: ForgetReceipt, *, topics_asked: bool = False) -> str:
    """What a done forget took with it ("and 1 message it came from and 1 topic summary"),
    the memories asked for aside (``topics_asked``: the topic summaries were)."""
    topics = 0 if topics_asked else sum(1 for kind in receipt.kinds if kind == "topic")
    return also_touched(
        len(receipt.redacted) - len(receipt.repeated),
        topics,
        len(receipt.learned),
        len(receipt.repeated),
    )


def also_touched(messages: int, topics: int = 0, learned: int = 0, repeated: int = 0) -> str:
    """What else a forget erases: the facts learned only from what goes, the messages the
    memories came from, the replies elsewhere that repeated them, the topic summaries."""
    parts = []
    if learned:
        parts.append(f"{learned} fact{'s' if learned != 1 else ''} learned from it")
    if messages:
        parts.append(f"{messages} message{'s' if messages != 1 else ''} it came from")
    if repeated:
        parts.append(f"{repeated} repl{'ies' if repeated != 1 else 'y'} that repeated it")
    if topics:
        parts.append(f"{topics} topic summar{'ies' if topics != 1 else 'y'}")
    return ("and " + " and ".join(parts)) if parts else ""


class ConversationClosed(InputError):
    """A write for a conversation deleted in this process (a reply that was still in flight)."""


def listed(item: MemoryItem) -> Recollection:
    """A memory taken without search (the user asked for everything; a risk that matters)."""
    return Recollection(item, _listed_hit(item))


def _listed_hit(item: MemoryItem) -> RecallHit:
    from desktop_agent.core.recall_types import RecallHit

    return RecallHit(
        memory_id=item.id,
        score=item.importance,
        vector_score=0.0,
        vector_rank=0,
        keyword_score=0.0,
        keyword_rank=None,
        fused=0.0,
        context=0.0,
        recency=0.0,
        importance=item.importance,
        use_boost=0.0,
        in_time_window=None,
        speaker_named=False,
        superseded=False,
        pinned=item.pinned,
        kind=item.kind,
    )
