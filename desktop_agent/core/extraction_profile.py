"""Extraction rules for who the user is: name, home, partner, origin, age, birthday, languages.

Same contract as ``extraction_rules``: each rule reads one clause anchored at its subject.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from desktop_agent.core.extraction_phrases import (
    I_AM,
    Match,
    _compile,
    city_local,
    normalise_object,
    proper_noun,
)
from desktop_agent.core.extraction_relations import _NOT_NAMES


def name(clause: str) -> Iterator[Match]:
    lead = re.match(
        r"(?i:my (?:full |legal |real )?name(?: is|'s|’s)|i'm called|i am called|"
        r"(?:you can )?call me|people call me|i go by)\s+",
        clause,
    )
    if lead:
        value = proper_noun(clause[lead.end() :], clause)
        if value:
            value = " ".join(value.split()[:3])
            yield Match("fact", "name", value, f"User's name is {value}", 0.95)


_NICKNAME = re.compile(
    r"(?:^|(?<=\bbut\s)|(?<=\band\s)|(?<=,\s))(?i:(?:everyone|everybody|people|most\s+people|friends|my\s+friends|"
    r"all\s+my\s+friends|they|my\s+family|the\s+family)\s+(?:just\s+)?calls?\s+me)\s+"
)


def nickname(clause: str) -> Iterator[Match]:
    """ "... but everyone calls me Sasha": what the user goes by, beside their name."""
    lead = _NICKNAME.search(clause.strip())
    value = lead and proper_noun(clause.strip()[lead.end() :], clause)
    if value:
        value = " ".join(value.split()[:2])
        yield Match("fact", "name:nickname", value, f"User goes by {value}", 0.9)


_HOME = _compile(
    rf"(?:{I_AM}\s+(?:now\s+)?(?:living|based|settled)\s+in|i\s+(?:now\s+|currently\s+|still\s+)?live\s+in|"
    rf"(?P<moved>(?:i|we)(?:'ve| have)?\s+(?:just\s+|recently\s+|finally\s+|since\s+|now\s+)?(?:moved|relocated)\s+(?:house\s+|back\s+)?(?:to|into))|"
    rf"(?P<gone>i\s+(?:don't|do not|no longer)\s+live\s+in))\s+"
)


def home(clause: str) -> Iterator[Match]:
    lead = _HOME.match(clause)
    if not lead:
        return
    value = proper_noun(clause[lead.end() :], clause)
    if not value:
        return
    if lead.group("gone"):
        if (
            re.search(r"\b(?:anymore|any more)\b", clause, re.IGNORECASE)
            or "no longer" in clause.lower()
        ):
            yield Match(
                "fact", "home_city", value, f"User no longer lives in {value}", 0.85, True, True
            )
        return
    moved = bool(lead.group("moved"))
    if moved and re.search(r"['’]s$", value):
        # "I've moved to Sainsbury's": a shop or firm named by its owner, so a new workplace
        yield Match("fact", "employer", value, f"User works at {value}", 0.8, correction=True)
        return
    now = bool(re.search(r"\bnow\b", clause, re.IGNORECASE))
    yield Match("fact", "home_city", value, f"User lives in {value}", 0.9, correction=moved or now)


_HOME_NOW = _compile(
    r"(?:(?:we're|we’re|we\s+are)\s+(?:now\s+)?(?:living\s+|based\s+|settled\s+|down\s+|up\s+|"
    r"over\s+|out\s+)?|"
    r"(?:i'm|i’m|i\s+am|im)\s+(?:now\s+)?(?:living|based|settled)\s+)in\s+"
)


def home_now(clause: str) -> Iterator[Match]:
    """ "We moved house, we're in Leeds now": where the user is now, said with "now"."""
    lead = _HOME_NOW.match(clause)
    if not lead or not re.search(r"\b(?:now|these days|nowadays)\b", clause, re.IGNORECASE):
        return
    if re.search(r"\b(?:for|on|at|until|till|visiting|holiday|vacation|trip)\b", clause, re.I):
        return  # "I'm in Rome for the weekend now" is a visit
    value = proper_noun(clause[lead.end() :], clause)
    if value:
        yield Match("fact", "home_city", value, f"User lives in {value}", 0.85, correction=True)


_NEW_HOME = _compile(
    r"(?:(?:my|our|the)\s+)?new\s+(?:flat|place|house|home|apartment|address|pad|digs|room)\s+"
    r"(?:is\s+)?(?:in|at|near|over\s+in|out\s+in)\s+"
)


# ... or inside a clause: "loving our new flat in Leith", "the commute from the new place in
# Didsbury is brutal" (not someone else's: "my sister's new place in Leeds")
_NEW_HOME_INSIDE = _compile(
    r"(?:\b(?:my|our)\s+|\b(?:commute|walk|drive|ride)\s+(?:in\s+)?from\s+the\s+)"
    r"new\s+(?:flat|place|house|home|apartment)\s+(?:in|out\s+in|over\s+in)\s+|"
    # "now that I'm at the new place in Bristol": the user there, said in passing
    r"\b(?:i['’]m|i\s+am|we['’]re|we\s+are)\s+(?:now\s+)?(?:at|in)\s+the\s+"
    r"new\s+(?:flat|place|house|home|apartment)\s+(?:in|out\s+in|over\s+in)\s+|"
    # "we're officially Glasgow people now!! | got a flat in Partick"
    r"(?:^|\b(?:i|we)(?:'ve|\s+have)?\s+(?:just\s+|finally\s+|now\s+)?)got\s+(?:a|our\s+own)\s+"
    r"(?:flat|place|house|apartment)\s+in\s+"
)


def city_resident(clause: str) -> Iterator[Match]:
    """ "officially a Sheffield resident now!": the city the user lives in now."""
    city = city_local(clause)
    if city:
        yield Match("fact", "home_city", city, f"User lives in {city}", 0.85, correction=True)


def new_home(clause: str) -> Iterator[Match]:
    """ "We've finally moved!! New place is in Stirling": where the user lives now."""
    lead = _NEW_HOME.match(clause.strip()) or _NEW_HOME_INSIDE.search(clause.strip())
    value = lead and proper_noun(clause.strip()[lead.end() :], clause)
    if value:
        yield Match("fact", "home_city", value, f"User lives in {value}", 0.85, correction=True)


# A home named by the dwelling first: "I live alone in my old house in Lillehammer", "I have
# moved now, to a senior apartment in Hamar", "we just renewed the lease on our flat in Porto".
_DWELLING = (
    r"(?:(?:my|our|a|an|the)\s+)(?:[\w-]+\s+){0,3}?(?:house|flat|apartment|home|place|condo|"
    r"bungalow|cottage|studio|townhouse|unit)\s+(?:in|near|out\s+in|over\s+in)\s+"
)
_HOME_IN_DWELLING = _compile(
    r"(?:(?:i|we)\s+(?:now\s+|currently\s+|still\s+)?live\s+(?:alone\s+|together\s+)?in\s+|"
    r"^(?:(?:i'm|im|i\s+am|we're|we\s+are)\s+)?(?:now\s+|currently\s+)?living\s+in\s+|"
    r"(?P<moved>(?:i|we)(?:'ve|\s+have)?\s+(?:just\s+|recently\s+|finally\s+|now\s+)?"
    r"(?:moved|relocated)(?:\s+now)?\s*,?\s+(?:in)?to\s+)|"
    r"(?:(?:i|we)(?:'ve|\s+have)?\s+(?:just\s+)?(?:renewed|signed)\s+(?:the\s+)?(?:lease|rental\s+"
    r"contract|contract)\s+(?:on|for)\s+)|"
    # "got my own studio in Walthamstow" (after "I moved out!!"): a home of one's own got is a
    # move ("got a condo in Kensington" beside "we're in Calgary now" names the district)
    r"(?P<got>^(?:(?:i|we)(?:'ve|\s+have)?\s+)?(?:just\s+|finally\s+|now\s+)?"
    r"(?:got|bought|found|rented)\s+(?=(?:my|our)\s+own\s+(?:[\w-]+\s+)?"
    r"(?:house|flat|apartment|place|condo|bungalow|cottage|studio|townhouse)\s)))"
    rf"{_DWELLING}"
)


def home_in_dwelling(clause: str) -> Iterator[Match]:
    """Where the user lives, said of their house or flat."""
    lead = _HOME_IN_DWELLING.search(clause.strip())
    if lead is None or re.search(r"\b(?:holiday|summer|parents|weekend)\b", lead.group(0), re.I):
        return
    value = proper_noun(clause.strip()[lead.end() :], clause)
    if value:
        moved = bool(lead.group("moved") or lead.group("got"))
        yield Match("fact", "home_city", value, f"User lives in {value}", 0.85, correction=moved)


_PARTNER_NOW = _compile(
    rf"{I_AM}\s+(?:now\s+)?(?:with|seeing|dating|going\s+out\s+with|engaged\s+to|married\s+to)\s+"
)


def partner_now(clause: str) -> Iterator[Match]:
    """ "I'm with Sam now", "I'm engaged to Priya": the user's partner, by name."""
    lead = _PARTNER_NOW.match(clause)
    found = lead and re.match(r"([A-ZÀ-Ý][\w'’-]+)(?=\s*(?:[,.!;]|$|\s+(?:now|and|these)\b))",
                              clause[lead.end() :])  # fmt: skip
    if found and found.group(1).casefold() not in _NOT_NAMES | {"it", "them", "him", "her"}:
        value = found.group(1)
        text = f"User's partner is {value}"
        correction = bool(re.search(r"\bnow\b", clause, re.IGNORECASE))
        yield Match("fact", "name_of:partner", value, text, 0.85, correction=correction)


