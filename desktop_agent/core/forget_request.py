"""Which learned facts "forget my gym" means.

Recall ranks by meaning, and the best hit always looks good: asked to "forget my gym", plain
recall offered "User's dentist is Dr Okafor" (said in the same message), and a "yes" erased the
dentist while the gym stayed. So a fact is offered only when it says one of the words the user
named, or means nearly the same; and a fact that says the name of an offered one ("User goes to
Iron Temple on Mondays" beside "User's gym is called Iron Temple") is offered with it, since
forgetting the gym and keeping what was said of it by name would keep the gym.
"""

from __future__ import annotations

import re
from typing import Final

from desktop_agent.core.grounding import content_words, slot_keys, stems
from desktop_agent.core.grounding_turn import listed
from desktop_agent.core.memory_model import SEMANTIC
from desktop_agent.core.memory_service import MemoryService, Recollection
from desktop_agent.search.tokenize import STOPWORDS

# Without a word in common, a fact must mean nearly what was named (all-MiniLM-L6-v2 cosine).
CLOSE_MEANING: Final = 0.55
SEARCH_DEPTH: Final = 10
OFFER_LIMIT: Final = 8
# "forget that my ex is called Mark" names Mark, not every fact that says "called".
_FRAME: Final = frozenset(
    "user user's i i'm me my mine our we about that everything all anything something stuff "
    "said told what called named".split()
)
# A name: capitalised words, not at the start of the fact ("User", "Every Sunday ...").
_NAME: Final = re.compile(r"(?<!^)(?<![.!?]\s)\b([A-ZÀ-Ý][\w'’-]+(?:\s+[A-ZÀ-Ý][\w'’-]+)*)")


def facts_to_forget(memory: MemoryService, topic: str) -> list[Recollection]:
    """The current facts ``topic`` names, best first (empty when none does)."""
    if not topic.strip():
        return []
    wanted = content_words(topic) - _FRAME - set(STOPWORDS)
    # "my medication", "my salary": the slot the words name, whatever the fact says
    slots = slot_keys(topic)
    found = memory.search(topic, limit=SEARCH_DEPTH, kinds=(SEMANTIC,))
    have = {r.item.id for r in found}
    if slots:
        found += [
            listed(i)
            for i in memory.active_facts()
            if i.id not in have and _fills(i.subject_key, slots)
        ]
    named = [
        r
        for r in found
        if (wanted and wanted & stems(r.item.text)) or _fills(r.item.subject_key, slots)
    ]
    if not named:
        named = [r for r in found if r.hit.vector_score >= CLOSE_MEANING]
    if not named:
        return []
    named = _most_specific(named, wanted)
    have = {r.item.id for r in named}
    # Only what a name stands for spreads: "my gym" -> its name -> the facts that say it.
    names = {
        n for r in named if r.item.subject_key.startswith("name_of:") for n in _names(r.item.text)
    }
    # ... and so does what a slot of many holds: "medication:sertraline" -> "sertraline"
    names |= {
        r.item.subject_key.partition(":")[2]
        for r in named
        if _fills(r.item.subject_key, slots) and ":" in r.item.subject_key
    } - {""}
    if names:
        for item in memory.active_facts():
            if item.id not in have and any(_says(item.text, n) for n in names):
                named.append(listed(item))
                have.add(item.id)
    return named[:OFFER_LIMIT]


def _most_specific(named: list[Recollection], wanted: set[str]) -> list[Recollection]:
    """ "Forget that I'm allergic to kiwi" names the kiwi: of "allergic to shellfish" and
    "allergic to kiwi", only the fact saying a word the others do not say is meant."""
    said = [wanted & stems(r.item.text) for r in named]
    common = set.intersection(*said) if said else set()
    specific = [r for r, words in zip(named, said, strict=True) if words - common]
    return specific or named


def _fills(subject_key: str, slots: set[str]) -> bool:
    """Whether a fact's key is one of ``slots`` or one of its kind ("medication:sertraline")."""
    key = subject_key.casefold()
    return any(key == slot or key.startswith(f"{slot}:") for slot in slots)


def _names(text: str) -> set[str]:
    return {
        n
        for n in _NAME.findall(text)
        if n.casefold() not in STOPWORDS and n.casefold() not in {"user", "user's"}
    }


def _says(text: str, name: str) -> bool:
    return re.search(rf"\b{re.escape(name)}\b", text, re.IGNORECASE) is not None
