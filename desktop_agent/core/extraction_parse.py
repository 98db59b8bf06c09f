"""Extraction from a dependency parse: who a clause is about, what it says, and whether it holds.

The patterns of ``extraction_rules`` read fixed openings ("I live in..."); this module reads the
grammar of any clause instead. For each clause head (a verb, or "be") it finds the subject
through the parse: the user ("I", "we"), one of the user's people or pets ("my sister Ana",
"our greyhound", "he" after one was named), or a thing ("chocolate is my weakness"). Then the
verb and its dependents say which slot the clause fills (where someone lives, their job, a habit
with its times, a plan with its date, something never done). Negation is a dependent of the
verb, so "I don't eat pork" is stored as a negation, never as "eats pork".

The parse comes from ``desktop_agent.nlp`` (spaCy); this module only walks its tokens.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any

from desktop_agent.core import extraction_words as words
from desktop_agent.core.extraction_dates import resolve_date
from desktop_agent.core.extraction_rules import _JOBS, _slug, normalise_object
from desktop_agent.core.timeparse import MONTHS, WEEKDAYS

Token = Any  # a spaCy Token; typed loosely so the core never imports spaCy

_SUBJECT = ("nsubj", "nsubjpass")
_CLAUSE = ("ROOT", "conj", "ccomp", "advcl", "xcomp", "parataxis", "relcl")
_USER = ("i", "we")
_PRONOUNS = ("he", "she", "they")


@dataclass(frozen=True, slots=True)
class Found:
    """One fact read from the parse; ``span`` is in the text that was parsed."""

    type: str
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
    return not (inverted and second.pos_ in ("PRON", "DET", "PROPN", "NOUN"))


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
            return child.lower_
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
    return noun.doc[noun.i + 1 : noun.i + 5].text.replace(" ", "") == "-in-law"


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
    return token.doc[start : token.i + 1].text


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
    return text[:1].upper() + text[1:]


def _third_word(token: Token, who: Who) -> str:
    lower = token.lower_
    if lower in _USER_WORDS:
        return _USER_WORDS[lower]
    if lower == "n't":
        return "not"
    if token.dep_ == "aux" and lower in ("ca", "wo"):
        return {"ca": "can", "wo": "will"}[lower]
    if who.kind != "user" or token.tag_ != "VBP" and token.pos_ != "AUX":
        return token.text
    # A verb whose subject was "I" or "we" now agrees with "User".
    if token.pos_ == "AUX" and lower in _AUX_THIRD and _has_user_subject(token):
        return _AUX_THIRD[lower]
    if token.tag_ == "VBP" and _has_user_subject(token):
        return _third_singular(token.text)
    return token.text


def _has_user_subject(token: Token) -> bool:
    verb = token.head if token.dep_ in ("aux", "auxpass") else token
    subject = _find_subject(verb)
    return subject is not None and subject.lower_ in _USER


def _glue(tokens: list[Token], index: int) -> bool:
    nxt = tokens[index + 1].lower_
    return nxt in ("n't",) or (nxt.startswith("'") and tokens[index + 1].pos_ == "AUX")


def _third_singular(verb: str) -> str:
    lower = verb.casefold()
    irregular = {"be": "is", "have": "has", "do": "does", "go": "goes", "am": "is", "are": "is"}
    if lower in irregular:
        return irregular[lower]
    if lower.endswith(("s", "sh", "ch", "x", "z", "o")):
        return verb + "es"
    if lower.endswith("y") and len(lower) > 1 and lower[-2] not in "aeiou":
        return verb[:-1] + "ies"
    return verb + "s"


# --- clauses ----------------------------------------------------------------------------------


def _clause(head: Token, context: _Context) -> Iterator[Found]:
    subject = _find_subject(head)
    if subject is None:
        return
    who = _who(subject, context)
    if who is None:
        return
    tokens = _clause_tokens(head)
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


def _make(
    who: Who,
    tokens: list[Token],
    kind: str,
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


# --- the user's people and pets ---------------------------------------------------------------


def _person(head: Token, who: Who, tokens: list[Token], context: _Context) -> Iterator[Found]:
    relation = who.relation
    lemma = _base(head)
    negated = _negated(head)
    slot = f"person:{relation}"
    if who.name and relation not in context.named:
        context.named.add(relation)
        yield _make(
            who,
            tokens,
            "fact",
            f"name_of:{relation}",
            who.name,
            f"User's {who.said} is named {who.name}",
            confidence=0.85,
        )
    attr = next((c for c in head.children if c.dep_ in ("attr", "oprd")), None)
    acomp = next((c for c in head.children if c.dep_ == "acomp"), None)
    if lemma in ("call", "name") and attr is not None and attr.pos_ == "PROPN":
        if relation not in context.named:
            context.named.add(relation)
            yield _make(
                who, tokens, "fact", f"name_of:{relation}", attr.text,
                f"User's {who.said} is named {attr.text}", confidence=0.85,
            )  # fmt: skip
        return
    if lemma == "be" and attr is not None:
        if attr.like_num or attr.pos_ == "NUM":
            ages = " and ".join(t.text for t in _conjuncts(attr))
            yield _make(who, tokens, "fact", f"{slot}:age", ages, negated=negated)
            return
        if _is_job(attr):
            yield _make(who, tokens, "fact", f"{slot}:job", _phrase(attr), negated=negated)
            return
    if lemma == "turn" and attr is None:
        number = next((c for c in head.children if c.like_num), None)
        if number is not None:
            yield _make(who, tokens, "fact", f"{slot}:age", number.text)
            return
    if lemma == "be" and acomp is not None:
        allergen = _prep_object(acomp, "to")
        if acomp.lower_ == "allergic" and allergen is not None:
            for item in _conjuncts(allergen):
                key = normalise_object(item.lemma_ if item.tag_ == "NNS" else item.text)
                yield _make(
                    who, tokens, "risk", f"{slot}:allergy:{key}", item.text,
                    negated=negated, confidence=0.85,
                )  # fmt: skip
            return
        if acomp.lower_ in words.DIETS:
            yield _make(who, tokens, "fact", f"{slot}:diet", acomp.lower_, negated=negated)
            return
    if lemma == "be" and attr is not None and attr.lower_ in words.DIETS:
        yield _make(who, tokens, "fact", f"{slot}:diet", attr.lower_, negated=negated)
        return
    allergy = next((c for c in head.children if c.dep_ == "dobj" and c.lemma_ == "allergy"), None)
    if lemma == "have" and allergy is not None:
        allergen = [c for c in allergy.children if c.dep_ in ("compound", "amod", "nmod")]
        allergen = [c for c in allergen if c.lower_ not in ("severe", "mild", "bad", "serious")]
        if allergen:
            key = normalise_object(allergen[-1].text)
            yield _make(who, tokens, "risk", f"{slot}:allergy:{key}", allergen[-1].text,
                        negated=negated, confidence=0.85)  # fmt: skip
            return
    liking = next((c for c in head.children if c.dep_ == "aux" and _base(c) in _LIKING), None)
    if liking is not None and head.pos_ == "VERB":  # "my wife loves gardening", misparsed
        against = _base(liking) in ("hate", "dislike", "loathe")
        yield _make(who, tokens, "preference", f"{slot}:likes:{normalise_object(head.text)}",
                    head.text, negated=against)  # fmt: skip
        return
    if lemma in ("live", "move", "relocate"):
        place = _prep_object(head, "in", "to")
        if place is not None and (place.pos_ == "PROPN" or place.text[:1].isupper()):
            yield _make(
                who, tokens, "fact", f"{slot}:home_city", _place(place),
                negated=negated, correction=lemma != "live",
            )  # fmt: skip
            return
    if lemma == "be" or lemma == "come":
        origin = _prep_object(head, "from")
        if origin is not None and origin.pos_ == "PROPN":
            yield _make(who, tokens, "fact", f"{slot}:origin", _place(origin), negated=negated)
            return
    if lemma == "work":
        role = _prep_object(head, "as")
        if role is not None:
            yield _make(who, tokens, "fact", f"{slot}:job", _phrase(role), negated=negated)
            return
        place = _prep_object(head, "at", "for")
        if place is not None:
            yield _make(who, tokens, "fact", f"{slot}:employer", _phrase(place), negated=negated)
            return
    if lemma in _LIKING:
        thing = _object(head) or next((c for c in head.children if c.dep_ == "xcomp"), None)
        if thing is not None:
            against = lemma in ("hate", "dislike", "loathe") or negated
            key = normalise_object(_phrase(thing))
            yield _make(
                who, tokens, "preference", f"{slot}:likes:{key}", _phrase(thing), negated=against
            )
            return
    when = _when(tokens)
    progressive = head.tag_ == "VBG" and any(c.lemma_ == "be" for c in head.children)
    dated = re.fullmatch(r"[\d-]+", when) and not _transient(tokens)
    if (progressive or head.tag_ == "VBZ" and lemma != "be") and dated:
        yield _make(who, tokens, "plan", f"{slot}:plan:{_slug(_words(tokens))}",
                    _words(tokens), when=when)  # fmt: skip
        return
    if _says_something_lasting(head, tokens):
        yield _make(who, tokens, "fact", f"{slot}:said:{_slug(_words(tokens))}", _words(tokens),
                    negated=negated, confidence=0.6)  # fmt: skip


def _says_something_lasting(head: Token, tokens: list[Token]) -> bool:
    """ "My son is autistic", "my son plays the violin": yes. "My mum says hi", "my budgie died
    last week", "my sister asked me to...": news and messages, not facts about the person."""
    if len(tokens) < 3 or _transient(tokens) or _base(head) in words.MESSAGES:
        return False
    if any(t.lower_ in ("me", "you", "us") for t in tokens):
        return False
    if head.lemma_ == "be":
        return any(c.dep_ in ("attr", "acomp") for c in head.children)
    if head.tag_ == "VBG":  # "my sister is studying medicine", not "is cooking dinner"
        return _base(head) in words.LONG_ACTIVITIES
    if head.tag_ == "VB":  # "my brother doesn't eat meat"
        return any(c.dep_ == "aux" and c.lemma_ == "do" for c in head.children)
    return head.tag_ == "VBZ" or head.tag_ == "VBP" and head.dep_ == "ROOT"


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
        return lemma[:-1]
    return lemma


