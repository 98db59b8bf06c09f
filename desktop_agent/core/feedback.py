"""Feedback on the last reply, read from what people actually type.

Two layers. Deterministic rules first: emoji-only messages, exact short verdicts ("meh", "too
long"), the common verdict forms, and stated answer-style preferences ("keep it short"). Then,
for the short messages the rules leave alone and only when the app's embedder is given, a
logistic classifier over all-MiniLM-L6-v2 embeddings, trained on the tune part of
tests/data/feedback_labelled.jsonl (feedback_model.py; the scored part is never trained on).

MiniLM reads every emoji as [UNK], hence the emoji table.
"""

from __future__ import annotations

import logging
import re
import unicodedata
from dataclasses import dataclass
from typing import Any, Final, Literal

import numpy as np

from desktop_agent.core.feedback_model import model_for

logger = logging.getLogger(__name__)

# What a message can say about the previous reply. "shorter"/"longer" are about its length or
# style; "preference" is a standing instruction about every later answer.
LABELS: Final = ("positive", "content", "shorter", "longer", "preference", "none")
FEEDBACK_LABELS: Final = frozenset({"positive", "content", "shorter", "longer"})
WANTED_STYLE: Final = {"shorter": "concise", "longer": "detailed"}
# The classifier only looks at messages this short: feedback is a few words.
MAX_WORDS: Final = 12
MAX_CHARS: Final = 100


@dataclass(frozen=True, slots=True)
class Reading:
    """What one message says about the assistant's answers."""

    label: str
    # shorter/longer: the style wanted from now on; preference: the style stated.
    style: str | None = None
    source: str = "rule"  # "rule" or "model"
    confidence: float = 1.0

    @property
    def is_feedback(self) -> bool:
        return self.label in FEEDBACK_LABELS

    @property
    def positive(self) -> bool | None:
        return self.label == "positive" if self.is_feedback else None

    @property
    def about(self) -> Literal["content", "style"] | None:
        """The aspect: "style" for length or style, "content" for the rest (right, helpful)."""
        if not self.is_feedback:
            return None
        return "style" if self.label in WANTED_STYLE else "content"


NONE: Final = Reading("none")

# --- emoji -------------------------------------------------------------------------------------
_POSITIVE_EMOJI = set("👍🙏❤♥💕💖💯🙌👏👌✅🎉🥳😊🙂😀😃😄😁😍🥰🤩⭐🌟💪🤗😎✨🔥")
_NEGATIVE_EMOJI = set("👎😡😠🤬🙄😞😕😒❌💩😤🤦☹😩😫😑🤨😬🤮")
# Skin tones, variation selectors, zero-width joiners and gender signs change no verdict.
_EMOJI_NOISE = re.compile("[\U0001f3fb-\U0001f3ff\ufe0f\ufe0e\u200d\u2640\u2642]")


def _emoji_verdict(text: str) -> Reading | None:
    """A message of emoji alone: the majority of the known ones decides."""
    rest = _EMOJI_NOISE.sub("", text)
    rest = "".join(c for c in rest if not c.isspace() and unicodedata.category(c)[0] != "P")
    if not rest or any(c.isalnum() for c in rest):
        return None
    score = sum((c in _POSITIVE_EMOJI) - (c in _NEGATIVE_EMOJI) for c in rest)
    if score == 0:
        return None
    return Reading("positive" if score > 0 else "content")


def _strip_emoji(text: str) -> str:
    return "".join(c for c in text if unicodedata.category(c) != "So").strip()


