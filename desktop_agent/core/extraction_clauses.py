"""The clauses extraction reads from a spaCy parse: which sentences state something, clause heads
and their subjects, the words of one clause, its phrases, and what one of its facts is (``Found``).
``extraction_grammar`` gathers these with who a subject is, times and the third person.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from desktop_agent.core import extraction_words as words
from desktop_agent.core.extraction_work import _JOBS

if TYPE_CHECKING:
    from desktop_agent.core.extraction import FactType

Token = Any  # a spaCy Token; typed loosely so the core never imports spaCy

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
        if token.dep_ in _CLAUSE and (token.pos_ in ("VERB", "AUX") or _perfect(token)):
            if token.dep_ == "xcomp" and token.head.pos_ in ("VERB", "AUX"):
                continue  # read with its head: "want to run", "ended up moving"
            if token.dep_ == "relcl" or any(
                c.dep_ == "mark" and c.lower_ in ("if", "whether", "unless") for c in token.children
            ):
                continue
            yield token


def _perfect(token: Token) -> bool:
    """A participle the parser calls an adjective, after "has": "she has just qualified as"."""
    return token.pos_ == "ADJ" and any(
        c.dep_ == "aux" and c.lemma_ == "have" for c in token.children
    )


def _subject(verb: Token) -> Token | None:
    subjects = [child for child in verb.children if child.dep_ in _SUBJECT]
    if len(subjects) > 1:
        # "My best mate Dave supports Liverpool": the parser may make both words subjects.
        owned = [s for s in subjects if _possessor(s)]
        if owned:
            return owned[0]
        # "..., a girl called Rosie, so now we have three kids": the user's own "we" is nearest
        users = [s for s in subjects if s.lower_ in _USER and s.i < verb.i]
        if users:
            return users[-1]
        # "random update, | she and the kids are in Accra now": the pronoun is who is meant
        pronouns = [s for s in subjects if s.lower_ in _PRONOUNS and s.i < verb.i]
        if pronouns:
            return pronouns[-1]
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


def _clause_tokens(head: Token) -> list[Token]:
    """The words of one clause: the head's subtree without its coordinated clauses."""
    skip: set[int] = set()
    for child in head.children:
        if child.dep_ in ("conj", "parataxis") and child.pos_ in ("VERB", "AUX"):
            skip.update(t.i for t in child.subtree)
        if child.dep_ == "cc" and child.i > head.i:
            skip.add(child.i)
        if _news_before(child, head):
            skip.update(t.i for t in child.subtree)
    tokens = [t for t in head.subtree if t.i not in skip]
    while tokens and (tokens[-1].is_punct or tokens[-1].dep_ == "cc"):
        tokens.pop()
    while tokens and (
        tokens[0].is_punct or tokens[0].dep_ in ("cc", "intj") or tokens[0].lower_ == "so"
    ):
        tokens.pop(0)
    return tokens


def _news_before(child: Token, head: Token) -> bool:
    """ "The Berlin race got cancelled, | so I'm running ...": a clause of its own, about
    something else, before a comma; the user's clause does not say it."""
    if child.dep_ not in ("ccomp", "advcl") or child.i > head.i or child.pos_ not in ("VERB",):
        return False
    subject = next((c for c in child.children if c.dep_ in ("nsubj", "nsubjpass")), None)
    after = child.doc[child.right_edge.i + 1] if child.right_edge.i + 1 < len(child.doc) else None
    return (
        subject is not None
        and subject.lower_ not in _USER
        and after is not None
        and after.text == ","
    )


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
    # Only the words just before it that modify it: in "to Denver for Sofia's new job" the
    # subtree of "Denver" reaches "new", which names the job, not the city.
    parts = [token]
    while (
        parts[0].i > 0
        and (left := parts[0].doc[parts[0].i - 1]).dep_ in ("compound", "amod")
        and left.head.i in {p.i for p in parts}
    ):
        parts.insert(0, left)
    text = " ".join(t.text for t in parts)
    return " ".join(w if w[:1].isupper() else w.capitalize() for w in text.split())


def _conjuncts(token: Token) -> list[Token]:
    return [token, *[t for t in token.conjuncts if t.i > token.i]]


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