def _attribute(head: Token, who: Who, tokens: list[Token]) -> Iterator[Found]:
    """ "My dad's birthday is on 2 March" -> person:father:birthday."""
    noun = who.token.lemma_.casefold()
    if head.lemma_ != "be" or noun in ("name",):  # names: the patterns read them
        return
    value = _words(tokens[[t.i for t in tokens].index(head.i) + 1 :]) if head in tokens else ""
    if noun in ("birthday", "job", "age", "name", "address", "phone", "email"):
        person = Who("person", who.token, who.relation, said=who.said)
        yield _make(person, tokens, "fact", f"person:{who.relation}:{noun}", value)


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


# --- the user ---------------------------------------------------------------------------------


def _misparsed_verb(head: Token) -> Token | None:
    """ "I don't eat gluten" parsed with "eat" as an auxiliary of "gluten": the real verb."""
    for child in head.children:
        if (
            child.dep_ == "aux"
            and child.pos_ in ("AUX", "VERB")
            and _base(child) not in _AUXILIARIES
        ):
            return child
    return None


_AUXILIARIES = frozenset(
    """be have do will would can could shall should may might must 'd 'll wo ca to get going
    ought need dare used""".split()
)


def _user(head: Token, who: Who, tokens: list[Token]) -> Iterator[Found]:
    lemma = _base(head)
    negated = _negated(head)
    verb = _misparsed_verb(head)
    if verb is not None:
        negated = _negated(verb)
        thing = _words([t for t in head.subtree if t.i > verb.i])
        if _base(verb) in _LIKING:
            against = negated or _base(verb) in ("hate", "dislike", "loathe")
            yield _make(who, tokens, "preference", f"likes:{normalise_object(thing)}", thing,
                        negated=against)  # fmt: skip
        elif negated and _base(verb) not in words.NOT_A_HABIT:
            yield _make(who, tokens, "fact", f"{_base(verb)}:{normalise_object(thing)}", thing,
                        negated=True, confidence=0.65)  # fmt: skip
        return
    if _modal(head):
        yield from _wish(head, who, tokens)
        return
    if lemma == "be":
        yield from _user_is(head, who, tokens, negated)
        return
    has_object = any(c.dep_ == "dobj" for c in head.children)
    job = next((c for c in head.children if c.dep_ == "dobj" and c.lemma_ == "job"), None)
    if lemma in ("get", "land", "accept", "start") and job is not None and not negated:
        place = _prep_object(job, "at", "with") or _prep_object(head, "at", "with")
        if place is not None:  # "I got the job at Deloitte"
            employer = _words(list(place.subtree))
            yield _make(who, tokens, "fact", "employer", employer, f"User works at {employer}",
                        correction=True)  # fmt: skip
            return
    enough = next((c for c in head.children if c.lower_ == "enough"), None)
    if lemma == "get" and negated and enough is not None:
        thing = _prep_object(enough, "of")
        if thing is not None:  # "I can't get enough of podcasts"
            what = _phrase(thing)
            yield _make(who, tokens, "preference", f"likes:{normalise_object(what)}", what,
                        f"User loves {what}")  # fmt: skip
        return
    if lemma in ("have", "get", "adopt") and not _is_aux(head) and has_object:
        yield from _user_has(head, who, tokens, negated)
        return
    if lemma in ("want", "hope", "aim", "plan", "intend", "try"):
        yield from _goal(head, who, tokens)
        return
    if lemma == "obsess":
        thing = _prep_object(head, "with")
        if thing is not None:
            yield _make(who, tokens, "preference", f"likes:{normalise_object(_phrase(thing))}",
                        _phrase(thing), f"User loves {_phrase(thing)}")  # fmt: skip
        return
    employer = _prep_object(head, "at", "for") if lemma == "work" and not negated else None
    if employer is not None and employer.lemma_ not in _NOT_A_WORKPLACE and not _is_time(employer):
        value = _words(list(employer.subtree))
        yield _make(who, tokens, "fact", "employer", value, f"User works at {value}")
        return
    if lemma == "work" and not negated and _prep_object(head, "at", "for", "as") is None:
        field = _prep_object(head, "in")
        place = field is not None and field.ent_type_ in ("GPE", "LOC", "FAC")
        if (
            field is not None
            and not place
            and (not field.text[:1].isupper() or field.text.isupper())
        ):
            yield _make(who, tokens, "fact", "job", f"in {_words(list(field.subtree))}",
                            f"User works in {_words(list(field.subtree))}")  # fmt: skip
            return
    if lemma == "eat" and any(c.lower_ in ("again", "back") for c in head.children):
        thing = _object(head)
        if thing is not None and thing.lemma_ in _MEAT:
            yield _make(who, tokens, "fact", "diet", f"eats {thing.text}", correction=True)
            return
    if lemma == "find":
        yield from _find(head, who, tokens)
        return
    thing = _object(head)
    if lemma in ("leave", "quit") and not negated and thing is not None and thing.lemma_ == "job":
        yield from _left_job(head, who, tokens)
        return
    gave_up = lemma == "give" and any(c.dep_ == "prt" and c.lower_ == "up" for c in head.children)
    if (gave_up or lemma in ("quit", "stop")) and not negated:
        yield from _gave_up(head, who, tokens)
        return
    if lemma == "switch" and not negated:
        thing = _prep_object(head, "to")
        if thing is not None:
            what = _phrase(thing)
            yield _make(who, tokens, "preference", f"likes:{normalise_object(what)}", what,
                        f"User now prefers {what}", correction=True)  # fmt: skip
            return
    if lemma in ("move", "relocate", "end", "stay") and not negated:
        yield from _moved(head, who, tokens)
        return
    if lemma == "learn" or (lemma == "study" and head.tag_ != "VBP"):
        thing = _object(head)
        if thing is not None:
            yield _make(who, tokens, "fact", f"learning:{normalise_object(_phrase(thing))}",
                        _phrase(thing))  # fmt: skip
        return
    if lemma == "study" and _object(head) is not None:
        yield _make(who, tokens, "fact", "studies", _phrase(_object(head)))
        return
    if lemma == "train" and _prep_object(head, "for") is not None:
        goal = _prep_object(head, "for")
        yield _make(who, tokens, "plan", f"goal:{_slug(_phrase(goal))}", _phrase(goal))
        return
    if lemma == "teach" and _object(head) is not None and not negated:
        yield _make(who, tokens, "fact", "job", f"teaching {_phrase(_object(head))}")
        return
    if negated:
        yield from _never(head, who, tokens)
        return
    yield from _habit_or_plan(head, who, tokens)