_ORIGIN = _compile(
    rf"(?:{I_AM}\s+(?:originally\s+)?from|i\s+(?:originally\s+)?come\s+from"
    # "I grew up on a farm in Devon", "in a village near York": where, after what
    r"|i\s+grew\s+up\s+(?:on|in)\s+(?:a|an|the)\s+(?:[\w-]+\s+){0,2}?(?:farm|village|town|estate|"
    r"island|smallholding|croft|street|house)\s+(?:in|near|outside)|i\s+grew\s+up\s+in)\s+"
)


def origin(clause: str) -> Iterator[Match]:
    lead = _ORIGIN.match(clause)
    value = lead and proper_noun(clause[lead.end() :], clause)
    if value:
        yield Match("fact", "origin", value, f"User is from {value}", 0.85)


_AGE = _compile(
    rf"(?:{I_AM}|i\s+(?:just\s+)?turned)\s+(\d{{1,3}})(?:\s+years?\s+old|\s+now)?"
    r"(?:\s+(?:yesterday|today|last\s+(?:week|month|\w+day)|this\s+(?:week|month)))?\s*$"
)


def age(clause: str) -> Iterator[Match]:
    found = _AGE.match(clause.strip(" .!"))
    if found and 3 <= int(found.group(1)) <= 120:
        yield Match("fact", "age", found.group(1), f"User is {found.group(1)} years old", 0.85)


