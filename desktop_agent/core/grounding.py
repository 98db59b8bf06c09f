"""Grounded answers: when the user asks about themselves, the reply states what is remembered.

The bundled 135M model, shown "The user is allergic to peanuts" and asked "What am I allergic
to?", answered "What's the most common allergy in your area?". So for questions about the user
the core picks the facts that answer the question (current values after corrections; the
superseded ones with their dates for questions about the past) and composes a short sentence
from them. A capable model may answer instead, but its answer must name the remembered value and
no superseded one, or the composed answer is used (``check_answer``).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

from desktop_agent.core.extraction_words import RELATIONS as RELATION_SLOTS
from desktop_agent.core.memory_model import MemoryItem
from desktop_agent.core.memory_service import Recollection
from desktop_agent.core.questions import SLOT_WORDS, AboutUser
from desktop_agent.search.tokenize import STOPWORDS

# The people and animals a fact can be about ("User's sister is called Ana").
RELATIONS: Final = frozenset(
    "sister sisters brother brothers mother mum mom father dad parents wife husband partner "
    "boyfriend girlfriend fiance fiancee son sons daughter daughters kid kids child children "
    "baby friend friends boss colleague coworker roommate flatmate grandmother grandma "
    "grandfather grandpa aunt uncle cousin niece nephew dog dogs cat cats pet pets puppy kitten "
    "horse rabbit hamster parrot family sibling siblings dentist doctor gp landlord landlady "
    "therapist trainer physio accountant lawyer solicitor vet hairdresser barber neighbour "
    "neighbor mentor tutor coach teacher manager supervisor midwife ex".split()
)
# A question about one of these is answered by facts naming any of its kin ("my pets" -> the
# dog called Pickle).
_KIN: Final[dict[str, set[str]]] = {
    "pet": {"pet", "dog", "cat", "puppy", "kitten", "horse", "rabbit", "hamster", "parrot"},
    "kid": {"kid", "child", "children", "son", "daughter", "baby", "boy", "girl", "twin"},
    "child": {"kid", "child", "children", "son", "daughter", "baby", "boy", "girl", "twin"},
    "children": {"kid", "child", "children", "son", "daughter", "baby", "boy", "girl", "twin"},
    "son": {"son", "boy", "twin", "children", "kid"},
    "daughter": {"daughter", "girl", "twin", "children", "kid"},
    "parent": {"parent", "mother", "mum", "mom", "father", "dad"},
    "sibling": {"sibling", "sister", "brother"},
    **dict.fromkeys(
        ("partner", "boyfriend", "girlfriend", "husband", "wife", "fiance", "fiancee", "ex"),
        {"partner", "boyfriend", "girlfriend", "husband", "wife", "fiance", "fiancee"},
    ),
    "family": {
        "family",
        "sister",
        "brother",
        "mother",
        "mum",
        "mom",
        "father",
        "dad",
        "wife",
        "husband",
        "partner",
        "son",
        "daughter",
        "kid",
        "child",
        "children",
    },
}
_WORD = re.compile(r"[^\W_][\w'’-]*")
_QUESTION_FRAME: Final = frozenset(
    "what what's whats where where's when who who's whom whose which how do does did is are am "
    "was were my mine me i i'm im you your know remember tell now currently again still anymore "
    "name's these days lately today moment right exactly usually most really like actually "
    "before after ago last year years month months week weeks january february march april may "
    "june july august september october november december use get remind recall again please "
    "currently anything something everything any".split()
)
# Words a question may use for what a fact calls otherwise ("favourite movie" -> "film").
_SYNONYM_GROUPS: Final = (
    ("movie", "film"),
    ("book", "novel"),
    ("show", "series", "programme", "program"),
    ("song", "track", "tune"),
    ("holiday", "trip", "vacation", "travel", "travelling", "traveling"),
    ("language", "speak"),
    ("sport", "play"),
    ("instrument", "play"),
    ("town", "city"),
    ("flight", "fly", "flying", "flights"),
    ("support", "supporter", "fan", "team"),
    ("mum", "mom", "mother"),
    ("dad", "father"),
    ("salary", "earn", "income", "wage", "pay", "paid"),
)
_SYNONYMS: Final[dict[str, frozenset[str]]] = {
    word: frozenset(group) - {word} for group in _SYNONYM_GROUPS for word in group
}
# Above this cosine a fact answers a question even with no slot or word in common.
_CLOSE: Final = 0.55


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
    asked = question.text.casefold()
    relation = _relation_in(asked)
    named = {
        family: {w for w in words if re.search(rf"\b{re.escape(w)}\b", asked)}
        for family, words in SLOT_WORDS.items()
    }
    families = {family for family, said in named.items() if said}
    # Slots the question names by more than a question word: "where" alone does not make
    # "where do I keep my spare key?" a question about the city the user lives in.
    strong = {family for family, said in named.items() if said - _WEAK_SLOT_WORDS}
    words = content_words(asked)
    slot_words = {_stem(w) for family in families for p in SLOT_WORDS[family] for w in p.split()}
    # "Who's my favourite author?" names what it asks about: a fact of the slot that does not
    # name it ("User's favourite food is ramen") does not answer it.
    unnamed = bool(words - slot_words - _relation_words(relation))
    kin = _KIN.get(relation, {relation}) if relation else set()
    # Best first: the slot and a word in common, the slot alone, a word alone, close meaning.
    tiers: list[list[Recollection]] = [[], [], [], []]
    for recollection in found:
        item = recollection.item
        key_parts = _key_parts(item.subject_key)
        said = {_stem(w) for w in _WORD.findall(item.text.casefold())}
        if relation and not (kin & (said | key_parts)):
            continue
        if question.named:
            if question.named.casefold() in said:
                tiers[2].append(recollection)
            continue
        # "Who am I dating?" names the partner slot itself: "User's partner is Jordan" answers.
        named_slot = item.subject_key.casefold().partition("name_of:")[2]
        own_slot = named_slot in families
        if not relation and _about_someone(item.text) and not own_slot:
            continue  # "what's my name?" is not answered by the sister's; "who am I dating?" is
        shared = words & said - kin - slot_words
        if _NEGATED.search(item.text) and not shared:
            continue  # "User is not allergic to cats" answers "am I allergic to cats?" only
        if families & key_parts:
            tiers[0 if shared else 1].append(recollection)
        elif shared:
            tiers[2].append(recollection)
        elif relation or recollection.hit.vector_score >= _CLOSE:
            tiers[3].append(recollection)
    if unnamed and not question.past:
        # Only a qualified slot needs its qualifier named: "favorite:food" does not answer
        # "who's my favourite author?", but "home_city" answers "which city am I based in?".
        tiers[1] = [
            r
            for r in tiers[1]
            if ":" not in r.item.subject_key and strong & _key_parts(r.item.subject_key)
        ]
    # "Where do I work?": the job answers, never the city "where" points at (not even when no
    # job is remembered: then the answer is that it is not known).
    if strong:
        tiers[1] = [r for r in tiers[1] if strong & _key_parts(r.item.subject_key)]
    return next((tier for tier in tiers[:3] if tier), tiers[3][:2])


def _key_parts(subject_key: str) -> set[str]:
    key = subject_key.casefold()
    parts = set(key.split(":")) | set(re.split(r"[:_\s]+", key))
    # "name_of:boyfriend" is the partner slot, whatever the user called them
    return parts | {"partner"} if parts & _KIN["partner"] else parts


# Words that ask where, when or who, or how one feels: a slot they alone point at must also be
# named when the question names something else ("where do I keep my spare key?").
_WEAK_SLOT_WORDS: Final = frozenset(
    "where when who from go going next home like best into call called".split()
)


def slot_keys(question: str) -> set[str]:
    """The subject keys a question names outright: {"home_city"} for "where do I live?",
    {"person:son:age", "name_of:son"}-style keys for "how old is my son?" (by their parts)."""
    asked = question.casefold()
    strong = {
        family
        for family, words in SLOT_WORDS.items()
        if any(re.search(rf"\b{re.escape(w)}\b", asked) for w in words if w not in _WEAK_SLOT_WORDS)
    }
    relation = _relation_in(asked)
    if relation:
        kin = _KIN.get(relation, {relation})
        kin |= {RELATION_SLOTS.get(k, k) for k in kin}  # "mum" is the "mother" slot
        return {f"person:{k}:{f}" for k in kin for f in strong} | {f"name_of:{k}" for k in kin}
    return strong


def unnamed_words(question: str) -> set[str]:
    """What a question asks about beyond the slot it names: {"shifts"} in "what shifts do I
    work?" (the job slot is named by "work")."""
    asked = question.casefold()
    families = {
        family
        for family, words in SLOT_WORDS.items()
        if any(re.search(rf"\b{re.escape(w)}\b", asked) for w in words)
    }
    slot_words = {_stem(w) for family in families for p in SLOT_WORDS[family] for w in p.split()}
    return content_words(asked) - slot_words - _relation_words(_relation_in(asked))


