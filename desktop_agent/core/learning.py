"""Reflect: after each reply, store the episode and learn from the user's words.

Facts come from the user's message only (never the assistant's reply: a tiny model's guesses
must not become "memories"), each linked to the episode and the span it came from. Feedback
on the previous reply marks its outcome and, when it is about length or style, updates the
procedural memory of how it was made; a stated answer style becomes a semantic preference.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Callable, Sequence
from datetime import timedelta
from typing import Any, Final, Protocol

from desktop_agent.core.conversation import Conversation
from desktop_agent.core.extraction_changes import PARTNER
from desktop_agent.core.extraction_grammar import KNOWN_PEOPLE
from desktop_agent.core.memory_model import MemoryItem, Provenance
from desktop_agent.core.memory_service import MemoryService, Recollection
from desktop_agent.core.named_people import people_by_name
from desktop_agent.core.timeparse import DAY_OR_MONTH
from desktop_agent.core.told_next import FOLLOWS_WITHIN
from desktop_agent.search.tokenize import STOPWORDS


class Extractor(Protocol):
    """Deterministic extraction by default; ModelAssistedExtractor when the setting is on."""

    def extract(self, message: str) -> list[Any]: ...


# How important each type of learned memory starts out.
IMPORTANCE = {
    "fact": 0.7,
    "preference": 0.7,
    "plan": 0.6,
    "decision": 0.6,
    "task": 0.5,
    "risk": 0.8,
}


def reflect(
    memory: MemoryService,
    conversation: Conversation,
    text: str,
    reply: str,
    intent: Any,
    action: str,
    injected: Sequence[Recollection],
    extractor: Extractor | None = None,
) -> tuple[str, tuple[MemoryItem, ...]]:
    """Store the exchange, learn from it; returns the episode id and what was learned."""
    from desktop_agent.core.procedures import record_feedback, remember_style

    earlier = memory.episodes(conversation.id)
    previous = earlier[-1] if earlier else None
    episode = memory.record_episode(
        conversation.id,
        text,
        reply,
        title=conversation.chosen_title(),
        intent=intent.kind,
        instructions=conversation.instructions,
        action=action,
        used=[r.item.id for r in injected],
    )
    memory.mark_used([r.item.id for r in injected])
    if intent.kind == "task":
        conversation.goal = text.strip()
    if intent.kind == "feedback" and previous is not None:
        record_feedback(
            memory,
            previous.id,
            bool(getattr(intent, "positive", False)),
            about=getattr(intent, "feedback_about", None) or "content",
            style=getattr(intent, "style", None),
        )
    style = getattr(intent, "style", None) if intent.kind == "preference" else None
    learned: list[MemoryItem] = []
    if style:
        source = Provenance(episode.id, episode.conversation_id, 0, len(text))
        learned.append(remember_style(memory, style, (source,), episode.conversation_id))
    before = _went_on_from(earlier, episode)
    learned += learn(memory, episode, text, extractor, skip_style=bool(style), before=before)
    return episode.id, tuple(learned)


def learn(
    memory: MemoryService,
    episode: MemoryItem,
    text: str,
    extractor: Extractor | None = None,
    *,
    skip_style: bool = False,
    before: str | None = None,
) -> list[MemoryItem]:
    """Extract facts and preferences from the user's ``text`` and remember them.
    ``skip_style``: the answer-style preference was stored already, as such; ``before``: the
    user's message just before in the conversation, whom an opening "he" means."""
    from desktop_agent.core import extraction_changes, loose_corrections, revisions
    from desktop_agent.core.extraction import extract
    from desktop_agent.core.feedback import style_named

    changes = extraction_changes.read(text)
    learned = []
    people = people_by_name(memory)
    known = KNOWN_PEOPLE.set(people)
    try:
        # (what the user's people said with their names in lower case: "biscuit turned 10
        # last week!" is the cat's age, as "Biscuit turned 10" is; the same length, so the
        # spans hold)
        typed = _named_as_known(text, people)
        facts = read_on(
            extractor.extract if extractor is not None else extract,
            typed,
            _named_as_known(before, people) if before else before,
        )
        facts += _successors(memory, typed, before, people, facts)
    finally:
        KNOWN_PEOPLE.reset(known)
    for fact in facts:
        if skip_style and fact.type == "preference" and style_named(fact.text):
            continue
        if _restates(fact, changes):
            continue
        inferred = getattr(fact, "inferred", False)
        if inferred and memory.said_outright(fact.subject_key):
            continue  # "based in Altona" (from a job) never replaces "I live in Hamburg"
        start, end = fact.span
        learned.append(
            memory.remember(
                _where_promoted(memory, fact, text[start:end]),
                type=fact.type,
                subject_key=fact.subject_key,
                importance=IMPORTANCE.get(fact.type, 0.6),
                provenance=[Provenance(episode.id, episode.conversation_id, start, end)],
                reviewed=False,
                conversation_id=episode.conversation_id,
                extra=_extra(inferred=inferred, past=getattr(fact, "past", False)),
            )
        )
    source = Provenance(episode.id, episode.conversation_id, 0, len(text))
    revised = revisions.apply(memory, changes, source, {m.id for m in learned}) if changes else []
    learned += revised
    learned += revisions.job_to_new_employer(memory, learned, source)
    # what no rule read as a change, said as one ("coach moved me to defense")
    handled = [(p.start, p.end) for item in revised for p in item.provenance]
    # ... nor the sentence a rule read a new slot from ("I cycle to work now, about 40 minutes
    # each way": how the user gets to work, not a change of their job)
    handled += [
        (p.start, p.end)
        for item in learned
        if item.subject_key == "routine:commute"
        for p in item.provenance
    ]
    learned += loose_corrections.apply(memory, text, source, learned, handled)
    return learned