# --- exact short verdicts and common forms -------------------------------------------------------
# fmt: off
_EXACT: Final = {
    "positive": {
        "thanks", "thank you", "thx", "ty", "tysm", "ta", "cheers", "perfect", "great",
        "awesome", "nice", "excellent", "brilliant", "spot on", "exactly", "correct",
        "nailed it", "perfect ty", "perfect thanks", "great thanks", "good answer", "love it",
        "that works", "it works", "works", "that helped", "helpful", "very helpful", "legend",
        "good stuff", "wonderful", "amazing", "sorted", "yes that's it", "that's it",
    },
    "content": {
        "wrong", "nope", "nah", "meh", "incorrect", "not helpful", "unhelpful", "useless",
        "not quite", "not really", "wrong answer", "wrong again", "bad answer", "false",
        "nonsense", "rubbish", "not even close", "doesn't work", "didn't work", "still broken",
        "that's wrong", "that was wrong", "that's not it", "nah that's not it", "not it",
    },
    "shorter": {
        "too long", "way too long", "far too long", "too wordy", "too verbose", "tldr", "tl;dr",
        "tl dr", "shorter", "shorter please", "briefer", "less", "just the answer",
        "just the answer please", "too much", "too much text", "too detailed", "condense it",
    },
    "longer": {
        "too short", "too brief", "more", "more please", "more detail", "more details",
        "more detail please", "more details please", "elaborate", "elaborate please",
        "go on", "say more", "expand", "expand please", "go deeper", "explain more",
        "tell me more",
    },
}
# Acknowledgements and small talk: no verdict on the reply, and not for the classifier either.
_NEUTRAL: Final = {
    "ok", "okay", "k", "kk", "ok then", "alright", "right", "right then", "sure", "yes", "no", "hmm",
    "hm", "lol", "haha", "brb", "hi", "hello", "hey", "bye", "i see",
}
# fmt: on
_EXACT_LABEL: Final = {phrase: label for label, phrases in _EXACT.items() for phrase in phrases}

