"""Told next: the user's message after a recalled one, in the same conversation, for a quote
that a headline alone cannot give.

People chat in short messages that go on with each other: "My brother just got a new job." |
"He's a paramedic in Bristol now." Recall finds the headline (it says "job"); what it told is
in the next message. Each recalled episode whose last sentence is short enough to hold a
headline carries that next message (meta ``THEN``) for ``statements.told_on`` to join.

And the other way: "I live in Hobart with my wife Saoirse." | "She's a pharmacist at the
hospital." An episode that opens on "she" carries the message before it (meta ``BEFORE``), whom
it means, even when recall left that message out (``statements.message_before``).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from datetime import timedelta
from typing import Final

from desktop_agent.core.current_words import current
from desktop_agent.core.memory_model import MemoryItem
from desktop_agent.core.memory_service import MemoryService, Recollection
from desktop_agent.core.questions import question_only
from desktop_agent.core.statements import BEFORE, THEN, leans_on_the_message_before
from desktop_agent.core.user_sentences import told_sentences

# A message goes on with the one before when it comes soon after (later, it is new news).
FOLLOWS_WITHIN: Final = timedelta(minutes=30)
# (a headline may end a longer sentence: "Tomasz's trip has changed, the club decided Iceland
# was too pricey", quoted without why)
_LAST_WORDS: Final = 14


def with_what_followed(
    memory: MemoryService,
    episodes: Sequence[Recollection],
    *,
    now: bool = True,
    read: dict[str, list[MemoryItem]] | None = None,
) -> list[Recollection]:
    """``episodes``, each ending in a headline with the user's next message in its
    conversation as meta ``THEN`` (when one follows soon, and tells rather than asks); ``now``:
    as it may still be true (``current_words``), for a question about the present. ``read``:
    the conversations already read for this question (each is decrypted whole, so a caller
    asking again, fact after fact, reads each once)."""
    conversations = read if read is not None else {}
    episodes = _with_what_came_before(memory, episodes, conversations)
    followed: dict[int, Recollection] = {}
    for n, recollection in enumerate(episodes):
        item = recollection.item
        sentences = told_sentences(item.user_text)
        if not item.conversation_id or not sentences or len(sentences[-1].split()) > _LAST_WORDS:
            continue
        if item.conversation_id not in conversations:
            conversations[item.conversation_id] = memory.episodes(item.conversation_id)
        after = _next(conversations[item.conversation_id], item)
        if after is not None:
            followed[n] = dataclasses.replace(recollection, item=after)
    if not followed:
        return list(episodes)
    # "it's Tavira now, not Lagos": only what is still so (one pass: blanking may decode every
    # fact)
    afters = current(memory, list(followed.values())) if now else list(followed.values())
    then = dict(zip(followed, (a.item.user_text for a in afters), strict=True))
    return [
        dataclasses.replace(
            r, item=dataclasses.replace(r.item, meta={**(r.item.meta or {}), THEN: then[n]})
        )
        if n in then
        else r
        for n, r in enumerate(episodes)
    ]


def _with_what_came_before(
    memory: MemoryService,
    episodes: Sequence[Recollection],
    conversations: dict[str, list[MemoryItem]],
) -> list[Recollection]:
    """``episodes``, each opening on someone named just before ("She's a pharmacist at the
    hospital.") with the user's message before it as meta ``BEFORE``."""
    found: list[Recollection] = []
    for recollection in episodes:
        item = recollection.item
        sentences = told_sentences(item.user_text)
        if item.conversation_id and sentences and leans_on_the_message_before(sentences[0]):
            if item.conversation_id not in conversations:
                conversations[item.conversation_id] = memory.episodes(item.conversation_id)
            before = _previous(conversations[item.conversation_id], item)
            if before is not None:
                meta = {**(item.meta or {}), BEFORE: before.user_text}
                recollection = dataclasses.replace(
                    recollection, item=dataclasses.replace(item, meta=meta)
                )
        found.append(recollection)
    return found


def _previous(episodes: Sequence[MemoryItem], item: MemoryItem) -> MemoryItem | None:
    earlier = [e for e in episodes if e.created_at < item.created_at and not question_only(e)]
    if not earlier:
        return None
    before = max(earlier, key=lambda e: e.created_at)
    return before if item.created_at - before.created_at <= FOLLOWS_WITHIN else None


def _next(episodes: Sequence[MemoryItem], item: MemoryItem) -> MemoryItem | None:
    later = [e for e in episodes if e.created_at > item.created_at]
    if not later:
        return None
    after = min(later, key=lambda e: e.created_at)
    if after.created_at - item.created_at > FOLLOWS_WITHIN or question_only(after):
        return None
    return after
