"""A quoted change said as what is so now: the words of the value it replaced left out.

Asked "who's my broadband with now?", the user's own "switched from Sky to Vodafone" answers it,
but quoted whole it names Sky too, and a reader (or the bundled model, or a check for stale
values) takes the old value as said again. What the change replaced is known by the words the
user said before it ("broadband is Sky"): a "from Sky" part, or a clause that tells how the old
one ended, naming such a word and none of the question's ("Gemma moved to Spain" in "Gemma moved
to Spain, so Rhys trains me now"), is cut. A question about the past wants those words and gets
the sentence whole.
"""

from __future__ import annotations

import re
from typing import Final

from desktop_agent.core.grounding import content_words, stems
from desktop_agent.core.questions import asks_the_past
from desktop_agent.core.statement_wording import ENDED
from desktop_agent.core.statements import CHANGE
from desktop_agent.core.timeparse import DAY_OR_MONTH
from desktop_agent.search.tokenize import STOPWORDS


def tells_a_change(sentence: str) -> bool:
    """Whether ``sentence`` says something changed ("switched", "now", "retired"): only then
    may it name a value it replaced."""
    return _A_CHANGE.search(sentence) is not None


def said_as_now(sentence: str, earlier: str, asked: str) -> str:
    """``sentence`` without the value the change it tells replaced: the words of it said in
    ``earlier`` (the user's messages before it) that ``asked`` does not ask about."""
    if asks_the_past(asked) or not tells_a_change(sentence):
        return sentence
    wanted = content_words(asked)
    old = (_words(sentence) & _words(earlier)) - wanted - _CHANGE_WORDS
    if not old:
        return sentence
    # "switched from Sky to Vodafone" -> "switched to Vodafone"
    cut = _FROM.sub(
        lambda m: (
            ""
            if _was(m.group("old"), old, m.string[m.end() :], put_right=_PUT_RIGHT.match(m[0]))
            and not (
                m.group(0).lstrip()[:3].casefold() == "not"
                and _IT_IS_NOT.search(m.string[: m.start()])
            )
            else m.group(0)
        ),
        sentence,
    )
    cut = re.sub(r"\s*,(?=\s*(?:[.!?,;]|$))", "", cut)  # "he's 14, not 12." -> "he's 14."
    # "swapped tuesday for wednesday" -> "swapped for wednesday"
    cut = _SWAPPED.sub(
        lambda m: m.group("verb") + " " if stems(m.group("old")) & old else m.group(0), cut
    )
    # "the tuesday spin class moved to wednesdays": the old day said of what moved, when the
    # sentence names a new one
    days = [m for m in DAY_OR_MONTH.finditer(cut) if not stems(m.group(0)) & wanted]
    if any(not stems(m.group(0)) & old for m in days):
        cut = _OLD_DAY_BEFORE.sub(lambda m: "" if stems(m.group("day")) & old else m.group(0), cut)
    pieces = _CLAUSE_BREAK.split(cut)  # clause, break, clause, ...
    clauses = pieces[::2]
    said_before = _words(earlier)
    # only a clause that tells how the old one ended ("Gemma moved to Spain", "Ms Kowalski went
    # on maternity leave", "the blue looked cold"), naming it and nothing asked
    gone = [
        n
        for n, clause in enumerate(clauses)
        if _words(clause) & old
        and (
            (
                not _NEW_ONE.search(clause)
                and not stems(clause) & wanted
                and (ENDED.search(clause) or _ENDING.search(clause))
            )
            or _cause_of_now(pieces, n, sentence)
        )
    ]
    kept = [n for n in range(len(clauses)) if n not in gone]
    # and only when what is left says something new: "Jace is sternin for me now"
    left = " ".join(clauses[n] for n in kept)
    if not gone or not kept or not _words(left) - said_before - wanted:
        return cut.strip()
    said = clauses[kept[0]]
    for n in kept[1:]:
        # (the "and" or "so" after a clause left out joined it, not what is kept)
        joint = pieces[2 * n - 1]
        said += ", " if n - 1 in gone and re.search(r"[a-z]", joint, re.I) else joint
        said += clauses[n]
    # (what is kept may open with the joint of a clause left out: "and the department ...")
    return re.sub(r"^(?:and|so|but)\s+", "", said.strip(" ,;:-–"), flags=re.IGNORECASE)


