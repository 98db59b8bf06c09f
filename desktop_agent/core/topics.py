"""Topics: semantic memories grouped under a short, stable summary.

Pure planning, no writes (consolidation applies the plan). Grouping is deterministic because the
bundled model is too weak to name or summarise reliably: a memory's ``subject_key`` family picks
its topic ("home_city" -> "About you", "allergy:peanut" -> "Health"); memories without a known
family are clustered by embedding similarity. The same memories always give the same topics and
the same summaries, so refreshing twice writes nothing the second time.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Final

import numpy as np
from numpy.typing import NDArray

from desktop_agent.core.memory_model import MemoryItem

ABOUT_YOU: Final = "About you"
OTHER: Final = "Other notes"

# subject_key family (the part before ":") -> topic. The families are the slots that
# core/extraction_rules.py and extraction_plans.py write.
FAMILIES: Final[dict[str, str]] = {
    **dict.fromkeys(
        ("name", "home_city", "origin", "age", "birthday", "job", "employer", "diet", "speaks"),
        ABOUT_YOU,
    ),
    **dict.fromkeys(("likes", "dislikes", "favorite", "prefers"), "Likes and dislikes"),
    **dict.fromkeys(("allergy", "condition", "health"), "Health"),
    "name_of": "People",
    **dict.fromkeys(("plan", "task", "decision"), "Plans and tasks"),
}

# Cosine (all-MiniLM-L6-v2) at which a memory without a known family joins a cluster: related
# statements ("User likes hiking" / "User likes swimming") sit near 0.55, unrelated ones below 0.45.
CLUSTER_THRESHOLD: Final = 0.5
SUMMARY_CHARS: Final = 240

_STOP: Final = frozenset(
    "user user's the a an and or of to in on at for with is are was be my i me it that this "
    "asked remember remind plans decided likes has have had not no don't".split()
)


@dataclass(frozen=True, slots=True)
class Topic:
    """One planned topic: its name, its members (most important first) and its summary."""

    name: str
    members: tuple[str, ...]
    summary: str


def family_topic(subject_key: str) -> str | None:
    """The topic a subject_key's family belongs to, or None if the family is not known."""
    family = subject_key.split(":", 1)[0].strip().casefold()
    return FAMILIES.get(family) if family else None


def plan_topics(
    items: Sequence[MemoryItem],
    vector_of: Callable[[str], NDArray[np.float32]],
    *,
    threshold: float = CLUSTER_THRESHOLD,
) -> list[Topic]:
    """Topics for ``items`` (active semantic memories), sorted by name."""
    groups: dict[str, list[MemoryItem]] = {}
    loose: list[MemoryItem] = []
    for item in _stable_order(items):
        # A topic the user chose by hand wins over the automatic one.
        chosen = item.topic if item.topic and not (item.meta or {}).get("topic_auto") else None
        name = chosen or family_topic(item.subject_key)
        if name:
            groups.setdefault(name, []).append(item)
        else:
            loose.append(item)
    for name, members in _clusters(loose, vector_of, threshold):
        groups.setdefault(name, []).extend(members)
    return [
        Topic(name, tuple(i.id for i in ranked), summarise(name, ranked))
        for name, members in sorted(groups.items())
        for ranked in [_by_importance(members)]
    ]


def summarise(name: str, members: Sequence[MemoryItem]) -> str:
    """ "Name: text; text; ..." most important first, clipped to SUMMARY_CHARS.

    Stored importance, not the decayed one: decay would reorder nothing (every memory fades at
    the same rate) but pinned ones would, and the summary must not change with the clock alone.
    """
    parts = [_short(item.text) for item in members]
    return _clip(f"{name}: " + "; ".join(p for p in parts if p), SUMMARY_CHARS)


def _stable_order(items: Sequence[MemoryItem]) -> list[MemoryItem]:
    return sorted(items, key=lambda i: (i.created_at, i.id))


def _by_importance(members: Sequence[MemoryItem]) -> list[MemoryItem]:
    return sorted(members, key=lambda i: (not i.pinned, -i.importance, i.created_at, i.id))


def _clusters(
    items: Sequence[MemoryItem],
    vector_of: Callable[[str], NDArray[np.float32]],
    threshold: float,
) -> list[tuple[str, list[MemoryItem]]]:
    """Leader clustering in creation order: each memory joins the first cluster whose leader
    (oldest member) is similar enough. Leaders change only when they are removed, so names
    (taken from the leader) stay put as memories come and go. Singletons go to OTHER."""
    leaders: list[tuple[MemoryItem, NDArray[np.float32]]] = []
    members: list[list[MemoryItem]] = []
    for item in items:
        vector = vector_of(item.id)
        for n, (_leader, leader_vector) in enumerate(leaders):
            if float(np.dot(vector, leader_vector)) >= threshold:
                members[n].append(item)
                break
        else:
            leaders.append((item, vector))
            members.append([item])
    found: list[tuple[str, list[MemoryItem]]] = []
    rest: list[MemoryItem] = []
    for (leader, _vector), group in zip(leaders, members, strict=True):
        if len(group) > 1:
            found.append((_name_from(leader.text), group))
        else:
            rest.extend(group)
    if rest:
        found.append((OTHER, rest))
    return found


def _name_from(text: str) -> str:
    words = [w for w in re.findall(r"[^\W_][\w'-]*", text.casefold()) if w not in _STOP]
    return " ".join(words[:2]).capitalize() if words else OTHER


def _short(text: str) -> str:
    """ "User lives in Lisbon." -> "lives in Lisbon": the topic already says whose it is."""
    text = " ".join(text.split()).rstrip(".")
    for prefix in ("User's ", "User "):
        if text.startswith(prefix):
            return text[len(prefix) :]
    return text


def _clip(text: str, chars: int) -> str:
    return text if len(text) <= chars else text[: chars - 1].rstrip(" ;,") + "…"