_REPLY = r"(?:(?:that|it|this|the answer|your answer|the reply|your reply)\s*(?:'s|’s| is| was)\s+)"
_DEGREE = r"(?:(?:a bit|a little|way|far|much|so|waa*y|really|overly|kind of|kinda)\s+)"
_SHORTER = re.compile(
    rf"^{_REPLY}?{_DEGREE}?(?:too|overly)\s+(?:long|wordy|verbose|detailed|lengthy|"
    r"much(?:\s+(?:text|detail|info|information))?|many words)\b(?!\s+(?:ago|since))|"
    rf"^{_REPLY}?{_DEGREE}?(?:a\s+)?(?:wall of text|lot of (?:rambling|waffle|text))\b|"
    r"^(?:please\s+)?(?:just\s+|(?:just\s+)?(?:give me|tell me)\s+(?:just\s+)?)the answer"
    r"(?=\s*(?:please)?\s*(?:[,.!]|$))|"
    r"^(?:less|fewer)\s+(?:detail|details|text|words|waffle|fluff)\b|"
    r"^(?:please\s+)?(?:get|cut) to the point\b|^(?:stop|no) rambling\b|"
    r"^(?:please\s+)?(?:can you\s+|could you\s+)?make it (?:shorter|briefer|more concise)\b|"
    r"^shorter\b|^tl;?\s?dr\b|^(?:a\s+)?one[- ]liner would do\b|"
    r"\b(?:i )?(?:asked for|wanted|just wanted) (?:a )?(?:one[- ]liner|short answer|"
    r"yes or no)\b",
    re.IGNORECASE,
)
_LONGER = re.compile(
    rf"^{_REPLY}?{_DEGREE}?(?:too|overly)\s+(?:short|brief|terse|thin|vague)\b|"
    rf"^{_REPLY}?(?:a\s+)?bit\s+(?:short|thin|brief)\b|"
    r"^(?:please\s+)?(?:can you\s+|could you\s+)?(?:elaborate|expand|go deeper|say more|"
    r"explain (?:it )?(?:more|further|in more (?:depth|detail)))\b|"
    r"^(?:please\s+)?(?:give me\s+|i need\s+|need\s+)?(?:a\s+)?(?:bit\s+)?more\s+(?:detail|details|"
    r"depth|examples|context|than that)\b|"
    r"^(?:please\s+)?(?:can you\s+|could you\s+)?make it (?:longer|more detailed)\b|"
    r"^not (?:detailed|thorough|long) enough\b|^not enough (?:detail|depth|info)\b|"
    r"^(?:a\s+)?(?:longer|fuller|more detailed) (?:answer|explanation|reply)\b",
    re.IGNORECASE,
)
# The verdict forms perceive has always known (carried over from intent.py).
_THANKS = re.compile(
    r"^\s*(?:thanks|thank you|thx|ty|tysm|cheers|much appreciated|appreciate it)\b"
    r"(?!\s+for asking)",
    re.IGNORECASE,
)
_NEGATION = re.compile(r"\b(?:not|no|never|nothing)\b|n't\b", re.IGNORECASE)
_PRAISE = re.compile(
    r"^\s*(?:great|perfect|awesome|nice|excellent|brilliant|cool|spot on|exactly|lovely|"
    r"wonderful|amazing|legend|nailed it)\b[!. ]*$|"
    r"\b(?:that|it|this)\s+(?:worked|works|helped|helps|fixed it|did the trick|clears it up)\b|"
    r"\b(?:that'?s|that is|this is|you'?re|you are)\s+(?:right|correct|perfect|helpful|great|"
    r"spot on|exactly what i (?:needed|wanted))\b|\bexactly what i (?:needed|wanted)\b",
    re.IGNORECASE,
)
_NEGATIVE = re.compile(
    r"^\s*(?:(?:no[,.!]?\s+)?(?:that'?s|that is|that was|this is|it'?s|it was|you'?re)\s+"
    r"(?:(?:just|completely|totally|all|simply)\s+)?(?:wrong|not right|incorrect|"
    r"not correct|not what i (?:asked|meant|wanted)|not true|false|useless|unhelpful|nonsense|"
    r"made up|inaccurate|outdated)|"
    r"(?:that|it|this)\s+(?:didn'?t|did not|doesn'?t|does not)\s+(?:work|help)|"
    r"you (?:got it wrong|misunderstood|made (?:that|it) up)|"
    r"wrong(?: answer)?|not helpful|that'?s not it|nope,? that'?s not)\b",
    re.IGNORECASE,
)

# --- stated answer-style preferences ----------------------------------------------------------
_ANSWERS = r"(?:answers|replies|responses|explanations|instructions)"
_WANT = (
    r"(?:i (?:prefer|like|want|need)|i'?d (?:rather have|rather get|like|prefer)|"
    r"i would (?:rather have|like|prefer)|give me|please give me|please give)"
)
_PREFERENCES: Final = (
    (
        "step_by_step",
        re.compile(
            r"\b(?:use|in|with|as)\s+(?:bullet[- ]?points|bullets|numbered (?:steps|lists?))\b|"
            r"^(?:bullet[- ]?points|bullets|numbered steps)\b|"
            rf"\b{_WANT}\s+(?:step[- ]by[- ]step|numbered)\s+{_ANSWERS}|"
            r"\b(?:answer|explain)\s+(?:in|as|with)\s+(?:steps|a list)\b",
            re.IGNORECASE,
        ),
    ),
    (
        "concise",
        re.compile(
            r"\bkeep\s+(?:it|them|things|(?:your\s+|the\s+)?" + _ANSWERS + r")\s+"
            r"(?:short|shorter|brief|concise|snappy|to the point)\b|"
            r"\bmake\s+(?:your\s+|the\s+)?" + _ANSWERS + r"\s+(?:short|shorter|brief|concise)\b|"
            r"\b(?:always\s+)?be (?:more\s+)?(?:brief|concise|succinct|terse)\b|"
            rf"\b{_WANT}\s+(?:short|shorter|brief|concise|quick)\s+{_ANSWERS}\b",
            re.IGNORECASE,
        ),
    ),
    (
        "detailed",
        re.compile(
            r"\b(?:always\s+)?(?:explain|answer)\s+(?:things\s+|everything\s+)?(?:in (?:full\s+)?"
            r"detail|thoroughly|in depth)\b|"
            r"\b(?:always\s+)?be (?:more\s+)?(?:detailed|thorough)\b|"
            rf"\b{_WANT}\s+(?:long|longer|detailed|thorough|in-depth|full)\s+"
            rf"(?:(?:and|,)\s*(?:detailed|thorough)\s+)?{_ANSWERS}\b|"
            rf"\b{_WANT}\s+(?:long|longer)\s*,?\s*detailed\s+{_ANSWERS}\b",
            re.IGNORECASE,
        ),
    ),
)
_STYLE_WORDS: Final = (
    ("step_by_step", re.compile(r"\b(?:bullet|bullets|steps?|numbered|list)\b", re.IGNORECASE)),
    ("concise", re.compile(r"\b(?:short|shorter|brief|concise|succinct|quick)\b", re.IGNORECASE)),
    ("detailed", re.compile(r"\b(?:detail|detailed|thorough|long|longer|depth)\b", re.IGNORECASE)),
)


