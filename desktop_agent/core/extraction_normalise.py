"""Informal words and typos, normalised before extraction reads a message.

"im alergic to penicilin" becomes "I'm allergic to penicillin", "fav film is prob Alien" becomes
"favourite film is probably Alien", "can't stand jazz" becomes "I can't stand jazz". Two
sources: a table of chat spellings and short forms, and a spelling fix by edit distance against
the words extraction keys on (allergens, conditions, diets, relations, days) for words of six
letters or more, which is where typos change a stored key. ``Normalised.original_span`` maps a
span of the normalised text back to the user's own words, so provenance still points at what
they typed.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from typing import Final

from desktop_agent.core.chat_words import INFORMAL
from desktop_agent.core.extraction_words import PETS, RELATIONS

# The words extraction keys on; a typo of one of them is corrected to it.
VOCABULARY = frozenset(
    """allergic allergy allergies penicillin amoxicillin ibuprofen aspirin shellfish peanut
    peanuts sesame gluten lactose intolerant intolerance vegetarian vegan pescatarian diabetic
    diabetes asthma epilepsy coeliac celiac migraines strawberries tomatoes mushrooms seafood
    eggs dairy latex pollen girlfriend boyfriend husband daughter grandmother grandfather
    grandma grandad brother sister partner cousin nephew flatmate roommate favourite favorite
    monday tuesday wednesday thursday friday saturday sunday mondays tuesdays wednesdays
    thursdays fridays saturdays sundays january february march april june july august
    september october november december weekend morning evening married divorced engaged
    birthday teacher engineer nurse doctor married hospital""".split()
)
# Real words one edit from a vocabulary word, never typos of it ("she teaches maths").
_REAL_WORDS = frozenset("teaches marries divorcee".split())
# Messages that start with a verb or an adjective phrase and leave out "I" / "I'm".
_SUBJECTLESS = re.compile(
    r"^(?P<verb>(?:really\s+|absolutely\s+)?(?:love|like|hate|adore|enjoy|prefer|work\s+(?:as|at|for|in)|"
    r"live\s+in|can't\s+stand|cannot\s+stand|can’t\s+stand|speak|teach|study)\b)"
    r"|^(?P<adj>(?:(?:a\s+)?(?:big|huge|massive)\s+fan\s+of|not\s+(?:a|the)\s+(?:big\s+|huge\s+)?fan\s+of|"
    r"allergic\s+to|not\s+(?:vegetarian|vegan|pescatarian)|obsessed\s+with|"
    r"(?:not\s+)?(?:really\s+)?into|(?:not\s+)?(?:really\s+)?big\s+on|"
    r"originally\s+from)\b)"
    r"|^(?P<my>(?:all-time\s+)?(?:favourite|favorite|name's)\b)"
    r"|^(?P<was>(?:born|raised|brought\s+up)\s+in\b)",  # "born in Hargeisa, came here in 2003"
    re.IGNORECASE,
)
# ("1:1s", "1-2-1s": one-to-ones, one word)
_WORD = re.compile(
    r"\b1[:-](?:2[:-])?1s?\b|(?:[^\W_]|['’/])+"
)  # (letters of every alphabet: "Kraków" is one word)
_IS_AFTER = re.compile(
    r"\s+(?:from|a|an|the|called|named|in|at|not|very|so|allergic|vegan|vegetarian|married|single|"
    r"retired|\d|(?!(?:wedding|christening|meeting|evening|morning|building|thing|ring|spring|"
    r"sibling|pudding|painting|earring|offspring|dumpling|darling|ceiling|clothing)\b)\w+ing)\b",
    re.IGNORECASE,
)


@dataclass(frozen=True, slots=True)
class Normalised:
    text: str
    # For each character of ``text`` (and one past the end), its offset in the original.
    origin: tuple[int, ...]

    def original_span(self, start: int, end: int) -> tuple[int, int]:
        if end <= start:
            return self.origin[start], self.origin[start]
        return self.origin[start], self.origin[end - 1] + 1


def normalise(message: str) -> Normalised:
    """``message`` with chat spellings expanded, key words' typos fixed and a missing subject
    restored at the start of each sentence."""
    pieces: list[tuple[str, int, int]] = []  # (text, original start, original end)
    position = 0
    for match in _WORD.finditer(message):
        if match.start() > position:
            gap = message[position : match.start()]
            if pieces and _TITLE.match(pieces[-1][0]) and re.match(r"\.\s+$", gap):
                gap = gap[1:]  # "Dr. Okafor" is one name, not the end of a sentence
            pieces.append((_emoji_as_stop(gap, message[match.start() :]), position, match.start()))
        word = match.group(0)
        pieces.append((_fix(word, message, match.start()), match.start(), match.end()))
        position = match.end()
    if position < len(message):
        pieces.append((_emoji_as_stop(message[position:]), position, len(message)))
    text, origin = _join(pieces, len(message))
    restored = _named_subjects(_we(_restore_subjects(Normalised(text, origin))))
    restored = _remembered(_plainly(restored))
    return Normalised(names_capitalised(restored.text), restored.origin)


# Emoji, and what joins or varies them.
_EMOJI: Final = re.compile("[\u2600-\u27bf\U0001f000-\U0001faff\ufe0f\u200d]+")
_NAME_TOLD: Final = re.compile(r"(?:and\s+)?(?:his|her|their)\s+name\b", re.IGNORECASE)


def _emoji_as_stop(gap: str, after: str = "") -> str:
    """An emoji between words ends a sentence where no mark does: "I got promoted to Senior
    Data Analyst 🎉 took three years" (else "Analyst 🎉 took" is read as one name)."""
    if not _EMOJI.search(gap) or re.search(r"[.!?,;:]", gap):
        return gap
    if _NAME_TOLD.match(after):
        # (not before whom it tells of: "I've started seeing someone 🙈 her name's Jo")
        return _EMOJI.sub(",", gap, count=1).replace(" ,", ",")
    return _EMOJI.sub(".", gap, count=1).replace(" .", ".")


