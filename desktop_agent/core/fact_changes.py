"""A fact that the user's later words changed, when no rule learned the change.

Extraction reads a change only in the shapes it knows ("I moved to Porto"), and changes are
often told as events: "Tomasz finally quit Hillcrest! he starts monday at a dialysis clinic
called Renalcare", "mum's airline cancelled her friday flight, she's now coming in on Sunday
the 11th instead", "Jumpz double-booked us. we're doing the party in our backyard now
instead". The fact learned first ("User's husband Tomasz is a nurse at Hillcrest General") is
still current, and stating it would be stating what the user took back. A later message that
names the fact's value and says a change is the sign: the answer quotes what that message says
is so now, without the clause that names the old value.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Sequence
from dataclasses import dataclass
from typing import Final

from desktop_agent.core.extraction_words import CARERS
from desktop_agent.core.grounding import stems
from desktop_agent.core.memory_model import EPISODIC, MemoryItem
from desktop_agent.core.memory_service import MemoryService, Recollection
from desktop_agent.core.named_people import RECALL_DEPTH, people_by_name
from desktop_agent.core.questions import question_only
from desktop_agent.core.statement_wording import ENDED, PARTS, what_is_so
from desktop_agent.core.statements import THEN
from desktop_agent.core.timeparse import DAY_OR_MONTH
from desktop_agent.core.told_next import with_what_followed
from desktop_agent.core.user_sentences import told_sentences
from desktop_agent.search.tokenize import STOPWORDS

# A change told as an event. Narrower than a statement's change words: "new" and "moved" alone
# say too little once the message only has to name the old value somewhere.
_CHANGED: Final = re.compile(
    r"\b(?:instead|now|no\s+longer|not\s+anymore|any\s*more|switched|swapped|changed|"
    r"rescheduled|postponed|moved\s+(?:me|us|it|him|her|them)\b|pushed\s+(?:back|to)|"
    r"brought\s+forward|double[-\s]booked|lost\s+the|starts?\s+at|started\s+at|hired|"
    r"replaced|ended\s+up|(?:re)?shuffled|got\s+moved\s+to)\b",
    re.IGNORECASE,
)
# A value in a fact's words: a name, a number, a day or month ("Hillcrest", "9th", "Friday").
_VALUE: Final = re.compile(
    rf"(?<=\s)(?:[A-ZÀ-Ý][\w'’-]+|[\w'’-]*\d[\w'’-]*)|{DAY_OR_MONTH.pattern}"
)
# What a quote must carry to answer for the old value: a new one, or the word that says so.
_NEW_VALUE: Final = re.compile(
    rf"(?<=\s)(?!I\b|I['’])(?-i:[A-ZÀ-Ý])[\w'’-]+|\d|{DAY_OR_MONTH.pattern}|\binstead\b",
    re.IGNORECASE,
)
_STILL: Final = re.compile(r"\bstill\b", re.IGNORECASE)
_FRAME: Final = frozenset({"user", "user's", "users"})
_NAMING: Final = re.compile(r"\b(?:call|calling|called|name|named|renamed|goes\s+by)\b", re.I)


@dataclass(frozen=True, slots=True)
class LaterChange:
    """What the user said is so now, in the message that changed ``fact``."""

    sentence: str
    source: Recollection
    fact: MemoryItem


def changed_later(
    memory: MemoryService, facts: Sequence[Recollection], question: str, excluded: Collection[str]
) -> LaterChange | None:
    """The newest change, said after one of ``facts`` was learned, that names its value; None
    when no later message does."""
    people = {w for name in people_by_name(memory) for w in stems(name)}
    asked = stems(question)
    found: LaterChange | None = None
    read: dict[str, list[MemoryItem]] = {}  # the conversations read, for every fact
    for recollection in facts:
        fact = recollection.item
        # a person's name is no value of what is said of them, unless the name is asked
        # ("we're calling her Nutmeg now, Pickle just didn't suit her")
        # (one who cares for the user is changed by another: "switched physios ... Now I see
        # Amy Reid"; a pet or a relative only by a new name)
        named = fact.subject_key.startswith("name_of:")
        role = fact.subject_key.partition(":")[2].casefold()
        renamed = named and role not in CARERS
        values = _values_of(fact.text) - (set() if named else people) - asked - _FRAME
        # of a fact naming several, the one asked: "how much is my Spotify?" is not changed by
        # "killed Disney+" ("User is paying for Spotify (11.99), Disney+ (8.99) and iCloud")
        named_asked = _values_of(fact.text) & asked - _FRAME
        if not values:
            continue
        taught = {p.episode_id for p in fact.provenance}
        query = f"{question} {' '.join(sorted(values))}"
        episodes = memory.search(query, limit=RECALL_DEPTH, kinds=(EPISODIC,), exclude=excluded)
        about = {w for w in stems(fact.text) if len(w) > 3 and w not in STOPWORDS} - values
        for episode in with_what_followed(memory, episodes, read=read):
            item = episode.item
            if item.created_at <= fact.created_at or item.id in taught or question_only(item):
                continue
            if found is not None and item.created_at <= found.source.item.created_at:
                continue
            if named_asked and not stems(item.user_text) & named_asked:
                continue
            ended = values & stems(item.user_text) and ENDED.search(item.user_text)
            if named and not renamed and role not in stems(item.user_text) and not ended:
                # a new physio is told of the physio, not of a race ("Hiroshi and I"), or
                # after the old one ended ("Abernathy retired ... first lesson with Rafael")
                continue
            if (
                named
                and not renamed
                and values & stems(item.user_text)
                and not ENDED.search(item.user_text)
                and not re.search(
                    rf"\b(?:switch|chang|swap|new)\w*\s+(?:\w+\s+)?{re.escape(role)}",
                    item.user_text,
                    re.IGNORECASE,
                )
            ):
                # "Dr Okafor says ... so we switched him to Royal Canin": still hers (not
                # "switched physios. Kowal kept cancelling on me")
                continue
            said = _so_now(item.user_text, values, renamed=renamed)
            then = str((item.meta or {}).get(THEN, ""))
            if said is None and then:
                # told over two messages: "mum's changed her mind about where she's going" |
                # "it's Tavira now, not Lagos"; "had to change my yoga days" | "so it's
                # mondays and fridays now"
                said = _so_now(f"{item.user_text.rstrip()}. {then}", values, renamed=renamed)
                said = said or _headline_then(item.user_text, then, values, about)
            if said is not None:
                found = LaterChange(said, episode, fact)
    return found


def _values_of(text: str) -> set[str]:
    return {w for match in _VALUE.finditer(text) for w in stems(match.group(0))}


def _so_now(message: str, values: set[str], *, renamed: bool = False) -> str | None:
    """What ``message`` says is so now, when it names one of ``values`` and says a change:
    the naming sentence without its clauses that name them, else the sentence after it.
    ``renamed``: the values are a name, and only a sentence that names anew changes it
    ("moved Pimenta's checkup to monday" is no new name)."""
    if not (_CHANGED.search(message) or ENDED.search(message)):
        return None
    sentences = told_sentences(message)
    for at, sentence in enumerate(sentences):
        if not stems(sentence) & values or (renamed and not _NAMING.search(sentence)):
            continue
        parts = [p.strip() for p in PARTS.split(what_is_so(sentence)) if p.strip()]
        naming = [p for p in parts if stems(p) & values]
        if naming and all(_STILL.search(p) for p in naming):
            return None  # "my sister's the one in Leeds now, I'm still in York": York stands
        kept = [p for p in parts if not stems(p) & values]
        rest = ", ".join(re.sub(r"^(?i:so|and)\s+", "", p) for p in kept)
        if len(rest.split()) >= 3 and _NEW_VALUE.search(f" {rest}"):
            return rest
        # (or one of the two after it: "I dropped Japanese. | the kanji broke me. | doing
        # Korean now with a tutor")
        for after in sentences[at + 1 : at + 3]:
            if stems(after) & values:
                return None
            if _NEW_VALUE.search(f" {after}"):
                return after
        return None
    return None


def _headline_then(message: str, then: str, values: set[str], about: set[str]) -> str | None:
    """A change said of the thing a fact is about, with no value ("had to change my yoga
    days"), and the new value in the message after it ("so it's mondays and fridays now"):
    both, when the later one names none of the old ``values``."""
    sentences = told_sentences(message)
    if not sentences or not _HEADLINE_CHANGE.search(sentences[-1]):
        return None
    if not stems(sentences[-1]) & about or stems(message) & values:
        return None
    after = told_sentences(then)
    if not after or stems(then) & values or not _NEW_VALUE.search(f" {after[0]}"):
        return None
    headline = what_is_so(sentences[-1]).rstrip()
    return f"{headline}{'' if headline[-1:] in '.!?' else '.'} {after[0]}"


_HEADLINE_CHANGE: Final = re.compile(
    r"\b(?:chang(?:e|ed|es|ing)|switch(?:ed)?|swap(?:ped)?|mov(?:e|ed)|(?:re)?shuffled|"
    r"rearranged|different)\b",
    re.IGNORECASE,
)


__all__ = ["LaterChange", "changed_later"]