def stated_style(text: str) -> str | None:
    """The answer style a standing instruction asks for ("keep it short" -> "concise")."""
    if "?" in text:
        return None
    for style, pattern in _PREFERENCES:
        if pattern.search(text):
            return style
    return None


def style_named(text: str) -> str | None:
    """The style a remembered preference's text names ("User prefers short answers")."""
    for style, pattern in _STYLE_WORDS:
        if pattern.search(text):
            return style
    return None


def _normal(text: str) -> str:
    text = text.casefold().replace("’", "'")
    text = re.sub(r"[!.,;:~]+", " ", text)
    return " ".join(text.split())


def read_by_rules(message: str) -> Reading:
    """Emoji, exact verdicts, the common verdict forms and stated style preferences."""
    text = message.strip()
    emoji = _emoji_verdict(text)
    if emoji is not None:
        return emoji
    text = _strip_emoji(text)
    style = stated_style(text)
    if style is not None:
        return Reading("preference", style=style)
    label = _EXACT_LABEL.get(_normal(text))
    if label is None and "?" not in text and len(text) <= MAX_CHARS:
        if _SHORTER.search(text):
            label = "shorter"
        elif _LONGER.search(text):
            label = "longer"
    if label is None and _NEGATIVE.match(text):
        label = "content"
    praise = _THANKS.match(text) or (_PRAISE.search(text) and not _NEGATION.search(text))
    if label is None and len(text) < 80 and "?" not in text and praise:
        label = "positive"
    return Reading(label, style=WANTED_STYLE.get(label)) if label else NONE


def is_short(text: str) -> bool:
    return len(text) <= MAX_CHARS and len(text.split()) <= MAX_WORDS


def read_by_model(message: str, embedder: Any) -> Reading:
    """The embedding classifier's reading of a short message ("none" for a long one, or when
    ``embedder`` is not the one the classifier was trained with)."""
    text = _strip_emoji(message.strip())
    if not text or "?" in text or not is_short(text) or _normal(text) in _NEUTRAL:
        return NONE
    model = model_for(embedder)
    if model is None:
        return NONE
    try:
        vector = np.asarray(embedder.embed([text])[0], dtype=np.float32)
    except Exception:
        # Reading feedback is a refinement: a failing embedder must not fail the turn.
        logger.exception("feedback classifier skipped: the embedder failed")
        return NONE
    label, confidence = model.label_of(vector)
    if label == "none":
        return Reading("none", source="model", confidence=confidence)
    if label == "preference":
        style = style_named(text)
        return Reading("preference", style, "model", confidence) if style else NONE
    return Reading(label, WANTED_STYLE.get(label), "model", confidence)
