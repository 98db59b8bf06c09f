"""Who the subject of a clause is: the user, one of their people (by relation or by a name
already known), something the user owns, or a thing.
"""

from __future__ import annotations

from contextvars import ContextVar
from dataclasses import dataclass, field

from desktop_agent.core import extraction_words as words
from desktop_agent.core.extraction_clauses import _PRONOUNS, _USER, Token, _possessor

# The user's people known by name (name -> relation, from "User's sister is named Ana"), so
# "Ana moved to Milan" is read as the sister's news. Set by ``learning`` around one extraction.
KNOWN_PEOPLE: ContextVar[dict[str, str]] = ContextVar("known_people", default={})  # noqa: B039


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


def _who(subject: Token, context: _Context) -> Who | None:
    lower = subject.lower_
    if lower in _USER:
        return Who("user", subject)
    if lower in _PRONOUNS:
        # (not one the pronoun does not fit: "mum's in Leeds. | dad's 70 soon, he'll ...")
        unfit = {"she": words.MALE, "he": words.FEMALE}.get(lower, frozenset())
        if context.last and context.last.kind == "person" and context.last.relation not in unfit:
            return context.last
        context.last = _antecedent(subject)
        if context.last is not None and context.last.name:
            context.named.add(context.last.relation)  # known by name: only the news is new
        return context.last
    if lower == "nothing" and subject.head.lemma_ in ("beat", "top"):
        return Who("thing", subject)  # "nothing beats a good curry"
    if subject.pos_ not in ("NOUN", "PROPN") and subject.tag_ != "VBG":
        return None
    noun, name = subject, ""
    # A remembered name, even one the parser takes for a noun ("Ines" is an ORG noun to it).
    capitalised = subject.pos_ == "PROPN" or (subject.pos_ == "NOUN" and subject.text.istitle())
    known = KNOWN_PEOPLE.get().get(lower) if capitalised else None
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
            # ("my son Jun Hao": a name of two words, both after the relation)
            given = [
                c.text
                for c in subject.children
                if c.dep_ == "compound" and c.pos_ == "PROPN" and c.i > described.i
            ]
            noun, name = described, " ".join([*given, subject.text])
    relation = _relation_of(noun)
    partners = {_relation_of(c) for c in noun.conjuncts} | {relation}
    if partners == {"mother", "father"}:
        relation = "parents"  # "my mum and dad live in Wales"
    owned = _possessor(noun) or _possessor(subject)
    holder = next(
        (c for c in noun.children if c.dep_ == "poss" and (_relation_of(c) or _known(c))), None
    )
    if holder is not None and (_possessor(holder) or _known(holder)) and not relation:
        # "my dad's birthday is on 2 March", "Priya's birthday is ..." (Priya known as the
        # wife): an attribute of one of the user's people.
        if known := _known(holder):
            who = Who("attribute", subject, known, holder.text, f"{known} {holder.text}")
        else:
            who = Who("attribute", subject, _relation_of(holder), said=_relation_words(holder))
        context.last = Who("person", holder, who.relation, said=who.said)
        return who
    # ("big family news: mom and dad sold the house": a sentence of its own after the colon,
    # which may be blanked before the parse)
    before = noun.doc[noun.i - 1] if noun.i > noun.sent.start else None
    opens = before is None or before.is_space or before.text in (":", "-", "–", "—")
    bare = not any(c.dep_ == "det" for c in noun.children) and opens
    if relation and (owned or (bare and noun.lower_ in words.RELATIONS)):
        if not name:
            appos = next((c for c in noun.children if c.dep_ == "appos"), None)
            after = noun.doc[noun.i + 1] if noun.i + 1 < len(noun.doc) else None
            if appos is not None and appos.pos_ == "PROPN":
                # ("my daughter Mary Ann": her given names, both)
                given = [c.text for c in appos.lefts if c.dep_ == "compound" and c.pos_ == "PROPN"]
                name = " ".join([*given, appos.text])
            elif after is not None and after.pos_ == "PROPN" and after.head.i == noun.head.i:
                name = after.text  # "my best mate Dave supports...": both parsed as subjects
        said = _relation_words(noun)
        who = Who("person", subject, relation, name, said)
        context.last = who
        return who
    if owned:
        return Who("owned", subject)  # "my exam is on 12 May", "my goal is to..."
    return Who("thing", subject)


def _antecedent(pronoun: Token) -> Who | None:
    """The one person of the user's named earlier in the message, not as a subject: "news from
    Ingrid (known as the sister) - she's moved to Bergen", "lunch with my brother, he's ...".
    Two people named, a possessive ("Ingrid's boss, she ...") or a pronoun that does not fit
    the relation, and nobody is meant for sure."""
    if pronoun.lower_ not in ("she", "he"):
        return None
    people: dict[str, Who] = {}
    for token in pronoun.doc[: pronoun.i]:
        if any(c.dep_ == "case" for c in token.children) or token.tag_ == "POS":
            continue
        if known := _known(token):
            people[known] = Who("person", token, known, token.text, f"{known} {token.text}")
        elif _possessor(token) and (relation := _relation_of(token)):
            after = token.doc[token.i + 1] if token.i + 1 < pronoun.i else None
            name = after.text if after is not None and after.pos_ == "PROPN" else ""
            if relation not in people:  # "my husband Rafael": named as he is said
                people[relation] = Who("person", token, relation, name, _relation_words(token))
        elif (
            token.i and _possessor(token.doc[token.i - 1]) and _relation_of(token.doc[token.i - 1])
        ):
            continue  # "my husband Rafael": the husband, named
        elif token.pos_ == "PROPN" and token.ent_type_ not in ("GPE", "LOC", "DATE", "TIME"):
            return None  # someone the memory does not know may be meant
    if len(people) != 1:
        return None
    who = next(iter(people.values()))
    unfit = words.MALE if pronoun.lower_ == "she" else words.FEMALE
    return None if who.relation in unfit else who


def _known(token: Token) -> str:
    """The relation of a remembered name ("Priya" -> "wife"), or ""."""
    if token.pos_ != "PROPN" and not token.text.istitle():
        return ""
    return KNOWN_PEOPLE.get().get(token.lower_, "")


def _relation_of(noun: Token) -> str:
    lower = noun.lower_
    lemma = noun.lemma_.casefold()
    if _in_law(noun):
        return f"{lower}-in-law"
    if lower in words.RELATIONS or lemma in words.RELATIONS:
        relation = words.RELATIONS.get(lower) or words.RELATIONS[lemma]
        if relation == "friend" and any(c.lower_ in ("best", "closest") for c in noun.children):
            return "best friend"
        return relation
    return words.PETS.get(lower) or words.PETS.get(lemma) or ""


def _in_law(noun: Token) -> bool:
    return bool(noun.doc[noun.i + 1 : noun.i + 5].text.replace(" ", "") == "-in-law")


def _relation_words(noun: Token) -> str:
    modifiers = [c.text for c in noun.children if c.dep_ in ("amod", "compound") and c.i < noun.i]
    said = " ".join([*modifiers, noun.text]).casefold()
    return f"{said}-in-law" if _in_law(noun) else said