# "Marco and I are getting married": what "we" do (the parser makes Marco the subject)
_NAME_AND_I: Final = re.compile(r"\b(?-i:[A-ZÀ-Ý])[\w'’-]+\s+and\s+I(?=\s+(?:are|were)\b|['’]re\b)")


def _we(normalised: Normalised) -> Normalised:
    text, origin = normalised.text, list(normalised.origin)
    for found in reversed(list(_NAME_AND_I.finditer(text))):
        start, end = found.span()
        if found.group(0).split()[0] in ("And", "But", "So", "Me"):
            continue
        if re.search(r"(?i:\bmy\s+[\w-]+\s+)$", text[:start]):
            # "My husband Takeshi and I are planning ...": his name, and what we do
            name = found.group(0).split()[0]
            said = f"{name}, and we"
            at = start + len(name)
            text = text[:start] + said + text[end:]
            origin[start:end] = origin[start:at] + [origin[at]] * (len(said) - len(name))
            continue
        text = text[:start] + "we" + text[end:]
        origin[start:end] = origin[start : start + 1] * 2
    return Normalised(text, tuple(origin))


# "update on Aiko: she went fully vegan": whom the label names is whom "she" means (not in
# "she's", whose "'s" says "is" or "has" only beside the pronoun)
_LABELLED: Final = re.compile(
    r"(?i:\b(?:(?:quick|small|big|an?)\s+)?(?:update|news)\s+(?:on|about|re|from)\s+)"
    r"(?P<name>[A-ZÀ-Ý][\w'’-]+)\s*(?::|\s[-–—])\s*(?P<pronoun>(?i:she|he|they))\b(?!['’])"
)


# "grandma update 💛 she moved to Oakridge House": the same with one of the user's people
_KIN_LABELLED: Final = re.compile(
    r"(?i:\b(?:my\s+)?(?P<kin>"
    + "|".join(sorted((*RELATIONS, *PETS), key=len, reverse=True))
    + r")\s+(?:update|news)\s*[:,!.–—-]*\s*(?P<pronoun>she|he|they))\b(?!['’])"
)


# "my sister's the one who lives in Leeds now": what "the one who" stresses, said plainly
_THE_ONE_WHO: Final = re.compile(
    r"(?i:\b(?:my|our)\s+(?:"
    + "|".join(sorted((*RELATIONS, *PETS), key=len, reverse=True))
    + r")|(?-i:\b[A-ZÀ-Ý][\w'’-]+))(?P<stress>\s+(?i:is\s+the\s+one\s+(?:who|that)))(?=\s+\w+s\b)"
)


# "can you remember my dentist is Dr Okafor?": a request to remember, which tells what it
# asks to remember (read as said: "my dentist is Dr Okafor.")
_REMEMBER_ASKED: Final = re.compile(
    r"(?i:\b(?:can|could|would|will)\s+(?:you|u)\s+(?:please\s+|pls\s+)?"
    r"(?:remember|note|keep\s+in\s+mind)\s+(?:that\s+)?)(?=[^.!?]*\?)"
)


