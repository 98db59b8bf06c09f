"""Grounded answers: when the user asks about themselves, the reply states what is remembered.

The bundled 135M model, shown "The user is allergic to peanuts" and asked "What am I allergic
to?", answered "What's the most common allergy in your area?". So for questions about the user
the core picks the facts that answer the question (current values after corrections; the
superseded ones with their dates for questions about the past) and composes a short sentence
from them. A capable model may answer instead, but its answer must name the remembered value and
no superseded one, or the composed answer is used (``check_answer``).

What a question asks about is read in ``grounding_words``; the remembered sentences are said
back in the second person by ``grounding_wording``.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

from desktop_agent.core.grounding_kinds import kinds_named, names_one_of
from desktop_agent.core.grounding_wording import (
    _joined,
    _lower_first,
    _used_to,
    contracted,
    counted_together,
    second_person,
)
from desktop_agent.core.grounding_words import (
    _KIN,
    _QUESTION_FRAME,
    _WEAK_SLOT_WORDS,
    _WORD,
    RELATIONS,
    _key_parts,
    _relation_in,
    _relation_words,
    _stem,
    content_words,
    kin_asked,
    slot_keys,
    stems,
    unnamed_words,
    with_verbs,
)
from desktop_agent.core.memory_model import MemoryItem
from desktop_agent.core.memory_service import Recollection
from desktop_agent.core.questions import SLOT_WORDS, AboutUser
from desktop_agent.core.statement_wording import WHEN_SAID, kind_asked, what_is_so
from desktop_agent.core.turn import QUOTE_OPENING
from desktop_agent.search.tokenize import STOPWORDS

# Above this cosine a fact answers a question even with no slot or word in common.
_CLOSE: Final = 0.55
# What is said when nothing remembered answers a question about the user.
DONT_KNOW: Final = "I don't know that yet: you haven't told me."


@dataclass(frozen=True, slots=True)
class GroundedAnswer:
    """The composed reply, the memories it states, and the words a model's answer is held to."""

    text: str
    facts: tuple[Recollection, ...]
    past: tuple[MemoryItem, ...] = ()
    values: tuple[str, ...] = ()  # words of the current values: a model's answer names one
    stale: tuple[str, ...] = ()  # words only superseded values have: an answer names none

    @property
    def known(self) -> bool:
        return bool(self.facts or self.past)


