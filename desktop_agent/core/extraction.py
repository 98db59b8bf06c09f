"""Deterministic extraction of what the user says about themselves and their people.

Three readers over the user's own words, after informal words and typos are normalised
(``extraction_normalise``: "im alergic to penicilin" -> "I'm allergic to penicillin"):

1. patterns for the common openings ("my name is...", "I live in...", "I'm allergic to...",
   "remind me to..."; ``extraction_rules``, ``extraction_plans``);
2. a dependency parse (spaCy, ``extraction_parse``) for everything else: the user's people and
   pets ("my sister Ana lives in Rome"), habits with their times, plans with their dates,
   negations ("I don't eat pork"), likes said without "I like", several facts in one message;
3. when a statement is plainly about the user but fits no slot ("I grew up on a farm"), the
   sentence itself in the third person (``extraction_fallback``), if a classifier over the
   app's embedder (or, without one, its grammar) says it is a lasting fact, not small talk.

Precision matters more than recall: a wrong memory is worse than a missed one, so questions,
hypotheticals, requests, reported speech and pronoun objects ("I like that idea") yield nothing.

Each item's ``text`` is a normalised third-person statement ("User lives in Lisbon"), so it reads
the same in the memory panel and in a prompt whoever wrote it. ``subject_key`` names the slot a
later correction supersedes ("home_city", "likes:coffee"); the same slot for "I love coffee" and
"I don't like coffee anymore", with ``negated`` telling them apart.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, replace
from typing import Final, Literal

from desktop_agent.core import extraction_appositions as appositions
from desktop_agent.core import (
    extraction_fallback,
    extraction_followups,
    extraction_mentions,
    extraction_parse,
)
from desktop_agent.core.extraction_devices import device, device_replaced
from desktop_agent.core.extraction_everyday import EVERYDAY_RULES
from desktop_agent.core.extraction_fears import fear
from desktop_agent.core.extraction_household import HOUSEHOLD_RULES
from desktop_agent.core.extraction_lifestyle import LIFESTYLE_RULES
from desktop_agent.core.extraction_normalise import Normalised, normalise
from desktop_agent.core.extraction_past import told_past
from desktop_agent.core.extraction_phrases import with_its_city
from desktop_agent.core.extraction_plans import PLAN_RULES, note
from desktop_agent.core.extraction_profile import home_after_a_move
from desktop_agent.core.extraction_providers import provider
from desktop_agent.core.extraction_relations import carer_named
from desktop_agent.core.extraction_rules import RULES as IDENTITY_RULES
from desktop_agent.core.extraction_rules import Match, normalise_object
from desktop_agent.core.extraction_sentences import SENTENCE_RULES, now_at_work
from desktop_agent.core.extraction_subjects import KNOWN_PEOPLE
from desktop_agent.core.extraction_vehicles import my_vehicle
from desktop_agent.core.extraction_words import CARERS
from desktop_agent.core.timeparse import MONTHS, WEEKDAYS

RULES = (*IDENTITY_RULES, *EVERYDAY_RULES, *LIFESTYLE_RULES, *PLAN_RULES, fear, device, my_vehicle)
SENTENCES = (*SENTENCE_RULES, *HOUSEHOLD_RULES, device_replaced, provider)

FactType = Literal["fact", "preference", "plan", "decision", "task", "risk"]
FACT_TYPES: tuple[FactType, ...] = ("fact", "preference", "plan", "decision", "task", "risk")


@dataclass(frozen=True, slots=True)
class ExtractedFact:
    """One statement the user made about themselves."""

    text: str  # third person: "User is allergic to peanuts"
    type: FactType
    subject_key: str  # the slot a correction supersedes: "allergy:peanut"
    value: str  # the user's words for it: "peanuts"
    confidence: float
    span: tuple[int, int]  # of the clause in the message
    is_correction: bool = False
    negated: bool = False
    person: str = ""  # whose fact, when not the user's: "sister", "dog"
    when: str = ""  # a plan's or habit's time: "the 12th, 2026-12-12", "every Tuesday at 7"
    # Implied, not said ("a nurse at a clinic in Porto": based in Porto); it never overrides
    # what the user said outright.
    inferred: bool = False
    # Told as the past ("I used to be a bank teller"): the slot's history, never its value.
    past: bool = False


# Said before a statement, these mark it as correcting something said earlier.
_CORRECTION = re.compile(
    r"^\s*(?:actually|no|nope|correction|update|sorry,? i meant|i meant|wait|oh wait)\b"
    r"|\bnot anymore\b|\banymore\b|\bno longer\b|\bnot \w+ any more\b|\bafter all\b"
    r"|\bturns out\b|\bended up\b|\binstead\b|\bscratch that\b|,\s*not\s+(?:\d+|[A-Z]\w+)\b"
    r"|\bnow\s*[.!]*\s*$|\bactually\b|\bagain\b|\bchanged my mind\b|\bchange of plans?\b"
    r"|\b(?:got|had) (?:that|it) wrong\b|\bmy mistake\b|,\s*not\s+an?\s+[\w -]+[.!]*\s*$",
    re.IGNORECASE,
)
# Discourse markers that may precede the "I ..." of a statement.
_PREFIX = re.compile(
    r"^(?:actually|no|nope|oh|well|so|and|but|also|honestly|yes|yeah|ok|okay|hi|hey|hello|"
    r"omg|ngl|tbh|lol|haha|wow|update|guess\s+wha+t+|you(?:'ll|\s+will)\s+never\s+guess|"
    r"anyway|btw|by the way|correction|sorry|i meant|wait|heads up|fyi|just so you know|"
    r"i should (?:tell you|mention|say)(?: that)?|i (?:want|wanted) you to know(?: that)?|"
    r"you should know(?: that)?|(?:just )?(?:letting|to let) you know(?: that)?|"
    r"since you asked|for the record|for context|between us|between you and me|"
    r"so you know|please|oh and|(?:it\s+)?turns out(?: that)?|"
    r"good news|bad news|sad news|big news|news|"
    r"next (?:week|month|year|summer|spring|autumn|fall|winter)|this (?:week|month|year|weekend)|"
    r"tomorrow|tonight|these days|nowadays|currently|right now|now|"
    # when it happened, before the "I" it happened to: "three years ago I retrained as ..."
    r"last (?:week|month|year|summer|spring|autumn|fall|winter|weekend)|yesterday|recently|"
    r"finally|(?:in|since|back in) (?:19|20)\d\d|(?:\d+|an?|one|two|three|four|five|six|seven|"
    r"eight|nine|ten|a few|a couple of|several) (?:days?|weeks?|months?|years?|decades?) ago)"
    r"\b[\s,:!.\-]*",
    re.IGNORECASE,
)
# Verbs that, after "and" or a comma, continue the user's own sentence without repeating "I":
# "I live in Lisbon and work as a nurse", "I left the startup, joined Shopify and relocated".
_SUBJECTLESS_VERBS = (
    r"(?:work|worked|live|lived|moved|relocated|joined|started|teach|taught|study|studied|speak|"
    r"bought|adopted|got|sold|quit|switched|turned|picked\s+up|leased)"
)
# A diary-style sentence drops its "I": "Moved to Porto last month.", "Sold the Civic and
# bought a Tesla!". Only past-tense news verbs: a present "Live in the moment" is advice.
_DIARY_START = re.compile(
    r"^(?:just\s+|recently\s+|finally\s+)?(?:moved|relocated|joined|started|bought|adopted|"
    r"sold|quit|switched|turned)\b",
    re.IGNORECASE,
)
# States that, after "and", continue "I'm ...": "I'm vegan and allergic to kiwi".
_SUBJECTLESS_STATES = (
    r"(?:(?:also\s+|severely\s+|very\s+)?(?:allergic|intolerant|lactose intolerant|vegan|"
    r"vegetarian|pescatarian|diabetic|pregnant|coeliac|celiac|asthmatic|epileptic))"
)
_SUBJECTLESS_STATE = re.compile(rf"^{_SUBJECTLESS_STATES}\b", re.IGNORECASE)
_SUBJECTLESS = re.compile(
    rf"^(?:also\s+|now\s+|then\s+|just\s+|recently\s+|finally\s+)?{_SUBJECTLESS_VERBS}\b",
    re.IGNORECASE,
)
# Clauses end at sentence punctuation, commas, colons and dashes, and before "and/but I ...".
_CLAUSE_BREAK = re.compile(
    r"[.!;:?]+(?=\s|$)|,|\s[—–-]\s"
    r"|\s(?:and|but|so|because|though)\s+(?=(?:(?:now|then|also|since then)\s+)?(?:i|my)\b)"
    rf"|\s(?:and|but|then)\s+(?=(?:(?:now|then|also|just)\s+)?{_SUBJECTLESS_VERBS}\b)"
    rf"|\s(?:and|but)\s+(?={_SUBJECTLESS_STATES}\b)",
    re.IGNORECASE,
)
_USER_OPENS = re.compile(r"^\s*(?:i|i'm|i’m|i've|i’ve|i'd)\b", re.IGNORECASE)
# Wh-words open a question even without "?"; auxiliaries only in a sentence that ends in "?"
# ("don't let me forget to..." is a request).
_WH_START = re.compile(r"^(?:what|what's|whats|where|when|who|whom|why|how|which)\b", re.I)
_AUX_START = re.compile(
    r"^(?:do|does|did|can|could|would|will|should|shall|is|are|am|was|were|have|has|may|might|"
    r"isn't|doesn't|aren't)\b",
    re.IGNORECASE,
)
_REMEMBER = re.compile(
    r"(?:/remember\s+|(?:please\s+)?(?:remember|note|keep in mind)\s+(?:that\s+)?)"
    r"(?!when\b|how\b|what\b|the time\b|me\b|us\b)(.+)",
    re.IGNORECASE | re.DOTALL,
)
_FORGET_REQUEST = re.compile(
    r"^\W*(?:(?:hey|hi|ok|okay|so|and|also|oh|actually|um|please)[\s,!]+)*"
    r"(?:(?:can|could|would|will)\s+you\s+)?(?:please\s+)?(?:forget|delete|erase)\b",
    re.IGNORECASE,
)
# Quoted words are someone's words, not the user's statement ("how do I say 'I love you'").
_QUOTED = re.compile(r"\"[^\"]*\"|“[^”]*”|‘[^’]*’|(?<!\w)'[^']*'(?!\w)")


_MUM: Final = re.compile(r"\b([Mm])um(?=s?\b)")
_MOM: Final = re.compile(r"\b([Mm])om(?=s?\b)")


def _said_as_mum(fact: ExtractedFact) -> ExtractedFact:
    return dataclasses.replace(
        fact, text=_MOM.sub(r"\1um", fact.text), value=_MOM.sub(r"\1um", fact.value)
    )


def extract(message: str) -> list[ExtractedFact]:
    """Statements the user makes about themselves and their people in ``message``."""
    normalised = normalise(message)
    text = _mask_quotes(normalised.text)
    if _FORGET_REQUEST.match(text):
        return []  # "forget that I work at a bakery" takes a fact back; it does not tell one
    correction = bool(_CORRECTION.search(text))
    found: list[ExtractedFact] = []
    for start, clause, implied_i in _clauses(text):
        found.extend(_extract_clause(clause, start, correction, implied_i))
    found.extend(_across_commas(text, correction))
    if not any(f.subject_key == "home_city" for f in found):
        # "I moved!! ... so I'm in Lyon now": where the user lives, told with the move
        found.extend(_fact(m, span, True) for m, span in home_after_a_move(text))
    # the parser reads "my mum lives in Cork" as a noun phrase ("mum" an adjective of "lives"),
    # and "my mom lives in Cork" right: it parses "mom" (same length, so spans hold)
    read_as = _MUM.sub(r"\1om", text)
    doc = extraction_parse.parse_message(read_as)
    names = appositions.misread(read_as, doc) if doc is not None else []
    if names:  # "My sister Ines lives in Madrid": parsed again without the name
        doc = extraction_parse.parse_message(appositions.blanked(read_as, names))
    parsed = [
        dataclasses.replace(item, text=appositions.named_back(item.text, names))
        for item in (extraction_parse.read(doc) if doc is not None else [])
    ]
    by_patterns = list(found)
    for item in parsed:
        if not any(extraction_parse.covered(f.subject_key, f.span, item) for f in by_patterns):
            found.append(_from_parse(item, correction))
    # The misread names themselves (the parse of the text without them cannot say them).
    found.extend(_fact(m, span, correction) for m, span in appositions.names_said(names))
    # "Pirukas (my cat, he's a grumpy ginger)": the name of whom the brackets say
    known = {f.subject_key for f in found}
    found.extend(
        _fact(m, span, correction)
        for m, span in appositions.names_said(appositions.bracketed(text))
        if m.key not in known
    )
    if doc is not None:
        found.extend(
            _fact(match, span, correction)
            for match, span in extraction_fallback.statements(doc, found)
        )
        found.extend(extraction_followups.read(text, doc, found))
    # Names said in passing, also inside requests: "help me text my landlord, Mr Okafor".
    named = {f.subject_key for f in found}
    said = [
        *extraction_mentions.mentions(text),
        *extraction_mentions.appointments(text),
        *extraction_mentions.named_by_pronoun(text),
    ]
    for match, span in said:
        if match.key not in named:
            named.add(match.key)
            found.append(_fact(match, span, correction))
    found.extend(
        _fact(match, span, correction)
        for match, span in now_at_work(text)
        if not any(f.subject_key == match.key and f.value == match.value for f in found)
    )
    # "a rescue dog instead of a kitten": the kitten is what the user is not getting.
    passed_over = {
        form
        for m in _INSTEAD_OF.finditer(text)
        for form in (m[1].casefold(), m[1].split()[0].casefold())
    }
    found = [f for f in found if f.value.casefold() not in passed_over]
    found = [_with_city(f, text) if f.subject_key == "home_city" else f for f in found]
    # "moved to Forge Fitness across town": a gym, a school, a firm is no home
    found = [
        f
        for f in found
        if not (f.subject_key == "home_city" or f.subject_key.endswith(":home_city"))
        or _NO_HOME.search(f.value) is None
    ]
    found = [_carer_changed(f, text) if f.subject_key == "name_of:doctor" else f for f in found]
    found = [_a_team(f, text) if f.subject_key == "employer" else f for f in found]
    # "I've got a tutor on italki called Beatriz, twice a week": the tutor's name is the name
    # slot's, which a successor replaces; a routine that names her too would outlive that
    named = {f.value for f in found if f.subject_key.startswith("name_of:")}
    found = [
        f
        for f in found
        if not f.subject_key.startswith("routine:") or not any(n in f.text for n in named)
    ]
    # "officially a Sheffield resident now! new place is in Kelham Island": one home, the
    # district with its city
    cities = {
        f.value.rsplit(", ", 1)[-1]
        for f in found
        if f.subject_key == "home_city" and ", " in f.value
    }
    found = [
        f for f in found if f.subject_key != "home_city" or ", " in f.value or f.value not in cities
    ]
    if read_as != text:  # what was learned says "mum", as the user did
        found = [_said_as_mum(f) for f in found]
    return _dedupe(_to_original(_tidied(fact), normalised) for fact in found)


def _carer_changed(fact: ExtractedFact, text: str) -> ExtractedFact:
    """ "gave up on Wisniewska's practice, switched to a Dr. Haddad": the new doctor takes the
    place of the dentist the user left, named before."""
    at = text.find(fact.value)
    role = fact.is_correction and at > 0 and carer_named(text[:at])
    if not role:
        # "switched to Dr Lindqvist, Okafor retired": whose place, by the name the memory knows
        known = KNOWN_PEOPLE.get()
        said = (known.get(w.casefold(), "") for w in re.findall(r"\b[A-ZÀ-Ý][\w'’-]+", text))
        role = fact.is_correction and next((r for r in said if r in CARERS), None)
    if not role or role == "doctor":
        return fact
    return replace(fact, subject_key=f"name_of:{role}", text=fact.text.replace("doctor", role, 1))


def _a_team(fact: ExtractedFact, text: str) -> ExtractedFact:
    """ "joined Vallila Vipers, they play Wednesdays": a team the user plays for, not an
    employer (told by how the sentence goes on about it)."""
    at = text.find(fact.value)
    after = text[at + len(fact.value) : at + len(fact.value) + 60] if at >= 0 else ""
    if at < 0 or not re.search(r"\bjoin(?:ed|ing)?\b", text[:at], re.IGNORECASE):
        return fact
    if not _TEAM_SAID.search(after) and not _TEAM_NAMED.search(fact.value):
        return fact
    return replace(
        fact, subject_key="name_of:team", text=f"User plays for {fact.value}", is_correction=True
    )


# how a sentence goes on about a team ("they play Wednesdays", "training is on tuesdays")
_TEAM_SAID: Final = re.compile(
    r"^[^.!?]{0,30}?\b(?:(?:they|we)\s+(?:play|train|practi[cs]e)|league|squad|"
    r"matches|fixtures|training\s+is)\b",
    re.IGNORECASE,
)
_TEAM_NAMED: Final = re.compile(r"\b(?:FC|AFC|RFC|United|Rovers|Wanderers|Athletic|Harriers)$")


def _with_city(fact: ExtractedFact, text: str) -> ExtractedFact:
    """ "in Walkley, Sheffield": the district with its city, which a question may name."""
    value = with_its_city(fact.value, text)
    if value == fact.value or fact.value not in fact.text:
        return fact
    return replace(fact, value=value, text=fact.text.replace(fact.value, value, 1))


# The last word of a business, a school or a club, which no one lives in.
_NO_HOME = re.compile(
    r"\b(?:fitness|gym|studio|studios|academy|school|college|bank|cafe|café|clinic|surgery|"
    r"practice|club|ltd|limited|inc|plc|group|solutions|partners|hospital|pharmacy|boxing|"
    r"yoga|pilates|crossfit)$",
    re.IGNORECASE,
)
_INSTEAD_OF = re.compile(
    r"\binstead\s+of\s+(?:(?:a|an|the|my|our)\s+)?([\w'’-]+(?:\s+[\w'’-]+)?)\b", re.I
)


def _from_parse(item: extraction_parse.Found, correction: bool) -> ExtractedFact:
    return ExtractedFact(
        text=item.text,
        type=item.type,
        subject_key=item.key,
        value=item.value,
        confidence=item.confidence,
        span=item.span,
        is_correction=correction or item.correction,
        negated=item.negated,
        person=item.person,
        when=item.when,
    )


# How a correction is said is not what is remembered: "Oops, User's daughter is actually 7, not
# 6" is "User's daughter is 7" (the "not 6" would read as a negated fact).
_SAID_OPENING = re.compile(
    r"^(?:(?:oops|whoops|sorry|my bad|wait|oh|no|nope|ok|okay|actually|correction|update|so|"
    r"well|right|for context|for the record|between (?:us|User)|between you and me|fyi|btw|by the way|just so(?: you know)?|anyway|also)"
    r"\b[\s,:;!.-]*)+"
    r"(?=User\b)",
    re.IGNORECASE,
)
_SAID_NOT = re.compile(r",?\s+not\s+[\w'’ -]{1,25}?\s*$|\bactually\s+", re.IGNORECASE)


def _tidied(fact: ExtractedFact) -> ExtractedFact:
    text = _SAID_OPENING.sub("", fact.text)
    if fact.is_correction and not fact.negated:
        text = _SAID_NOT.sub("", text).strip()
    key = _plan_key(fact.subject_key)
    if text == fact.text and key == fact.subject_key or not text:
        return fact
    return replace(fact, text=text, subject_key=key)


# Words of a plan's key that say when or who, not what: "getting a puppy in May" and "...in
# July instead" are one plan, so the second supersedes the first.
_NOT_THE_PLAN = frozenset(
    "we're we i'm im i in on at next this instead now going to will be the a an".split()
)


def _plan_key(key: str) -> str:
    if not key.startswith("plan:"):
        return key
    words = [
        w
        for w in key[5:].split()
        if w not in _NOT_THE_PLAN and w not in MONTHS and w not in WEEKDAYS and not w[:1].isdigit()
    ]
    return f"plan:{' '.join(words)}" if words else key


def _to_original(fact: ExtractedFact, normalised: Normalised) -> ExtractedFact:
    return replace(fact, span=normalised.original_span(*fact.span))


def _dedupe(facts: Iterable[ExtractedFact]) -> list[ExtractedFact]:
    seen: set[tuple[str, str]] = set()
    kept = []
    for fact in facts:
        if (fact.subject_key, fact.value.casefold()) not in seen:
            seen.add((fact.subject_key, fact.value.casefold()))
            kept.append(fact)
    return kept


def extract_from_turn(role: str, text: str) -> list[ExtractedFact]:
    """Extraction for one chat turn: only the user's words ever become memories."""
    return extract(text) if role == "user" else []


