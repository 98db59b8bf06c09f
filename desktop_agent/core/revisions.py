"""Applying the changes the user told (``extraction_changes``) to what is remembered.

An ended thing ("we had to rehome Rufus") supersedes every current fact that names it, so it
leaves answers, prompts and the lens, and stays on record as the past ("what was my dog
called?"). A replaced thing ("sold the Corolla and bought a Nissan Leaf") becomes a new version
of each fact that named it ("User drives a Nissan Leaf"), superseding the old one; a plan moved
to a new date becomes a new version with the date changed. Each change is linked to the words
that told it.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Sequence
from typing import Final

from desktop_agent.core.extraction_change_phrases import COMMUTE, MEDICATION, SURNAME
from desktop_agent.core.extraction_changes import PARTNER, VEHICLE, Change
from desktop_agent.core.extraction_dates import resolve_date
from desktop_agent.core.memory_model import SEMANTIC, MemoryItem, Provenance
from desktop_agent.core.memory_service import MemoryService
from desktop_agent.core.timeparse import MONTHS, WEEKDAYS
from desktop_agent.search.tokenize import STOPWORDS

# A change naming more current facts than this is too vague to be meant for all of them.
MOST_TOUCHED: Final = 3


def apply(
    memory: MemoryService,
    changes: Sequence[Change],
    source: Provenance,
    learned: Collection[str] = (),
) -> list[MemoryItem]:
    """Apply ``changes`` told in ``source``; ``learned``: ids stored from the same message,
    which are the news, not what it changes. Returns the new versions written."""
    written: list[MemoryItem] = []
    for change in changes:
        provenance = Provenance(source.episode_id, source.conversation_id, *change.span)
        if change.kind == "redate":
            # What moved, by name ("the pottery class"), among plans and routines; else the
            # plan just told or the latest one ("it's been pushed back to June").
            named = [t for t in naming(memory, change.old) if _timed(t)] if change.old else []
            latest = _latest_plan(memory, [w.id for w in written] + list(learned))
            for target in named[:MOST_TOUCHED] or ([latest] if latest is not None else []):
                weekly = target.subject_key.startswith("routine:")  # a day, not one date
                if (text := redated(target.text, change.new, resolve=not weekly)) != target.text:
                    written.append(revise(memory, target, text, provenance))
            continue
        if change.kind == "replace" and not change.old:
            # "we're going to Sicily instead": the latest trip, to the new place
            trip = _latest_trip(memory, learned)
            if trip is not None and (place := _TRIP_TO.search(trip.text)):
                written.append(
                    revise(memory, trip, substituted(trip.text, place[1], change.new), provenance)
                )
            continue
        if change.kind == "replace" and change.old == SURNAME:
            # "my surname is now Patel": "User's name is Sarah Jones" -> "... Sarah Patel"
            for item in [i for i in memory.active_facts() if i.subject_key == "name"][:1]:
                if found := re.search(r"\s[A-Z][\w'’-]*\s+([A-Z][\w'’-]+)\s*$", item.text):
                    text = item.text[: found.start(1)] + change.new
                    written.append(revise(memory, item, text, provenance))
            continue
        if change.kind == "replace" and change.old == MEDICATION:
            # "my GP switched me to citalopram": the one medicine taken, whichever it is
            taken = [
                i.subject_key.partition(":")[2]
                for i in memory.active_facts()
                if i.subject_key.startswith("medication:") and i.id not in learned
            ]
            if len(taken) != 1:
                continue
            change = Change("replace", taken[0], change.new, change.span)
        targets = [
            t for t in naming(memory, change.old) if t.id not in learned and t not in written
        ]
        if change.kind == "cancel":  # "the Berlin race got cancelled": the plans naming it
            memory.end([t.id for t in targets if _timed(t)][:MOST_TOUCHED], provenance)
            continue
        if not targets or len(targets) > MOST_TOUCHED:
            continue
        if change.kind == "end":
            # "I've left Deloitte, I'm at KPMG now": the job goes with the user to the new firm
            firm = _new_employer(memory, learned)
            moved = [t for t in targets if firm and t.subject_key == "job"]
            for target in moved:
                if (text := substituted(target.text, change.old, firm)) != target.text:
                    written.append(revise(memory, target, text, provenance))
            memory.end([t.id for t in targets if t not in moved], provenance)
            continue
        for target in targets:
            if re.search(rf"(?i:\b{re.escape(change.new)}\b)", target.text):
                # "... on Tuesday evenings over Zoom" | "going there on Tuesday evenings
                # instead of zoom": the new words are there already, so they are not what
                # replaced the old ("... on Tuesday evenings over Tuesday evenings")
                continue
            text = substituted(target.text, change.old, change.new)
            if _is_date_words(change.old) and _is_date_words(change.new):
                text = redated(target.text, change.new)  # the resolved date moves with it
            # "medication:warfarin" is the drug itself: the new one has its own slot
            key = target.subject_key
            if key.casefold() == f"medication:{change.old.casefold()}":
                key = f"medication:{change.new.casefold()}"
            if text != target.text:
                written.append(revise(memory, target, text, provenance, key))
    return written


def job_to_new_employer(
    memory: MemoryService, learned: Sequence[MemoryItem], source: Provenance
) -> list[MemoryItem]:
    """ "I've joined Skyscanner": the job remembered at another workplace moves to the new one
    ("User works as a software engineer at Monzo" -> "... at Skyscanner")."""
    if not any(i.subject_key == "employer" for i in learned):
        return []  # most messages: no scan of what is remembered
    firm = _new_employer(memory, {i.id for i in learned})
    if not firm or any(i.subject_key == "job" for i in learned):
        return []
    moved = []
    for item in memory.active_facts():
        at = (
            re.search(r"\s(?:at|for)\s+(.+?)\.?$", item.text) if item.subject_key == "job" else None
        )
        if at and at.group(1) != firm:
            moved.append(revise(memory, item, item.text[: at.start(1)] + firm, source))
    return moved


def _new_employer(memory: MemoryService, learned: Collection[str]) -> str:
    """The workplace told in the same message as a change ("User works at KPMG"), or ""."""
    for item in memory.active_facts():
        found = re.match(r"User works (?:at|for) (.+?)\.?$", item.text)
        if found and item.id in learned and item.subject_key == "employer":
            return found.group(1)
    return ""


_TRIP_TO: Final = re.compile(
    r"\b(?:going|travell?ing|flying|moving|heading|trip|holiday|vacation|visit)\s+to\s+"
    r"([A-Z][\w'’-]+)"
)


def _latest_trip(memory: MemoryService, learned: Collection[str]) -> MemoryItem | None:
    trips = [
        i
        for i in memory.active_facts()
        if _timed(i) and i.id not in learned and _TRIP_TO.search(i.text)
    ]
    return max(trips, key=lambda i: i.created_at, default=None)


def _is_date_words(text: str) -> bool:
    words = text.casefold().split()
    return bool(words) and any(w in MONTHS or w in WEEKDAYS or w[:1].isdigit() for w in words)


def naming(memory: MemoryService, word: str) -> list[MemoryItem]:
    """Current facts that name ``word`` (as a whole word, singular or plural); "job" names the
    job and employer slots ("I lost my job")."""
    if word.casefold() == "job":
        return [i for i in memory.active_facts() if i.subject_key in ("job", "employer")]
    if word == PARTNER:  # "we broke up": the partner, whatever the user called them
        return [i for i in memory.active_facts() if _about_partner(i.subject_key)]
    if word == VEHICLE:  # "it got written off": the user's vehicle
        return [i for i in memory.active_facts() if i.subject_key == VEHICLE]
    if word == COMMUTE:  # "I work from home full-time now"
        return [i for i in memory.active_facts() if i.subject_key == "routine:commute"]
    pattern = re.compile(rf"\b{re.escape(word)}(?:s|es)?\b", re.IGNORECASE)
    return [
        item
        for item in memory.active_facts()
        if item.kind == SEMANTIC and item.type != "task" and pattern.search(item.text)
    ]


_PARTNER_WORDS: Final = frozenset(
    "partner boyfriend girlfriend husband wife fiance fiancee".split()
)


def _about_partner(subject_key: str) -> bool:
    parts = subject_key.casefold().replace("é", "e").split(":")
    return len(parts) > 1 and parts[0] in ("name_of", "person") and parts[1] in _PARTNER_WORDS


def revise(
    memory: MemoryService,
    target: MemoryItem,
    text: str,
    provenance: Provenance,
    key: str | None = None,
    extra: dict[str, str] | None = None,
) -> MemoryItem:
    item = memory.remember(
        text,
        type=target.type,
        subject_key=key or target.subject_key,
        importance=target.importance,
        provenance=[provenance],
        reviewed=False,
        conversation_id=provenance.conversation_id,
        extra=extra,
    )
    if not target.subject_key or (key and key != target.subject_key):  # not superseded by slot
        memory.end([target.id], provenance)
    return item


def _timed(item: MemoryItem) -> bool:
    return item.type == "plan" or item.subject_key.startswith(("plan:", "routine:", "goal:"))


def _latest_plan(memory: MemoryService, preferred: Sequence[str]) -> MemoryItem | None:
    plans = [
        i for i in memory.active_facts() if i.type == "plan" or i.subject_key.startswith("plan:")
    ]
    for item in plans:
        if item.id in preferred:
            return item
    return max(plans, key=lambda i: i.created_at, default=None)


# --- the words -------------------------------------------------------------------------------

_WORD = re.compile(r"[\w'’-]+|[^\w\s]")


def substituted(text: str, old: str, new: str) -> str:
    """``text`` with the phrase around ``old`` replaced by ``new``: "User drives a red Toyota
    Corolla" with Corolla -> Nissan Leaf is "User drives a Nissan Leaf"."""
    words = text.split(" ")
    index = next(
        (i for i, w in enumerate(words) if re.fullmatch(rf"{re.escape(old)}(?:s|es)?\W*", w, re.I)),
        None,
    )
    if index is None:
        return text
    trailing = re.sub(r"^[\w'’-]+", "", words[index])
    start = index
    while start > 0 and _modifier(words[start - 1]):
        start -= 1
    # Modifiers only after an article: "a red Toyota Corolla", never the verb and its subject
    # in "User takes sertraline", "User's daughter plays netball".
    if start < index and (start == 0 or words[start - 1].casefold() not in _DETERMINERS):
        start = index
    end = index + 1
    # "a blue Vespa scooter to work", "a green Brompton bike, rain or shine": the noun the name
    # qualifies belongs to the phrase.
    if not trailing and end < len(words):
        after = words[end]
        bare = after.rstrip(",.;:!?()")
        closing = bare != after or end + 1 == len(words) or _closes(words[end + 1])
        if (_modifier(bare) or _MODEL_NUMBER.fullmatch(bare)) and closing:
            end += 1  # "an iPhone 12" is one phrase too
            trailing = after[len(bare) :]
    replaced = [*words[:start], new + trailing, *words[end:]]
    if start > 0 and replaced[start - 1].casefold() in ("a", "an"):
        replaced[start - 1] = _article(new, replaced[start - 1])
    return " ".join(replaced)