def _is_aux(token: Token) -> bool:
    return token.dep_ in ("aux", "auxpass")


def _modal(head: Token) -> bool:
    return any(
        c.dep_ == "aux" and c.lower_ in ("would", "'d", "could", "might", "should")
        for c in head.children
    )


def _wish(head: Token, who: Who, tokens: list[Token]) -> Iterator[Found]:
    """Only "I'd like to <do something>" is a goal; "I'd love a dog one day" is a wish."""
    if head.lemma_ in ("like", "love") and any(c.lower_ in ("'d", "would") for c in head.children):
        yield from _goal(head, who, tokens)


def _goal(head: Token, who: Who, tokens: list[Token]) -> Iterator[Found]:
    action = next((c for c in head.children if c.dep_ == "xcomp" and c.pos_ == "VERB"), None)
    if action is None or action.lemma_.casefold() in words.NOT_A_GOAL or _negated(head):
        return
    if any(t.lower_ in ("now", "right") for t in tokens):
        return
    rest = [t for t in action.subtree]
    what = _words(rest[1:] if rest and rest[0].lower_ == "to" else rest)
    what = re.sub(r"^to\s+", "", what)
    yield _make(who, tokens, "plan", f"goal:{_slug(what)}", what, when=_when(tokens))


def _user_is(head: Token, who: Who, tokens: list[Token], negated: bool) -> Iterator[Found]:
    children = list(head.children)
    # "I'm 40, married, two kids": every part of the list hangs on "be".
    for token in head.subtree:
        lower = token.lower_
        if (
            lower in words.MARITAL
            and token.pos_ in ("ADJ", "VERB")
            and token.head.i
            in (
                head.i,
                *[c.i for c in children],
            )
        ):
            text = f"User is {'not ' if negated else ''}{lower}"
            yield _make(who, tokens, "fact", "marital_status", lower, text, negated=negated)
        if lower in words.KIDS and token.i != head.i and _within(token, head):
            count = next((c.text for c in token.children if c.dep_ == "nummod"), "")
            if count and token.dep_ != "attr":
                text = f"User has {count} {token.text}"
                yield _make(who, tokens, "fact", "children", f"{count} {token.text}", text)
    attr = next((c for c in children if c.dep_ == "attr"), None)
    acomp = next((c for c in children if c.dep_ == "acomp"), None)
    into = _prep_object(head, "into")
    if into is not None:
        verb = "is not into" if negated else "likes"
        yield _make(who, tokens, "preference", f"likes:{normalise_object(_phrase(into))}",
                    _phrase(into), f"User {verb} {_phrase(into)}", negated=negated)  # fmt: skip
        return
    named = next(
        (c for c in children if c.dep_ in ("attr", "acomp") and c.ent_type_ == "PERSON"), None
    )
    if named is not None and not negated and named.pos_ == "PROPN":
        # "I'm Sara, 27, and I live in Cork"
        yield _make(who, tokens, "fact", "name", named.text, f"User's name is {named.text}")
        for number in named.children:
            age = number.text.isdigit() and 3 <= int(number.text) <= 120
            if number.dep_ in ("appos", "conj", "npadvmod") and age:
                yield _make(who, tokens, "fact", "age", number.text,
                                f"User is {number.text} years old")  # fmt: skip
        return
    if attr is not None and attr.like_num and attr.text.isdigit() and 3 <= int(attr.text) <= 120:
        yield _make(who, tokens, "fact", "age", attr.text, f"User is {attr.text} years old",
                    when=_when(tokens))  # fmt: skip
        return
    if acomp is not None and acomp.lower_ == "big" and _prep_object(acomp, "on") is not None:
        what = _phrase(_prep_object(acomp, "on"))
        verb = "is not big on" if negated else "likes"
        yield _make(who, tokens, "preference", f"likes:{normalise_object(what)}", what,
                    f"User {verb} {what}", negated=negated)  # fmt: skip
        return
    place = _prep_object(head, "at", "in")
    if place is not None and attr is None and acomp is None and _habitual(head, tokens):
        # "I'm at the gym every day after work"
        yield _make(who, tokens, "fact", f"routine:{normalise_object(_phrase(place))}",
                    _words(tokens), confidence=0.7, when=_when(tokens))  # fmt: skip
        return
    if (
        attr is not None
        and attr.lower_.endswith("er")
        and any(c.lower_ in ("big", "huge", "keen", "avid") for c in attr.children)
    ):
        activity = _activity_of(attr.lower_)  # "I'm not a big reader" -> reading
        verb = "is not a keen" if negated else "is a keen"
        yield _make(who, tokens, "preference", f"likes:{activity}", activity,
                    f"User {verb} {attr.lower_}", negated=negated)  # fmt: skip
        return
    when = _when(tokens)
    if attr is None and acomp is None and not negated and re.fullmatch(r"[\d-]+", when):
        # "I'm off to Greece on the 2nd", "I'm in Rome next week"
        yield _make(who, tokens, "plan", f"plan:{_slug(_words(tokens))}", _words(tokens), when=when)
        return
    if attr is not None and attr.lemma_ == "fan" and not negated:
        team = [c for c in attr.children if c.dep_ == "compound" or c.pos_ == "PROPN"]
        if team:
            what = " ".join(t.text for t in team)
            yield _make(who, tokens, "preference", f"likes:{normalise_object(what)}", what,
                        f"User is a {what} fan")  # fmt: skip
            return
    if attr is not None and attr.lemma_ == "person":
        kind = next((c for c in attr.children if c.dep_ in ("compound", "amod")), None)
        if kind is not None:
            thing = normalise_object(kind.text)
            text = f"User is {'not ' if negated else ''}a {kind.text} person"
            yield _make(who, tokens, "preference", f"likes:{thing}", kind.text, text,
                        negated=negated)  # fmt: skip
        return
    for extra in _conjuncts(acomp)[1:] if acomp is not None else []:
        allergen = _prep_object(extra, "to")
        if extra.lower_ == "allergic" and allergen is not None and not negated:
            for item in _conjuncts(allergen):
                key = normalise_object(item.lemma_ if item.tag_ == "NNS" else item.text)
                yield _make(who, tokens, "risk", f"allergy:{key}", item.text,
                            f"User is allergic to {item.text}", confidence=0.85)  # fmt: skip
    if acomp is not None:
        lower = acomp.lower_
        if lower == "obsessed":
            thing = _prep_object(acomp, "with")
            if thing is not None:
                yield _make(who, tokens, "preference", f"likes:{normalise_object(_phrase(thing))}",
                            _phrase(thing), f"User loves {_phrase(thing)}")  # fmt: skip
            return
        if lower == "allergic" and negated:
            allergen = _prep_object(acomp, "to")
            for item in _conjuncts(allergen) if allergen is not None else []:
                key = normalise_object(item.lemma_ if item.tag_ == "NNS" else item.text)
                yield _make(who, tokens, "risk", f"allergy:{key}", item.text,
                            f"User is not allergic to {item.text}", negated=True,
                            correction=True)  # fmt: skip
            return
        if lower in words.WORK_STATES:
            yield _make(who, tokens, "fact", "job", lower, f"User is {lower}", negated=negated)
            return
    if attr is not None and attr.lower_ in words.WORK_STATES:
        yield _make(who, tokens, "fact", "job", attr.lower_, f"User is {attr.lower_}")