def content_words(question: str) -> set[str]:
    """The stems a question asks about, beyond its frame ("what", "my", "now"), with their
    synonyms: "what's my favourite movie?" -> {favourite, movie, film}."""
    words = {_stem(w) for w in _WORD.findall(question.casefold())}
    words -= {_stem(w) for w in _QUESTION_FRAME} | {_stem(w) for w in STOPWORDS}
    return words | {_stem(other) for w in words for other in _SYNONYMS.get(w, ())}


def stems(text: str) -> set[str]:
    return {_stem(w) for w in _WORD.findall(text.casefold())}


def compose(
    question: AboutUser,
    facts: Sequence[Recollection],
    past: Sequence[MemoryItem] = (),
) -> GroundedAnswer:
    """A short natural answer stating ``facts`` (and ``past`` ones for a question about the
    past); when nothing is known it says so instead of guessing."""
    current = [second_person(r.item.text) for r in facts]
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
    if not current:
        if question.everything:
            text = (
                "I don't know anything about you yet. Tell me about yourself and I'll remember it."
            )
        else:
            text = "I don't know that yet: you haven't told me."
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
    return GroundedAnswer(f"You told me: “{sentence}”", (source,), (), values)


def check_answer(answer: str, grounded: GroundedAnswer) -> bool:
    """A model's answer is kept when it names a remembered value and no superseded one."""
    said = {_stem(w) for w in _WORD.findall(answer.casefold())}
    if grounded.stale and said & {_stem(w) for w in grounded.stale}:
        return False
    if not grounded.values:
        return not grounded.known
    return bool(said & {_stem(w) for w in grounded.values})