def _mask_quotes(message: str) -> str:
    return _QUOTED.sub(lambda m: " " * len(m.group(0)), message)


def _clauses(message: str) -> Iterator[tuple[int, str, bool]]:
    """(offset, clause, whether "I" is implied) triples; the clauses of a question sentence are
    skipped. "I" is implied in a clause after one the user opened ("... and work as a nurse")."""
    for s_start, sentence in _split(message, re.compile(r"(?<=[.!?])\s+|\n+")):
        is_question = sentence.rstrip().endswith("?")
        parts = _with_lists(sentence, list(_split(sentence, _CLAUSE_BREAK)))
        user_spoke = False
        for index, (c_start, clause) in enumerate(parts):
            stripped = clause.strip()
            implied_i = user_spoke or (index == 0 and bool(_DIARY_START.match(stripped)))
            user_spoke = implied_i or bool(_USER_OPENS.match(_strip_prefixes(stripped)))
            if not stripped or _WH_START.match(stripped):
                continue
            if is_question and _AUX_START.match(stripped):
                continue
            # In "I live in Ghent, do you know any bakeries there?" only the last clause asks.
            if is_question and index == len(parts) - 1:
                continue
            yield s_start + c_start, clause, implied_i


# The rest of a sentence that only continues a list: "..., French and Spanish."
_ITEM = r"[\w'’-]+(?:\s+[\w'’-]+){0,3}"
_LIST_TAIL = re.compile(rf"^\s*(?:{_ITEM}\s*,\s*)*{_ITEM},?\s+(?:and|or)\s+{_ITEM}\s*[.!]*\s*$")
_NOT_AN_ITEM = re.compile(
    rf"^\s*(?:i|i'm|i’m|my|we|we're|our|you|he|she|it|they|this|that|there|{_SUBJECTLESS_VERBS}|"
    r"am|was|have|has|had|got|\w+ed|please|also|but|so|then)\b",
    re.IGNORECASE,
)