def _within(token: Token, head: Token) -> bool:
    """Whether ``token`` belongs to ``head``'s clause, with no other verb in between."""
    while token.i != head.i:
        token = token.head
        if token.i != head.i and token.pos_ in ("VERB", "AUX"):
            return False
        if token.head.i == token.i:
            return token.i == head.i
    return True


def _activity_of(agent: str) -> str:
    """ "reader" -> "reading", "runner" -> "running", "dancer" -> "dancing"."""
    return f"{agent[:-2]}ing"


def _user_has(head: Token, who: Who, tokens: list[Token], negated: bool) -> Iterator[Found]:
    found = list(_user_has_each(head, who, tokens, negated))
    yield from found
    when = _when(tokens)
    ahead = head.tag_ == "VBG" or any(c.lower_ in ("will", "'ll") for c in head.children)
    if not found and not negated and ahead and re.fullmatch(r"[\d-]+", when):
        # "We're having a baby in March!"
        yield _make(who, tokens, "plan", f"plan:{_slug(_words(tokens))}", _words(tokens), when=when)


def _user_has_each(head: Token, who: Who, tokens: list[Token], negated: bool) -> Iterator[Found]:
    thing = next((c for c in head.children if c.dep_ == "dobj"), None)
    if thing is None:
        return
    for item in _conjuncts(thing):
        lower, lemma = item.lower_, item.lemma_.casefold()
        species = words.PETS.get(lower) or words.PETS.get(lemma)
        if species:
            name = _called(item)
            if name and not negated:
                said = _phrase(item)
                text = f"User's {species} is named {name}" + (
                    f" (a {said})" if said.casefold() != species else ""
                )
                who_pet = Who("person", item, species, name, said)
                yield _make(who_pet, tokens, "fact", f"name_of:{species}", name, text,
                            confidence=0.85)  # fmt: skip
            elif not negated:
                who_pet = Who("person", item, species)
                yield _make(who_pet, tokens, "fact", f"pet:{species}", _phrase(item),
                            f"User has {_words(list(item.subtree)).split(',')[0]}")  # fmt: skip
        elif lower in ("pet", "pets") and negated:
            yield _make(who, tokens, "fact", "pet", "pets", "User has no pets", negated=True)
        elif lower in words.KIDS or lemma in words.KIDS:
            if item.i != thing.i and (thing.lower_ in words.KIDS or thing.lemma_ in words.KIDS):
                continue  # "a son and two daughters": one fact, read at the first
            said = _words(list(thing.subtree)) if item.i == thing.i else _words(list(item.subtree))
            text = "User has no children" if negated else f"User has {said}"
            yield _make(who, tokens, "fact", "children", said, text, negated=negated)
        elif lemma in words.EVENTS or any(c.lemma_ in words.EVENTS for c in item.children):
            when = _when(tokens)
            if when and not negated:
                yield _make(who, tokens, "plan", f"plan:{_slug(_phrase(item))}", _phrase(item),
                            when=when)  # fmt: skip
        elif negated and item.pos_ == "NOUN":
            key = f"have:{normalise_object(_phrase(item))}"
            yield _make(who, tokens, "fact", key, _phrase(item), negated=True)
        elif _habitual(head, tokens):  # "every Thursday I have band practice"
            what = _slug(f"have {normalise_object(_phrase(item))}", 3)
            yield _make(who, tokens, "fact", f"routine:{what}", _words(tokens), confidence=0.7,
                        when=_when(tokens))  # fmt: skip


