"""'My sister Ines lives in Madrid': a name spaCy's small model misreads.

For a name it does not know ("Ines", "Tomasz" sometimes) the parser makes the name the head of
the sentence and "lives" its object, so nothing about the sister was learned, not even her
name. Where the parse leaves "my <relation> <Name>" so broken, the name is blanked (same
length, so spans hold) and the sentence parsed again: "My sister      lives in Madrid" reads
well. The name goes back into what was learned ("User's sister Ines lives in Madrid"), and
``names_said`` says the name itself.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any, Final

from desktop_agent.core.extraction_relations import _RELATIONS
from desktop_agent.core.extraction_rules import Match
from desktop_agent.core.extraction_words import PET_WORDS, PETS, RELATIONS
from desktop_agent.search.tokenize import STOPWORDS

_REL_NAME: Final = re.compile(
    rf"\b(?i:my|our)\s+(?P<rel>(?i:{_RELATIONS}))\s+(?P<name>[A-ZÀ-Ý][a-zà-ÿ'’-]+)\b(?!['’])"
)
# How the parse attaches a name it read right: "my sister Anna lives" (appos), "my friend
# Anna Lee" (compound), "my dog Rex" (npadvmod, nsubj).
_READ_RIGHT: Final = frozenset(("appos", "compound", "npadvmod", "nsubj", "attr", "dobj", "pobj"))


def misread(text: str, doc: Any) -> list[tuple[int, int, str, str]]:
    """(start, end, relation as said, name) of each "my <relation> <Name>" the parse broke."""
    found = []
    for match in _REL_NAME.finditer(text):
        name = match.group("name")
        if name.casefold() in STOPWORDS:
            continue
        if _POSSESSIVE.search(name):
            # "my wife Priya's birthday": read as "my wife's birthday", always
            found.append(
                (match.start("name"), match.end("name") - 2, match.group("rel"), name[:-2])
            )
            continue
        token = next((t for t in doc if t.idx == match.start("name")), None)
        if token is None:
            continue
        broken = token.dep_ == "ROOT" or (
            token.dep_ not in _READ_RIGHT and token.head.lower_ != match.group("rel").casefold()
        )
        # "my brother-in-law Dev is ...": the parser splits the relation and makes Dev the subject
        broken = broken or "-in-law" in match.group("rel").casefold()
        if broken:
            found.append((match.start("name"), match.end("name"), match.group("rel"), name))
    return found


_POSSESSIVE: Final = re.compile(r"['’]s$")

# "Pirukas (my cat, he's a grumpy ginger) is coming too", "Ines (my wife) is a pharmacist":
# the relation said in brackets after the name
_NAME_THEN_RELATION: Final = re.compile(
    rf"\b(?P<name>[A-ZÀ-Ý][a-zà-ÿ'’-]+)\s*\(\s*(?i:my|our)\s+"
    # (or a breed: "Biscuit (my border collie) is the only one who loves that car")
    rf"(?P<rel>(?i:{_RELATIONS}|(?:[a-z]+\s+)?(?:{PET_WORDS})))"
    r"\s*(?:[,;)]|\s+(?:who|which|that)\b|\s*[-–—])"
)


def bracketed(text: str) -> list[tuple[int, int, str, str]]:
    """(start, end, relation as said, name) of each name followed by its relation in
    brackets: the parse reads the brackets as an aside, and learns nothing of them."""
    return [
        (m.start("name"), m.end("name"), m.group("rel"), m.group("name"))
        for m in _NAME_THEN_RELATION.finditer(text)
        if m.group("name").casefold() not in STOPWORDS
    ]


def blanked(text: str, names: list[tuple[int, int, str, str]]) -> str:
    for start, end, _, _ in names:
        if _POSSESSIVE.match(text, end, end + 2):  # "wife Priya's" -> "wife's      "
            text = text[: start - 1] + "'s" + " " * (end - start + 1) + text[end + 2 :]
        else:
            text = text[:start] + " " * (end - start) + text[end:]
    return text


def named_back(sentence: str, names: list[tuple[int, int, str, str]]) -> str:
    """ "User's sister lives in Madrid" -> "User's sister Ines lives in Madrid"."""
    if not names:
        return sentence
    sentence = " ".join(sentence.split())  # the blank the name left
    for _, _, relation, name in names:
        said = f"User's {relation.casefold()}"
        if name in sentence:
            continue
        if f"{said} " in sentence:
            sentence = sentence.replace(f"{said} ", f"{said} {name} ", 1)
        elif f"{said}'s " in sentence:  # "User's wife's birthday" -> "User's wife Priya's ..."
            sentence = sentence.replace(f"{said}'s ", f"{said} {name}'s ", 1)
    return sentence


def names_said(
    names: list[tuple[int, int, str, str]],
) -> Iterator[tuple[Match, tuple[int, int]]]:
    """ "My sister Ines ...": her name, for each name the parse misread, with its span."""
    for start, end, relation_said, name in names:
        said = relation_said.casefold()
        relation = RELATIONS.get(said) or PETS.get(said) or PETS.get(said.split()[-1]) or said
        text = f"User's {said} is named {name}"
        yield Match("fact", f"name_of:{relation}", name, text, 0.8), (start, end)