def _with_lists(sentence: str, parts: list[tuple[int, str]]) -> list[tuple[int, str]]:
    """Clauses, with a list the commas cut rejoined: "I speak English, French and Spanish" is
    one clause, not "I speak English" and a stray "French and Spanish"."""
    kept: list[tuple[int, str]] = []
    for start, part in parts:
        if kept and sentence[start - 1 : start] == "," and _list_continues(sentence[start:]):
            return [*kept[:-1], (kept[-1][0], sentence[kept[-1][0] :])]
        kept.append((start, part))
    return [(start, part) for start, part in kept if part.strip()]


def _list_continues(rest: str) -> bool:
    if not _LIST_TAIL.match(rest) or _NOT_AN_ITEM.match(rest):
        return False
    items = re.split(r"\s*,\s*(?:(?:and|or)\s+)?|\s+(?:and|or)\s+", rest.strip(" .!"), flags=re.I)
    return not any(_NOT_AN_ITEM.match(item) for item in items if item)


def _strip_prefixes(body: str) -> str:
    while (prefix := _PREFIX.match(body)) and prefix.group(0):
        body = body[prefix.end() :]
    return body


def _asks(sentence: str) -> bool:
    """Whether a sentence ending in "?" asks: it opens as a question, or its last clause does
    ("I live in Ghent, do you know any bakeries?"); "left Virgin and went with Community
    Fibre, it's £25/month and actually faster??" tells."""
    if not sentence.endswith("?"):
        return False
    last = re.split(r"[,;:]\s*", sentence)[-1].strip()
    return any(
        _WH_START.match(part) or _ASKING.match(part)
        for part in (_strip_prefixes(sentence).lstrip(" ,"), last)
    )


