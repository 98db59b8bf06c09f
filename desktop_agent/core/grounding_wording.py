"""Remembered sentences said back to the user: the third person of a memory in the second
("User is allergic to peanuts" -> "You are allergic to peanuts"), in the past ("you used to
live in Lisbon"), and sentences that share their opening joined into one.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Final

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
        # With the user as the subject, "their" is the user's: "You visit your parents".
        rest = re.sub(r"\btheir\b", "your", rest)
        return f"You {lead}{_present(verb)}" + (f" {_you_inside(rest)}" if rest else "")
    if re.search(r"\bUser\b", text):  # "Every Sunday User plays cricket with User's cousins"
        said = _you_inside(text)
        return said[0].upper() + said[1:]
    return f"You told me: “{text}”"


# Adverbs between "User" and the verb: "User now prefers black coffee".
_ADVERBS: Final = (
    r"now|still|also|currently|usually|often|always|really|mostly|sometimes|never|just|mainly|"
    r"only|normally|generally|rarely|occasionally"
)


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
    if re.match(r"User (?:is|has been) \w+ing\b", text):
        # "User is going to Crete" -> "you were going to Crete": a plan, not a habit
        verb, _, rest = text[5:].partition(" ")
        return f"you {'were' if verb == 'is' else 'had'} {_you_inside(rest)}"
    if text.startswith("User "):
        verb, _, rest = text[5:].partition(" ")
        return f"you used to {_base(verb.casefold())}" + (f" {_you_inside(rest)}" if rest else "")
    said = _lower_first(second_person(text))
    inside = re.search(r"(?<=\s)User (\w+s)\b", text)
    if inside and not text.startswith(("User's ", "User’s ")) and inside.group(1) != "has":
        # "For User's blood pressure User takes amlodipine" -> "... you used to take ..."
        base = _base(inside.group(1).casefold())
        said = re.sub(rf"\byou {re.escape(base)}\b", f"you used to {base}", said, count=1)
    if text.startswith(("User's ", "User’s ")):
        # "your sister Hannah lives in Bristol" -> "... used to live in Bristol"
        said = re.sub(
            rf"\b(is|are|has|{'|'.join(_HABITS)})\b",
            lambda m: _PAST_TENSE.get(m.group(1)) or f"used to {_base(m.group(1))}",
            said,
            count=1,
        )
    return said


_PAST_TENSE: Final = {"is": "was", "are": "were", "has": "had"}
# What one of the user's people does, said in the present: "lives", "works".
_HABITS: Final = ("lives", "works", "goes", "plays", "teaches", "studies", "drives", "attends")


def _you_inside(text: str) -> str:
    text = re.sub(r"\bUser['’]s\b", "your", text)
    # "..., User does yoga now" -> "you do yoga": the verb agrees with "you" too
    text = re.sub(
        rf"\bUser\s+(?:({_ADVERBS})\s+)?([a-z]+)\b",
        lambda m: f"you {m.group(1) + ' ' if m.group(1) else ''}{_present(m.group(2))}",
        text,
    )
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
_OPENERS: Final = frozenset("now every on most usually since at in after before for".split())


_NAMED_MANY: Final = re.compile(r"^User['’]s (?P<who>[\w' -]+?) are called (?P<names>.+?)\.?$")
_NUMBERS: Final = ("two", "three", "four", "five", "six", "seven", "eight", "nine", "ten")


def counted(text: str) -> str:
    """For "how many ...?": "User's older brothers are called Sam, Luke and Owen" -> "User has
    three older brothers: Sam, Luke and Owen" (a list of names, counted)."""
    found = _NAMED_MANY.match(text)
    if not found:
        return text
    who, names = found.group("who"), found.group("names")
    count = len(re.split(r",\s*|\s+and\s+", names))
    if who.split()[0] not in _NUMBERS and 2 <= count <= len(_NUMBERS) + 1:
        who = f"{_NUMBERS[count - 2]} {who}"
    return f"User has {who}: {names}"


_NAMED_ONE: Final = re.compile(
    r"^User['’]s (?P<who>[a-z][\w -]*?) is named (?P<name>[A-Z][\w'’-]+)\b"
)


def counted_together(texts: Sequence[str]) -> list[str]:
    """For "how many ...?": names told apart, counted together ("User's cats are called Salt
    and Pepper" and "User's cat is named Paprika (a third cat)" -> "User has three cats: Salt,
    Pepper and Paprika"); any other text as it is."""
    names: dict[str, list[str]] = {}
    for text in texts:
        if many := _NAMED_MANY.match(text):
            said = re.split(r",\s*|\s+and\s+", many["names"])
            names.setdefault(_singular(many["who"]), []).extend(said)
        elif one := _NAMED_ONE.match(text):
            names.setdefault(one["who"], []).append(one["name"])
    out: list[str] = []
    for text in texts:
        found = _NAMED_MANY.match(text) or _NAMED_ONE.match(text)
        who = found and (_singular(found["who"]) if "names" in found.groupdict() else found["who"])
        together = names.get(who or "", [])
        if who and len(together) > 1 and len(texts) > 1:
            line = f"User's {who}s are called {', '.join(together[:-1])} and {together[-1]}"
            out.append(counted(line))
            continue
        out.append(counted(text))
    return list(dict.fromkeys(out))


def _singular(noun: str) -> str:
    return noun[:-1] if noun.endswith("s") and not noun.endswith("ss") else noun


def contracted(text: str) -> str:
    """Said as people say it: "You do not smoke anymore" -> "You don't smoke anymore"."""
    return re.sub(r"\b(do|does|is|are|has|have|was|were) not\b", r"\1n't", text)
