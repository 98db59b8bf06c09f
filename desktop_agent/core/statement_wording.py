"""What a quoted sentence says is so: without why ("... now | bc CoreFit put their prices up"),
without what ended beside what came instead ("gone right off oat milk, | it's almond now"), and
without what it replaced ("going with Abuja | instead of Enugu"). The reasons and the ends
often name the old value, which a quote for the present must not repeat.
"""

from __future__ import annotations

import re
from typing import Final

from desktop_agent.core.grounding_words import content_words, stems
from desktop_agent.core.questions import asks_the_past
from desktop_agent.core.timeparse import DAY_OR_MONTH

# Why something is so is not what is asked: "I'm at Iron Republic now | bc CoreFit put their
# prices up" (and the reason often names the old value).
# The reason ends where a clause with its own subject follows: "postponed the anatomy exam | bc
# of the strike|, its on 9 january now".
_REASON: Final = re.compile(
    # ("bumped the sertraline up to 100mg | since the 50 wasnt doing much": "since" with a
    # clause after it, not "since March", "since the DVT last year")
    r"[,;]?\s+(?:bc|b/c|because|cos|coz|cuz|'cause|since(?=\s+(?:(?:it|its|it's|we|they|he|"
    r"she|there)\b|(?:the|my|our|his|her|their|that)\s+(?:[\w'’-]+\s+){0,3}?(?:was|were|is|are|"
    r"wasn'?t|weren'?t|isn'?t|aren'?t|had|has|did|didn'?t|does|doesn'?t|kept|keeps)\b)))\s+.*?"
    r"(?=[,;]\s*(?:it|its|it's|i|i'm|im|we|we're|they|they're|so|and|but|now)\b|"
    # ("sent me for an MRI | because it wasn't settling| and it's actually a stress fracture")
    r"\s+(?:and|but)\s+(?:it's|it’s|it\s+is|it\s+was|turns\s+out|now)\b|$)",
    re.IGNORECASE,
)


# What ended, beside what came instead: "gone right off oat milk tbh, | it's almond now",
# "the Ljubljana venue fell through, | so they moved it to Lake Bled",
# "Traded the Civic in on the weekend, | I'm driving a Subaru now", "I said Durham before |
# but my MA is at Newcastle".
# (not what is left: "the only date they had left was 20 September"; nor a side: "my left
# knee", "on the left")
ENDED: Final = re.compile(
    r"\b(?:gone\s+(?:right\s+)?off|went\s+off|traded|sold|quit|(?<!\bthe\s)(?<!\bmy\s)(?<!\bher\s)(?<!\bhis\s)(?<!\byour\s)(?<!\bour\s)(?<!\bon\s)(?<!\bto\s)(?<!months\s)(?<!weeks\s)(?<!days\s)(?<!years\s)(?<!hours\s)(?<!payments\s)left(?!\s+(?:over|was|is|are|were)\b)|dropped(?!\s+(?:to|by|down|from)\b)(?![^.,;!?]{0,30}?\b(?:to|by)\s+[£$€]?\d)|ditched|"
    r"got\s+rid\s+of|gave\s+up|given\s+up|stopped|scratch\s+that|fell\s+through|"
    r"killed\s+(?:off\s+)?(?:the|my|our)\b|"
    # put off: "Kyoto will have to wait for another year", "the extension is on hold"
    r"(?:will|'ll)\s+have\s+to\s+wait|on\s+hold|"
    r"(?:can'?t|can’t|cannot|couldn'?t|couldn’t)\s+(?:make\s+it|come)|"
    r"pulled\s+out|bail(?:ed|s)?(?!\s+(?:out|money|bond))|called\s+off|cancell?ed|(?:is|was|are|were|has|have)\s+(?:been\s+)?"
    r"(?:closed|shut)|(?:is|are)\s+closing|"
    # a place or firm that ended: "noooo pho huong closed down 😭 new go-to is Saigon
    # Corner", "the barn venue went bust"
    r"(?:closed|shut)\s+down|(?:went|gone|going)\s+bust|out\s+of\s+business|"
    # someone who stopped being it: "Dr Hollis is retiring", "Mrs Kowalski has gone on
    # maternity leave"
    r"retir(?:ing|ed|es)|(?:gone|went|going)\s+on\s+(?:(?:\w+\s+)?leave|sabbatical|secondment)|moved\s+away|"
    # "no longer on the apixaban — they've swapped me over to warfarin"
    r"no\s+longer|"
    r"i\s+(?:said|put|wrote|told\s+you)\s+[\w'’-]+(?:\s+[\w'’-]+)?\s+(?:before|earlier)|"
    # what was wrong with it: "300 for groceries was wayyy too optimistic", "Split was
    # insanely expensive for august"
    r"(?:was|were)\s+(?:\w+\s+)?(?:too\s+\w+|(?:expensive|pricey|overpriced|full|booked\s+up|"
    r"sold\s+out)))\b",
    re.IGNORECASE,
)
PARTS: Final = re.compile(
    r"\s+[:;]-?[()]+\s*|,(?!\d)\s*|;\s*|\s+but\s+|\s+[-–—]\s+|\s+so\s+(?=(?:we|i|he|she|they)\b|(?-i:[A-ZÀ-Ý])[\w'’-]+\s+(?:is|was|are|will|has|had)\b)",
    re.I,
)