_MODEL_NUMBER: Final = re.compile(r"\d{1,4}[a-zA-Z]{0,3}")


_DETERMINERS: Final = frozenset("a an the his her their its our your my this that".split())


def _modifier(word: str) -> bool:
    bare = word.casefold().strip(",.;:!?()")
    return (
        bool(bare)
        and word == word.rstrip(",.;:!?()")
        and bare not in STOPWORDS
        and not bare.startswith("user")
        and bare not in MONTHS
        and not (bare.isdigit() and not re.fullmatch(r"(?:19|20)\d\d", bare))  # "a 2014 Mazda"
    )


def _closes(word: str) -> bool:
    return word.casefold().strip(",.;:!?()") in STOPWORDS or not word[:1].isalnum()


def _article(noun: str, was: str) -> str:
    article = "an" if noun[:1].casefold() in "aeiou" else "a"
    return article.capitalize() if was[:1].isupper() else article


_DAYS: Final = rf"(?:{'|'.join(WEEKDAYS)})s?"
_DATE: Final = re.compile(
    r"\b(?:(?:on|in|at)\s+)?(?:(?:the\s+)?\d{1,2}(?:st|nd|rd|th)?\s+(?:of\s+)?)?"
    rf"(?:{'|'.join(sorted((m for m in MONTHS if len(m) > 3 or m == 'may'), key=len, reverse=True))}"
    rf"|{_DAYS}(?:\s*,\s*{_DAYS})*(?:,?\s+(?:and|or|&)\s+{_DAYS})?)"  # "Mondays and Wednesdays"
    rf"\b(?:\s+\d{{1,2}}(?:st|nd|rd|th)?)?(?:,?\s+\d{{4}})?",
    re.IGNORECASE,
)
_RESOLVED: Final = re.compile(r"\s*\(\d{4}(?:-\d\d){0,2}\)")
# "at 4 pm", "at 9:30"
_TIME: Final = re.compile(
    r"\s*\bat\s+\d{1,2}(?:[:.]\d\d)?\s*(?:am|pm|a\.m\.|p\.m\.|o['’]clock)?\b", re.IGNORECASE
)


