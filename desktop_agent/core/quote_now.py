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
from desktop_agent.core.statement_wording import (
    AMOUNT_SAID,
    ENDED,
    NAME_SAID,
    NAMES_SOMEONE,
    kind_asked,
)
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
    said = _said_as_now(sentence, earlier, asked)
    kind = kind_asked(asked)
    # (who does it now, not what a thing is called: "what's the venue called?" is asked of
    # what stayed when the date moved)
    if (kind is NAMES_SOMEONE or _WHO.match(asked)) and not ENDED.search(asked):
        said = _without_the_old(said, earlier, asked, names=True)
    elif kind is AMOUNT_SAID:
        said = _without_the_old(said, earlier, asked, names=False)
    if said == sentence:
        return said
    # (a cut may leave the start of a face or a joint: "( so now i run with Hedda")
    said = said.lstrip(" ,;:-–()")
    return re.sub(r"^(?:and|so|but)\s+", "", said, flags=re.IGNORECASE)


def _without_the_old(sentence: str, earlier: str, asked: str, *, names: bool) -> str:
    """``sentence`` without its parts that name only an old value (a name, a number, a day
    said before), when another part names a new one of the kind asked (someone, with
    ``names``; else an amount): "sad news Priya transferred to the leeds office :( | now i sit
    next to Tomasz" -> "now i sit next to Tomasz"; "we looked at prices again and 25k won't
    cut it, | so we bumped the target up to 30,000" -> "we bumped the target up to 30,000"."""
    pieces = _PART_BREAK.split(sentence)  # part, break, part, ...
    parts = pieces[::2]
    if len(parts) < 2:
        return sentence
    before = {_POSSESSIVE_S.sub("", w.casefold()) for w in _WORD.findall(earlier)}
    asked_words = {w.casefold() for w in _WORD.findall(asked)} | stems(asked)
    # a name: a word capitalised here or before, within a sentence, or first in one unless it
    # is said in lower case too ("Rent is ..." and "the rent")
    lower = {w for w in _WORD.findall(f"{sentence} {earlier}") if w.islower()}
    named = {
        _POSSESSIVE_S.sub("", m.group(0).casefold())
        for text in (sentence, earlier)
        for m in _CAPITALISED.finditer(text)
        if not _OPENS_A_SENTENCE.search(text[: m.start()]) or m.group(0).casefold() not in lower
    } - (STOPWORDS | {"i"})

    def values(part: str) -> set[str]:
        said = {_POSSESSIVE_S.sub("", w.casefold()) for w in _WORD.findall(part)}
        return ((said & named) | {w for w in said if _A_VALUE.fullmatch(w)}) - asked_words

    # (a part naming only what was said before: "sad news Priya transferred to the leeds office")
    gone = {n for n, part in enumerate(parts) if set() < values(part) <= before}
    kept = [n for n in range(len(parts)) if n not in gone and parts[n].strip()]
    # (the new one, of the kind asked: "Tomasz" for who, "30,000" for how much)
    new = {w for n in kept for w in values(parts[n]) - before}
    new = {w for w in new if not _A_VALUE.fullmatch(w)} if names else _amounts(new)
    if not gone or not kept or not new:
        return sentence
    said = parts[kept[0]]
    for n in kept[1:]:
        said += ", " if n - 1 in gone else pieces[2 * n - 1]
        said += parts[n]
    return said


def _amounts(values: set[str]) -> set[str]:
    return {v for v in values if v[:1].isdigit()}


# A capitalised word: a name ("now i sit next to Tomasz"), or the first of a sentence
_CAPITALISED: Final = re.compile(r"\b[A-ZÀ-Ý][\w'’-]*")
_OPENS_A_SENTENCE: Final = re.compile(r"(?:^|[.!?]+)\s*$")
_POSSESSIVE_S: Final = re.compile(r"['’]s$")
# A number or a day: "30,000", "25k", "6:30", "tuesday"
_A_VALUE: Final = re.compile(
    r"\d[\d,.:]*(?:k|am|pm|st|nd|rd|th)?|(?:mon|tues|wednes|thurs|fri|satur|sun)days?",
    re.IGNORECASE,
)