def _called(item: Token) -> str:
    for child in item.children:
        if child.dep_ == "acl" and child.lemma_ in ("call", "name"):
            name = next((c for c in child.children if c.dep_ in ("oprd", "dobj", "attr")), None)
            if name is not None:
                return name.text
        if child.dep_ == "appos" and child.pos_ == "PROPN":
            return child.text
        if child.dep_ == "appos" and (name := _called(child)):
            return name  # "a dog, a cocker spaniel called Bramble"
    return ""


def _find(head: Token, who: Who, tokens: list[Token]) -> Iterator[Found]:
    """ "I find opera boring": the adjective says whether the user likes it."""
    feelings = words.POSITIVE_ADJ | words.NEGATIVE_ADJ
    adjective = next((t for t in head.subtree if t.i > head.i and t.lower_ in feelings), None)
    thing = next(
        (
            t
            for t in head.subtree
            if t.i > head.i and (t.pos_ in ("NOUN", "PROPN") or t.tag_ == "VBG")
        ),
        None,
    )
    if adjective is None or thing is None:
        return
    lower = adjective.lower_
    if lower in words.NEGATIVE_ADJ or lower in words.POSITIVE_ADJ:
        against = lower in words.NEGATIVE_ADJ
        yield _make(who, tokens, "preference", f"likes:{normalise_object(_phrase(thing))}",
                    _phrase(thing), negated=against)  # fmt: skip


