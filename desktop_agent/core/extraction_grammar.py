"""The grammar extraction reads from a spaCy parse: sentences that state something, clause
heads and their subjects, who a subject is (the user, one of their people, a thing), phrases,
times, and the third-person rendering of a clause. The readers (``extraction_people``,
``extraction_user``, ``extraction_habits``) build on these.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from contextvars import ContextVar
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from desktop_agent.core import extraction_words as words
from desktop_agent.core.extraction_dates import resolve_date
from desktop_agent.core.extraction_rules import _JOBS, third_singular
from desktop_agent.core.timeparse import MONTHS, WEEKDAYS

if TYPE_CHECKING:
    from desktop_agent.core.extraction import FactType

Token = Any  # a spaCy Token; typed loosely so the core never imports spaCy

# The user's people known by name (name -> relation, from "User's sister is named Ana"), so
# "Ana moved to Milan" is read as the sister's news. Set by ``learning`` around one extraction.
KNOWN_PEOPLE: ContextVar[dict[str, str]] = ContextVar("known_people", default={})  # noqa: B039


_SUBJECT = ("nsubj", "nsubjpass")


_CLAUSE = ("ROOT", "conj", "ccomp", "advcl", "xcomp", "parataxis", "relcl")


_USER = ("i", "we")


_PRONOUNS = ("he", "she", "they")


@dataclass(frozen=True, slots=True)
class Found:
    """One fact read from the parse; ``span`` is in the text that was parsed."""

    type: FactType
    key: str
    value: str
    text: str
    confidence: float
    span: tuple[int, int]
    negated: bool = False
    correction: bool = False
    person: str = ""
    when: str = ""


@dataclass(slots=True)
class Who:
    kind: str  # "user", "person" or "thing"
    token: Token
    relation: str = ""  # "sister", "dog"
    name: str = ""
    said: str = ""  # the words for the person: "sister Ana", "greyhound"


@dataclass(slots=True)
class _Context:
    last: Who | None = None
    named: set[str] = field(default_factory=set)


# --- which sentences are statements -----------------------------------------------------------

_HYPOTHETICAL = re.compile(
    r"^\s*(?:if|unless|suppose|supposing|imagine|pretend|what if|say|let's say|assuming|"
    r"hypothetically|in theory|maybe|perhaps)\b|\bi wish\b|\bif i\b|\bwere i\b",
    re.IGNORECASE,
)


def _is_statement(sentence: Any) -> bool:
    text = sentence.text.strip()
    if not text or text.endswith("?") or _HYPOTHETICAL.search(text):
        return False
    first = next((t for t in sentence if not t.is_punct), None)
    if first is None or first.lower_ in ("what", "where", "when", "who", "why", "how", "which"):
        return False
    root = sentence.root
    # Requests: "Write a story about...", "Tell me a joke", "Pretend you are my sister".
    if root.tag_ == "VB" and not _subject(root) and first.i == root.i:
        return False
    # Inverted auxiliary: "Would my sister like this book" (without the question mark).
    second = first.nbor() if first.i + 1 < len(first.doc) else None
    inverted = first.lower_ in _INVERTING and second is not None
    return not (inverted and second is not None and second.pos_ in ("PRON", "DET", "PROPN", "NOUN"))


_INVERTING = frozenset(
    """would could should can will shall do does did is are am was were have has may might
    must""".split()
)


# --- clause structure -------------------------------------------------------------------------


def _clause_heads(sentence: Any) -> Iterator[Token]:
    for token in sentence:
        if token.dep_ in _CLAUSE and token.pos_ in ("VERB", "AUX"):
            if token.dep_ == "xcomp" and token.head.pos_ in ("VERB", "AUX"):
                continue  # read with its head: "want to run", "ended up moving"
            if token.dep_ == "relcl" or any(
                c.dep_ == "mark" and c.lower_ in ("if", "whether", "unless") for c in token.children
            ):
                continue
            yield token


def _subject(verb: Token) -> Token | None:
    subjects = [child for child in verb.children if child.dep_ in _SUBJECT]
    if len(subjects) > 1:
        # "My best mate Dave supports Liverpool": the parser may make both words subjects.
        owned = [s for s in subjects if _possessor(s)]
        if owned:
            return owned[0]
    return subjects[0] if subjects else None


def _find_subject(verb: Token) -> Token | None:
    subject = _subject(verb)
    if subject is not None:
        return subject
    for aux in verb.children:  # "my wife loves gardening", parsed with "loves" as an auxiliary
        if aux.dep_ == "aux" and (found := _subject(aux)) is not None:
            return found
    if verb.dep_ in ("xcomp", "advcl") and verb.head is not verb:
        return _subject(verb.head)
    if verb.dep_ == "conj":
        # "my son Leo is 6 and my daughter Ava is 3": the parser may hang "daughter" on "son";
        # the nearest possessed noun or "I" to the left is the subject of the second clause.
        for token in reversed(list(verb.doc[verb.head.i + 1 : verb.i])):
            if token.lower_ in _USER or _possessor(token):
                return token
        return _subject(verb.head)
    return None


def _possessor(token: Token) -> str:
    for child in token.children:
        if child.dep_ == "poss" and child.lower_ in ("my", "our"):
            return str(child.lower_)
    return ""


def _negated(verb: Token) -> bool:
    if any(child.dep_ == "neg" for child in verb.children):
        return True
    head = verb.head
    return verb.dep_ == "xcomp" and any(child.dep_ == "neg" for child in head.children)


def _who(subject: Token, context: _Context) -> Who | None:
    lower = subject.lower_
    if lower in _USER:
        return Who("user", subject)
    if lower in _PRONOUNS:
        return context.last if context.last and context.last.kind == "person" else None
    if lower == "nothing" and subject.head.lemma_ in ("beat", "top"):
        return Who("thing", subject)  # "nothing beats a good curry"
    if subject.pos_ not in ("NOUN", "PROPN") and subject.tag_ != "VBG":
        return None
    noun, name = subject, ""
    known = KNOWN_PEOPLE.get().get(lower) if subject.pos_ == "PROPN" else None
    if known and not any(c.dep_ in ("poss", "compound", "det") for c in subject.children):
        context.named.add(known)  # already remembered by name: only the news is new
        who = Who("person", subject, known, subject.text, f"{known} {subject.text}")
        context.last = who
        return who
    if subject.pos_ == "PROPN":
        # "my puppy Bo": the parser makes the name the head and the animal its compound.
        described = next(
            (c for c in subject.children if c.dep_ == "compound" and _relation_of(c)), None
        )
        if described is not None:
            noun, name = described, subject.text
    relation = _relation_of(noun)
    partners = {_relation_of(c) for c in noun.conjuncts} | {relation}
    if partners == {"mother", "father"}:
        relation = "parents"  # "my mum and dad live in Wales"
    owned = _possessor(noun) or _possessor(subject)
    holder = next((c for c in noun.children if c.dep_ == "poss" and _relation_of(c)), None)
    if holder is not None and _possessor(holder) and not relation:
        # "my dad's birthday is on 2 March": an attribute of one of the user's people.
        who = Who("attribute", subject, _relation_of(holder), said=_relation_words(holder))
        context.last = Who("person", holder, who.relation, said=who.said)
        return who
    bare = not any(c.dep_ == "det" for c in noun.children) and noun.i == noun.sent.start
    if relation and (owned or (bare and noun.lower_ in words.RELATIONS)):
        if not name:
            appos = next((c for c in noun.children if c.dep_ == "appos"), None)
            after = noun.doc[noun.i + 1] if noun.i + 1 < len(noun.doc) else None
            if appos is not None and appos.pos_ == "PROPN":
                name = appos.text
            elif after is not None and after.pos_ == "PROPN" and after.head.i == noun.head.i:
                name = after.text  # "my best mate Dave supports...": both parsed as subjects
        said = _relation_words(noun)
        who = Who("person", subject, relation, name, said)
        context.last = who
        return who
    if owned:
        return Who("owned", subject)  # "my exam is on 12 May", "my goal is to..."
    return Who("thing", subject)


def _relation_of(noun: Token) -> str:
    lower = noun.lower_
    lemma = noun.lemma_.casefold()
    if _in_law(noun):
        return f"{lower}-in-law"
    if lower in words.RELATIONS or lemma in words.RELATIONS:
        relation = words.RELATIONS.get(lower) or words.RELATIONS[lemma]
        if relation == "friend" and any(c.lower_ == "best" for c in noun.children):
            return "best friend"
        return relation
    return words.PETS.get(lower) or words.PETS.get(lemma) or ""


def _in_law(noun: Token) -> bool:
    return bool(noun.doc[noun.i + 1 : noun.i + 5].text.replace(" ", "") == "-in-law")


def _relation_words(noun: Token) -> str:
    modifiers = [c.text for c in noun.children if c.dep_ in ("amod", "compound") and c.i < noun.i]
    said = " ".join([*modifiers, noun.text]).casefold()
    return f"{said}-in-law" if _in_law(noun) else said


def _clause_tokens(head: Token) -> list[Token]:
    """The words of one clause: the head's subtree without its coordinated clauses."""
    skip: set[int] = set()
    for child in head.children:
        if child.dep_ in ("conj", "parataxis") and child.pos_ in ("VERB", "AUX"):
            skip.update(t.i for t in child.subtree)
        if child.dep_ == "cc" and child.i > head.i:
            skip.add(child.i)
    tokens = [t for t in head.subtree if t.i not in skip]
    while tokens and (tokens[-1].is_punct or tokens[-1].dep_ == "cc"):
        tokens.pop()
    while tokens and (tokens[0].is_punct or tokens[0].dep_ in ("cc", "intj")):
        tokens.pop(0)
    return tokens


