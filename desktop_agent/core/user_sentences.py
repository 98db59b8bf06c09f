"""The user's statements in a message: its sentences that tell, each with where it stands.

What a question asks is not told ("what should I cook?"), nor a request ("can you help me word
it?") beside what it tells, nor a request to forget; and the words after a forgotten span
that may lean on it are no statement either (``_around_forgotten``).
"""

from __future__ import annotations

import re
from typing import Final

from desktop_agent.core.extraction_normalise import names_capitalised
from desktop_agent.core.extraction_words import RELATIONS
from desktop_agent.core.questions import REMINDED_OF, SENTENCE, asks_only
from desktop_agent.core.redaction import MARK

_NOT_A_STATEMENT: Final = re.compile(
    # (not "Before I forget - the gate code is 4471", "so I don't forget", "in case I forget",
    # "don't let me forget it": the user's own forgetting is no request)
    r"\b(?<!\bi )(?<!\bwe )(?<!always )(?<!ll )(?<!don't )(?<!do not )(?<!let me )(?:forget|delete|erase)\b|"
    # (a "??" is surprise, not a question: "he's been seeing someone from his office??")
    r"\b(?:can|could|would) (?:you|u)\b|\bremind me\b|(?<![?!])\?\s*$|"
    r"\b(?:don't|do not|stop) (?:remember|keep|stor)|"
    # a request to the assistant: "plan me a 30 min workout pls", "any ideas for dinner"
    r"^(?:(?:ok|okay|so|right|pls|please|hey|hi)[\s,!]+)*(?:plan|give|suggest|recommend|help|"
    r"write|tell|show|draft|find|list|explain)\s+(?:me|us)\b|"
    r"^(?:(?:ok|okay|so|right|hey|hi)[\s,!]+)*any\s+(?:[\w-]+\s+){0,2}(?:ideas|suggestions)\b",
    re.I,
)


def told_sentences(message: str) -> list[str]:
    """The user's statements in ``message`` (see ``located``), with the names typed in lower
    case capitalised: "we're at casa alfama for 3 nights" names the hotel asked of in "which
    hotel are we staying at?". (Quoted, a sentence is put back as typed: ``as_typed``.)"""
    return [
        sentence for sentence, _span in located(_names_only(message, names_capitalised(message)))
    ]


def as_typed(sentence: str, message: str) -> str:
    """``sentence``, said in ``message``, with each word in the case the user typed it: a quote
    says "heron-lantern-42" as typed, not as the reading capitalised it."""
    typed: dict[str, set[str]] = {}
    for word in _TYPED_WORD.findall(message):
        typed.setdefault(word.casefold(), set()).add(word)

    def back(match: re.Match[str]) -> str:
        word = match.group(0)
        forms = typed.get(word.casefold(), set())
        return next(iter(forms)) if word not in forms and len(forms) == 1 else word

    return _TYPED_WORD.sub(back, sentence)


_TYPED_WORD: Final = re.compile(r"[^\W_][\w'’-]*")


def located(message: str) -> list[tuple[str, tuple[int, int]]]:
    """The user's statements in ``message``, each with where it stands. The telling part of a
    request counts ("need to text my landlord, Mr Okafor, | can you help me word it?", "could
    you remember that | I see Dr Okafor on Thursday?"). A statement need not say "I": what the
    user tells a private assistant is theirs ("aiming for about 140g protein a day", "Pottery
    class is Saturday mornings at 10"); it is quoted only to a question about the user, and
    only when it says the question's words."""
    found = []
    for part in SENTENCE.finditer(message):
        start = part.start() + len(part.group(0)) - len(part.group(0).lstrip())
        for told, told_at in _telling_parts(part.group(0).strip(), start):
            for sentence, at in _around_forgotten(told, told_at):
                if _NOT_A_STATEMENT.search(sentence) or asks_only(sentence):
                    continue
                found.append((" ".join(sentence.split()), (at, at + len(sentence))))
    return found


def _names_only(message: str, capitalised: str) -> str:
    """``capitalised`` (``message`` with the parser's names capitalised) with the days, months
    and relations the tagger also took for names kept as typed: "she does monday, wednesday
    and friday" stays one list, "mum and dad's anniversary" stays about the user's parents."""
    if capitalised == message:
        return message
    return _WORD.sub(
        lambda m: message[m.start() : m.end()] if m.group(0).casefold() in _KEPT else m.group(0),
        capitalised,
    )


_WORD: Final = re.compile(r"[^\W\d_]+")
_KEPT: Final = frozenset(
    "monday tuesday wednesday thursday friday saturday sunday mondays tuesdays wednesdays "
    "thursdays fridays saturdays sundays january february march april may june july august "
    "september october november december mum mom dad mam nan gran grandma grandad nana "
    # languages and peoples, which name no one ("she helps my korean and i help her with
    # portuguese")
    "english spanish french german italian portuguese korean japanese chinese mandarin "
    "cantonese arabic hindi urdu polish dutch russian greek turkish swedish welsh irish "
    "scottish british american canadian australian indian brazilian mexican".split()
) | {w for w in RELATIONS}


