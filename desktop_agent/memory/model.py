"""The vault's domain objects: small frozen dataclasses, built where decryption happens."""

from __future__ import annotations

import json
import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from types import MappingProxyType
from typing import Any, Final, NewType

import numpy as np
from numpy.typing import NDArray

from desktop_agent.errors import InputError

MemoryId = NewType("MemoryId", str)

KINDS: Final = ("episodic", "semantic", "procedural", "topic")
MAX_TEXT_CHARS: Final = 64 * 1024 * 1024


class MemoryNotFound(InputError):
    """No memory with that id (never existed, or forgotten)."""


@dataclass(frozen=True, slots=True)
class MemoryRecord:
    """One memory as the rest of the app sees it (the current version)."""

    id: MemoryId
    kind: str
    text: str
    meta: Mapping[str, Any]
    created_at: datetime
    updated_at: datetime
    conversation_id: str | None = None
    source_id: str | None = None
    version: int = 1


@dataclass(frozen=True, slots=True)
class MemoryVersion:
    """One version of a memory, oldest first in ``Vault.history``; the last one is current."""

    id: MemoryId
    version: int
    kind: str
    text: str
    meta: Mapping[str, Any]
    updated_at: datetime
    current: bool


@dataclass(frozen=True, slots=True)
class NewMemory:
    """One row for ``Vault.add_many`` (bulk import)."""

    kind: str
    text: str
    vector: NDArray[np.float32]
    meta: Mapping[str, Any] | None = None
    conversation_id: str | None = None
    source_id: str | None = None
    created_at: datetime | None = None


@dataclass(frozen=True, slots=True)
class ForgetReceipt:
    """What a forget changed; never the forgotten text."""

    ids: tuple[MemoryId, ...]
    kinds: tuple[str, ...]
    at: datetime
    epoch: int
    rekeyed: int = 0
    # Memories kept but rewritten without the forgotten words (an episode a forgotten fact was
    # learned from): every old version is gone with its key, as for the forgotten ones.
    redacted: tuple[MemoryId, ...] = ()
    # Facts forgotten because every message they were learned from was (set by the service).
    learned: tuple[str, ...] = ()
    # Of ``redacted``, the exchanges whose reply only was rewritten: it repeated a forgotten
    # name, the user's words there taught nothing forgotten (set by the service).
    repeated: tuple[str, ...] = ()
    # Damaged data files the forget had to leave as they were ("fragment 3 (data file ...)"):
    # the forgotten memories' keys are gone, but rows of theirs in those files were not deleted.
    damaged: tuple[str, ...] = ()

    def to_json(self) -> dict[str, Any]:
        return {
            "forgotten": [{"id": i, "kind": k} for i, k in zip(self.ids, self.kinds, strict=True)],
            "redacted": list(self.redacted),
            "learned": list(self.learned),
            "repeated": list(self.repeated),
            "at": self.at.isoformat(),
            "epoch": self.epoch,
            "rekeyed": self.rekeyed,
            "damaged": list(self.damaged),
        }


@dataclass(frozen=True, slots=True)
class Rewrite:
    """The new content of a memory redacted by a forget (its old versions are erased)."""

    text: str
    meta: Mapping[str, Any]
    vector: NDArray[np.float32]


@dataclass(frozen=True, slots=True)
class SearchHit:
    """A search result with the two scores kept apart so callers can fuse them their own way.

    ``memory`` is parsed from the decrypted record when first asked for, so a search that only
    needs ids and scores does not pay for building ten records.
    """

    id: MemoryId
    score: float
    vector_score: float
    keyword_score: float
    _memory: Callable[[], MemoryRecord] = field(repr=False, compare=False)

    @property
    def memory(self) -> MemoryRecord:
        return self._memory()


@dataclass(frozen=True, slots=True)
class Damage:
    """A row or a data file that could not be read; everything else still opens."""

    table: str
    where: str
    reason: str
    memory_id: MemoryId | None = None


@dataclass(frozen=True, slots=True)
class KeyStatus:
    mode: str
    backend: str
    epoch: int
    data_keys: int
    memories: int
    vault_id: str
    schema_version: int
    damaged: int = 0
    extra: Mapping[str, Any] = field(default_factory=dict)


def freeze(value: Any) -> Any:
    """A read-only deep copy of a JSON value (dicts become mapping proxies, lists tuples)."""
    if isinstance(value, Mapping):
        return MappingProxyType({str(k): freeze(v) for k, v in value.items()})
    if isinstance(value, list | tuple):
        return tuple(freeze(v) for v in value)
    return value


def thaw(value: Any) -> Any:
    """Plain dicts and lists again, for JSON."""
    if isinstance(value, Mapping):
        return {k: thaw(v) for k, v in value.items()}
    if isinstance(value, tuple | list):
        return [thaw(v) for v in value]
    return value


def meta_to_json(meta: Mapping[str, Any] | None) -> str:
    """Canonical JSON of ``meta``; an InputError names what cannot be stored."""
    if meta is None:
        return "{}"
    if not isinstance(meta, Mapping):
        raise InputError("memory meta must be a mapping of JSON values")
    try:
        return json.dumps(thaw(meta), sort_keys=True, allow_nan=False, separators=(",", ":"))
    except (TypeError, ValueError) as exc:
        raise InputError(f"memory meta is not JSON-serialisable: {exc}") from None


def check_kind(kind: str) -> str:
    if kind not in KINDS:
        raise InputError(f"unknown memory kind {kind!r}: use one of {', '.join(KINDS)}")
    return kind


def check_text(text: str) -> str:
    if not isinstance(text, str):
        raise InputError("memory text must be a string")
    if not text.strip():
        raise InputError("memory text is empty")
    if len(text) > MAX_TEXT_CHARS:
        raise InputError(
            f"memory text is too long ({len(text)} characters, at most {MAX_TEXT_CHARS})"
        )
    return text


def check_vector(vector: Any, dim: int) -> NDArray[np.float32]:
    """A unit-length float32 copy of ``vector``; zero vectors stay zero (they never match)."""
    array = np.asarray(vector, dtype=np.float32).reshape(-1)
    if array.shape != (dim,):
        raise InputError(f"memory vector must have {dim} numbers, got {array.size}")
    if not np.all(np.isfinite(array)):
        raise InputError("memory vector holds NaN or infinity")
    norm = float(np.linalg.norm(array))
    return array / norm if norm > 0 and not math.isclose(norm, 1.0, rel_tol=1e-6) else array.copy()


def check_optional_id(value: str | None, what: str) -> str | None:
    if value is None:
        return None
    if not isinstance(value, str) or not value:
        raise InputError(f"{what} must be a non-empty string or None")
    return value


def kinds_of(records: Sequence[MemoryRecord]) -> tuple[str, ...]:
    return tuple(r.kind for r in records)
