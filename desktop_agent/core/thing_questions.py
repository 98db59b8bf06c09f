"""Questions about a thing the user told of, asked without "my": "when's the dentist?", "what
night is pottery on now?", "the wifi password?". The user's own sentence that says the thing
answers, or a change to it said since; else the model does ("what's the capital of France?"
after "off to France in May").
"""

from __future__ import annotations

import re
from collections.abc import Collection
from dataclasses import replace
from typing import Final

from desktop_agent.core.current_words import current
from desktop_agent.core.grounding import content_words, stems
from desktop_agent.core.grounding_words import the_thing
from desktop_agent.core.memory_model import EPISODIC
from desktop_agent.core.memory_service import MemoryService
from desktop_agent.core.named_people import RECALL_DEPTH
from desktop_agent.core.questions import asks_only, asks_the_past, question_only
from desktop_agent.core.said_by_meaning import before_a_change
from desktop_agent.core.statement_wording import (
    NAME_SAID,
    NAMES_SOMEONE,
    kind_asked,
    what_is_so,
)
from desktop_agent.core.statements import (
    Statement,
    best_statement,
    changed_since,
    clipped,
    counted_in,
    inflected,
    parts_saying,
    with_next,
)
from desktop_agent.core.user_sentences import told_sentences


def said_of_it(memory: MemoryService, text: str, excluded: Collection[str]) -> Statement | None:
    """The user's sentence that says the two or more words of a question naming no one ("what
    night is pottery on now?" after "started a pottery class, wednesday nights 7pm"), or the
    one thing it names with "the" when it asks when or where ("when's the dentist?"), or a
    change to it said since; for the past, the words before that change. None when no
    sentence says them all ("what's the capital of France?" after "off to France in May")."""
    # ("how many people is the booking for?" asks of people and the booking)
    asked = content_words(text) & stems(text) - _HOW_MANY
    if any(w[:1].isupper() for w in re.findall(r"[\w'’-]+", text)[1:]):
        return None
    # "when's the dentist?": one thing named with "the", asked when or where it is
    # ... or said bare ("when is pottery now?", "how much is netflix?"), answered only by a
    # sentence saying when (how much)
    bare = len(asked) == 1 and _WHEN_WHERE_HOW_MUCH.match(text) is not None
    if (
        len(asked) < 2
        and not bare
        and not (_WHEN_WHERE_HOW_MUCH.match(text) and asked and asked <= the_thing(text))
    ):
        return None
    hidden = {*excluded, *memory.outdated_episodes()}
    episodes = memory.search(text, limit=RECALL_DEPTH, kinds=(EPISODIC,), exclude=hidden)
    found = best_statement(text, episodes)
    # (a change said since is quoted for it: the words are counted in what it changes)
    if found is None:
        return None
    # "colour of the new cabinets?": the thing named with "the" is one the user told of;
    # "what day does book club meet now?": two of its words, and the kind asked ("moving to
    # the second wednesday")
    says = kind_asked(text)
    of_kind = found.shared >= 2 and says is not None and bool(says.search(found.sentence))
    if bare and not the_thing(text) and not (says is not None and says.search(found.sentence)):
        return None
    if found.shared < len(asked) and not the_thing(text) & stems(found.sentence) and not of_kind:
        return None
    if not asks_the_past(text):
        return found
    # "what was the starting dose?": the words before the change, in what is outdated too
    episodes = memory.search(text, limit=RECALL_DEPTH, kinds=(EPISODIC,), exclude=excluded)
    return best_statement(text, episodes, reasons=True)


_WHEN_WHERE_HOW_MUCH: Final = re.compile(
    r"\s*(?:when|where|what\s+(?:time|day|date)|which\s+(?:day|date)|how\s+(?:much|many))\b",
    re.IGNORECASE,
)
_HOW_MANY: Final = frozenset({"much", "many"})