def _said_as_now(sentence: str, earlier: str, asked: str) -> str:
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
    if not gone:
        return _from_the_new_one(cut.strip(), old, said_before, asked)
    if not kept or not _words(left) - said_before - wanted:
        return cut.strip()
    said = clauses[kept[0]]
    for n in kept[1:]:
        # (the "and" or "so" after a clause left out joined it, not what is kept)
        joint = pieces[2 * n - 1]
        said += ", " if n - 1 in gone and re.search(r"[a-z]", joint, re.I) else joint
        said += clauses[n]
    # (what is kept may open with the joint of a clause left out: "and the department ...")
    return re.sub(r"^(?:and|so|but)\s+", "", said.strip(" ,;:-–"), flags=re.IGNORECASE)


def _from_the_new_one(sentence: str, old: set[str], said_before: set[str], asked: str) -> str:
    """``sentence`` from the part that names the new one, when the parts before it name the
    old one, nothing new and no news ("lost dewline as a client 😭 | BUT picked up a fintech
    startup, Brightledger"; "Dr adeyemi kept cancelling on us | so now bingo sees Dr Okafor");
    a part after it that only says how the old one ended goes too ("renamed the app to Sprig,
    | turns out Drooply was already taken"). Whole when the question asks what ended, or
    names whom it asks about only in what would go."""
    if _ASKS_WHAT_ENDED.search(asked):
        return sentence  # "which client did i lose?"
    wanted = content_words(asked)
    pieces = _PART_BREAK.split(sentence)
    parts = pieces[::2]
    new = [_new_name(part, said_before, opens=not n) for n, part in enumerate(parts)]
    if True not in new:
        return sentence
    first = new.index(True)
    named_old = [bool(_words(part) & old) and not new[n] for n, part in enumerate(parts)]
    # (news before it is what is so: "we ended up going with the Skoda after all, | pick it
    # up next Friday"; "she's in a little apartment in Galway now, | about a 10 min walk")
    prefix = parts[:first]
    if (
        not any(named_old[:first])
        # (only how the old one ended goes: "gemma called back and | upped arjun's clenil"
        # still names the asthma nurse)
        or not any(_ENDED_SO.search(part) or _LET_DOWN.search(part) for part in prefix)
        or any(_is_news(part) or _STILL.search(part) for part in prefix)
        # ("Hana | and I are going to Sicily instead": a name alone is no old one's news)
        or len(" ".join(prefix).split()) < 3
    ):
        first = 0
    elif len(parts[first].split()) <= 2 and not named_old[first - 1]:
        first -= 1  # a name alone goes with what it names: "a fintech startup, | Brightledger"
    # (what is still so is no old value: "moved training to Sundays at 10, | still at
    # Ridgeway Park though")
    ended = [
        named_old[n] and n > first and bool(_ENDED_SO.search(part)) and not _STILL.search(part)
        for n, part in enumerate(parts)
    ]
    keep = [n for n in range(first, len(parts)) if not ended[n]]
    if len(keep) == len(parts):
        return sentence
    said = parts[keep[0]]
    for n in keep[1:]:
        said += ", " if n - 1 not in keep else pieces[2 * n - 1]
        said += parts[n]
    if stems(" ".join(_NAMED.findall(f" {sentence}"))) & wanted - stems(said):
        return sentence  # (whom or what is asked is named only in what would go)
    dropped = " ".join(part for n, part in enumerate(parts) if n not in keep)
    if _says_the_kind(asked, dropped) and not _says_the_kind(asked, said, said_before):
        # "Dr Haddad is off sick that day | so they moved me to Thursday" still names the
        # dentist asked of
        return sentence
    return re.sub(r"^(?:and|so|but|anyway)\s+", "", said.strip(" ,;:-–"), flags=re.I)


def _new_name(part: str, said_before: set[str], *, opens: bool) -> bool:
    """Whether ``part`` names something, or an amount, not said before: a capitalised word
    (not the first of the sentence: "Sorry, Biscuit is ...", "Correction: ..."), a number."""
    for n, word in enumerate(_WORD.findall(part)):
        named = word[:1].isupper() and (n > 0 or not opens)
        if (word[:1].isdigit() or named) and not stems(word) & said_before:
            return True
    return False