# An auxiliary, then whom it asks about: "do you know ...", "is it ..." ("did the thing, left
# Virgin ..." tells)
_ASKING: Final = re.compile(
    rf"{_AUX_START.pattern}\s+(?:you|u|i|we|they|he|she|it|there|this|that|your|my)\b",
    re.IGNORECASE,
)


def _across_commas(text: str, correction: bool) -> Iterator[ExtractedFact]:
    """What a statement sentence says across its commas (``extraction_sentences``)."""
    for start, sentence in _split(text, re.compile(r"(?<=[.!?])\s+|\n+")):
        body = sentence.strip()
        if not body or _asks(body):
            continue
        lead = len(sentence) - len(sentence.lstrip())
        span = (start + lead, start + lead + len(body.rstrip(" .!,")))
        for rule in SENTENCES:
            for match in rule(body):
                yield _fact(match, span, correction)


def _split(text: str, pattern: re.Pattern[str]) -> Iterator[tuple[int, str]]:
    start = 0
    for match in pattern.finditer(text):
        yield start, text[start : match.start()]
        start = match.end()
    yield start, text[start:]


def _extract_clause(
    clause: str, offset: int, correction: bool, implied_i: bool = False
) -> Iterator[ExtractedFact]:
    lead = len(clause) - len(clause.lstrip())
    body = clause.strip()
    while True:
        prefix = _PREFIX.match(body)
        if not prefix or not prefix.group(0):
            break
        lead += prefix.end()
        body = body[prefix.end() :]
    # Conditionals and wishes are not facts: "if I lived in Paris...", "I'd love to...".
    if re.match(r"(?:if|unless|when|maybe|perhaps)\b", body, re.IGNORECASE):
        return
    span = (offset + lead, offset + lead + len(body.rstrip(" .!,")))
    remember = _REMEMBER.match(body)
    if remember:
        # "remember that I'm allergic to cats" is the allergy itself; anything else is a note.
        inner = [m for rule in RULES for m in rule(remember.group(1))]
        for match in inner or [note(remember.group(1))]:
            yield _fact(match, span, correction)
        return
    if implied_i and _SUBJECTLESS.match(body):
        # The rules read "I joined Shopify"; the span stays the user's words.
        body = f"I {body[:1].lower()}{body[1:]}"
    elif implied_i and _SUBJECTLESS_STATE.match(body):
        body = f"I'm {body}"
    if (past := told_past(body)) is not None:
        # Told as the past: what the present would say, as the slot's history, and what is
        # true since, if it says ("User used to ..." from the fallback when no rule reads it)
        then, moved = past
        for rule in RULES:
            for match in rule(then):
                if not match.negated and not match.key.startswith("said:"):
                    yield dataclasses.replace(_fact(match, span, False), past=True)
        yield from (_fact(m, span, True) for rule in RULES for m in rule(moved or ""))
        return
    for rule in RULES:
        for match in rule(body):
            yield _fact(match, span, correction)


def _fact_type(name: str) -> FactType:
    for known in FACT_TYPES:
        if known == name:
            return known
    raise ValueError(f"a rule made a fact of unknown type {name!r}")


def _fact(match: Match, span: tuple[int, int], correction: bool) -> ExtractedFact:
    person = match.key.split(":")[1] if match.key.startswith(("name_of:", "person:")) else ""
    return ExtractedFact(
        person=person,
        text=match.text,
        type=_fact_type(match.type),
        subject_key=match.key,
        value=match.value,
        confidence=match.confidence,
        span=span,
        is_correction=correction or match.correction,
        negated=match.negated,
        inferred=match.inferred,
    )


__all__ = [
    "FACT_TYPES",
    "ExtractedFact",
    "FactType",
    "extract",
    "extract_from_turn",
    "normalise_object",
]