# --- third person to second ------------------------------------------------------------------

_IRREGULAR: Final = {
    "is": "are",
    "was": "were",
    "has": "have",
    "does": "do",
    "doesn't": "don't",
    "isn't": "aren't",
    "wasn't": "weren't",
    "hasn't": "haven't",
}
_BASE: Final = {"is": "be", "are": "be", "was": "be", "has": "have", "does": "do"}


def second_person(text: str) -> str:
    """ "User is allergic to peanuts" -> "You are allergic to peanuts";
    "User's sister is called Ana" -> "Your sister is called Ana"."""
    text = " ".join(text.split()).rstrip(".")
    if text.startswith(("User's ", "User’s ")):
        rest = text[7:]
        return "Your " + _you_inside(rest)
    if text.startswith("User "):
        adverb = re.match(rf"(?:{_ADVERBS})\s+", text[5:], re.IGNORECASE)
        lead = adverb.group(0) if adverb else ""
        verb, _, rest = text[5 + len(lead) :].partition(" ")
        return f"You {lead}{_present(verb)}" + (f" {_you_inside(rest)}" if rest else "")
    if re.search(r"\bUser\b", text):  # "Every Sunday User plays cricket with User's cousins"
        said = re.sub(r"\bUser['’]s\b", "your", text)
        said = re.sub(r"\bUser (\w+)", lambda m: f"you {_present(m.group(1))}", said)
        return said[0].upper() + said[1:]
    return f"You told me: “{text}”"


# Adverbs between "User" and the verb: "User now prefers black coffee".
_ADVERBS: Final = r"now|still|also|currently|usually|often|always|really|mostly|sometimes|never"


def _present(verb: str) -> str:
    lowered = verb.casefold()
    if lowered in _IRREGULAR:
        return _IRREGULAR[lowered]
    return _base(lowered)


def _base(verb: str) -> str:
    if verb in _BASE:
        return _BASE[verb]
    if verb.endswith("ies") and len(verb) > 4:
        return verb[:-3] + "y"
    if verb.endswith(("sses", "shes", "ches", "xes", "zzes", "oes")):
        return verb[:-2]
    if verb.endswith("s") and not verb.endswith("ss"):
        return verb[:-1]
    return verb