def select_facts(question: AboutUser, found: Sequence[Recollection]) -> list[Recollection]:
    """Among recalled semantic memories, those that answer ``question``."""
    if question.everything:
        return list(found)
    # "which days do I work out?" asks about exercise, not the job "work" names
    asked = _WORK_OUT.sub("exercise", question.text.casefold())
    relation = _relation_in(asked)
    # ("who's my manager at work?" asks the manager: "at work" only says which one)
    slotted = _AT_WORK.sub("", asked)
    named = {
        family: {w for w in words if re.search(rf"\b{re.escape(w)}\b", slotted)}
        for family, words in SLOT_WORDS.items()
    }
    families = {family for family, said in named.items() if said}
    # Slots the question names by more than a question word: "where" alone does not make
    # "where do I keep my spare key?" a question about the city the user lives in.
    strong = {family for family, said in named.items() if said - _WEAK_SLOT_WORDS}
    if relation and relation not in _KIN["partner"]:
        # "when am I seeing the dentist?": seeing someone named is no question about a partner
        families.discard("partner")
        strong.discard("partner")
    theirs = _theirs(relation, asked) if relation else ""
    if theirs == "thing":
        # "what's the name of my son's school?": the school's name, not the son's
        families -= {"name", "name_of"}
        strong -= {"name", "name_of"}
    if _DOES_FOR_WORK.search(asked):
        families.add("job")  # "what does my brother do?": his job, not his name or his city
        strong.add("job")
    words = content_words(asked)
    slot_words = {_stem(w) for family in families for p in SLOT_WORDS[family] for w in p.split()}
    # "Who's my favourite author?" names what it asks about: a fact of the slot that does not
    # name it ("User's favourite food is ramen") does not answer it.
    unnamed = bool(words - slot_words - _relation_words(relation))
    kin = _KIN.get(relation, {relation}) if relation else set()
    # What else is said of them may answer "where does my dad live?", but not "is my friend
    # pregnant?" (what no slot names, asked yes or no) nor "when is my friend due?" (a time
    # no fact of hers says): her job and her city do not.
    asks_beyond = unnamed and not strong and bool(_YES_NO.match(asked))
    when_asked = kind_asked(asked) is WHEN_SAID
    # Best first: the slot and a word in common, the slot alone, a word alone, close meaning.
    tiers: list[list[Recollection]] = [[], [], [], []]
    kinds = kinds_named(words)  # "what sport ...?": a fact naming a sport says one
    for recollection in found:
        item = recollection.item
        key_parts = _key_parts(item.subject_key)
        # a correction in the user's words answers what the fact it replaced was about
        about = f"{item.text} {(item.meta or {}).get('about', '')}"
        said = with_verbs({_stem(w) for w in _WORD.findall(about.casefold())})
        if relation and not (kin & (said | key_parts)):
            continue
        if question.named:
            if question.named.casefold() in said:
                tiers[2].append(recollection)
            continue
        # "Who am I dating?" names the partner slot itself: "User's partner is Jordan" answers.
        named_slot = item.subject_key.casefold().partition("name_of:")[2]
        # ("name_of:boyfriend" is the partner slot too: its key parts say "partner")
        own_slot = named_slot in families or (
            "partner" in families & key_parts and bool(named_slot)
        )
        if not relation and _about_someone(item.text) and not own_slot:
            continue  # "what's my name?" is not answered by the sister's; "who am I dating?" is
        shared = words & said - kin - slot_words
        if _NEGATED.search(item.text) and not shared:
            continue  # "User is not allergic to cats" answers "am I allergic to cats?" only
        if families & key_parts:
            tiers[0 if shared else 1].append(recollection)
        elif shared or names_one_of(kinds, said):
            tiers[2].append(recollection)
        elif (
            relation and not asks_beyond and not (when_asked and not WHEN_SAID.search(item.text))
        ) or recollection.hit.vector_score >= _CLOSE:
            tiers[3].append(recollection)
    if unnamed and not question.past:
        # Only a qualified slot needs its qualifier named: "favorite:food" does not answer
        # "who's my favourite author?", but "home_city" answers "which city am I based in?",
        # and "learning:cello" answers "what instrument am I learning?" (a cello is one).
        tiers[1] = [
            r
            for r in tiers[1]
            if (":" not in r.item.subject_key and strong & _key_parts(r.item.subject_key))
            or names_one_of(kinds, _WORD.findall(r.item.text))
            or kin & _key_parts(r.item.subject_key)  # "plan:dentist appointment", the dentist
        ]
    # "Where do I work?": the job answers, never the city "where" points at (not even when no
    # job is remembered: then the answer is that it is not known).
    if strong:
        tiers[1] = [r for r in tiers[1] if strong & _key_parts(r.item.subject_key)]
    tiers[0], tiers[1] = _most_specific(tiers[0], families), _most_specific(tiers[1], families)
    if theirs == "person":
        # "what's my sister's boyfriend called?": his name, not hers, nor what else is said of
        # her (the user's words may say his)
        return []
    # ("how many cats do we have?" is answered by their names)
    names_asked = bool(families & {"name", "name_of"} or _HOW_MANY.search(asked))
    if relation and (unnamed or strong) and not names_asked:
        # "where does my dad live?" is not answered by "User's dad is named Hiroshi" (the
        # user's words may say it); what else is said of him may
        tiers[3] = [r for r in tiers[3] if not _BARE_NAME.match(r.item.text)]
    return next((tier for tier in tiers[:3] if tier), tiers[3][:2])