def _cause_of_now(pieces: list[str], n: int, sentence: str) -> bool:
    """Whether clause ``n`` is the cause before "so now ... instead": "my mum joined a choir
    that rehearses sunday evenings | so now she rings me on saturdays instead". What it names of
    the old one is no longer so, even where it names who is asked about. Before "so" and a
    replacing ("the netgear couldn't reach the bedroom | so I replaced it with a TP-Link"), too,
    unless the cause holds the only mention of a name: "Dr Haddad is off sick that day | so they
    moved me to Thursday" still says who the dentist is."""
    if 2 * n + 2 >= len(pieces) or not _SO.search(pieces[2 * n + 1]):
        return False
    cause, after = pieces[2 * n], pieces[2 * n + 2]
    now = _NOW_INSTEAD.search(after) and not _NOW_INSTEAD.search(cause.replace("has now", "has"))
    if not now and not _REPLACING.search(after):
        return False
    rest = sentence.replace(cause, " ")
    return not any(
        not re.search(rf"\b{re.escape(name)}\b", rest) for name in _NAMED.findall(f" {cause}")
    )


# "it's NOT chicken at all": what is not so, said for itself (not "in Brixton not Clapham")
_IT_IS_NOT: Final = re.compile(r"(?:\bis|['’]s|\bare|\bwas|\bwere|\bit)\s*$", re.IGNORECASE)


def _was(said: str, old: set[str], then: str, *, put_right: re.Match[str] | None = None) -> bool:
    """Whether ``said`` after "from" names the old value, not a time ("from next month"):
    "from Tuesdays to Thursdays" is a change of day. After "not" (``put_right``) it is what was
    said wrong, a number too: "he's 14, not 12"."""
    to = re.match(r"\s+(?:to|into|onto)\b", then, re.IGNORECASE)
    if not to and not put_right and (DAY_OR_MONTH.search(said) or _WHEN.match(said)):
        return False
    return bool(stems(said) & old)


_PUT_RIGHT: Final = re.compile(r"\s+not\b", re.IGNORECASE)
_WHEN: Final = re.compile(r"(?:next|this|last|now|then|today|tomorrow|\d)", re.IGNORECASE)


def _words(text: str) -> set[str]:
    """The words that can carry a value: names of any length ("Sky", "EE"), else longer
    words that are neither function words ("they're") nor measures of time ("month")."""
    return {
        stem
        for word in _WORD.findall(text)
        for stem in stems(word)
        if stem not in STOPWORDS
        and stem not in _NO_VALUE
        and not re.search(r"['’]", stem)
        and (len(stem) > 3 or word[:1].isupper() or word.isdigit())
    }


def _new_value(clause: str, said_before: set[str]) -> bool:
    """Whether ``clause`` names something, or an amount, not said before ("Oakfield")."""
    for n, word in enumerate(_WORD.findall(clause)):
        named = word[:1].isupper() and (n > 0 or word.casefold() not in STOPWORDS)
        if (word[:1].isdigit() or named) and not stems(word) & said_before:
            return True
    return False