# What it no longer is, beside what it is: "going with Abuja | instead of Enugu", "it's June
# 28th|, not the 21st".
_NOT_THAT: Final = re.compile(
    # "moved us | off Spotify | onto Apple Music"
    r"\s+(?i:off)\s+(?i:of\s+)?[A-Z0-9][\w'’-]*(?:\s+[A-Z0-9][\w'’-]*)*(?=\s+(?i:onto|to)\b)|"
    # ("instead of berlin": a name typed in lower case, one word)
    r"\s+(?i:instead\s+of|rather\s+than)\s+(?i:the\s+|my\s+|our\s+)?(?:[A-Z0-9]|[a-z](?=[\w'’-]*\s*(?:[,.!;]|$)))[\w'’-]*"
    r"(?:\s+[A-Z0-9][\w'’-]*)*(?=\s*[,.!;]|\s*$)|,\s*(?i:not)\s+(?i:the\s+|a\s+|an\s+|on\s+)?[\w'’-]+"
    r"(?:\s+[\w'’-]+){0,3}(?=\s*[.!]*$|,)"
)


def what_is_so(sentence: str, question: str = "") -> str:
    """``sentence`` without why, and without the clause that says what ended when another says
    what is so now: the answer to "what milk do I have?" is "it's almond in my flat white".
    A ``question`` asking who keeps the cause of a change, which often names them."""
    if not _WHO_ASKED.search(question):
        sentence = _result(sentence)
    sentence = _without_reason(sentence)
    if not asks_the_past(question):  # ("it's a meniscus tear, not tendinitis" tells the past)
        sentence = _NOT_THAT.sub("", sentence)
    # ("she sold the Leeds flat | and bought a little bungalow in Harrogate": what came
    # instead, joined to what ended by "and")
    parts = [
        q
        for p in PARTS.split(sentence)
        if p.strip()
        for q in (_AND_OR_EMOJI.split(p) if ENDED.search(p) else [p])
        if q.strip()
    ]
    kept = [p for p in parts if not ENDED.search(p)]
    switched = next((n for n, p in enumerate(kept) if _SWITCHED_TO.search(p)), None)
    if switched is not None and len(kept) > switched + 1:
        # "swapped the internet to Hyperoptic, | Virgin kept dropping every evening": after a
        # switch said whole, what follows is why, and names what was left
        asked = content_words(question)
        # (a second change after it stays: "pushed it back to September, | and we've gone
        # for Porto instead")
        # (and what says the kind asked when the switch does not: "moved to Hever Castle, |
        # and the only date they had left was 20 September" for "when's the wedding?")
        says = kind_asked(question)
        says = None if says is None or says.search(kept[switched]) else says
        kept = kept[: switched + 1] + [
            p
            for p in kept[switched + 1 :]
            if stems(p) & asked
            or _CHANGED_TOO.search(p)
            or (says and says.search(p))
            # what stayed as it was, said after the change: "moved training to Sundays at
            # 10, | still at Ridgeway Park though" for "where does Leo's team train?"
            or _STILL_SO.match(p)
        ]
    chosen = next((n for n in range(len(kept) - 1, 0, -1) if _INSTEAD.search(kept[n])), None)
    if chosen is not None and len(kept[chosen].split()) >= 3:
        # "Tesla delivery got pushed to the autumn, | we ended up signing for a Hyundai Ioniq
        # 5 instead": what came instead, without what it replaced (a part before it that
        # names no value is no replaced one: "Quick update on the wedding drama"; nor is a
        # change to a new value: "we've pushed it back to October, | and we've gone for Split
        # instead")
        kept = [p for n, p in enumerate(kept) if n >= chosen or not _names_what_was(p)]
    if len(kept) == len(parts) or not any(len(p.split()) >= 3 for p in kept):
        return sentence
    return ", ".join(re.sub(r"^(?i:so|and)\s+", "", p.strip()) for p in kept)


