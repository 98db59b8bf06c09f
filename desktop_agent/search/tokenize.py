"""Tokenizing text for keyword search."""

from __future__ import annotations

import re

_WORD = re.compile(r"[^\W_]+", re.UNICODE)

# Function words carry no topic; dropping them keeps posting lists short and scores meaningful.
_STOPWORDS = """a about above after again against all am an and any are as at be because been before being
    below between both but by can could did do does doing down during each few for from further had
    has have having he her here hers herself him himself his how i if in into is it its itself just
    me more most my myself no nor not now of off on once only or other our ours ourselves out over
    own same she should so some such than that the their theirs them themselves then there these
    they this those through to too under until up very was we were what when where which while who
    whom why will with would you your yours yourself yourselves s t don ll m re ve d"""
STOPWORDS = frozenset(_STOPWORDS.split())


def stem(word: str) -> str:
    """A light stemmer: "hiking", "hiked", "hikes" and "hike" meet at "hik"; "movies" and
    "movie" at "movi". Inflections only: derivations ("adoption") are left alone."""
    if len(word) <= 3 or not word.isalpha():
        return word
    base = _strip_inflection(word)
    # Normalise the ending so that the bare form meets the inflected ones.
    if len(base) >= 4 and base.endswith("y"):
        base = base[:-1] + "i"
    elif len(base) >= 4 and base.endswith("e") and not base.endswith("ee"):
        base = base[:-1]
    return base


def _strip_inflection(word: str) -> str:
    if word.endswith("ies") and len(word) >= 5:
        return word[:-3] + "i"
    if word.endswith("sses"):
        return word[:-2]
    if word.endswith(("xes", "zes", "ches", "shes")) and len(word) >= 6:
        return word[:-2]
    if word.endswith("s") and not word.endswith(("ss", "us", "is")):
        return word[:-1]
    for suffix in ("ing", "ed"):
        if word.endswith(suffix) and len(word) - len(suffix) >= 3:
            base = word[: -len(suffix)]
            # "running" -> "run", "stopped" -> "stop"; "falling" keeps "fall".
            if len(base) >= 4 and base[-1] == base[-2] and base[-1] not in "lsz":
                base = base[:-1]
            return base
    return word
    for suffix, keep in (
        ("ies", "y"),
        ("sses", "ss"),
        ("ing", ""),
        ("edly", ""),
        ("ed", ""),
        ("ly", ""),
        ("es", ""),
        ("s", ""),
    ):
        if word.endswith(suffix) and len(word) - len(suffix) >= 3:
            if suffix == "s" and word.endswith(("ss", "us", "is")):
                return word
            return word[: len(word) - len(suffix)] + keep
    return word


def tokens(text: str) -> list[str]:
    """Lower-cased, stemmed content words of ``text``, in order."""
    return [stem(w) for w in _WORD.findall(text.casefold()) if w not in STOPWORDS]