def _span(tokens: Iterable[Token]) -> tuple[int, int]:
    items = list(tokens)
    return items[0].idx, items[-1].idx + len(items[-1].text)


def _phrase(token: Token) -> str:
    """A noun with its modifiers: "true crime podcasts", "a border collie" -> "border collie"."""
    start = token.i
    while start > token.left_edge.i:
        previous = token.doc[start - 1]
        if previous.dep_ in ("det", "poss", "punct", "cc", "predet", "case", "nummod"):
            break
        start -= 1
    return str(token.doc[start : token.i + 1].text)


def _object(verb: Token) -> Token | None:
    for child in verb.children:
        if child.dep_ in ("dobj", "attr", "oprd"):
            return child
    for child in verb.children:
        if child.dep_ == "prep":
            for grand in child.children:
                if grand.dep_ == "pobj":
                    return grand
    return None


def _prep_object(verb: Token, *preps: str) -> Token | None:
    for child in verb.children:
        if child.dep_ in ("prep", "agent") and child.lower_ in preps:
            for grand in child.children:
                if grand.dep_ in ("pobj", "pcomp"):
                    return grand
    return None


def _place(token: Token) -> str:
    """A place name with its compounds: "New York", "the Lake District"."""
    parts = [t for t in token.subtree if t.dep_ in ("compound", "amod") or t.i == token.i]
    text = " ".join(t.text for t in parts)
    return " ".join(w if w[:1].isupper() else w.capitalize() for w in text.split())