def _left_job(head: Token, who: Who, tokens: list[Token]) -> Iterator[Found]:
    thing = _object(head)
    if thing is None or thing.lemma_ != "job":
        return
    place = _prep_object(thing, "at", "with") or _prep_object(head, "at", "with")
    if place is not None:
        employer = _words(list(place.subtree))
        text = f"User no longer works at {employer}"
        yield _make(who, tokens, "fact", "employer", employer, text, negated=True, correction=True)
        return
    role = _prep_object(thing, "as") or _prep_object(head, "as")
    value = _phrase(role) if role is not None else "job"
    text = f"User no longer works as {value}" if role is not None else "User left their job"
    yield _make(who, tokens, "fact", "job", value, text, negated=True, correction=True)


def _moved(head: Token, who: Who, tokens: list[Token]) -> Iterator[Found]:
    verb = head
    if head.lemma_ == "end":  # "we ended up moving to Cardiff", "we ended up staying in Bath"
        verb = next((c for c in head.children if c.dep_ == "xcomp"), None)
        if verb is None or verb.lemma_ not in ("move", "relocate", "stay"):
            return
    elif head.lemma_ == "stay":
        return  # "I stayed in Bath" is a visit, unless one "ended up staying"
    place = _prep_object(verb, "to", "in")
    past = head.tag_ in ("VBD", "VBN")
    if place is None or not place.text[:1].isupper() or not past:
        when = _when(tokens)
        if head.lemma_ in ("move", "relocate") and not past and when:
            # "I'm moving to Leeds in June", "we're moving house next month"
            yield _make(who, tokens, "plan", f"plan:{_slug(_words(tokens))}",
                        _words(tokens), when=when)  # fmt: skip
        return
    city = _place(place)
    yield _make(who, tokens, "fact", "home_city", city, f"User lives in {city}", correction=True)