def _is_news(part: str) -> bool:
    """Whether ``part`` says what came: "ended up going with", "now", "switched my car
    insurance to" (not how the old one ended)."""
    return bool(_NEW_ONE.search(part) or _CHANGED_TO.search(part)) and not _ENDED_SO.search(part)


def _says_the_kind(asked: str, text: str, said_before: set[str] | None = None) -> bool:
    """Whether ``text`` says the kind of thing ``asked`` wants: someone by name for "who" or
    "what's the name", else a time, an amount, a code ... (``kind_asked``). With
    ``said_before``, a name not among those words."""
    says = kind_asked(asked)
    if says in (NAMES_SOMEONE, NAME_SAID) or _WHO.match(asked):
        # (not the one asked about: "so Ollie's lesson is on Thursdays now" names no teacher)
        of = content_words(asked) | (said_before or set())
        return any(
            not DAY_OR_MONTH.fullmatch(name) and not stems(name) & of
            for name in _NAMED.findall(f" {text}")
        )
    return says is not None and says.search(text) is not None


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


_STILL: Final = re.compile(r"\b(?:still|same|unchanged)\b", re.IGNORECASE)
_WHO: Final = re.compile(r"\s*(?:and\s+|so\s+)?who\b", re.IGNORECASE)
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


_WORD: Final = re.compile(r"[^\W_][\w'’-]*")
# A sentence telling a change: "switched", "now", "instead", "retired", "repainted", "wrong".
_A_CHANGE: Final = re.compile(
    rf"{CHANGE.pattern}|{ENDED.pattern}|\bre(?:paint|do|did|done|plac|arrang|fitt|tiled|assign)\w*|"
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
# Where a sentence's parts meet, for what names the old one: its clause breaks, a full stop
# inside a quote, an emoji or a face ("as a client 😭 BUT picked up ..."), "anyway"
_PART_BREAK: Final = re.compile(
    r"(\s*(?:(?<!\d)[,;:]|[,;:](?!\d)|\s[-–]\s|(?<!\b[DM]r)(?<!\bMrs)(?<!\bMs)(?<!\bSt)[.!?]+\s|\s:[()]\s*|\s?[\U0001F300-\U0001FAFF]+\s*)"
    r"\s*(?:(?:and\s+)?so\s+|but\s+|because\s+|bc\s+|anyway\s+)?"
    r"|\s+(?:so|but|because|bc|and(?!\s+(?:i|me|we)\b)|anyway)\s+)",
    re.IGNORECASE,
)
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


# "switched my car insurance to acko" (not "moved across town it made no sense driving to")
_CHANGED_TO: Final = re.compile(
    r"\b(?:switched|swapped|changed|moved)\s+(?:[\w'’-]+\s+){0,3}?to\b", re.IGNORECASE
)
# How the old one ended, said after the new one: "turns out Drooply was already taken",
# "greenway's too far now"
_ENDED_SO: Final = re.compile(
    rf"{ENDED.pattern}|{_ENDING.pattern}|\b(?:was|were|is|are|['’]s)\s+(?:already\s+)?"
    r"(?:taken|gone|full|closed)\b|\btoo\s+(?:far|expensive|pricey|small|big)\b|\banymore\b",
    re.IGNORECASE,
)
# How the old one let the user down, or was left: "lost dewline as a client", "Dr adeyemi kept
# cancelling on us", "priya can't do it anymore", "skipping ISMB", "Greenway got bought out"
_LET_DOWN: Final = re.compile(
    r"\b(?:lost|kept|no\s+sense|can['’]?t|couldn['’]?t|didn['’]?t|wouldn['’]?t|won['’]?t|"
    r"skipp(?:ing|ed)|bought\s+out|went\s+mad|no\s+longer)\b",
    re.IGNORECASE,
)
# A question of what ended or came before, which the old one answers (and any asked in the
# past tense: "what was the name of the neighbour with the husky")
_ASKS_WHAT_ENDED: Final = re.compile(
    r"\b(?:lose|lost|left|leave|quit|drop(?:ped)?|cancell?(?:ed)?|end(?:ed)?|stop(?:ped)?|"
    r"gave\s+up|old|previous(?:ly)?|before|used\s+to|originally|first|former|was|were)\b",
    re.IGNORECASE,
)