def _conjuncts(token: Token) -> list[Token]:
    return [token, *[t for t in token.conjuncts if t.i > token.i]]


# --- third person -----------------------------------------------------------------------------

_USER_WORDS = {"i": "User", "we": "User", "me": "User", "us": "User", "my": "User's"}


_USER_WORDS |= {"our": "User's", "myself": "themself", "mine": "User's"}


_AUX_THIRD = {"am": "is", "'m": "is", "are": "is", "'re": "is", "have": "has", "'ve": "has"}


_AUX_THIRD |= {"do": "does", "was": "was", "were": "was"}


def third_person(tokens: list[Token], who: Who) -> str:
    """The clause with "I" as "User" and verbs agreeing: "I don't eat pork" -> "User does not
    eat pork"; "my sister Ana lives in Rome" -> "User's sister Ana lives in Rome"."""
    out: list[str] = []
    for index, token in enumerate(tokens):
        out.append(_third_word(token, who))
        glued = index + 1 < len(tokens) and _glue(tokens, index)
        out.append(" " if token.whitespace_ or glued else "")
    text = re.sub(r"\bcan not\b", "cannot", "".join(out).strip())
    if who.kind == "person" and who.name and tokens and tokens[0].text == who.name:
        return f"User's {who.relation} {text}"  # "Ana moved to Milan": whose Ana
    if who.kind == "person" and who.relation and tokens and tokens[0].lower_ in _PRONOUNS:
        # "... and she's 4": whose "she"
        rest = tokens[1:]
        verb = "is" if rest and rest[0].lower_ in ("'s", "’s") else None
        said = "".join(t.text + t.whitespace_ for t in (rest[1:] if verb else rest)).strip()
        person = who.said or who.relation
        if who.name and who.name not in person:
            person = f"{person} {who.name}"
        return f"User's {person} {verb + ' ' if verb else ''}{said}".strip()
    if who.kind == "user" and (implied := _implied_user(tokens)) is not None:
        # "... and now study law at UCL": the verb's subject is the user's "I" further back
        adverbs = "".join(t.text + t.whitespace_ for t in tokens[:implied])
        after = "".join(t.text + t.whitespace_ for t in tokens[implied + 1 :]).strip()
        agreeing = third_singular(tokens[implied].text)
        return f"User {adverbs.casefold()}{agreeing} {after}".replace("  ", " ").strip()
    return text[:1].upper() + text[1:]