def redated(text: str, when: str, *, resolve: bool = True) -> str:
    """``text`` with its date moved to ``when``: "a trip to Peru in May" -> "... in August"."""
    bare = _RESOLVED.sub("", text)
    found = _DATE.search(bare)
    preposition = "on" if re.match(r"(?i)\d|" + "|".join(WEEKDAYS), when) else "in"
    if found:
        said = found.group(0)
        lead = re.match(r"(?i)(?:on|in|at)\s+", said)
        every = re.search(r"(?i)\b(?:every|each)\s+$", bare[: found.start()])
        # "on Tuesday evenings" -> "on Thursday evenings", not "Thursdays evenings"
        every = every or re.match(
            r"(?i)\s+(?:evening|morning|afternoon|night)s\b", bare[found.end() :]
        )
        if every and when.casefold().removesuffix("s") in WEEKDAYS:
            when = when[:-1] if when.endswith("s") else when  # "every Thursday", not "Thursdays"
        new = f"{lead.group(0) if lead else ''}{when}"
        rest = bare[found.end() :]
        if _TIME.search(when):
            rest = _TIME.sub("", rest, count=1) if _TIME.match(rest) else rest  # the old time
        bare = bare[: found.start()] + new + rest
    else:
        bare = f"{bare} {preposition} {when}"
    resolved = resolve_date(when) if resolve else ""
    return f"{bare} ({resolved})" if resolved and resolved not in bare else bare