def _remembered(normalised: Normalised) -> Normalised:
    text, origin = normalised.text, list(normalised.origin)
    for found in reversed(list(_REMEMBER_ASKED.finditer(text))):
        mark = text.index("?", found.end())
        text = text[:mark] + "." + text[mark + 1 :]
        text, origin[found.start() : found.end()] = text[: found.start()] + text[found.end() :], []
    return Normalised(text, tuple(origin))


def _plainly(normalised: Normalised) -> Normalised:
    text, origin = normalised.text, list(normalised.origin)
    for found in reversed(list(_THE_ONE_WHO.finditer(text))):
        start, end = found.span("stress")
        text, origin[start:end] = text[:start] + text[end:], []
    return Normalised(text, tuple(origin))


def _named_subjects(normalised: Normalised) -> Normalised:
    text, origin = normalised.text, list(normalised.origin)
    found_all = [*_LABELLED.finditer(text), *_KIN_LABELLED.finditer(text)]
    for found in sorted(found_all, key=lambda m: m.start(), reverse=True):
        start, end = found.span("pronoun")
        who = found["name"] if "name" in found.groupdict() else f"my {found['kin']}"
        text = text[:start] + who + text[end:]
        origin[start:end] = [origin[start]] * len(who)
    return Normalised(text, tuple(origin))


# Chat words the tagger takes for names in a lower-case message ("lol", "welp", "ps"), and
# the ways to get about that a number follows ("tram 8").
_NOT_NAMES = frozenset(
    """lol lmao omg tbh welp ugh ps pw btw fyi idk imo ngl smh haha hehe ok okay ex god yeah yep
    nope hmm meh ofc aka etc uni de van von der den da di du del la le
    tram bus train tube metro ferry route line""".split()
)
# A sentence that starts in lower case: typed without capitals, names included. A message that
# capitalises its sentences capitalises its names, and the tagger's guesses there ("at uni",
# "Prof. de Vries", "actually mango") would only do harm.
_LOWER_START: Final = re.compile(r"(?:^|[.!?]\s+)[^\w\s]*[a-z]")


@lru_cache(maxsize=1024)
def names_capitalised(text: str) -> str:
    """``text`` with the names a phone keyboard left in lower case capitalised, by the parser's
    tags: "transferred to northern general in sheffield" -> "... Sheffield", "my therapist dr
    nakamura" -> "Dr Nakamura". Same length, so spans still map to the user's words."""
    if not _LOWER_START.search(text):
        return text
    from desktop_agent import nlp

    doc = nlp.parse(text)
    if doc is None:
        return text
    chars = list(text)
    for token in doc:
        word = token.text
        if (
            token.pos_ == "PROPN"
            and word.isalpha()
            and word.islower()
            and len(word) >= 2
            and word not in _NOT_NAMES
            and word not in INFORMAL  # ("callum's got a new gf")
        ):
            chars[token.idx] = word[0].upper()
    return "".join(chars)


@lru_cache(maxsize=1024)
def people_capitalised(question: str) -> str:
    """``question``, typed in lower case, with the names of the people it asks about
    capitalised, by the parser's tags: "when is callum's birthday" -> "when is Callum's
    birthday", "where does daniel live now?" -> "... Daniel ...". Only a name whose thing is
    asked (a possessive) or that does what is asked (a subject): a question's other lower-case
    words the tagger takes for names ("the bike lock code?", "what bp medication") stay."""
    if question[1:] != question[1:].casefold():
        return question  # typed with capitals: its names are capitalised
    from desktop_agent import nlp

    doc = nlp.parse(question)
    if doc is None:
        return question
    chars = list(question)
    for token in doc:
        head = token.head if token.dep_ == "compound" else token  # "tia rosa"
        word = token.text
        if (
            token.pos_ == "PROPN"
            and head.pos_ == "PROPN"
            and head.dep_ in ("nsubj", "nsubjpass", "poss")
            # ("my gym locker code": a thing of the user's)
            and not any(child.lower_ in _DETERMINERS for child in head.children)
            and word.isalpha()
            and len(word) >= 2
            and word not in _NOT_NAMES
            and word not in VOCABULARY
            and word not in INFORMAL
            and word not in RELATIONS
        ):
            chars[token.idx] = word[0].upper()
    return "".join(chars)


_DETERMINERS: Final = frozenset("a an the my our your his her their this that".split())
_TITLE = re.compile(r"^(?:Dr|Mr|Mrs|Ms|Mx|Prof|St)$")