def _gave_up(head: Token, who: Who, tokens: list[Token]) -> Iterator[Found]:
    """ "I gave up being vegan", "I quit smoking": the end of a diet or a habit."""
    for token in head.subtree:
        if token.lower_ in words.DIETS:
            diet = words.DIETS[token.lower_]
            yield _make(who, tokens, "fact", "diet", diet, f"User is no longer {diet}",
                        negated=True, correction=True)  # fmt: skip
            return
    habit = next(
        (c for c in head.children if c.dep_ in ("xcomp", "dobj") and c.tag_ == "VBG"), None
    )
    if habit is None:
        habit = next(
            (c for c in head.children if c.dep_ == "dobj" and c.lower_.endswith("ing")), None
        )
    if habit is None:
        return
    lemma = habit.lemma_.casefold()
    thing = next((c for c in habit.children if c.dep_ == "dobj"), None)
    if lemma == "eat" and thing is not None and thing.lemma_ in _MEAT:
        yield _make(who, tokens, "fact", "diet", f"no {thing.text}",
                    f"User no longer eats {thing.text}", correction=True)  # fmt: skip
        return
    key = f"{lemma}:{normalise_object(_phrase(thing))}" if thing is not None else lemma
    said = _words(list(habit.subtree))
    yield _make(who, tokens, "fact", key, said, f"User gave up {said}", negated=True,
                correction=True)  # fmt: skip


_MEAT = frozenset("meat fish chicken beef pork lamb dairy".split())


