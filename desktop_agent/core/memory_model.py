"""The memory model on top of the vault's records: what each kind of memory means.

The vault stores opaque records (kind, text, meta); this module gives them their meaning as
small frozen dataclasses, and is the one place that knows the meta keys.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any, Final

if TYPE_CHECKING:
    from desktop_agent.memory.model import MemoryRecord

EPISODIC: Final = "episodic"
SEMANTIC: Final = "semantic"
PROCEDURAL: Final = "procedural"
TOPIC: Final = "topic"

FACT_TYPES: Final = ("fact", "preference", "plan", "decision", "task", "risk")

ACTIVE: Final = "active"
SUPERSEDED: Final = "superseded"
MERGED: Final = "merged"

# How fast an unused memory's importance fades (the consolidation's decay, applied at read time
# so that it is idempotent and needs no writes).
IMPORTANCE_HALF_LIFE_DAYS: Final = 180.0


@dataclass(frozen=True, slots=True)
class Provenance:
    """Where a memory came from: the episode and the span of the user's words in it."""

    episode_id: str
    conversation_id: str | None
    start: int = 0
    end: int = 0

    def to_json(self) -> dict[str, Any]:
        return {
            "episode": self.episode_id,
            "conversation": self.conversation_id,
            "span": [self.start, self.end],
        }

    @staticmethod
    def from_json(value: Mapping[str, Any]) -> Provenance:
        span = value.get("span") or (0, 0)
        return Provenance(
            str(value.get("episode", "")), value.get("conversation"), int(span[0]), int(span[1])
        )


@dataclass(frozen=True, slots=True)
class MemoryItem:
    """One memory as the assistant, the CLI and the GUI see it."""

    id: str
    kind: str
    text: str
    created_at: datetime
    updated_at: datetime
    type: str = ""
    importance: float = 0.5
    pinned: bool = False
    status: str = ACTIVE
    reviewed: bool = True
    topic: str = ""
    subject_key: str = ""
    conversation_id: str | None = None
    source_id: str | None = None
    provenance: tuple[Provenance, ...] = ()
    supersedes: str | None = None
    superseded_by: str | None = None
    valid_from: datetime | None = None
    valid_to: datetime | None = None
    version: int = 1
    meta: Mapping[str, Any] | None = None

    @property
    def active(self) -> bool:
        return self.status == ACTIVE

    @property
    def user_text(self) -> str:
        """For an episode of a live chat: the user's message alone."""
        end = int((self.meta or {}).get("user_end", 0))
        return self.text[len("User: ") : end] if end else self.text

    @property
    def reply_text(self) -> str:
        end = int((self.meta or {}).get("user_end", 0))
        return self.text[end + len("\nAssistant: ") :] if end else ""

    def effective_importance(self, now: datetime | None = None) -> float:
        """Importance fading with time since the memory was last confirmed; pinned never fades."""
        if self.pinned:
            return 1.0
        # From when the user last stated or edited it: a bookkeeping write (a topic tag, a
        # merge) moves updated_at but is no reason to trust the memory more.
        confirmed = _when((self.meta or {}).get("confirmed_at")) or self.created_at
        age_days = ((now or datetime.now(UTC)) - confirmed).total_seconds() / 86400
        return float(self.importance * 0.5 ** (max(age_days, 0.0) / IMPORTANCE_HALF_LIFE_DAYS))

    def to_json(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "kind": self.kind,
            "type": self.type,
            "text": self.text,
            "status": self.status,
            "importance": round(self.importance, 3),
            "pinned": self.pinned,
            "topic": self.topic,
            "subject_key": self.subject_key,
            "created_at": self.created_at.isoformat(),
            "updated_at": self.updated_at.isoformat(),
            "conversation_id": self.conversation_id,
            "source_id": self.source_id,
            "provenance": [p.to_json() for p in self.provenance],
            "supersedes": self.supersedes,
            "superseded_by": self.superseded_by,
            "valid_from": self.valid_from.isoformat() if self.valid_from else None,
            "valid_to": self.valid_to.isoformat() if self.valid_to else None,
            "version": self.version,
        }


def item_from_record(record: MemoryRecord) -> MemoryItem:
    meta = record.meta
    return MemoryItem(
        id=str(record.id),
        kind=record.kind,
        text=record.text,
        created_at=record.created_at,
        updated_at=record.updated_at,
        type=str(meta.get("type", "")),
        importance=float(meta.get("importance", 0.5)),
        pinned=bool(meta.get("pinned", False)),
        status=str(meta.get("status", ACTIVE)),
        reviewed=bool(meta.get("reviewed", True)),
        topic=str(meta.get("topic", "")),
        subject_key=str(meta.get("subject_key", "")),
        conversation_id=record.conversation_id,
        source_id=record.source_id,
        provenance=tuple(Provenance.from_json(p) for p in meta.get("provenance", ()) or ()),
        supersedes=meta.get("supersedes"),
        superseded_by=meta.get("superseded_by"),
        valid_from=_when(meta.get("valid_from")),
        valid_to=_when(meta.get("valid_to")),
        version=record.version,
        meta=meta,
    )


def _when(value: Any) -> datetime | None:
    if not value:
        return None
    try:
        moment = datetime.fromisoformat(str(value))
    except ValueError:
        return None
    return moment if moment.tzinfo else moment.replace(tzinfo=UTC)


def episode_text(user: str, reply: str) -> tuple[str, int]:
    """The stored text of a live exchange, and where the user's part ends in it."""
    head = f"User: {user}"
    return f"{head}\nAssistant: {reply}", len(head)


@dataclass(frozen=True, slots=True)
class Strategy:
    """A procedural memory: in this context, this way of answering worked this often."""

    id: str
    context: str
    action: str
    successes: int
    total: int

    @property
    def success_rate(self) -> float:
        # Laplace's rule: one success and one failure assumed up front, so a single vote
        # does not make a strategy look perfect or hopeless.
        return (self.successes + 1) / (self.total + 2)

    def to_json(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "context": self.context,
            "action": self.action,
            "successes": self.successes,
            "total": self.total,
            "success_rate": round(self.success_rate, 3),
        }


def strategy_from_record(record: MemoryRecord) -> Strategy:
    meta = record.meta
    return Strategy(
        id=str(record.id),
        context=str(meta.get("context", "")),
        action=str(meta.get("action", "")),
        successes=int(meta.get("successes", 0)),
        total=int(meta.get("total", 0)),
    )
