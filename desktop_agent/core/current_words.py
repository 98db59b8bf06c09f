"""The user's words that may still be true: an episode that taught a fact since superseded or
edited keeps its other sentences.

Hiding such an episode whole (``MemoryService.outdated_episodes``) kept the old value out of
answers, and everything else said in the same message with it: "I drive a 2014 Mazda 3. My
mechanic is Dougie" lost the mechanic once the Mazda was sold. So the statement readers get
the episode with the sentences the old fact came from blanked out (those its provenance spans
touch), and every sentence that names a superseded value ("Mazda", "Ribeira") blanked too.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Collection, Sequence

from desktop_agent.core.grounding import stems
from desktop_agent.core.memory_model import SEMANTIC, SUPERSEDED
from desktop_agent.core.memory_service import MemoryService, Recollection
from desktop_agent.core.questions import SENTENCE

_LEAD = "User: "


def outdated_spans(memory: MemoryService) -> dict[str, list[tuple[int, int]]]:
    """episode id -> the spans of the user's message that taught a fact no longer so."""
    spans: dict[str, list[tuple[int, int]]] = {}
    for item in memory.items(SEMANTIC):
        if item.status == SUPERSEDED or (item.meta or {}).get("edited"):
            for p in item.provenance:
                spans.setdefault(p.episode_id, []).append((p.start, p.end))
    return spans


def current(memory: MemoryService, episodes: Sequence[Recollection]) -> list[Recollection]:
    """``episodes`` as they may still be true (``still_so``); the spans to blank need every
    fact decoded, so only when one of them is outdated (a set the memory keeps)."""
    outdated = memory.outdated_episodes()
    if not any(r.item.id in outdated for r in episodes):
        return list(episodes)
    return still_so(episodes, outdated_spans(memory), no_longer_so(memory))


def still_so(
    episodes: Sequence[Recollection],
    spans: dict[str, list[tuple[int, int]]],
    no_longer_so: Collection[str],
) -> list[Recollection]:
    """``episodes`` with what is out of date in the outdated ones blanked (same length, so
    every offset stays): the sentences of the spans, and those naming one of ``no_longer_so``."""
    stale = {stem for word in no_longer_so for stem in stems(word)}
    kept = []
    for recollection in episodes:
        item = recollection.item
        told = spans.get(item.id)
        if not told or not item.text.startswith(_LEAD):
            kept.append(recollection)
            continue
        message = item.user_text
        # whole sentences: what is left of one around the old words reads as nonsense
        # ("wedding planning mode activated, Marco and   .")
        for sentence in list(SENTENCE.finditer(message)):
            start, end = sentence.span()
            taught = any(s < end and start < e for s, e in told)
            if taught or stems(sentence.group(0)) & stale:
                message = message[:start] + " " * (end - start) + message[end:]
        text = _LEAD + message + item.text[len(_LEAD) + len(message) :]
        kept.append(dataclasses.replace(recollection, item=dataclasses.replace(item, text=text)))
    return kept


def no_longer_so(memory: MemoryService) -> set[str]:
    """The names and numbers superseded facts said that no current fact says ("Ljubljana",
    "22nd")."""
    current = {w for item in memory.active_facts() for w in stems(item.text)}
    return {
        word
        for item in memory.items(SEMANTIC)
        if item.status == SUPERSEDED
        for word in re.findall(r"(?<=\s)[\w'’-]+", item.text)
        if (word[:1].isupper() or any(c.isdigit() for c in word)) and not stems(word) & current
    }