def _implied_user(tokens: list[Token]) -> int | None:
    """The index of a leading verb whose subject is left out (after adverbs such as "now"),
    in a clause that names no one: the user said "I" before it."""
    if any(t.lower_ in _USER_WORDS for t in tokens):
        return None
    for index, token in enumerate(tokens):
        if token.pos_ in ("ADV", "PART") and token.dep_ != "neg":
            continue
        conjoined = token.dep_ == "conj" and _has_user_subject(token.head)
        if token.pos_ == "VERB" and token.tag_ in ("VB", "VBP") and conjoined:
            return index
        return None
    return None


def _third_word(token: Token, who: Who) -> str:
    lower = token.lower_
    if lower in _USER_WORDS:
        return _USER_WORDS[lower]
    if lower == "n't":
        return "not"
    if token.dep_ == "aux" and lower in ("ca", "wo"):
        return {"ca": "can", "wo": "will"}[lower]
    if who.kind != "user" or token.tag_ != "VBP" and token.pos_ != "AUX":
        return str(token.text)
    # A verb whose subject was "I" or "we" now agrees with "User".
    if token.pos_ == "AUX" and lower in _AUX_THIRD and _has_user_subject(token):
        return _AUX_THIRD[lower]
    if token.tag_ == "VBP" and _has_user_subject(token):
        return third_singular(token.text)
    return str(token.text)


def _has_user_subject(token: Token) -> bool:
    verb = token.head if token.dep_ in ("aux", "auxpass") else token
    subject = _find_subject(verb)
    return subject is not None and subject.lower_ in _USER


def _glue(tokens: list[Token], index: int) -> bool:
    nxt = tokens[index + 1].lower_
    return nxt in ("n't",) or (nxt.startswith("'") and tokens[index + 1].pos_ == "AUX")


def _make(
    who: Who,
    tokens: list[Token],
    kind: FactType,
    key: str,
    value: str,
    text: str | None = None,
    *,
    negated: bool = False,
    correction: bool = False,
    confidence: float = 0.75,
    when: str = "",
) -> Found:
    sentence = text or third_person(tokens, who)
    if re.fullmatch(r"\d{4}(?:-\d\d){0,2}", when) and when not in sentence:
        sentence = f"{sentence} ({when})"  # the resolved date beside the user's words
    return Found(
        kind,
        key,
        value,
        sentence,
        confidence,
        _span(tokens),
        negated=negated,
        correction=correction,
        person=who.relation,
        when=when,
    )