# A message that opens by leaning on the one before: "He's a paramedic in Bristol now." after
# "My brother just got a new job."
_LEANS_ON: Final = re.compile(
    r"\s*(?:(?:oh|and|so|but|well|yeah|now)[,\s]+){0,2}(?:he|she|they|his|her|their)(?:['’]s|['’]re)?\b",
    re.IGNORECASE,
)
# A number, a day or month, or a name after the first word.
_NAMES_A_VALUE: Final = re.compile(rf"\d|(?i:{DAY_OR_MONTH.pattern})|(?<=\s)(?!I\b|I['’])[A-ZÀ-Ý]")


def _soon(previous: MemoryItem, episode: MemoryItem) -> bool:
    return timedelta(0) <= episode.created_at - previous.created_at <= FOLLOWS_WITHIN


# How many messages back a run of pronouns may reach for whom they mean.
_LEAN_BACK: Final = 3


def _went_on_from(earlier: Sequence[MemoryItem], episode: MemoryItem) -> str | None:
    """The user's words just before ``episode`` that an opening pronoun may lean on: the
    message before, and while that one leans on its own before, those too ("My brother just
    got a new job." | "He's a paramedic in Bristol now." | "oh and his name's Callum": "his"
    is the brother's, named two messages back)."""
    said: list[str] = []
    after = episode
    for previous in reversed(earlier[-_LEAN_BACK:]):
        if not _soon(previous, after):
            break
        said.insert(0, previous.user_text.strip())
        if not _LEANS_ON.match(previous.user_text):
            break
        after = previous
    said = [text if not text or text[-1] in ".!?" else text + "." for text in said]
    return " ".join(said) or None


_SWITCH_TOLD: Final = re.compile(
    r"\b(?:switch|switched|switching|change|changed|changing|swap|swapped)\s+"
    r"(?P<role>dentist|doctor|gp|vet|physio|therapist|hairdresser|barber|optician)s?\b",
    re.IGNORECASE,
)
_NOW_WITH: Final = re.compile(
    r"^\s*(?:(?:so|and|ok|okay|anyway|now)[\s,]+)*(?:i['’]m|i\s+am|we['’]re)\s+(?:now\s+)?"
    r"(?:with|seeing|registered\s+with)\s",
    re.IGNORECASE,
)
_CARER_KEY: Final = {"gp": "doctor"}


def read_on(extract: Callable[[str], list[Any]], text: str, before: str | None) -> list[Any]:
    """The facts of ``text``; when it opens with a pronoun, read after ``before`` (the message
    it goes on from), which says whom the pronoun means, keeping only what ``text`` says
    (spans shifted back into ``text``)."""
    if before and (switched := _SWITCH_TOLD.search(before)) and _NOW_WITH.match(text):
        # "had to switch dentists." | "I'm with Dr Osei now": the new one, of the kind switched
        role = switched["role"].casefold()
        lead = f"I switched {role}s, "
        at = len(lead)
        key = f"name_of:{_CARER_KEY.get(role, role)}"
        return [
            dataclasses.replace(fact, span=(max(0, fact.span[0] - at), fact.span[1] - at))
            for fact in extract(lead + text)
            if fact.span[1] > at and fact.subject_key == key
        ]
    if not before or not before.strip() or not _LEANS_ON.match(text):
        return extract(text)
    lead = before.strip()
    lead = (lead if lead[-1] in ".!?" else lead + ".") + " "
    at = len(lead)
    return [
        dataclasses.replace(fact, span=(fact.span[0] - at, fact.span[1] - at))
        for fact in extract(lead + text)
        # (a remark read as said of them names something, "swimming lessons every Saturday at
        # 9am at Toa Payoh"; "User's sister has been so happy lately" would answer what is
        # asked of her in place of her job)
        if fact.span[0] >= at
        and (
            ":said:" not in f":{fact.subject_key}"
            or _NAMES_A_VALUE.search((lead + text)[fact.span[0] : fact.span[1]])
        )
    ]