def _fix(word: str, message: str, at: int) -> str:
    lower = word.casefold().replace("’", "'")
    if lower == "names" and re.search(r"(?i:\bmy\s+)$", message[:at]):
        return "name's"
    # "my husband's from Nairobi": "'s" is "is" after one of the user's people.
    if (
        lower.endswith("'s")
        and (lower[:-2] in RELATIONS or lower[:-2] in PETS)
        and _IS_AFTER.match(message[at + len(word) :])
        and re.search(r"(?i:\b(?:my|our)\s+(?:\w+\s+)?)$", message[:at])
    ):
        return f"{word[:-2]} is"
    # ... and after their name: "my wife Sarah's an accountant"
    kin = re.search(r"(?i:\b(?:my|our)\s+(?:\w+\s+)?(\w+)\s+)$", message[:at])
    if (
        lower.endswith("'s")
        and word[:1].isupper()
        and kin
        and (kin.group(1).casefold() in RELATIONS or kin.group(1).casefold() in PETS)
        and re.match(r"\s+(?:an?|the)\s", message[at + len(word) :], re.IGNORECASE)
    ):
        return f"{word[:-2]} is"
    if lower == "i":
        return "I"
    if re.fullmatch(r"1[:-](?:2[:-])?1s?", lower):
        return "one-to-ones" if lower.endswith("s") else "one-to-one"
    # "a PT called Jake", "my PT": a personal trainer (never "work pt", part-time)
    if word == "PT" and re.search(r"(?i:\b(?:a|my|our|the|new|old)\s+)$", message[:at]):
        return "personal trainer"
    if lower in INFORMAL:
        return INFORMAL[lower]
    if lower.isalpha() and len(lower) >= 6 and lower not in VOCABULARY | _REAL_WORDS:
        fixed = spelling(lower)
        if fixed:
            return fixed.capitalize() if word[:1].isupper() else fixed
    return word


@lru_cache(maxsize=4096)
def spelling(word: str) -> str | None:
    """The vocabulary word ``word`` is a typo of (one edit; two for long words), or None."""
    limit = 2 if len(word) >= 9 else 1
    best = None
    for known in VOCABULARY:
        if abs(len(known) - len(word)) > limit or known[0] != word[0]:
            continue
        if _inflection(word, known):
            return None  # "mornings" is not a typo of "morning"
        distance = _distance(word, known, limit)
        if distance <= limit and (best is None or distance < best[0]):
            best = (distance, known)
    return best[1] if best else None


def _inflection(word: str, known: str) -> bool:
    endings = ("s", "es", "d", "ed", "ing", "ly", "er", "ers")
    return any(word == known + end or known == word + end for end in endings)


def _distance(a: str, b: str, limit: int) -> int:
    """Levenshtein distance with adjacent transpositions, stopping early past ``limit``."""
    previous2: list[int] = []
    previous = list(range(len(b) + 1))
    for i, ca in enumerate(a, 1):
        current = [i]
        for j, cb in enumerate(b, 1):
            cost = 0 if ca == cb else 1
            value = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
            if i > 1 and j > 1 and ca == b[j - 2] and a[i - 2] == cb:
                value = min(value, previous2[j - 2] + 1)
            current.append(value)
        if min(current) > limit:
            return limit + 1
        previous2, previous = previous, current
    return previous[-1]


def _join(pieces: list[tuple[str, int, int]], length: int) -> tuple[str, tuple[int, ...]]:
    text: list[str] = []
    origin: list[int] = []
    for piece, start, end in pieces:
        text.append(piece)
        if len(piece) == end - start:
            origin.extend(range(start, end))
        else:  # a replaced word: every character maps into the original word
            origin.extend(min(start + k, end - 1) for k in range(len(piece)))
    origin.append(length)
    return "".join(text), tuple(origin)


def _restore_subjects(normalised: Normalised) -> Normalised:
    """ "can't stand jazz" -> "I can't stand jazz"; "big fan of Tolkien" -> "I'm a big fan..."."""
    text, origin = normalised.text, list(normalised.origin)
    for sentence in reversed(list(re.finditer(r"(?:^|(?<=[.!?\n]))\s*([^.!?\n]+)", text))):
        start = sentence.start(1)
        found = _SUBJECTLESS.match(text[start:])
        if not found:
            continue
        insert = (
            "I "
            if found.group("verb")
            else "my "
            if found.group("my")
            else "I was "
            if found.group("was")
            else "I'm "
        )
        rest = text[start:]
        if rest[:1].isupper() and not rest.startswith(("I ", "I'")):
            rest = rest[:1].lower() + rest[1:]
        text = text[:start] + insert + rest
        origin[start:start] = [origin[start]] * len(insert)
    return Normalised(text, tuple(origin))


__all__ = [
    "INFORMAL",
    "VOCABULARY",
    "Normalised",
    "names_capitalised",
    "normalise",
    "people_capitalised",
    "spelling",
]