_BIRTHDAY = _compile(
    r"(?:my\s+birthday(?:\s+is|'s|’s|\s+falls)|i\s+was\s+born\s+on)\s+(?:on\s+)?(.+)$"
)


def birthday(clause: str) -> Iterator[Match]:
    found = _BIRTHDAY.match(clause.strip(" .!"))
    if found and re.search(
        r"\d|january|february|march|april|may|june|july|august|september|"
        r"october|november|december",
        found.group(1),
        re.IGNORECASE,
    ):
        value = found.group(1).strip()
        yield Match("fact", "birthday", value, f"User's birthday is {value}", 0.9)


_LANGUAGES = _compile(
    r"(?:i\s+(?:can\s+)?speak|i\s+grew\s+up\s+(?:bilingual|trilingual|speaking)\s*,?(?:\s+in)?|"
    r"(?:i'm|i\s+am|im)\s+(?:bilingual|trilingual|fluent)\s*,?(?:\s+in)?)\s+(.+)$"
)


def languages(clause: str) -> Iterator[Match]:
    found = _LANGUAGES.match(clause.strip(" .!"))
    if not found:
        return
    for part in re.split(r"\s*,\s*|\s+(?:and|or)\s+", found.group(1)):
        words = normalise_object(part).split()
        original = part.split()
        if words and original and original[-1][:1].isupper():
            yield Match(
                "fact", f"speaks:{words[-1]}", original[-1], f"User speaks {original[-1]}", 0.85
            )


# A move the message tells, which makes "I'm in Lyon now" where the user lives, not a visit:
# "big news, I moved!! got a job at a language school so I'm in Lyon now"
_MOVE_TOLD = re.compile(
    r"\b(?:i|we)(?:['’]ve|\s+have)?\s+(?:finally\s+|just\s+|actually\s+|officially\s+)?"
    # (not "we moved the meeting")
    r"(?:moved|relocated)(?=\s*(?:[!.,;)]|$|\s+(?:to|house|out|in|here|over|abroad|away|back|"
    r"cities|city|countries|country|flats?)\b))|\bnew\s+(?:flat|place|apartment|house|home)\b|"
    r"\blease\b",
    re.IGNORECASE,
)
_IN_NOW = re.compile(
    r"\b(?i:i['’]m|i\s+am|im|we['’]re|we\s+are)\s+(?P<now>(?i:now)\s+)?(?i:in)\s+"
    r"(?P<place>[A-ZÀ-Ý][\w'’-]+(?:\s+[A-ZÀ-Ý][\w'’-]+)?)(?P<after>\s+(?i:now)\b)?"
)
# "signed a lease in Porto", "signed the lease on a flat in Leith"
_LEASE_IN = re.compile(
    r"\b(?i:signed)\s+(?i:a|the|our)\s+(?i:lease)\s+(?:(?i:on)\s+(?:[\w'’-]+\s+){1,3}?)?"
    r"(?i:in)\s+(?P<place>[A-ZÀ-Ý][\w'’-]+(?:\s+[A-ZÀ-Ý][\w'’-]+)?)"
)


def home_after_a_move(message: str) -> Iterator[tuple[Match, tuple[int, int]]]:
    """(home city, span) for "I'm in Lyon now" in a message that tells a move, and for
    "signed a lease in Porto"."""
    found = _LEASE_IN.search(message)
    if found is None and _MOVE_TOLD.search(message):
        found = next(
            (m for m in _IN_NOW.finditer(message) if m.group("now") or m.group("after")), None
        )
    if found is None or found.group("place").casefold() in _NOT_NAMES:
        return
    place = found.group("place")
    text = f"User lives in {place}"
    yield Match("fact", "home_city", place, text, 0.8, correction=True), found.span()