# Questions that ask for advice, ideas or how something works, not for what the user told:
# "what should I get Nia for her birthday?", "can you explain how a deposit works?"
ADVICE: Final = re.compile(
    r"\b(?:what|which|where|how)\s+(?:should|shall|could|can)\s+(?:i|we)\s+(?:get|buy|gift|cook|"
    r"make|do|wear|watch|read|say|bring|plan|eat|order|try|visit|go|spend|celebrate)\b|"
    r"\b(?:ideas?|suggest\w*|recommend\w*|tips?|advice|advise|explain|how\s+(?:does|do)\s+"
    r"(?:an?|the|one|you)\b|what\s+is\s+an?\b|what\s+are\s+(?:some|good)\b)",
    re.IGNORECASE,
)
# Words that say the kind of thing asked, not the thing: "time" in "what time is physio?"
_KIND_WORDS: Final = frozenset(
    stems("time day date night week month year much many long old name called heavy tall big "
          "far cost price number amount kind sort type")
)  # fmt: skip
# What asks a measure, which only a number says: "how heavy is Rolo?", "how tall is Mia?"
_MEASURE_ASKED: Final = re.compile(r"\bhow\s+(?:heavy|tall|big|far|high|deep)\b|\bweigh", re.I)
_NUMBER: Final = re.compile(r"\d")
# Where something is, said: "at Parkside pool", "in Leeds", "on Hill Lane"
_WHERE_ASKED: Final = re.compile(r"^\s*(?:and\s+)?where\b", re.IGNORECASE)
_PLACE_SAID: Final = re.compile(r"\b(?:at|in|on|near)\s+(?:the\s+)?[\w'’-]+", re.IGNORECASE)
_WHO_ASKED: Final = re.compile(r"^\s*(?:and\s+)?who\b", re.IGNORECASE)


def said_at_last(memory: MemoryService, text: str, excluded: Collection[str]) -> Statement | None:
    """The last resort before the model, for a question no rule knows ("how heavy is Rolo?",
    "how much is the deposit?"): the user's sentence that says the thing it asks of (every word
    of it but one at most, a name always) and the kind of thing asked (a number, a time, a
    place, someone), the newest of those that say as much; or a change to it said since. None
    for a question asking for advice or about the past, or when no sentence says both: "how
    heavy is a blue whale?" after "Rolo weighs 9kg" asks the model."""
    if not asks_only(text) or ADVICE.search(text) or asks_the_past(text):
        return None
    thing = (content_words(text) & stems(text)) - _KIND_WORDS
    if not thing:
        return None
    if not _kind_of(text) and len(thing) < 2:
        return None  # "what is pottery?", "what's the weather like?": one word is no answer
    names = {w for w in thing if _is_name(w, text)}
    # (one word of three or more may be said otherwise: "physio" for "my shoulder physio")
    allowed = 1 if len(thing) >= 3 else 0
    hidden = {*excluded, *memory.outdated_episodes()}
    episodes = current(
        memory, memory.search(text, limit=RECALL_DEPTH, kinds=(EPISODIC,), exclude=hidden)
    )
    best: Statement | None = None
    best_key: tuple[int, float] | None = None
    for recollection in episodes:
        if question_only(recollection.item):
            continue
        for sentence in told_sentences(recollection.item.user_text):
            missed = _missed(thing, sentence)
            if missed & names or len(missed) > allowed:
                continue
            found = with_next(Statement(clipped(what_is_so(sentence, text)), recollection, 0), text)
            key = (len(thing) - len(missed), recollection.item.created_at.timestamp())
            if _says_kind(text, found.sentence) and (best_key is None or key > best_key):
                best, best_key = replace(found, shared=key[0]), key
    if best is None:
        return None
    changed = changed_since(best, episodes, content_words(text), text)
    return with_next(changed, text) if changed is not None else best


