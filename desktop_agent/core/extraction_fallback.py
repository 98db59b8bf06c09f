"""The last reader: a statement plainly about the user that fits no slot is kept as said.

"I grew up on a farm" has no slot, but it is a lasting fact about the user; it is stored in the
third person ("User grew up on a farm") under a ``said:`` key. What is lasting and what is small
talk ("I'm tired today", "I'm just browsing") is decided by a classifier over the app's
embedder when one is registered (``use_embedder``), else by the sentence's grammar alone:
"used to", "grew up", "was born", "I'm an only child", "I'm left-handed".
"""

from __future__ import annotations

import logging
import re
import threading
from collections.abc import Iterator, Sequence
from typing import Any

from desktop_agent.core import extraction_grammar as parse
from desktop_agent.core.extraction_rules import Match, _slug
from desktop_agent.core.extraction_user import _modal

logger = logging.getLogger(__name__)

# "I need help with my CV", "I think so": requests and opinions of the moment.
_NOT_ABOUT_THEM = frozenset("need want wonder hope think guess wish try mean feel".split())

# "I got Shelby's age wrong the other day", "I mixed up the dates": what the user said before
# being put right, which says nothing lasting of them (what was right follows it).
_PUTTING_RIGHT = re.compile(
    r"\b(?:wrong|mistake|mistaken|misspoke|typo|mixed\s+up|muddled|misremembered)\b", re.I
)

_lock = threading.Lock()
_classifier: Any = None


def use_embedder(embedder: Any) -> None:
    """Let the statement classifier (``extraction_classifier``) decide with ``embedder``, the
    app's all-MiniLM-L6-v2; None goes back to grammar alone."""
    global _classifier
    with _lock:
        if embedder is None:
            _classifier = None
            return
        from desktop_agent.core.extraction_classifier import StatementClassifier

        _classifier = StatementClassifier(embedder)


def classifier() -> Any:
    return _classifier


def statements(doc: Any, found: Sequence[Any]) -> Iterator[tuple[Match, tuple[int, int]]]:
    """(match, span) for each sentence about the user that nothing else read."""
    for sentence in doc.sents:
        start, end = sentence.start_char, sentence.end_char
        if any(f.span[0] < end and start < f.span[1] for f in found):
            continue
        if not parse._is_statement(sentence):
            continue
        root = sentence.root
        subject = parse._subject(root)
        if subject is None or subject.lower_ != "i" or root.pos_ not in ("VERB", "AUX"):
            continue
        tokens = parse._clause_tokens(root)
        if len(tokens) < 3 or parse._transient(tokens) or parse._negated(root):
            continue
        if _modal(root) or root.lemma_ in _NOT_ABOUT_THEM:
            continue
        if _PUTTING_RIGHT.search(sentence.text):
            continue
        if not _lasting(root, tokens, sentence.text):
            continue
        who = parse.Who("user", subject)
        text = parse.third_person(tokens, who)
        said = parse._words(tokens)
        yield Match("fact", f"said:{_slug(said)}", said, text, 0.6), parse._span(tokens)


def _lasting(root: Any, tokens: list[Any], text: str) -> bool:
    if _lasting_by_grammar(root, tokens):
        return True
    if _classifier is not None:
        try:
            return bool(_classifier.is_lasting(text))
        except Exception:  # the embedder failed: fall back to grammar, say so
            logger.exception("statement classifier failed; using grammar alone")
    return False


_QUALIFICATIONS = frozenset("degree phd masters master diploma doctorate mba qualification".split())


def _for_years(root: Any) -> bool:
    return any(
        child.dep_ == "prep"
        and child.lower_ == "for"
        and any(t.lemma_ in ("year", "decade") for t in child.subtree)
        for child in root.children
    )


def _lasting_by_grammar(root: Any, tokens: list[Any]) -> bool:
    lemma = root.lemma_.casefold()
    if lemma == "use" and any(c.dep_ == "xcomp" for c in root.children):
        return True  # "I used to be a teacher"
    if lemma == "grow" and any(c.lower_ == "up" for c in root.children):
        return True
    if lemma in ("bear", "raise") and root.tag_ == "VBN":
        return True  # "I was born in...", "I was raised in..."
    if lemma in ("have", "get") and any(
        c.lemma_.casefold() in _QUALIFICATIONS for c in root.children
    ):
        return True  # "I have a degree in history", "I've got a PhD"
    if _for_years(root):
        return True  # "I've lived here for ten years", "I was in the army for six years"
    if lemma != "be":
        return False
    attr = next((c for c in root.children if c.dep_ == "attr"), None)
    acomp = next((c for c in root.children if c.dep_ == "acomp"), None)
    if attr is not None and attr.pos_ == "NOUN" and any(c.dep_ == "det" for c in attr.children):
        return attr.lemma_ not in ("bit", "lot", "moment", "fan", "person", "way")
    if acomp is not None:
        lower = acomp.text.casefold()
        return "-" in lower or lower.endswith(("handed", "sighted", "blind", "deaf"))
    return False


__all__ = ["classifier", "statements", "use_embedder"]
