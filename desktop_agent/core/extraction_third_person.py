"""The third-person rendering of a clause ("I don't eat pork" -> "User does not eat pork"), and
the fact (``Found``) made from a clause in those words.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from desktop_agent.core.extraction_clauses import (
    _PRONOUNS,
    _USER,
    Found,
    Token,
    _find_subject,
    _span,
)
from desktop_agent.core.extraction_phrases import third_singular
from desktop_agent.core.extraction_subjects import Who
from desktop_agent.core.extraction_words import RELATIONS

if TYPE_CHECKING:
    from desktop_agent.core.extraction import FactType

_USER_WORDS = {"i": "User", "we": "User", "me": "User", "us": "User", "my": "User's"}


_USER_WORDS |= {"our": "User's", "myself": "themself", "mine": "User's"}


# Participles that after "she's" say what she has done, not what she is.
_HAS_DONE = frozenset(
    "moved relocated started joined left got gone become been bought found taken quit "
    "switched changed finished begun passed had adopted sold booked".split()
)


_AUX_THIRD = {"am": "is", "'m": "is", "are": "is", "'re": "is", "have": "has", "'ve": "has"}


_AUX_THIRD |= {"do": "does", "was": "was", "were": "was"}


def third_person(tokens: list[Token], who: Who) -> str:
    """The clause with "I" as "User" and verbs agreeing: "I don't eat pork" -> "User does not
    eat pork"; "my sister Ana lives in Rome" -> "User's sister Ana lives in Rome"."""
    # in the order said: a clause gathered from subtrees may hold an apposition out of place
    # ("our wedding is on 14 June at the old mill, 90 guests" read "wedding 90 guestsis")
    tokens = sorted(tokens, key=lambda token: token.i)
    out: list[str] = []
    for index, token in enumerate(tokens):
        out.append(_third_word(token, who))
        glued = index + 1 < len(tokens) and _glue(tokens, index)
        # (a word left out after it, a comma say, took the space: "the old mill, 90 guests")
        gap = index + 1 < len(tokens) and tokens[index + 1].i > token.i + 1
        comma = gap and token.doc[token.i + 1].text == ","
        out.append(", " if comma else " " if token.whitespace_ or glued or gap else "")
    text = re.sub(r"\bcan not\b", "cannot", "".join(out).strip())
    if who.kind == "person" and who.name and tokens and tokens[0].text == who.name:
        return f"User's {who.relation} {text}"  # "Ana moved to Milan": whose Ana
    if who.kind == "person" and tokens and tokens[0].lower_ in RELATIONS:
        return f"User's {text[:1].lower()}{text[1:]}"  # "Grandma Rosa moved ...": whose grandma
    lead = next((i for i, t in enumerate(tokens) if t.pos_ != "ADV"), 0)
    if who.kind == "person" and who.relation and tokens[lead:] and tokens[lead].lower_ in _PRONOUNS:
        # "... and she's 4", "... and now she's training": whose "she" (the adverbs after it)
        rest = tokens[lead + 1 :]
        verb = "is" if rest and rest[0].lower_ in ("'s", "’s") else None
        if verb and len(rest) > 1 and rest[1].lower_ in _HAS_DONE:
            verb = "has"  # "she's moved to Bergen": has moved, though the parser reads "is"
        said = "".join(t.text + t.whitespace_ for t in (rest[1:] if verb else rest)).strip()
        adverbs = "".join(f"{t.lower_} " for t in tokens[:lead])
        return f"User's {person_words(who)} {verb + ' ' if verb else ''}{adverbs}{said}".strip()
    if who.kind == "person" and who.relation and _subjectless(tokens):
        # "my grandma Rosa is 94 and still lives in Palermo": the second verb's subject is hers
        return f"User's {person_words(who)} {text[:1].lower()}{text[1:]}"
    if who.kind == "user" and (implied := _implied_user(tokens)) is not None:
        # "... and now study law at UCL": the verb's subject is the user's "I" further back
        adverbs = "".join(t.text + t.whitespace_ for t in tokens[:implied])
        after = "".join(t.text + t.whitespace_ for t in tokens[implied + 1 :]).strip()
        agreeing = third_singular(tokens[implied].text)
        return f"User {adverbs.casefold()}{agreeing} {after}".replace("  ", " ").strip()
    return text[:1].upper() + text[1:]


def person_words(who: Who) -> str:
    """The words for one of the user's people, with the name told: "grandma Rosa"."""
    person = who.said or who.relation
    return f"{person} {who.name}" if who.name and who.name not in person else person


def _subjectless(tokens: list[Token]) -> bool:
    """A conjoined verb that leads its clause (after adverbs), with no subject of its own."""
    for token in tokens:
        if token.pos_ in ("ADV", "PART") and token.dep_ != "neg":
            continue
        return (
            token.pos_ in ("VERB", "AUX")
            and token.dep_ == "conj"
            and not any(c.dep_ in ("nsubj", "nsubjpass") for c in token.children)
        )
    return False


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
    while verb.dep_ in ("aux", "auxpass") and verb.head is not verb:
        verb = verb.head  # "I'm | getting | married": the subject is the participle's
    subject = _find_subject(verb)
    return subject is not None and subject.lower_ in _USER


def _glue(tokens: list[Token], index: int) -> bool:
    nxt = tokens[index + 1].lower_
    # Only a contraction this rewrites needs the space ("I'm" -> "User is"); "she's" stays.
    expanded = nxt.startswith("'") and tokens[index + 1].pos_ == "AUX" and nxt in _AUX_THIRD
    return nxt in ("n't",) or expanded


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