def _used_to(text: str) -> str:
    """ "User lives in Lisbon" -> "you used to live in Lisbon"; "User's dog is named Rufus" ->
    "your dog was named Rufus"."""
    text = " ".join(text.split()).rstrip(".")
    if text.startswith("User "):
        verb, _, rest = text[5:].partition(" ")
        return f"you used to {_base(verb.casefold())}" + (f" {_you_inside(rest)}" if rest else "")
    said = _lower_first(second_person(text))
    if text.startswith(("User's ", "User’s ")):
        said = re.sub(r"\b(is|are|has)\b", lambda m: _PAST_TENSE[m.group(1)], said, count=1)
    return said


_PAST_TENSE: Final = {"is": "was", "are": "were", "has": "had"}
_NEGATED: Final = re.compile(r"\b(?:not|no longer|never|doesn't|isn't|don't)\b", re.IGNORECASE)


def _you_inside(text: str) -> str:
    text = re.sub(r"\bUser['’]s\b", "your", text)
    return re.sub(r"\bUser\b", "you", text)


def _joined(sentences: Sequence[str]) -> str:
    """Sentences sharing their opening words become one: "You are allergic to peanuts and
    penicillin"."""
    groups: list[list[str]] = []
    for sentence in sentences:
        for group in groups:
            head = _common(group[0], sentence)
            # Only when what differs is the value: "You are allergic to | peanuts".
            short = len(head) == 2 and head[-1].casefold() in _VERB_LINKS  # "You speak"
            if (len(head) >= 3 or short) and head[-1].casefold() in _LINKS:
                group.append(sentence)
                break
        else:
            groups.append([sentence])
    parts = []
    for group in groups:
        if len(group) == 1:
            parts.append(group[0])
            continue
        head = _common(*group)
        tails = [" ".join(s.split()[len(head) :]) for s in group]
        parts.append(" ".join(head) + " " + _and(tails))
    return "; ".join(parts[:1] + [_lower_first(p) for p in parts[1:]])


_LINKS: Final = frozenset(
    "is are was were to in as at from of called named like love enjoy have has speak eat "
    "play drink watch read".split()
)


_VERB_LINKS: Final = frozenset("speak play like love enjoy eat drink watch read".split())


def _common(*sentences: str) -> list[str]:
    split = [s.split() for s in sentences]
    head = []
    for words in zip(*split, strict=False):
        if len({w.casefold() for w in words}) != 1:
            break
        head.append(words[0])
    # Never swallow a whole sentence: each keeps a tail of its own.
    return head[: min(len(s) for s in split) - 1]


def _and(items: Sequence[str]) -> str:
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


def _lower_first(text: str) -> str:
    first = text.split(" ", 1)[0]
    if first in ("You", "Your") or first.casefold() in _OPENERS:
        return text[0].lower() + text[1:]
    return text


# Words that open a remembered sentence and are capitalised only for that ("Now you teach...").
_OPENERS: Final = frozenset("now every on most usually since at in after before".split())


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
    found = re.match(r"User['’]s\s+(\w+)", text)
    return found is not None and found.group(1).casefold() in RELATIONS


def _relation_in(text: str) -> str | None:
    for word in _WORD.findall(text):
        stem = _stem(re.sub(r"['’]s$", "", word))
        if stem in {_stem(r) for r in RELATIONS}:
            return stem
    return None


def _stem(word: str) -> str:
    word = re.sub(r"['’]s$", "", word.casefold())
    if len(word) > 4 and word.endswith("ies"):
        return word[:-3] + "y"
    return word[:-1] if len(word) > 3 and word.endswith("s") and not word.endswith("ss") else word


def _relation_words(relation: str | None) -> set[str]:
    """The words of one relation: "mum", "mother", "mom"."""
    if not relation:
        return set()
    return {relation} | set(_SYNONYMS.get(relation, ())) | _KIN.get(relation, set())


def kin_asked(question: str) -> frozenset[str]:
    """The people or animals a question is about and their kin ("my pets" -> dog, cat, ...);
    empty when it asks about the user."""
    relation = _relation_in(question.casefold())
    if not relation:
        return frozenset()
    return frozenset(_KIN.get(relation, {relation}))