_AND: Final = re.compile(r"\s+and\s+(?:then\s+)?", re.IGNORECASE)
# (an emoji between two clauses stands for a full stop: "nia quit violin 😭 | she's doing swim
# club on saturdays instead")
_AND_OR_EMOJI: Final = re.compile(
    r"\s+and\s+(?:then\s+)?|\s+[\U0001F300-\U0001FAFF\u2600-\u27BF]+\s+", re.IGNORECASE
)
_STILL_SO: Final = re.compile(r"\s*(?:(?:but|and)\s+)?(?:still|same)\b", re.IGNORECASE)


def _names_what_was(part: str) -> bool:
    switch = _SWITCHED_TO.search(part)
    return bool(A_VALUE.search(part[: switch.start()] if switch else part))


# A value named: a number, or a capitalised word after the first ("he's got Ms Nguyen"), not
# "I".
A_VALUE: Final = re.compile(r"\d|(?<=\s)(?!I\b|I['’])[A-ZÀ-Ý]")
_INSTEAD: Final = re.compile(
    r"\b(?:ended\s+up\s+(?:with|going|getting|signing|buying|choosing|picking|booking|taking|"
    r"at|in|on)|went\s+with|(?:are|am|['’]re|['’]m)\s+going\s+with|opted\s+for|settled\s+on|"
    r"instead(?!\s+of))\b",
    re.IGNORECASE,
)


# A switch said whole: the verb, then what it is now ("swapped the internet to Hyperoptic",
# "switched to Third Space").
_SWITCHED_TO: Final = re.compile(
    r"\b(?i:switched|swapped|changed|moved|went\s+over|bumped|pushed|postponed|rescheduled|"
    r"brought\s+forward|put\s+back)\b[^,;]{0,30}?\b(?i:to)\s+(?i:the\s+)?"
    rf"(?:[A-ZÀ-Ý0-9][\w'’-]*|{DAY_OR_MONTH.pattern})",
)


_CHANGED_TOO: Final = re.compile(
    r"\b(?:instead|now|switched|swapped|gone\s+for|going\s+with|went\s+with|gone\s+with|"
    r"moved|changed|new)\b",
    re.IGNORECASE,
)


# "Dr Okonkwo has a conference tuesday | so they moved me to thursday 10:30": the cause, then
# the change it made, which is what is so now (and the cause often names the old value).
_SO_THEN: Final = re.compile(
    # ("so after a lot of crying we've moved the whole thing to Oakmere Hall")
    r"[,;]?\s+so\s+(?:(?:after|then|anyway|basically|in\s+the\s+end)\b[^.!?]{0,40}?\s+)?"
    r"(?=(?:they|he|she|it|we|i|the|our|my|everything|all)\b[^.!?]*\b(?:moved|now|instead|"
    r"switched|swapped|changed|rescheduled|pushed|booked|hired|ended\s+up|went\s+with|"
    r"going\s+with|gone\s+with|chose|picked|bought)\b)",
    re.IGNORECASE,
)


def _result(sentence: str) -> str:
    """The change after "so", when the cause before it names what may be the old value (a
    day, a number, a place): "Dr Haddad is off sick that day so they moved me to Thursday"
    keeps who the dentist is."""
    cut = _SO_THEN.search(sentence)
    if cut is None or len(sentence[cut.end() :].split()) < 3:
        return sentence
    cause = _TITLED.sub("", sentence[: cut.start()])
    if not (DAY_OR_MONTH.search(cause) or re.search(r"\d|(?<=\s)[A-ZÀ-Ý]", cause)):
        return sentence
    return sentence[cut.end() :]


_WHO_ASKED: Final = re.compile(r"\b(?:who|whom|whose|name|named|called)\b", re.IGNORECASE)
_TITLED: Final = re.compile(r"\b(?:Dr|Mr|Mrs|Ms|Mx|Prof)\.?\s+[A-ZÀ-Ý][\w'’-]*")


def _without_reason(sentence: str) -> str:
    cut = _REASON.search(sentence)
    if cut is None or len(sentence[: cut.start()].split()) < 3:
        return sentence
    rest = sentence[cut.end() :]
    return sentence[: cut.start()] + (rest if rest.strip() else ".")


# A question asking when, and the words that say it.
_WHEN_ASKED: Final = re.compile(
    r"\b(?:when|what\s+(?:time|day|days|night|nights|date|month)|which\s+(?:day|days|night|"
    r"nights|date|month)|what(?:['’]s|\s+is|\s+was)\s+the\s+(?:date|time|day))\b",
    re.IGNORECASE,
)
# Days said short, two or more together: "so its mon, wed, thu" ("sat" or "wed" alone is a word)
_SHORT_DAY: Final = r"(?:mon|tues?|weds?|thu(?:rs?)?|fri|sat|sun)"
_WHEN_SAID: Final = re.compile(
    rf"{DAY_OR_MONTH.pattern}|\b{_SHORT_DAY}(?:\s*(?:,|/|&|\+|and)\s*{_SHORT_DAY})+\b|"
    r"\b(?:may|weekends?|tomorrow|tonight|"
    r"\d{1,2}(?::\d\d)?\s*(?:am|pm)|\d{1,2}:\d\d|\d{1,2}(?:st|nd|rd|th))\b",
    re.IGNORECASE,
)