def _theirs(relation: str, asked: str) -> str:
    """What ``asked`` names of the relation's after it: "thing" ("my son's school", "my
    sister's wedding"), "person" ("my sister's boyfriend", "his piano teacher"), or "" (not
    "my sister's name")."""
    after = re.search(rf"\b{re.escape(relation)}\w*['’]s?\s+([a-z]+)(?:\s+([a-z]+))?", asked)
    if after is None or _stem(after.group(1)) in _NAMING:
        return ""
    return "person" if {_stem(w) for w in after.groups() if w} & _PEOPLE else "thing"


_HOW_MANY: Final = re.compile(r"\bhow\s+many\b")
_AT_WORK: Final = re.compile(r"\bat\s+work\b")
_YES_NO: Final = re.compile(r"\s*(?:is|are|was|were|does|do|did|has|have|had)\b")
_NAMING: Final = frozenset({"name", "full", "called", "named", "nickname"})
_PEOPLE: Final = frozenset(_stem(r) for r in RELATIONS)
# A fact that only names someone: "User's dad is named Hiroshi".
_BARE_NAME: Final = re.compile(
    r"^User's (?:[\w'’-]+\s+){1,3}(?:is|are)\s+(?:named|called)\s+[^,;]+$"
)


def _words_of(sentence: str) -> frozenset[str]:
    return frozenset(_WORD.findall(sentence.casefold()))


def _most_specific(tier: list[Recollection], families: set[str]) -> list[Recollection]:
    """ "How long have I been with my partner?" names two slots, and "partner:together" fills
    both: it answers, not "name_of:partner", which fills one."""
    fills = [len(families & _key_parts(r.item.subject_key)) for r in tier]
    most = max(fills, default=0)
    return [r for r, n in zip(tier, fills, strict=True) if n == most] if most >= 2 else tier


_USER: Final = re.compile(r"\bUser\b")


def compose(
    question: AboutUser,
    facts: Sequence[Recollection],
    past: Sequence[MemoryItem] = (),
) -> GroundedAnswer:
    """A short natural answer stating ``facts`` (and ``past`` ones for a question about the
    past); when nothing is known it says so instead of guessing."""
    how_many = re.match(r"\s*how\s+many\b", question.text, re.IGNORECASE) is not None
    # a count the user told ("User has three kids") beats the names counted
    how_many = how_many and not any(_A_COUNT.search(r.item.text) for r in facts)
    # a fact kept in the user's words says what it is now, not what it replaced ("Tesla
    # delivery got pushed, | we ended up signing for a Hyundai Ioniq 5 instead")
    texts = [
        r.item.text if _USER.search(r.item.text) else what_is_so(r.item.text, question.text)
        for r in facts
    ]
    said = [contracted(second_person(t)) for t in (counted_together(texts) if how_many else texts)]
    # "User has two daughters, Ruby and Jade" beside their names, counted: said once
    current = [s for i, s in enumerate(said) if _bare(s) not in {_bare(t) for t in said[:i]}]
    # "You work at Skyscanner" says nothing "You work as an engineer at Skyscanner" does not
    current = [s for s in current if not any(_words_of(s) < _words_of(t) for t in current)]
    values = _values([r.item for r in facts])
    stale = tuple(sorted(set(_values(past)) - set(values)))
    if question.past:
        if past:
            before = "; ".join(
                f"{_used_to(item.text)}{_until(item)}" for item in _newest_first(past)
            )
            text = f"Before that, {before}."
            if current:
                now = re.sub(r"^now\s+", "", _lower_first(_joined(current)))
                text += f" Now {now}."
            return GroundedAnswer(text, tuple(facts), tuple(past), values, stale)
        if current:
            return GroundedAnswer(
                f"I have nothing earlier on record. As far as I know, {_lower_first(_joined(current))}.",
                tuple(facts),
                (),
                values,
            )
    if not current and past:  # only the past was told: "you used to smoke"
        before = "; ".join(_used_to(item.text) for item in _newest_first(past))
        text = f"{before[:1].upper()}{before[1:]}; I don't know about now."
        return GroundedAnswer(text, (), tuple(past), _values(past))
    if not current:
        if question.everything:
            text = (
                "I don't know anything about you yet. Tell me about yourself and I'll remember it."
            )
        else:
            text = DONT_KNOW
        return GroundedAnswer(text, (), (), (), stale)
    if question.everything:
        text = f"Here's what I know about you: {_lower_first(_joined(current))}."
    else:
        text = f"{_joined(current)}."
    return GroundedAnswer(text, tuple(facts), (), values, stale)