_WORD: Final = re.compile(r"[^\W_][\w'’-]*")
# A sentence telling a change: "switched", "now", "instead", "retired", "repainted", "wrong".
_A_CHANGE: Final = re.compile(
    rf"{CHANGE.pattern}|{ENDED.pattern}|\bre(?:paint|do|did|done|plac|arrang|fitt|tiled)\w*|"
    # a correction is a change of what was said: "he's 14, not 12"
    r"\b(?:mistaken|typo|misspoke|correction)\b",
    re.IGNORECASE,
)
_NO_VALUE: Final = frozenset(
    "month week year time today tonight tomorrow yesterday thing stuff really again also still "
    "anyway though".split()
)
# How the one before stopped being it: "Gemma moved to Spain", "Cody took a job on a boat",
# "the blue looked cold in there".
_ENDING: Final = re.compile(
    # ("has been moved to Mr. Brennan's class" is the news, not an ending)
    r"\b(?:(?<!been\s)(?<!got\s)(?<!was\s)(?<!were\s)moved\s+(?:to|away|abroad|back)|"
    # someone else moving away ("Dana's family is moving to Austin"), a farewell to the old one
    # ("so goodbye tuesday brunches", "no more tuesday panic")
    r"(?:is|are|['’]s|['’]re)\s+moving\s+(?:to|away|abroad|back)|goodbye|bye|no\s+more|"
    # what was said of it before it was put right: "she just said Clapham at first"
    r"at\s+first|originally|initially|"
    # given up or given back: "scrap the pottery idea", "deferred Berlin", "handed the Peugeot
    # back", "so i let him go"
    r"scrap(?:ped)?|deferred|(?:handed|gave|given|took|taken)\s+(?:[\w'’-]+\s+){1,3}back|"
    r"traded\s+in|let\s+(?:him|her|them)\s+go|"
    r"took\s+a\s+(?:job|post|role)|went\s+on\s+"
    r"(?:leave|maternity|sabbatical|secondment)|passed\s+away|died|emigrated|relocated|(?:looked|looks|was|felt)\s+"
    r"(?:too\s+|really\s+|so\s+)?(?:grim|awful|cold|dark|wrong|horrible|terrible|dated))\b",
    re.IGNORECASE,
)
_SO: Final = re.compile(r"\bso\b", re.IGNORECASE)
# what puts something new in the old one's place, after the cause: "so I replaced it with ..."
_REPLACING: Final = re.compile(
    r"\b(?:replaced|switched|swapped|bumped|upgraded|changed|moved|went\s+for|went\s+with|"
    r"got|bought|signed\s+up)\b",
    re.IGNORECASE,
)
# a name in a clause, not at its start ("Dr Haddad is off sick": "Haddad")
_NAMED: Final = re.compile(r"(?<=\s)(?!I\b)[A-ZÀ-Ý][\w'’-]+")
# what the result of a cause says when it replaced something: "so now she rings on Saturdays",
# "so Bex walks them instead"
_NOW_INSTEAD: Final = re.compile(r"\b(?:now|instead)\b", re.IGNORECASE)
# A clause that says the new one: never cut ("we ended up going with the Skoda").
_NEW_ONE: Final = re.compile(
    r"\b(?:ended\s+up|going\s+with|gone\s+with|went\s+with|switched\s+to|now|instead|new)\b",
    re.IGNORECASE,
)
# The words of the change itself, which are no value.
_CHANGE_WORDS: Final = frozenset(
    {"moved", "move", "switched", "swapped", "changed", "changing", "instead", "anymore"}
)
# "from Sky", "out of Monzo", "instead of the Tuesday class", up to where the new one starts.
_FROM: Final = re.compile(
    r"\s+(?:(?:away\s+)?from|out\s+of|off|instead\s+of|rather\s+than|to\s+replace|replacing|"
    r"in\s+place\s+of|not)\s+"
    r"(?P<old>[^,;.!?]+?)(?=\s+(?:to|into|onto|for|and|so|but|with)\b|\s*[,;.!?]|\s*$)",
    re.IGNORECASE,
)
# A day said of a thing, before its name: "the tuesday (spin class)"
_OLD_DAY_BEFORE: Final = re.compile(
    rf"(?<=\bthe\s)(?P<day>{DAY_OR_MONTH.pattern})(?:['’]s)?\s+(?=[a-z])", re.IGNORECASE
)
# "swapped X for Y", "traded the Corsa for a Fabia": X is what went out.
_SWAPPED: Final = re.compile(
    r"\b(?P<verb>swap(?:ped)?|traded|exchanged)\s+(?P<old>[^,;.!?]+?)\s+(?=for\b)", re.IGNORECASE
)
# Where one clause ends and the next begins: a comma, a dash, "so", "but", "because", "and".
_CLAUSE_BREAK: Final = re.compile(
    r"(\s*(?:(?<!\d)[,;:]|[,;:](?!\d)|\s[-–]\s)\s*(?:(?:and\s+)?so\s+|but\s+|because\s+|bc\s+)?"
    r"|\s+(?:so|but|because|bc|and)\s+)",
    re.IGNORECASE,
)