WHEN_SAID: Final = _WHEN_SAID


# What a question asks, and the words that say it, which the user often puts in a short
# sentence of its own: when ("Signed up for the evening Spanish course! | Tuesdays 6:30"), a
# name ("just had a baby girl. | named her hana").
_SAID_APART: Final = (
    (_WHEN_ASKED, _WHEN_SAID),
    (  # "she doubled the lisinopril. | I'm on 20mg now."
        re.compile(
            r"\b(?:how\s+(?:much|many|old|big)|what\s+dose|which\s+dose|what\s+age)\b|"
            # "what was i paying before he put it up?"
            r"\bwhat\s+(?:am|was|is|are|were|do|did)\s+(?:i|we|he|she|they)\s+(?:paying|"
            r"charging|earning|making|spending|on)\b(?!\s+(?:for|about|at)\b)|"
            r"\bwhat\s+(?:%|percent(?:age)?\b)",  # "what % am i putting into my pension?"
            re.I,
        ),
        # (or in words: "so I'm down to two hives now"; not "one", which is often no number)
        AMOUNT_SAID := re.compile(
            # (nor a time: "three weeks later")
            r"\d|\b(?:two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|twenty|thirty|"
            r"forty|fifty|hundred|dozen)\b(?!\s+(?:more\s+)?(?:minutes?|hours?|days?|weeks?|"
            r"months?|years?|times)\b)",
            re.IGNORECASE,
        ),
    ),
    (  # "eurostar to paris, 11 feb, coach 7 | booking ref QZLMRT": a code is four characters
        # or more with a digit ("SKY-4402918", not "slot 1-6"), or five capitals or more (not
        # "what's the dress code?", nor a password, often a word)
        re.compile(
            r"\b(?:ref|reference|confirmation|conf|(?<!dress\s)code|pin|postcode|"
            r"(?:order|tracking|booking|policy|account|membership|crime|case|ticket|"
            r"reservation)\s+(?:number|no|num|#))\b",
            re.I,
        ),
        # (a day of the month is none: "moved to the 4th of july")
        CODE_SAID := re.compile(
            r"\b(?!\d{1,2}(?:st|nd|rd|th)\b)(?=[\w/-]*\d)[\w/-]{4,}\b|\b[A-Z][A-Z0-9]{4,}\b"
        ),
    ),
    (  # "Planning our anniversary trip! | We're going to Lisbon for 5 nights" (the past only:
        # for the present, where it was first planned is what a change may have replaced)
        re.compile(
            r"^\s*(?:and\s+)?where\b(?=.*\b(?:before|originally|at\s+first|first|used\s+to|"
            r"previously|had\s+we\s+planned)\b)",
            re.I,
        ),
        re.compile(r"\b(?:at|in|to)\s+(?:the\s+)?[A-ZÀ-Ý]"),
    ),
    (  # "who's the contractor doing the kitchen?": a sentence that names someone
        # ("who did I pick as maid of honor?", "who is watering my plants?": whom, by name
        # too; not "who's Priya?", which asks who she is to the user)
        re.compile(
            r"^\s*(?:and\s+)?who(?:(?:['’]s|\s+is|\s+was|\s+are)?\s+(?:the|our|my)\b|"
            r"\s+(?:did|do|have|had|will|am|should)\s+(?:i|we)\b|"
            r"(?:['’]s|\s+is|\s+was|\s+are)?\s+\w+ing\b)",
            re.I,
        ),
        NAMES_SOMEONE := re.compile(r"(?<=[\s,(])(?!I['’]|I\b)[A-ZÀ-Ý][a-zà-ÿ'’-]+"),
    ),
    (
        re.compile(r"\b(?:name|named|called)\b", re.I),
        # ("renamed the app to Sprig")
        NAME_SAID := re.compile(r"\b(?:(?:re-?)?named?|call(?:ed|ing)?|name['’]s)\b", re.I),
    ),
)


def kind_asked(question: str) -> re.Pattern[str] | None:
    """What a sentence must say to answer the kind of thing ``question`` asks (a time, an
    amount, a name), or None."""
    return next((said for asked, said in _SAID_APART if asked.search(question)), None)