_LIKING = ("love", "like", "enjoy", "adore", "hate", "dislike", "prefer", "loathe")


_LEMMA_REPAIRS = {
    **dict.fromkeys(("hoping", "hope", "hopes", "hoped"), "hope"),
    **dict.fromkeys(("hates", "hated", "hating"), "hate"),
}


def _base(token: Token) -> str:
    """The lemma, mended where the small model's lemmatiser slips ("hoping" -> "hop")."""
    lower = token.lower_
    if lower in _LEMMA_REPAIRS:
        return _LEMMA_REPAIRS[lower]
    lemma = token.lemma_.casefold()
    if lemma.endswith("s") and lemma[:-1] in _LIKING:
        return str(lemma[:-1])
    return str(lemma)


def _is_job(token: Token) -> bool:
    lower = token.lemma_.casefold()
    return lower in _JOBS or lower.endswith(("ologist", "ician")) or lower in words.WORK_STATES


def _words(tokens: list[Token]) -> str:
    return "".join(t.text + t.whitespace_ for t in tokens).strip()


def _transient(tokens: list[Token]) -> bool:
    for index, token in enumerate(tokens):
        if token.lower_ in words.TRANSIENT:
            return True
        after = tokens[index + 1].lower_ if index + 1 < len(tokens) else ""
        if token.lower_ == "this" and after in words.TRANSIENT_AFTER_THIS:
            return True
    return False


_DAY_RANGE = re.compile(
    r"\b(?:mon|tues|wednes|thurs|fri|satur|sun)days?\s+(?:to|through|-)\s+\w+day", re.I
)


def _habitual(head: Token, tokens: list[Token]) -> bool:
    if _DAY_RANGE.search(_words(tokens)):
        return True  # "I work Monday to Friday"
    for token in tokens:
        lower = token.lower_
        if lower in words.FREQUENCY or lower in words.PLURAL_TIMES:
            return True
        if lower in ("day", "days", "week") and any(
            c.lower_ in ("most", "a", "per", "every", "each") for c in token.children
        ):
            return True
        if lower == "at" and any(c.like_num for c in token.children):
            return bool(head.tag_ == "VBP")
    return False


def _when(tokens: list[Token]) -> str:
    """When a clause says it happens: the date it names resolved forward ("on the 12th" ->
    "2026-12-12"), else its words of time ("every Tuesday at 7", "in the autumn")."""
    doc = tokens[0].doc
    first, last = tokens[0].i, tokens[-1].i
    dates = [
        e.text
        for e in doc.ents
        if first <= e.start <= last
        and (
            e.label_ in ("DATE", "TIME")
            or e.label_ == "ORDINAL"
            and e.start
            and doc[e.start - 1].lower_ == "the"
        )
    ]
    # "every Thursday evening" is a habit's time, not the date of next Thursday
    recurring = any(t.lower_ in ("every", "each") for t in tokens)
    resolved = resolve_date(" ".join(dates)) if dates and not recurring else ""
    if resolved:
        return resolved
    head = next(t for t in tokens if t.head.i == t.i or t.head.i < first or t.head.i > last)
    phrases = []
    for child in head.children:
        if child.dep_ in ("prep", "npadvmod", "advmod", "tmod") and _is_time(child):
            phrases.append(_words(list(child.subtree)))
    return " ".join(phrases) or " ".join(dates)


def _is_time(token: Token) -> bool:
    for item in token.subtree:
        lower = item.lower_
        if (
            lower in words.FREQUENCY
            or lower in words.PLURAL_TIMES
            or item.ent_type_ in ("DATE", "TIME")
        ):
            return True
        if lower in WEEKDAYS or lower in MONTHS or (item.like_num and token.lower_ in ("at", "by")):
            return True
        if lower in ("summer", "winter", "spring", "autumn", "fall"):
            return True
        if (
            lower in ("times", "once")
            or lower in ("day", "week", "month")
            and any(c.lower_ in ("a", "every", "per", "each") for c in item.children)
        ):
            return True
    return False
