"""Redaction: what forgetting a fact does to the messages it was learned from.

A semantic memory links to the span of the user's words it came from. Forgetting the memory
must forget those words too, or the next prompt quotes them again ("I work as a veterinary
nurse" still reaching the model after "User works as a veterinary nurse" was forgotten). So
each source episode is rewritten: the span becomes "[forgotten]", and so does every sentence of
the assistant's reply that repeated its words. When another, surviving memory was learned from
the same span ("I'm allergic to peanuts and penicillin"), only the forgotten memory's own words
go, and the survivor's span is moved to where its words now sit.

Pure planning over MemoryItems: the service seals the result in the same forget (new data key,
old versions and key destroyed), so the words survive in no version of anything.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any, Final

from desktop_agent.core.memory_model import MemoryItem, Provenance, episode_text
from desktop_agent.core.reply_versions import redact_versions
from desktop_agent.core.timeparse import MONTHS, WEEKDAYS
from desktop_agent.search.tokenize import STOPWORDS

MARK: Final = "[forgotten]"
_WORD = re.compile(r"[^\W_][\w'’-]*")
_SENTENCE = re.compile(r"[^.!?\n]+[.!?]*\s*|\n")
# Words every fact shares: the user, the verb of the slot. They never mark a sentence as
# repeating the forgotten fact.
_GENERIC: Final = frozenset(
    "user user's users is are was has have had lives live works work likes like loves love "
    "called named name favourite favorite prefers prefer allergic".split()
)


@dataclass(frozen=True, slots=True)
class EpisodeRedaction:
    """One source episode's new text, and the surviving memories whose spans moved."""

    episode_id: str
    text: str
    meta: dict[str, Any]
    moved: dict[str, tuple[Provenance, ...]] = field(default_factory=dict)
    # Only the reply was rewritten: it repeated a forgotten name, and the user's words there
    # are no source of the fact (counted apart: "and 1 reply that repeated it").
    reply_only: bool = False


def plan_redactions(
    forgotten: Sequence[MemoryItem],
    survivors: Sequence[MemoryItem],
    episode: Callable[[str], MemoryItem | None],
) -> list[EpisodeRedaction]:
    """The rewrite of every episode a forgotten memory was learned from (not being forgotten
    itself: ``episode`` returns None for those)."""
    spans: dict[str, list[tuple[MemoryItem, Provenance]]] = {}
    for item in forgotten:
        for source in item.provenance:
            spans.setdefault(source.episode_id, []).append((item, source))
    plans = []
    for episode_id, doomed in spans.items():
        found = episode(episode_id)
        if found is None:
            continue
        kept = [
            (item, source)
            for item in survivors
            for source in item.provenance
            if source.episode_id == episode_id
        ]
        plan = _redact_episode(found, doomed, kept)
        if plan is not None:
            plans.append(plan)
    return plans


def _redact_episode(
    episode: MemoryItem,
    doomed: Sequence[tuple[MemoryItem, Provenance]],
    kept: Sequence[tuple[MemoryItem, Provenance]],
) -> EpisodeRedaction | None:
    user = episode.user_text if (episode.meta or {}).get("user_end") else episode.text
    ranges: list[tuple[int, int]] = []
    for item, source in doomed:
        ranges += _ranges_for(user, item, source, kept)
    return rewrite_episode(episode, ranges, kept)


def rewrite_episode(
    episode: MemoryItem,
    ranges: Sequence[tuple[int, int]],
    kept: Sequence[tuple[MemoryItem, Provenance]] = (),
) -> EpisodeRedaction | None:
    """``episode`` with these character ranges of the user's words forgotten (and the reply's
    sentences that repeated them); ``kept``: surviving memories whose spans move."""
    meta = dict(episode.meta or {})
    chat = bool(meta.get("user_end"))
    user = episode.user_text if chat else episode.text
    reply = episode.reply_text if chat else ""
    ranges = _merged(list(ranges))
    if not ranges:
        return None
    removed = {w.casefold() for s, e in ranges for w in _WORD.findall(user[s:e])}
    new_user, shift = _replace(user, ranges)
    distinctive = _distinctive(removed)
    new_reply = _redact_sentences(reply, distinctive)
    # Regenerate's other versions of the reply repeat the words as well.
    redact_versions(meta, lambda version: _redact_sentences(version, distinctive))
    if chat:
        text, user_end = episode_text(new_user, new_reply)
        meta["user_end"] = user_end
    else:
        text = new_user
    meta["redacted"] = int(meta.get("redacted", 0)) + len(ranges)
    # A title that says the words goes; the list then names the chat by its redacted opening.
    if distinctive & {w.casefold() for w in _WORD.findall(str(meta.get("title") or ""))}:
        meta["title"] = ""
    moved: dict[str, tuple[Provenance, ...]] = {}
    for item, _source in kept:
        if item.id in moved:
            continue
        moved[item.id] = tuple(
            Provenance(p.episode_id, p.conversation_id, shift(p.start), shift(p.end))
            if p.episode_id == episode.id
            else p
            for p in item.provenance
        )
    return EpisodeRedaction(episode.id, text, meta, moved)


