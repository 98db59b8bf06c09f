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
    """A light suffix stripper: enough to match "hiking" with "hike" and "dogs" with "dog"."""
    if len(word) <= 3:
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
