"""Extraction from a dependency parse: who a clause is about, what it says, and whether it holds.

The patterns of ``extraction_rules`` read fixed openings ("I live in..."); this module reads the
grammar of any clause instead. For each clause head (a verb, or "be") it finds the subject
through the parse: the user ("I", "we"), one of the user's people or pets ("my sister Ana",
"our greyhound", "he" after one was named), or a thing ("chocolate is my weakness"). Then the
verb and its dependents say which slot the clause fills (where someone lives, their job, a habit
with its times, a plan with its date, something never done). Negation is a dependent of the
verb, so "I don't eat pork" is stored as a negation, never as "eats pork".

The parse comes from ``desktop_agent.nlp`` (spaCy); the core only walks its tokens. This module
dispatches each clause; ``extraction_grammar`` holds the grammar (subjects, phrases, times,
third person) and ``extraction_people``, ``extraction_user``, ``extraction_habits`` the readers.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

from desktop_agent.core import extraction_words as words
from desktop_agent.core.extraction_clauses import _PRONOUNS
from desktop_agent.core.extraction_grammar import (
    Found,
    Token,
    Who,
    _clause_heads,
    _clause_tokens,
    _Context,
    _find_subject,
    _is_statement,
    _make,
    _phrase,
    _possessor,
    _who,
)
from desktop_agent.core.extraction_habits import _owned
from desktop_agent.core.extraction_people import _attribute, _person
from desktop_agent.core.extraction_rules import normalise_object
from desktop_agent.core.extraction_user import _user

# A short label before a colon opens a sentence without being part of it ("Big news: my sister
# moved to Bergen", "Update: ..."): blanked (same length, so spans hold) before parsing.
_LABEL = re.compile(r"(?:^|(?<=[.!?]\s))[A-Za-z][\w ]{0,20}:\s")


# A question may go on to tell: "what should I get my husband Rafael, | he's into cycling". The
# comma before the telling clause becomes a full stop (same length), so it is a sentence of its own.
_TOLD_AFTER_QUESTION = re.compile(
    r"((?:^|(?<=[.!?]\s))(?:what|where|when|who|how|which|can|could|would|any)\b[^.!?]*?)"
    r",(?=\s+(?:he|she|they)(?:['’]s|['’]re|\s+is|\s+are|\s+has|\s+loves|\s+likes)\b)",
    re.IGNORECASE,
)


def parse_message(text: str) -> Any:
    """The parse of a whole message, its labels and the commas that end a question blanked."""
    from desktop_agent import nlp

    text = _TOLD_AFTER_QUESTION.sub(r"\1.", text)
    return nlp.parse(_LABEL.sub(lambda m: " " * len(m.group(0)), text))


def read(doc: Any) -> list[Found]:
    """Facts in every statement sentence of a parsed message."""
    context = _Context()
    found: list[Found] = []
    for sentence in doc.sents:
        if not _is_statement(sentence):
            continue
        for head in _clause_heads(sentence):
            found.extend(_clause(head, context))
    return found


# --- clauses ----------------------------------------------------------------------------------


def _clause(head: Token, context: _Context) -> Iterator[Found]:
    subject = _find_subject(head)
    if subject is None:
        return
    who = _who(subject, context)
    if who is None:
        return
    tokens = _clause_tokens(head)
    before = [t for t in tokens if t.i < subject.i]
    if subject.lower_ in _PRONOUNS and any(t.pos_ in ("NOUN", "PROPN") for t in before):
        # "news from Ingrid - she's moved to Bergen": the clause starts at its pronoun
        tokens = [t for t in tokens if t.i >= subject.i]
    if not tokens:
        return
    if who.kind == "person":
        yield from _person(head, who, tokens, context)
    elif who.kind == "user":
        yield from _user(head, who, tokens)
    elif who.kind == "attribute":
        yield from _attribute(head, who, tokens)
    elif who.kind == "owned":
        yield from _owned(head, Who("user", who.token), tokens)
    else:
        yield from _thing(head, who, tokens)


# --- things the user feels about --------------------------------------------------------------


def _thing(head: Token, who: Who, tokens: list[Token]) -> Iterator[Found]:
    """ "Chocolate is my weakness", "Cats are my favourite animal", "Horror films scare me"."""
    subject = who.token
    lemma = head.lemma_.casefold()
    if subject.lower_ == "nothing":
        thing = next((c for c in head.children if c.dep_ == "dobj"), None)
        if thing is not None and lemma in ("beat", "top"):
            what = _phrase(thing)
            yield _make(who, tokens, "preference", f"likes:{normalise_object(what)}", what,
                        f"User loves {what}")  # fmt: skip
        return
    if subject.lower_ in ("it", "that", "this"):
        return
    what = _phrase(subject)
    life = next((c for c in head.children if c.dep_ == "attr" and c.lower_ == "life"), None)
    if lemma == "be" and life is not None and not any(c.dep_ == "det" for c in life.children):
        yield _make(who, tokens, "preference", f"likes:{normalise_object(what)}", what,
                    f"User loves {what}")  # fmt: skip
        return
    attr = next((c for c in head.children if c.dep_ in ("attr", "acomp")), None)
    if lemma == "be" and attr is not None and _possessor(attr):
        role = attr.lemma_.casefold()
        if role in ("favourite", "favorite"):
            yield _make(who, tokens, "preference", f"likes:{normalise_object(what)}", what,
                        f"User's favourite is {what}")  # fmt: skip
        elif any(c.lower_ in ("favourite", "favorite") for c in attr.children):
            yield _make(who, tokens, "preference", f"favorite:{normalise_object(attr.text)}",
                        what, f"User's favourite {attr.text} is {what}")  # fmt: skip
        elif role in words.LIKED_ROLES:
            yield _make(who, tokens, "preference", f"likes:{normalise_object(what)}", what,
                        f"User loves {what}")  # fmt: skip
        return
    feeling = next((c for c in head.children if c.dep_ in ("ccomp", "oprd", "acomp")), None)
    if lemma == "make" and feeling is not None and any(c.lower_ == "me" for c in head.subtree):
        lower = feeling.lower_
        if lower in words.POSITIVE_ADJ or lower in words.NEGATIVE_ADJ:
            against = lower in words.NEGATIVE_ADJ  # "rainy days make me happy"
            verb = "dislikes" if against else "likes"
            yield _make(who, tokens, "preference", f"likes:{normalise_object(what)}", what,
                        f"User {verb} {what}", negated=against)  # fmt: skip
        return
    me = any(c.dep_ == "dobj" and c.lower_ == "me" for c in head.children)
    if me and (lemma in words.DISLIKE_VERBS or lemma in words.LIKE_VERBS):
        against = lemma in words.DISLIKE_VERBS
        verb = "dislikes" if against else "likes"
        yield _make(who, tokens, "preference", f"likes:{normalise_object(what)}", what,
                    f"User {verb} {what}", negated=against)  # fmt: skip


def covered(key: str, span: tuple[int, int], item: Found) -> bool:
    """Whether a pattern's fact (``key``, ``span``) already read what the parse found in
    ``item`` (same slot, or the same clause)."""
    if key == item.key:
        return True
    overlap = span[0] < item.span[1] and item.span[0] < span[1]
    if overlap and key.startswith(("vehicle", "device:")):
        return True  # "switched to a Tesla": the car, not a taste for Teslas
    if overlap and item.confidence <= 0.65:
        return True  # a generic reading ("can't stand" as a negated verb) of a read clause
    # one family per person: the sister's facts do not cover the mother's
    family, other = (
        ":".join(k.split(":")[:2]) if k.startswith("person:") else k.split(":")[0]
        for k in (key, item.key)
    )
    free = ("plan", "goal", "task", "decision", "note", "routine", "learning", "vehicle")
    return overlap and (family == other or (family in free and other in free))


__all__ = ["Found", "Who", "covered", "parse_message", "read"]