def _around_forgotten(sentence: str, at: int) -> list[tuple[str, int]]:
    """The parts of ``sentence`` that still say something when words were forgotten from it:
    the clauses before ("gym mon and thurs, and [forgotten]"), and a clause after with its own
    subject ("[forgotten], and our neighbour Dolores has the spare key") or after a whole
    forgotten sentence; never the rest after it, which may lean on what was forgotten
    ("[forgotten] for three nights")."""
    if MARK not in sentence:
        return [(sentence, at)] if sentence else []
    parts = []
    before, _, after = sentence.partition(MARK)
    before = _BEFORE_MARK.sub("", before)
    if len(before.split()) >= 3:
        parts.append((before, at))
    # a forgotten sentence took its full stop with it: "[forgotten] On the bright side ..."
    whole = not before.strip() or before.rstrip().endswith((".", "!", "?"))
    lead = re.match(r"\s+(?=[A-Z])", after) if whole else None
    lead = lead or _AFTER_MARK.match(after)
    if lead is None and whole and _OWN_SUBJECT_SOON.match(after):
        lead = re.match(r"\s+", after)  # "[forgotten] unrelated but my bike lock code is 4471"
    if lead is None and whole:
        lead = _NEW_TOPIC.match(after)  # "[forgotten] anyway on a happier note she's ..."
    if lead and MARK not in after and len(after[lead.end() :].split()) >= 4:
        parts.append((after[lead.end() :], at + len(sentence) - len(after) + lead.end()))
    return parts


# a sentence typed in lower case that soon says whose it is: it leans on nothing forgotten
_OWN_SUBJECT_SOON: Final = re.compile(
    r"\s+(?:[\w'’-]+[\s,]+){0,2}(?:i|i'm|my|we|we're|our)\b", re.IGNORECASE
)
# what says the words after a forgotten sentence are on something else
_NEW_TOPIC: Final = re.compile(
    r"\s+(?=(?:anyway|anyways|in\s+other\s+news|on\s+(?:a|the)\s+(?:happier|brighter|lighter|"
    r"other)\s+note|unrelated(?:ly)?|separately)\b)",
    re.IGNORECASE,
)
_BEFORE_MARK: Final = re.compile(r"[\s,;:–-]*(?:\b(?:and|but|also|plus|so)\b[\s,]*)?$", re.I)
_AFTER_MARK: Final = re.compile(
    r"[\s,;:–-]+(?:(?:and|but|also|plus)\s+)?(?=(?:i|i'm|my|we|we're|our|she|he|they)\b)", re.I
)

# "could you remember that ...", "please note, ...": what follows is the statement
_REMEMBER_THAT: Final = re.compile(
    r"^(?:.*?\b(?:can|could|would|will)\s+you\s+(?:please\s+)?remember\s+(?:for\s+me\s+)?"
    r"(?:that\s+)?|(?:please\s+)?(?:remember|note)\s+(?:for\s+me\s+)?that\s+|"
    # "can you remind me I've got a fertility clinic appointment on Wednesday the 12th?"
    r".*?\b(?:(?:can|could|would|will)\s+(?:you|u)\s+)?(?:please\s+)?remind\s+me\s+(?:that\s+)?"
    rf"(?={REMINDED_OF}))",
    re.IGNORECASE,
)
# where a request starts inside a sentence that told something first
_REQUEST_AFTER: Final = re.compile(
    r"[,;:]?\s+(?:so\s+)?(?:can|could|would|will)\s+(?:you|u)\b|[,;:]\s*(?:any|what|how|do\s+you)\b|"
    # "... at CoreFit on elm st, pls remind me to pack my shoes"
    r"[,;:]?\s+(?:(?:and|so|but|pls|plz|please)\s+)+remind\s+(?:me|us)\b|[,;:]\s*remind\s+(?:me|us)\b",
    re.IGNORECASE,
)


def _telling_parts(sentence: str, start: int) -> list[tuple[str, int]]:
    """``sentence`` without its request, as the parts that tell, each with where it starts:
    before the request ("I'll have a flat white, | and can you keep track of the others:")
    and after it ("| Dev wants a cortado")."""
    lead = _REMEMBER_THAT.match(sentence)
    if lead and len(sentence[lead.end() :].split()) >= 3:
        told = sentence[lead.end() :].rstrip(" ?.!")
        return [(told, start + lead.end())]
    cut = _REQUEST_AFTER.search(sentence)
    if cut is None:
        return [(sentence, start)]
    parts = []
    before = re.sub(r"[\s,;:]*(?:and|but|so)?[\s,;:]*$", "", sentence[: cut.start()])
    if len(before.split()) >= 3:
        parts.append((before, start))
    after = _REQUEST_ENDS.search(sentence, cut.end())
    if after is not None and len(sentence[after.end() :].split()) >= 3:
        parts.append((sentence[after.end() :], start + after.end()))
    return parts


# where the request itself ends, when something is told after it
_REQUEST_ENDS: Final = re.compile(r"[:;]\s*|\s[-–—]\s+")