def _never(head: Token, who: Who, tokens: list[Token]) -> Iterator[Found]:
    """ "I don't eat pork", "I've never flown", "I can't swim": kept as negations."""
    lemma = head.lemma_.casefold()
    if lemma in words.NOT_A_HABIT or lemma in ("like", "love", "enjoy", "live", "work", "be"):
        return
    if (
        _transient(tokens)
        or head.tag_ == "VBD"
        and not any(c.lower_ == "never" for c in head.children)
    ):
        return
    thing = next((c for c in head.children if c.dep_ == "dobj"), None)
    if thing is not None and thing.pos_ == "PRON":
        return
    key = lemma
    if thing is None and lemma in ("go", "travel", "fly"):
        thing = _prep_object(head, "to")
    if thing is not None:
        key = f"{lemma}:{normalise_object(_phrase(thing))}"
    yield _make(who, tokens, "fact", key, _words(tokens), negated=True, confidence=0.65)


def _habit_or_plan(head: Token, who: Who, tokens: list[Token]) -> Iterator[Found]:
    lemma = head.lemma_.casefold()
    if lemma in words.STATIVE and lemma not in ("work", "get", "have"):
        return
    when = _when(tokens)
    habitual = _habitual(head, tokens)
    progressive = head.tag_ == "VBG" and any(
        c.dep_ == "aux" and c.lemma_ == "be" for c in head.children
    )
    future = any(c.lower_ in ("will", "'ll") for c in head.children)
    if habitual and head.tag_ in ("VBP", "VB"):
        yield _make(who, tokens, "fact", f"routine:{_activity(head)}", _words(tokens),
                    confidence=0.7, when=when)  # fmt: skip
        return
    if when and (progressive or future or head.tag_ in ("VBP",)) and not habitual:
        if _transient(tokens) and "tomorrow" not in _words(tokens).casefold():
            return
        yield _make(who, tokens, "plan", f"plan:{_slug(_words(tokens))}", _words(tokens),
                    when=when)  # fmt: skip
        return
    if progressive and any(c.lemma_ in ("marry",) for c in [head]):
        yield _make(who, tokens, "plan", f"plan:{_slug(_words(tokens))}", _words(tokens))
        return
    thing = _object(head)
    commute = lemma == "take" and thing is not None and thing.lemma_ in _TRANSPORT
    if head.tag_ == "VBP" and (lemma in words.ACTIVITIES or commute):
        yield _make(who, tokens, "fact", f"routine:{_activity(head)}", _words(tokens),
                    confidence=0.6, when=when)  # fmt: skip


def _activity(head: Token) -> str:
    """A habit's slot is its activity, not its times: "I swim every Tuesday" and "I swim on
    Fridays now" share "routine:swim"; "I go to the gym" is "routine:go gym"."""
    parts = [head.lemma_.casefold()]
    thing = next((c for c in head.children if c.dep_ == "dobj"), None)
    if thing is not None and thing.pos_ in ("NOUN", "PROPN") and not _is_time(thing):
        parts.append(normalise_object(_phrase(thing)))
    elif head.lemma_ in ("go", "walk", "cycle", "drive", "run"):
        place = _prep_object(head, "to")
        if place is not None and not _is_time(place):
            parts.append(normalise_object(_phrase(place)))
    return _slug(" ".join(parts), 3)


_NOT_A_WORKPLACE = frozenset("home night nights weekend weekends moment".split())
_TRANSPORT = frozenset("bus train tube metro tram ferry subway underground car bike".split())


def _owned(head: Token, who: Who, tokens: list[Token]) -> Iterator[Found]:
    """ "My goal is to read 30 books", "Our wedding is on 20 August"."""
    subject = _find_subject(head)
    if subject is None or head.lemma_ != "be":
        return
    noun = subject.lemma_.casefold()
    if noun in ("goal", "aim", "dream", "ambition", "resolution", "plan"):
        action = next((c for c in head.children if c.dep_ == "xcomp"), None)
        if action is not None:
            what = re.sub(r"^to\s+", "", _words(list(action.subtree)))
            kind = "plan" if noun == "plan" else "goal"
            yield _make(who, tokens, "plan", f"{kind}:{_slug(what)}", what, when=_when(tokens))
        return
    if noun in words.EVENTS or any(c.lemma_ in words.EVENTS for c in subject.children):
        when = _when(tokens)
        if when:
            yield _make(who, tokens, "plan", f"plan:{_slug(_phrase(subject))}",
                        _phrase(subject), when=when)  # fmt: skip


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
            return head.tag_ == "VBP"
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
    resolved = resolve_date(" ".join(dates)) if dates else ""
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


__all__ = ["Found", "Who", "read", "third_person"]