def _named_as_known(text: str, people: dict[str, str]) -> str:
    """``text`` with the names of the user's people capitalised where typed in lower case (not
    after "a" or "the": "a biscuit with my tea" is no cat)."""
    for name in people:
        if name in STOPWORDS or not name.isalpha():
            continue
        text = re.sub(
            rf"(?<![\w'’-])(?<!\ba\s)(?<!\ban\s)(?<!\bthe\s)(?<!\bsome\s){re.escape(name)}(?![\w-])",
            name.capitalize(),
            text,
        )
    return text


def _successors(
    memory: MemoryService, text: str, before: str | None, people: dict[str, str], found: list[Any]
) -> list[Any]:
    """The one named after someone who left ("my GP retired" | "The new one is Dr Farah"), as
    "User's GP is Dr Farah", unless ``found`` (what ``text`` says outright) has that role."""
    from desktop_agent.core.extraction import extract
    from desktop_agent.core.successors import roles_named, successors

    if not _MAY_NAME_A_SUCCESSOR.search(text):
        return []
    known = {**roles_named(item.text for item in memory.active_facts()), **people}
    said = {fact.subject_key for fact in found}
    new = []
    for successor in successors(text, before or "", known):
        for fact in extract(f"My {successor.role} is {successor.name}."):
            if fact.subject_key.startswith("name_of:") and fact.subject_key not in said:
                span = (successor.start, successor.end)
                new.append(dataclasses.replace(fact, span=span, is_correction=True))
    return new


# Cheap first look: a capitalised word after the message's first (a name).
_MAY_NAME_A_SUCCESSOR: Final = re.compile(r"\S\s+[A-ZÀ-Ý]")


def _extra(*, inferred: bool, past: bool) -> dict[str, bool] | None:
    extra = {name: True for name, said in (("inferred", inferred), ("past", past)) if said}
    return extra or None


def _where_promoted(memory: MemoryService, fact: Any, said: str) -> str:
    """ "I got promoted to senior developer": the same workplace as the job it replaces
    ("User works as a junior developer at Ledgerly" -> "... a senior developer at Ledgerly")."""
    if fact.subject_key != "job" or " at " in fact.text or not _PROMOTED.search(said):
        return str(fact.text)
    for item in memory.active_facts():
        place = re.search(r"\s(?:at|for)\s.+$", item.text) if item.subject_key == "job" else None
        if place:
            return f"{fact.text}{place.group(0)}"
    return str(fact.text)


_PROMOTED = re.compile(r"\bpromot(?:ed|ion)\b|\bmoved up\b", re.IGNORECASE)


def _restates(fact: Any, changes: Sequence[Any]) -> bool:
    """A fact read from the same words as a change and naming what the change ends or replaces
    ("User is going to Iceland instead of Japan", "User left the startup") would keep the old
    value current; the change itself says it better. Explicit retractions ("User no longer
    works at the bank") stay: they supersede by slot."""
    if getattr(fact, "negated", False) or getattr(fact, "past", False):
        return False  # "moved from Manchester to Bath": "User lived in Manchester" is the past
    start, end = fact.span
    if fact.subject_key.startswith("said:") and any(
        c.kind == "redate" and c.span[0] < end and start < c.span[1] for c in changes
    ):
        return True  # "I've switched my gym days to Tuesdays": the routine moved says it
    return any(
        change.kind != "redate"
        and change.old != PARTNER  # "we broke up, I'm with Sam now": Sam is the news
        and change.span[0] < end
        and start < change.span[1]
        and re.search(rf"\b{re.escape(change.old)}", fact.text, re.IGNORECASE)
        for change in changes
    )


def remember_explicitly(memory: MemoryService, conversation: Conversation, text: str) -> MemoryItem:
    """`/remember TEXT`: stored as the user said it, reviewed, linked to its own episode."""
    from desktop_agent.core.extraction import extract

    command = f"/remember {text}"
    episode = memory.record_episode(
        conversation.id,
        command,
        "I'll remember that.",
        title=conversation.chosen_title(),
        intent="command",
        instructions=conversation.instructions,
    )
    found = extract(f"remember that {text}")
    kind_of = found[0] if found else None
    offset = len(command) - len(text)
    return memory.remember(
        text,
        type=kind_of.type if kind_of else "fact",
        subject_key=kind_of.subject_key if kind_of else "",
        importance=0.8,
        provenance=[Provenance(episode.id, conversation.id, offset, offset + len(text))],
        reviewed=True,
        conversation_id=conversation.id,
    )
