"""Reply versions: Regenerate adds a version of a reply, not a second exchange.

Every version of one exchange's reply is kept on its one episode, in the meta (sealed with the
episode; forgetting the episode or its conversation forgets them all, and a forget's redaction
reaches each). The episode's text is always the user's message and the chosen version, so what
reads the exchange (recall and its indexes, the history sent back to the model, the restored
conversation, an export) sees the chosen one and never the others. What belongs to one version
(the memories and the answer style it was made with, the user's rating of it) moves with the
choice, so feedback on the turn counts for the version the user kept.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any, Final

from desktop_agent.core.memory_model import MemoryItem, episode_text
from desktop_agent.errors import InputError

if TYPE_CHECKING:
    from desktop_agent.core.memory_service import MemoryService

VERSIONS: Final = "reply_versions"
CHOSEN: Final = "reply_chosen"
# Meta keys of an episode that describe one version of its reply, not the exchange.
PER_VERSION: Final = ("used", "action", "outcome")

# A change to a stored exchange: its episode in, its new text and meta out.
Change = Callable[[MemoryItem], tuple[str, dict[str, Any]]]


@dataclass(frozen=True, slots=True)
class ReplyVersions:
    """The versions of one reply, oldest first, and which one is shown (and remembered)."""

    texts: tuple[str, ...]
    chosen: int = 0
    episode_id: str | None = None  # the stored exchange, when memory keeps it

    @property
    def count(self) -> int:
        return len(self.texts)

    @property
    def text(self) -> str:
        return self.texts[self.chosen]

    def plus(self, text: str) -> ReplyVersions:
        """With ``text`` as a new version, shown. A reply stopped before its first word is
        no version (and an earlier one like it is dropped)."""
        if not text:
            return self
        kept = tuple(t for t in self.texts if t)
        return ReplyVersions((*kept, text), len(kept), self.episode_id)

    def showing(self, index: int) -> ReplyVersions:
        _check(index, self.count)
        return replace(self, chosen=index)


def versions_of(episode: MemoryItem) -> ReplyVersions:
    """A stored exchange's reply versions (one, if it was never regenerated)."""
    entries, chosen = _entries(episode)
    return ReplyVersions(tuple(str(e["text"]) for e in entries), chosen, episode.id)


def with_new_version(text: str, made_with: Mapping[str, Any]) -> Change:
    """Add ``text`` (``made_with``: the memories used and the answer style) as the chosen
    version."""

    def change(episode: MemoryItem) -> tuple[str, dict[str, Any]]:
        entries, _chosen = _entries(episode)
        kept = [e for e in entries if e["text"]]
        return _written(episode, [*kept, {"text": text, **_own(made_with)}], len(kept))

    return change


def with_chosen_version(index: int) -> Change:
    """Show and keep version ``index`` (from 0)."""

    def change(episode: MemoryItem) -> tuple[str, dict[str, Any]]:
        entries, _chosen = _entries(episode)
        _check(index, len(entries))
        return _written(episode, entries, index)

    return change


def redact_versions(meta: dict[str, Any], redact: Callable[[str], str]) -> None:
    """A forget's redaction of the reply, applied to every stored version (in place)."""
    stored = meta.get(VERSIONS)
    if stored:
        meta[VERSIONS] = [{**entry, "text": redact(str(entry.get("text", "")))} for entry in stored]


def _thaw(meta: Mapping[str, Any]) -> dict[str, Any]:
    # Imported here: desktop_agent.memory brings the keyring, which the core must not load on
    # import (tests/test_layers.py).
    from desktop_agent.memory.model import thaw

    return dict(thaw(meta))


def _entries(episode: MemoryItem) -> tuple[list[dict[str, Any]], int]:
    """The stored versions; the shown one is read from the episode itself (its text, and a
    rating given since it was chosen)."""
    meta = _thaw(episode.meta or {})
    entries = [dict(e) for e in meta.get(VERSIONS) or [{}]]
    chosen = min(max(int(meta.get(CHOSEN, len(entries) - 1)), 0), len(entries) - 1)
    entries[chosen] = {"text": episode.reply_text, **_own(meta)}
    return entries, chosen


def _written(
    episode: MemoryItem, entries: list[dict[str, Any]], chosen: int
) -> tuple[str, dict[str, Any]]:
    meta = {k: v for k, v in _thaw(episode.meta or {}).items() if k not in PER_VERSION}
    meta.update(_own(entries[chosen]), **{VERSIONS: entries, CHOSEN: chosen})
    text, meta["user_end"] = episode_text(episode.user_text, str(entries[chosen]["text"]))
    return text, meta


def _own(values: Mapping[str, Any]) -> dict[str, Any]:
    return {k: values[k] for k in PER_VERSION if k in values}


def _check(index: int, count: int) -> None:
    if not 0 <= index < count:
        raise InputError(f"this reply has no version {index + 1}: it has {count} (1 to {count})")


def store_version(
    memory: MemoryService, versions: ReplyVersions, used: list[str], action: str
) -> ReplyVersions:
    """Keep the newest of ``versions`` (made with the memories ``used`` and the answer style
    ``action``) on its stored exchange, chosen; the versions as stored are returned (without an
    exchange when the conversation was deleted while the reply streamed)."""
    from desktop_agent.core.memory_service import ConversationClosed
    from desktop_agent.memory.model import MemoryNotFound

    assert versions.episode_id is not None
    change = with_new_version(versions.text, {"used": used, "action": action})
    try:
        stored = memory.update_reply(versions.episode_id, change)
    except (ConversationClosed, MemoryNotFound):
        return replace(versions, episode_id=None)  # nothing of it is kept
    memory.mark_used(used)
    return versions_of(stored)


def store_choice(memory: MemoryService, versions: ReplyVersions) -> ReplyVersions:
    """Keep the chosen one of ``versions`` on its stored exchange; the versions as stored (a
    forget since may have erased words from them)."""
    assert versions.episode_id is not None
    stored = memory.update_reply(versions.episode_id, with_chosen_version(versions.chosen))
    return versions_of(stored)
