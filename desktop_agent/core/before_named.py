"""The past asked as what came before something named: "which car did I have before the
Skoda?", "who was my dentist before Dr. Farouk?", "what phone did I have before this iphone?".

The question names the new value, so the message that first named it is where the change was
told, whether or not it says a change in words ("picked up a grey 2019 Skoda Octavia estate
on saturday" after "we finally swapped the Astra!"); what came before is the user's sentence,
said before that message, about what it changed (``statements.said_before``).
"""

from __future__ import annotations

import re
from collections.abc import Collection, Sequence
from typing import Final

from desktop_agent.core.grounding import content_words, stems
from desktop_agent.core.memory_service import Recollection
from desktop_agent.core.questions import question_only
from desktop_agent.core.statements import Statement, clipped, said_before, substance
from desktop_agent.core.user_sentences import told_sentences

# "before the Skoda", "before Dr. Farouk", "before Greenfield", "before this iphone", "before
# the new one"; a name (capitalised) or what "this" or "the new" points at.
_BEFORE: Final = re.compile(
    r"\b(?i:before)\s+(?:(?:the|my|our|his|her|their)\s+)?"
    r"(?!I\b|I['’])(?P<name>(?:(?i:dr|mr|mrs|ms|prof)\.?\s+)?[A-ZÀ-Ý][\w'’-]*(?:\s+[A-ZÀ-Ý][\w'’-]*)*)"
    r"|\b(?i:before)\s+(?:this|the\s+new|my\s+new|our\s+new)\s+(?P<thing>[a-z][\w'’-]*)"
)
_TITLES: Final = frozenset({"dr", "mr", "mrs", "ms", "prof"})


def named_new(question: str) -> set[str]:
    """The stems of what ``question`` says came after the past it asks about; empty when it
    names nothing ("before the move" names an event, not the new value)."""
    found = _BEFORE.search(question)
    if found is None:
        return set()
    name = found["name"] or found["thing"]
    return {w for w in stems(name) if w not in _TITLES}


def before_named(
    question: str, episodes: Sequence[Recollection], known: Collection[str] = ()
) -> Statement | None:
    """The user's words before the message that first named what ``question`` says came
    after ("before the Skoda"), about what that message changed; None when the question names
    nothing or no message before named it. ``known``: the names the current facts that answer
    the question give; when none is it, the change was missed ("still unpacking
    boxes in Haarlem" beside "User lives in Utrecht"), and no sentence is sure to be its past."""
    new = named_new(question)
    place = _PLACE_ASKED.match(question) is not None
    if not new and place and (thing := _BEFORE_THE.search(question)):
        new = stems(thing["thing"])  # "where did Ngozi work before the hospital?"
    if not new or known and not new & set(known):
        return None
    first: tuple[float, Statement] | None = None
    for recollection in episodes:
        item = recollection.item
        if question_only(item):
            continue
        for sentence in told_sentences(item.user_text):
            if new <= stems(sentence):
                when = item.created_at.timestamp()
                if first is None or when < first[0]:
                    first = (when, Statement(sentence, recollection, 0))
                break
    if first is None:
        return None
    found = said_before(first[1], episodes, content_words(question) - new)
    if place and (found is None or not _names_a_place(found.sentence, new)):
        # "where did we live before Leeds?": what was before names a place too ("still in
        # Sheffield for now, ... | offered a job in Leeds so we're moving in the spring";
        # "finally leaving the Brixton flatshare" before "first week in Walthamstow done")
        return _place_before(first[1], episodes, new) or found
    return found


# A question asking where, and the words that name a place: a capitalised word after "in",
# "at", "from", "the" ... ("at KPMG", "the Brixton flatshare", "just off Ecclesall Road").
_PLACE_ASKED: Final = re.compile(r"\s*(?:and\s+)?where\b", re.IGNORECASE)
_BEFORE_THE: Final = re.compile(r"\bbefore\s+the\s+(?P<thing>[a-z][\w'’-]+)\s*[?.!]*$", re.I)
_PLACE: Final = re.compile(
    r"\b(?i:in|at|from|off|near|to|the|our|my)\s+(?P<place>[A-ZÀ-Ý][\w'’-]*)"
)


def _names_a_place(sentence: str, new: set[str]) -> bool:
    return any(not stems(m["place"]) & new for m in _PLACE.finditer(sentence))


def _place_before(
    first: Statement, episodes: Sequence[Recollection], new: set[str]
) -> Statement | None:
    """The sentence naming a place said before ``first`` (which first named the new one): in
    its own message, the nearest before it; else in an earlier message that shares a word of
    substance with it ("moving in with Kwame next month!! | finally leaving the Brixton
    flatshare" before "first week in Walthamstow done, Kwame has already claimed ..."), the
    newest."""
    told = first.source.item
    subject = substance(first.sentence) - new
    best: tuple[tuple[bool, float, int], Statement] | None = None
    for recollection in episodes:
        item = recollection.item
        same = item.id == told.id
        if question_only(item) or not same and item.created_at >= told.created_at:
            continue
        sentences = told_sentences(item.user_text)
        if same:
            at = next((n for n, s in enumerate(sentences) if new <= stems(s)), 0)
            sentences = sentences[:at]
        elif not substance(item.user_text) & subject:
            continue
        for n, sentence in enumerate(sentences):
            if not _names_a_place(sentence, new):
                continue
            key = (same, item.created_at.timestamp(), n)
            if best is None or key > best[0]:
                best = (key, Statement(clipped(sentence), recollection, 0, earlier=True))
    return None if best is None else best[1]