def said_before_at_last(
    memory: MemoryService, text: str, excluded: Collection[str]
) -> Statement | None:
    """The last resort for a question about the past no rule knows ("what was the old network
    name?", "where was Kofi's party originally meant to be?"): the user's oldest sentence that
    says the thing and the kind asked, when a later message tells a change to it; without a
    change since, what was said is what is so, and no answer about the past."""
    if not asks_only(text) or ADVICE.search(text) or not asks_the_past(text):
        return None
    thing = (content_words(text) & stems(text)) - _KIND_WORDS - _PAST_WORDS
    names = {w for w in thing if _is_name(w, text)}
    allowed = 1 if len(thing) >= 3 else 0
    episodes = memory.search(text, limit=RECALL_DEPTH, kinds=(EPISODIC,), exclude=excluded)
    asked = content_words(text) - _PAST_WORDS
    best: Statement | None = None
    best_key: tuple[int, float] | None = None
    for recollection in episodes:
        if question_only(recollection.item):
            continue
        for sentence in told_sentences(recollection.item.user_text) if thing else ():
            missed = _missed(thing, sentence)
            if missed & names or len(missed) > allowed:
                continue
            found = with_next(Statement(clipped(sentence), recollection, 0), text, past=True)
            # (the oldest of those that say as much)
            key = (len(thing) - len(missed), -recollection.item.created_at.timestamp())
            if best_key is not None and key <= best_key or not _says_kind(text, found.sentence):
                continue
            if changed_since(found, episodes, asked, text) is not None:
                best, best_key = found, key
    if best is None:
        # by meaning: the words before the change nearest to the question ("soft play
        # cancelled on us so the party's moving" for "where was Kofi's party meant to be?")
        best = before_a_change(text, episodes, memory.embedder.embed)
    if best is None or not _says_kind(text, best.sentence) or _kind_of(text) is None:
        return None
    # only the parts that say the kind asked: the rest of an old message may be anything
    # ("home wifi is called NetGoblin" of "my phone's a pixel 7, home wifi is called ...")
    said = parts_saying(best.sentence, lambda part: _says_kind(text, part))
    return replace(best, sentence=said) if said else None


# Words of a question about the past that say when, not what: "the old school", "originally
# meant to be", "what was the bike that got stolen"
_PAST_WORDS: Final = frozenset(
    stems("old original originally before previous previously used first earlier initially "
          "former back then meant supposed planned happen got")
)  # fmt: skip


def _missed(thing: set[str], sentence: str) -> set[str]:
    """The words of ``thing`` that ``sentence`` does not say, in any form ("swim" is said by
    "swimming")."""
    said = stems(sentence)
    return {
        w
        for w in thing
        if w not in said
        and not inflected({w}) & said
        and not (len(w) >= 4 and any(s.startswith(w) for s in said))
    }


def _is_name(word: str, text: str) -> bool:
    """Whether ``word`` is a name in ``text`` (capitalised after its first word)."""
    later = re.findall(r"[\w'’-]+", text)[1:]
    return any(w[:1].isupper() and w.casefold().startswith(word) for w in later)


def _kind_of(question: str) -> re.Pattern[str] | None:
    """What a sentence must say to answer the kind of thing ``question`` asks: a number for a
    measure, a time, an amount, a name, a place for "where", someone for "who"; else None."""
    if _MEASURE_ASKED.search(question):
        return _NUMBER
    if (kind := kind_asked(question)) is not None:
        return kind
    if _WHERE_ASKED.match(question):
        return _PLACE_SAID
    return NAMES_SOMEONE if _WHO_ASKED.match(question) else None


def _says_kind(question: str, sentence: str) -> bool:
    """Whether ``sentence`` says the kind of thing ``question`` asks, when it asks one."""
    kind = _kind_of(question)
    if kind is NAME_SAID and NAMES_SOMEONE.search(sentence):
        return True  # "vet is Dr. Folake Adeyemi at Brookside" for "what's the vet's name?"
    if (counted := counted_in(question)) is not None and not counted.search(sentence):
        return False  # "how many hours does she do?": "3 hours", not "£17 an hour"
    return kind is None or kind.search(sentence) is not None


__all__ = ["ADVICE", "said_at_last", "said_before_at_last", "said_of_it"]