def names_in(forgotten: Iterable[MemoryItem]) -> set[str]:
    """The names the forgotten facts say (a person, a place, a brand: capitalised after the
    first word, never "User", a day or a month), casefolded: what a reply elsewhere repeats."""
    return {
        word.casefold()
        for item in forgotten
        for word in _NAME.findall(item.text)
        if word.casefold() not in STOPWORDS | _CALENDAR
    }


def rewrite_reply(episode: MemoryItem, names: set[str]) -> EpisodeRedaction | None:
    """Another exchange whose reply repeated a forgotten name ("I'm glad you're enjoying your
    time in Seville"): the reply's sentences that say it go, in every version; the user's words
    there are no source of the fact and stay."""
    meta = dict(episode.meta or {})
    if not meta.get("user_end") or not names:
        return None
    reply = episode.reply_text
    new_reply = _redact_sentences(reply, names)
    if new_reply == reply:
        return None
    redact_versions(meta, lambda version: _redact_sentences(version, names))
    text, meta["user_end"] = episode_text(episode.user_text, new_reply)
    meta["redacted"] = int(meta.get("redacted", 0)) + 1
    return EpisodeRedaction(episode.id, text, meta, reply_only=True)


_CALENDAR: Final = frozenset({*MONTHS, *WEEKDAYS, *(f"{day}s" for day in WEEKDAYS)})
# A capitalised word after a fact's first: "User's partner is Luca", "... going to Seville"
_NAME: Final = re.compile(r"(?<=\s)(?!User\b)[A-ZÀ-Ý][\w'’-]{2,}")


def _ranges_for(
    user: str,
    item: MemoryItem,
    source: Provenance,
    kept: Sequence[tuple[MemoryItem, Provenance]],
) -> list[tuple[int, int]]:
    """The characters of ``user`` to forget for one forgotten memory's source span."""
    start, end = max(0, source.start), min(len(user), source.end)
    whole_span = end > start
    shared = [
        other for other, span in kept if not whole_span or (span.start < end and start < span.end)
    ]
    if whole_span and not shared:
        return [(start, end)]
    # The span also taught a memory that stays: remove only this memory's own words.
    own = _distinctive(_words(item.text)) - {w for other in shared for w in _words(other.text)}
    lo, hi = (start, end) if whole_span else (0, len(user))
    return [
        (lo + m.start(), lo + m.end())
        for m in _WORD.finditer(user[lo:hi])
        if _stem(m.group(0)) in {_stem(w) for w in own}
    ]


def _words(text: str) -> set[str]:
    return {w.casefold() for w in _WORD.findall(text)}


def _distinctive(words: Iterable[str]) -> set[str]:
    return {
        w
        for w in words
        if len(w) >= 3 and w not in STOPWORDS and w not in _GENERIC and w != "forgotten"
    }


def _stem(word: str) -> str:
    # "peanuts" / "peanut", "Lisbon's" / "Lisbon": enough to find the same word again.
    word = re.sub(r"['’]s$", "", word.casefold())
    return word[:-1] if len(word) > 4 and word.endswith("s") else word


def _merged(ranges: Sequence[tuple[int, int]]) -> list[tuple[int, int]]:
    merged: list[tuple[int, int]] = []
    for start, end in sorted(r for r in ranges if r[1] > r[0]):
        if merged and start <= merged[-1][1]:
            merged[-1] = (merged[-1][0], max(end, merged[-1][1]))
        else:
            merged.append((start, end))
    return merged


def _replace(text: str, ranges: Sequence[tuple[int, int]]) -> tuple[str, Callable[[int], int]]:
    """``text`` with each range replaced by MARK, and where an old offset lands in the new text."""
    pieces, at = [], 0
    for start, end in ranges:
        pieces += [text[at:start], MARK]
        at = end
    pieces.append(text[at:])

    def shift(offset: int) -> int:
        moved = 0
        for start, end in ranges:
            if offset >= end:
                moved += len(MARK) - (end - start)
            elif offset > start:
                return start + moved + len(MARK)
        return offset + moved

    return "".join(pieces), shift


def _redact_sentences(reply: str, words: set[str]) -> str:
    """The reply with every sentence that repeats one of ``words`` replaced by MARK."""
    if not reply or not words:
        return reply
    stems = {_stem(w) for w in words}
    out = []
    for sentence in _SENTENCE.findall(reply):
        said = {_stem(w) for w in _WORD.findall(sentence)}
        if said & stems:
            out.append(MARK + (" " if sentence.endswith((" ", "\n")) else ""))
        else:
            out.append(sentence)
    return "".join(out).strip() or MARK