def quoted(sentence: str, source: Recollection) -> GroundedAnswer:
    """The answer when no fact does but the user's own words do: quoted, linked to them."""
    words = [w for w in _WORD.findall(sentence.casefold()) if len(w) >= 3]
    frame = {"user", "you"} | _VERB_WORDS | set(STOPWORDS) | RELATIONS | _QUESTION_FRAME
    values = tuple(dict.fromkeys(w for w in words if w not in frame))
    return GroundedAnswer(f"{QUOTE_OPENING}: “{sentence}”", (source,), (), values)


def check_answer(answer: str, grounded: GroundedAnswer) -> bool:
    """A model's answer is kept when it names a remembered value and no superseded one."""
    said = {_stem(w) for w in _WORD.findall(answer.casefold())}
    if grounded.stale and said & {_stem(w) for w in grounded.stale}:
        return False
    if not grounded.values:
        return not grounded.known
    return bool(said & {_stem(w) for w in grounded.values})


_DOES_FOR_WORK: Final = re.compile(
    r"^\s*what\s+(?:does|do)\s+(?!you\b)(?:[\w'’ -]+?)\s+do"
    # "now" only of someone else: "what do I do now?" asks for advice
    r"(?:\s+(?:these\s+days|nowadays|for\s+work|for\s+a\s+job|now(?<!\bi do now)))?"
    r"\s*[?.!]*$"
)
_A_COUNT: Final = re.compile(
    r"^User (?:has|have) (?:\d+|one|two|three|four|five|six|seven|eight|nine|ten)\b"
)
_WORK_OUT: Final = re.compile(r"\bwork(?:s|ing|ed)?\s+out\b")
_NEGATED: Final = re.compile(r"\b(?:not|no longer|never|doesn't|isn't|don't)\b", re.IGNORECASE)


def _bare(sentence: str) -> str:
    return re.sub(r"[^\w ]", "", sentence.casefold())


def _until(item: MemoryItem) -> str:
    return f" (until {item.valid_to:%-d %B %Y})" if item.valid_to else ""


def _newest_first(items: Sequence[MemoryItem]) -> list[MemoryItem]:
    return sorted(items, key=lambda i: i.valid_to or i.created_at, reverse=True)


def _values(items: Sequence[MemoryItem]) -> tuple[str, ...]:
    """The words that carry each fact's value ("Porto", "peanuts"): not the frame around it."""
    frame = {"user", "user's", "your", "you"} | _VERB_WORDS | set(STOPWORDS) | RELATIONS
    found: list[str] = []
    for item in items:
        for word in _WORD.findall(item.text.casefold()):
            if len(word) >= 3 and word not in frame and word not in found:
                found.append(word)
    return tuple(found)


_VERB_WORDS: Final = frozenset(
    "lives live works work likes like loves love enjoys enjoy hates hate prefers prefer called "
    "named name allergic is are was has have does not doesn't don't eat eats speaks speak "
    "favourite favorite born grew from plans plan going wants want".split()
)


def _about_someone(text: str) -> bool:
    """ "User's sister ...": a fact about one of the user's people, not the user."""
    found = re.match(
        r"User['’]s\s+(?:(?:best|older|younger|little|big|baby|eldest|youngest|twin)\s+)?(\w+)",
        text,
    )
    return found is not None and found.group(1).casefold() in RELATIONS


__all__ = [
    "RELATIONS",
    "GroundedAnswer",
    "check_answer",
    "compose",
    "content_words",
    "kin_asked",
    "quoted",
    "second_person",
    "select_facts",
    "slot_keys",
    "stems",
    "unnamed_words",
]
