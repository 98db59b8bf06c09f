"""Extraction rules for work: the user's job, employer, a new job, a living, not working.

Same contract as ``extraction_rules``: each rule reads one clause anchored at its subject.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Final

from desktop_agent.core.extraction_phrases import (
    _OBJECT_END,
    I_AM,
    Match,
    _a,
    _compile,
    _object,
    proper_noun,
    third_singular,
)
from desktop_agent.core.timeparse import MONTHS, WEEKDAYS
from desktop_agent.search.tokenize import STOPWORDS

_JOBS = frozenset(
    """accountant actor actress analyst architect artist assistant attorney baker barista
    bartender biologist builder butcher carpenter cashier chef chemist cleaner clerk coach
    consultant cook counselor counsellor designer developer dentist doctor driver economist editor
    electrician engineer farmer firefighter freelancer gardener hairdresser illustrator intern
    journalist judge lawyer lecturer librarian manager mechanic midwife musician nurse officer
    painter paramedic pharmacist photographer physician physicist physiotherapist pilot plumber
    policeman policewoman professor programmer psychologist receptionist researcher salesman
    scientist secretary singer soldier student surgeon tailor teacher technician therapist
    translator tutor veterinarian vet waiter waitress writer director founder ceo cto
    administrator mathematician statistician dancer sailor nanny caregiver carer paralegal
    solicitor barrister courier postman postwoman paramedic porter janitor caretaker
    firefighter detective pharmacist optician dietitian nutritionist midwife radiographer
    sonographer hygienist surveyor auditor bookkeeper cashier ranger guide
    animator copywriter guard gp locksmith roofer welder plasterer electrician joiner teller
    banker broker actuary recruiter worker attendant agent labourer laborer miner fisherman
    lifeguard housekeeper chauffeur steward stewardess trader realtor dispatcher inspector
    conductor machinist seamstress tailor decorator tiler florist jeweller jeweler bricklayer
    instructor planner typist operator signaller shepherd vicar priest rabbi imam
    dev sre pm lead""".split()
)


def _job_phrase(text: str, *, named_as: bool = False) -> str | None:
    """The job at the start of ``text``. After "as" ("work as a fundraiser") any noun of a
    person's role will do; elsewhere ("I'm a ...") only a known job."""
    phrase = _OBJECT_END.sub("", text.strip())
    phrase = re.sub(r"^(?:an?|the)\s+", "", phrase, flags=re.IGNORECASE)
    words = phrase.split()
    if not words or len(words) > 4:
        return None
    head = words[-1].casefold()
    if head in _JOBS or head.endswith(("ologist", "ician")):
        return phrase
    role = head.endswith(("er", "or", "ist", "ant", "ent", "ian", "eer")) and len(head) > 4
    vague = {"whatever", "other", "another", "either", "neither", "never", "together", "forever"}
    if named_as and role and head not in STOPWORDS | vague:
        return phrase
    return None


_JOB = _compile(
    rf"(?:been(?=\s+an?\s)|"  # "been a backend dev at Klarna for 4 years now"
    r"being(?=\s+an?\s)|"  # "being a pharmacist in Leicester is no joke"
    r"(?P<will>i(?:'ll|’ll|\s+will)\s+(?:now\s+)?be)(?=\s+an?\s)|"  # "I'll be a coordinator at X"
    rf"i\s+(?:now\s+|currently\s+)?(?:work|freelance)\s+as|my\s+job\s+is|"
    r"i(?:'ve|\s+have)?\s+(?:just\s+|recently\s+|finally\s+)?(?:became|become|retrained\s+as|"
    r"(?<=ve\s)been|(?<=have\s)been|"  # "I've been a hairdresser for twelve years"
    r"(?P<new>(?:got|started|landed|accepted|took|found)\s+(?:a\s+)?new\s+(?:job|role|position)\s+as)|"
    rf"qualified\s+as|requalified\s+as|(?P<promoted>(?:got\s+|been\s+|was\s+)?promoted\s+to))(?=\s)|{I_AM}\s+(?:(?:now|officially|currently)\s+)?(?:(?:working|freelancing|training)\s+as\s+)?"
    rf"(?=an?\s)|{I_AM}\s+now\s+(?=\w)|"
    # "I'm finance manager at Ocado": a job with no article, said with where
    rf"{I_AM}\s+(?=(?-i:[a-z][\w-]*(?:\s+[a-z][\w-]*){{0,2}}\s+at\s+[A-ZÀ-Ý]))|(?P<ended>i\s+no\s+longer\s+work\s+as|i\s+(?:quit|left)\s+my\s+job\s+as|"
    rf"{I_AM}\s+(?:not|no\s+longer)\s+(?=an?\s)))\s*"
)


def job(clause: str) -> Iterator[Match]:
    lead = _JOB.match(clause)
    if lead:
        rest = clause[lead.end() :]
        promoted = bool(lead.group("promoted"))  # "I got promoted to senior developer"
        will = bool(lead.group("will"))
        named_as = promoted or will or bool(re.search(r"(?i)\bas\s*$", lead.group(0)))
        phrase = _job_phrase(_workplace_cut(rest) if will else rest, named_as=named_as)
        if phrase is None and re.match(r"(?i:my\s+job\s+is)", clause):
            phrase = _object(rest)  # "my job is teaching maths" needs no job noun
        if phrase is None:
            return
        if lead.group("ended"):
            if lead.group("ended").casefold().startswith(("i'm", "i am", "im", "i’m")) and not (
                re.search(r"\b(?:anymore|any more)\b", clause, re.IGNORECASE)
                or "no longer" in lead.group("ended").casefold()
            ):
                return
            yield Match(
                "fact", "job", phrase, f"User no longer works as {_a(phrase)}", 0.85, True, True
            )
            return
        now = promoted or will or bool(lead.group("new") or re.search(r"\bnow\b", clause, re.I))
        place, city = _workplace(rest[rest.find(phrase) + len(phrase) :])
        if will and not (place and re.match(r"[A-ZÀ-Ý](?!\S*['’]s\b)", place[1])):
            return  # "I'll be a bridesmaid at Amy's wedding": a job only at a named employer
        # One statement, one memory: forgetting "my job as a vet nurse" takes the hospital too.
        at = f" {place[0]} {place[1]}" if place else ""
        yield Match("fact", "job", phrase, f"User works as {_a(phrase)}{at}", 0.85, correction=now)
        if city:
            yield Match("fact", "home_city", city, f"User is based in {city}", 0.7, inferred=True)


def _workplace_cut(text: str) -> str:
    """The words before where a job is done: "a coordinator | at Medivance, starting ..."."""
    return re.split(r"\s+(?:at|for|with)\s+|\s*[,.;!]", text, maxsplit=1)[0]


# "... at a fintech startup in Accra": where the job is done, and the city the user is based in.
_WORKPLACE = re.compile(
    # "a nurse in the ICU at Riverside General": the unit, then the place
    r"^(?P<unit>\s+(?:in|on)\s+(?:the\s+)?[\w'’-]+(?:\s+[\w'’-]+)?(?=\s+at\s))?"
    r"\s+(?P<prep>at|for|with)\s+(?P<place>(?:(?:a|an|the)\s+)?[\w'’&-]+(?:\s+[\w'’&-]+){0,3}?)"
    r"(?=\s+in\s|\s+(?:for|since)\s+(?:\d|a\b|an\b|the\b|over\b|about\b|almost\b|nearly\b|"
    r"years\b|ages\b)|\s*[,.;!]|\s*$)(?:\s+in\s+(?P<city>[A-ZÀ-Ý][\w'’.-]*(?:\s+[A-ZÀ-Ý][\w'’.-]*)?))?"
    # "... at a fintech startup in Pune called Paytrail": its name after the city
    r"(?:\s+(?:called|named)\s+(?P<called>[A-ZÀ-Ý][\w'’&.-]*(?:\s+[A-ZÀ-Ý][\w'’&.-]*){0,3}))?"
)


def _workplace(after: str) -> tuple[tuple[str, str] | None, str]:
    """(("at", "a fintech startup") or None, "Accra" or "") from the words after a job."""
    found = _WORKPLACE.match(after)
    if not found:
        return None, ""
    place = found.group("place")
    if place.split()[-1].casefold() in STOPWORDS | {
        "home",
        "moment",
        "least",
        "night",
        "weekend",
        "weekends",
    }:
        return None, ""
    prep = f"{found.group('unit').strip()} {found.group('prep')}" if found.group("unit") else None
    if found.group("called"):
        place = f"{place} called {found.group('called')}"
    return (prep or found.group("prep"), place), found.group("city") or ""


_FOR_A_LIVING = _compile(r"i\s+(?P<what>(?!do\b)\w+(?:\s+[\w'’-]+){0,4}?)\s+for\s+a\s+living\b")


def for_a_living(clause: str) -> Iterator[Match]:
    """ "I bake bread for a living": the job, in the user's words."""
    found = _FOR_A_LIVING.match(clause.strip())
    if found:
        verb, _, rest = found.group("what").partition(" ")
        what = f"{third_singular(verb)} {rest}".strip()
        yield Match("fact", "job", found.group("what"), f"User {what} for a living", 0.8)


_NOT_WORKING = _compile(
    rf"(?:i(?:'ve|\s+have)?\s+(?:just\s+|recently\s+|finally\s+|now\s+)?(?P<retired>retired)|"
    rf"{I_AM}\s+(?:now\s+|currently\s+)?(?P<state>retired|unemployed|between\s+jobs|out\s+of\s+work))\b"
)


def not_working(clause: str) -> Iterator[Match]:
    """ "I retired last year", "I'm between jobs": the job slot's new value."""
    found = _NOT_WORKING.match(clause.strip())
    if found:
        state = " ".join((found.group("retired") or found.group("state")).casefold().split())
        yield Match("fact", "job", state, f"User is {state}", 0.85, correction=True)


# "going freelance as a bookkeeper", "I went freelance in March": the user's own work now, in
# place of the employer and the job before it
_FREELANCE = re.compile(
    r"(?i:\b(?:(?:i['’]m|i\s+am|i['’]ve|i\s+have|i)\s+)?(?:now\s+|finally\s+|officially\s+)?"
    r"(?:going|gone|went|go)\s+(?:fully\s+)?(?:freelance|self-employed|solo|independent)\b)"
    r"(?:\s+as\s+(?P<job>[^,.;!?]+))?"
)


# Whom a sentence is said of, just before its verb, when it is not the user.
_SOMEONE_ELSE = re.compile(
    r"(?:\b(?:he|she|they)(?:['’](?:s|re|ve)|\s+(?:is|are|has|have))?|"
    r"(?:\bmy\s+[\w-]+|(?<![\w'’-])(?-i:[A-ZÀ-Ý])[\w-]+)(?:['’]s|\s+is|\s+has))"
    r"\s+(?:now\s+|finally\s+|officially\s+)?$",
    re.IGNORECASE,
)


def freelance(clause: str) -> Iterator[Match]:
    found = _FREELANCE.search(clause)
    if found is None or re.search(r"(?i)\b(?:thinking|might|maybe|considering|plan)\w*\b", clause):
        return  # "thinking about going freelance" is no change yet
    if _SOMEONE_ELSE.search(clause[: found.start()]):
        return  # "she's going freelance now": her work, not the user's
    yield Match("fact", "employer", "freelance", "User works freelance", 0.85, correction=True)
    phrase = found.group("job") and _job_phrase(found.group("job"), named_as=True)
    if phrase:
        text = f"User works freelance as {_a(phrase)}"
        yield Match("fact", "job", f"freelance {phrase}", text, 0.85, correction=True)
    else:  # "going freelance as a fractional FD": the job before it ends all the same
        yield Match("fact", "job", "freelancer", "User works as a freelancer", 0.8, correction=True)


_JOINED = _compile(
    r"(?:i(?:'ve| have)?\s+)?(?:just\s+|recently\s+|finally\s+)?(?:joined|started\s+(?:working\s+)?at|"
    r"(?:got|landed)\s+(?:a|the)\s+(?:new\s+)?job\s+(?:at|with))\s+"
)


# A gym by its name: "PulseFit", "Anytime Fitness", "The Gym Group"
GYM = re.compile(r"(?:gym|fitness|(?<=[a-z])fit)\b", re.IGNORECASE)
_MEMBERSHIP = re.compile(
    rf"{GYM.pattern}|\b(?:leisure|club|climbing|bouldering|boxing|yoga|pilates|crossfit)\b",
    re.IGNORECASE,
)
# "joined a bouldering place called The Depot": what kind of place, then its name
_KIND_CALLED = re.compile(
    r"^(?:a|an|this|the)\s+(?P<kind>(?:[\w-]+\s+){0,3}?)(?:called|named)\s+", re.IGNORECASE
)


def joined(clause: str) -> Iterator[Match]:
    """ "I joined Shopify as a product manager": a new employer, and with "as" a new job."""
    lead = _JOINED.match(clause)
    if not lead:
        return
    rest = clause[lead.end() :]
    kind = _KIND_CALLED.match(rest)
    place = proper_noun(rest[kind.end() :] if kind else rest, clause)
    if not place:
        return
    if member := _MEMBERSHIP.search(kind.group("kind") if kind else place) or (
        _MEMBERSHIP.search(place)
    ):
        # "I joined The Gym Group": a gym or club the user belongs to, not a workplace
        thing = "club" if member.group(0).casefold() == "club" else "gym"
        text = f"User's {thing} is {place}"
        yield Match("fact", f"name_of:{thing}", place, text, 0.85, correction=True)
        return
    yield Match("fact", "employer", place, f"User works at {place}", 0.85, correction=True)
    role = re.match(r"\s+as\s+(.+)$", rest[len(place) :])
    phrase = _job_phrase(role.group(1), named_as=True) if role else None
    if phrase:
        yield Match("fact", "job", phrase, f"User works as {_a(phrase)}", 0.85, correction=True)


# "just started as a barista at this cafe called Grindhouse", "starting monday as a product
# manager", "landed a junior designer gig at an agency called Paper Kite", "accepted the offer
# from Wolt": a new job and where it is, told as news.
# "started as a barista", "got hired as a data analyst", "took a job as a courier"
_STARTED_AS = _compile(
    r"(?:i(?:'ve|\s+have|'m|\s+am)?\s+)?(?:(?:just|finally|recently|officially|actually)\s+)?"
    r"(?:started|starting|start|(?:got|was|been|get|getting)\s+(?:hired|taken\s+on)|"
    r"(?:got|took|landed|found)\s+a\s+(?:new\s+|full[\s-]time\s+)?job|"
    # "just finished my first week as an ops coordinator at the Port of Tilbury"
    r"(?:finished|did|done|survived|completed)\s+my\s+first\s+(?:day|week|month|shift))"
    r"(?:\s+(?:work|working|today|tomorrow|monday|tuesday|wednesday|"
    r"thursday|friday|saturday|sunday|next\s+\w+|on\s+\w+|in\s+\w+))?\s+as\s+"
)
# "starting at Northvolt next monday as a platform engineer": the place first, then the job.
_STARTING_AT = _compile(
    r"(?:i(?:'ve|\s+have|'m|\s+am|'ll|\s+will)?\s+(?:be\s+)?)?"
    r"(?:(?:just|finally|officially|actually)\s+)?"
    r"(?:(?:started|starting|start)\s+(?:(?:work|working|a\s+new\s+job)\s+)?|"
    # "just finished my first week at Norrsken Energy!!"
    r"(?:finished|did|done|survived|completed|started)\s+my\s+first\s+(?:day|week|month|shift)\s+)"
    r"at\s+(?=[A-ZÀ-Ý])"
)
_WHEN_AS = re.compile(
    r"^(?:\s+(?:next|this|on|in|from)\s+\w+|\s+(?:now|today|tomorrow|monday|tuesday|wednesday|thursday|"
    r"friday|saturday|sunday))*\s+as\s+(?P<job>.+)$",
    re.IGNORECASE,
)
_LANDED = _compile(
    r"(?:i(?:'ve|\s+have)?\s+)?(?:just\s+|finally\s+|recently\s+)?(?:landed|got|scored|"
    r"accepted|took)\s+(?:a|an|the)\s+(?:new\s+)?(?P<job>[\w -]{2,40}?)\s+"
    r"(?:gig|job|role|position|post)\s+(?=at\b|with\b)"
)
_OFFER = _compile(
    r"(?:i(?:'ve|\s+have)?\s+)?(?:just\s+|finally\s+)?accepted\s+(?:the|an|their|a)\s+"
    r"(?:job\s+)?offer\s+(?:from|at|with)\s+"
    # "an offer from a fintech startup called Cobalto"
    r"(?:(?:a|an|this|the)\s+(?:[\w-]+\s+){0,3}?(?:called|named)\s+)?"
)
# where: "at Grindhouse", "at this cafe called Grindhouse in Fitzroy", "with an agency called X"
_WHERE = re.compile(
    r"^\s*(?:at|with|for)\s+(?:(?:a|an|this|the|my|our)\s+(?:[\w-]+\s+){0,2}?"
    r"(?:called|named)\s+)?(?:the\s+(?=[A-ZÀ-Ý]))?"
)


def new_role(clause: str) -> Iterator[Match]:
    """A new job, with the place it is at when named (see ``_STARTED_AS``)."""
    offer = _OFFER.match(clause)
    if offer:
        place = proper_noun(clause[offer.end() :], clause)
        if place:
            yield Match("fact", "employer", place, f"User works at {place}", 0.85, correction=True)
        return
    starting_at = _STARTING_AT.match(clause)
    place = starting_at and proper_noun(clause[starting_at.end() :], clause)
    if place:  # "Google | on Monday"
        place = re.split(r"\s+(?:on|next|this|from|in)\s+", place)[0]
    if starting_at and place:
        yield Match("fact", "employer", place, f"User works at {place}", 0.85, correction=True)
        as_job = _WHEN_AS.match(clause[starting_at.end() + len(place) :])
        phrase = as_job and _job_phrase(as_job.group("job"), named_as=True)
        if phrase:
            text = f"User works as {_a(phrase)} at {place}"
            yield Match("fact", "job", phrase, text, 0.85, correction=True)
        return
    started, landed = _STARTED_AS.match(clause), _LANDED.match(clause)
    if started:
        rest = clause[started.end() :]
        cut = re.search(r"\s+(?:at|with|for)\s|\s*[,.!;]|$", rest)
        phrase = _job_phrase(rest[: cut.start()] if cut else rest, named_as=True)
        after = rest[cut.start() :] if cut else ""
    elif landed:
        phrase = _job_phrase(landed.group("job"), named_as=True)
        after = clause[landed.end() - 1 :]
    else:
        return
    if not phrase:
        return
    yield Match("fact", "job", phrase, f"User works as {_a(phrase)}", 0.85, correction=True)
    where = _WHERE.match(after)
    place = where and proper_noun(after[where.end() :], clause)
    if place and place.split()[0].casefold() not in STOPWORDS:
        yield Match("fact", "employer", place, f"User works at {place}", 0.85, correction=True)


# "I'm doing an online Python course on Coursera", "switched to a UX design course on Udemy":
# the course the user is taking (one slot, so a switch replaces it).
_COURSE = _compile(
    r"(?:(?:i(?:'m|\s+am)\s+(?:currently\s+|now\s+|also\s+)?(?:doing|taking|enrolled\s+(?:in|on)|on)|"
    r"i(?:'ve|\s+have)?\s+(?:just\s+|now\s+)?(?:started|enrolled\s+(?:in|on)|signed\s+up\s+for|"
    r"switched\s+to|begun)|(?:just\s+|now\s+)?(?:started|switched\s+to|enrolled\s+(?:in|on)))\s+)"
    r"(?:a|an|the|my)\s+(?P<what>(?:[\w+#'’-]+\s+){0,3}?)"
    r"(?P<kind>course|module|bootcamp|programme|program|diploma|certificate)\b"
    r"(?:\s+(?:on|at|with|through|via)\s+(?P<where>[A-ZÀ-Ý][\w'’&-]*(?:\s+[A-ZÀ-Ý][\w'’&-]*){0,2}))?"
)


def course(clause: str) -> Iterator[Match]:
    found = _COURSE.match(clause.strip())
    if not found or not found.group("what").strip():
        return
    what = f"{found.group('what').strip()} {found.group('kind')}"
    place = found.group("where") or ""
    if place.split()[:1] and place.split()[0].casefold() in (*MONTHS, *WEEKDAYS):
        place = ""  # "started a Python course on Monday": when, not where
    where = f" on {place}" if place else ""
    changed = bool(re.search(r"\b(?:switched|now|instead|new)\b", found.group(0), re.I))
    text = f"User is doing {_a(what)}{where}"
    yield Match("fact", "course", what, text, 0.8, correction=changed)


_EMPLOYER = _compile(
    r"(?:i\s+(?P<ended>no\s+longer\s+|don't\s+|do\s+not\s+)?(?:now\s+|currently\s+)?work|"
    # "I've been at Halvorsen Logistics for six years": where the user has been for years
    r"i(?:'ve|’ve|\s+have)\s+(?P<been>been)(?=\s+at\s+(?-i:[A-Z])[\w&'’ .-]{1,40}?\s+"
    r"(?:(?:for|since)\s+(?:about\s+|nearly\s+|almost\s+|over\s+)?(?:\w+\s+)?(?:years?|yrs?|"
    r"months?)\b|since\s+(?:19|20)\d\d\b))|"
    rf"{I_AM}\s+(?:now\s+|currently\s+)?(?:working|employed|(?=at\s+\S+(?:\s+\S+){{0,2}}?\s+(?:now\s+)?as\s)))"
    r"\s*(?:at|for)\s+"
)


def employer(clause: str) -> Iterator[Match]:
    lead = _EMPLOYER.match(clause)
    value = lead and proper_noun(clause[lead.end() :], clause)
    if not value or lead is None:
        return
    if lead.group("been") and re.search(
        r"(?i:\b(?:uni|university|college|school|academy)\b)", value
    ):
        return  # "I've been at Leeds Uni for two years": studying there
    if lead.group("ended"):
        if "no longer" in lead.group("ended") or re.search(r"\banymore\b", clause, re.I):
            yield Match(
                "fact", "employer", value, f"User no longer works at {value}", 0.85, True, True
            )
        return
    now = bool(re.search(r"\bnow\b", clause, re.IGNORECASE))
    yield Match("fact", "employer", value, f"User works at {value}", 0.85, correction=now)
    # "I'm working at Siemens as an engineer": the job too.
    role = re.match(r"\s+(?:now\s+)?as\s+(.+)$", clause[lead.end() + len(value) :])
    phrase = _job_phrase(role.group(1), named_as=True) if role else None
    if phrase:
        yield Match(
            "fact", "job", phrase, f"User works as {_a(phrase)} at {value}", 0.85, correction=now
        )


# "I do dispatch for Crestline Freight", "still doing reception at Greenway Dental", "moved
# over to doing admin for the planning team at Cornwall Council": the work done, for whom.
_DOING_WORK = _compile(
    r"(?:i\s+(?:still\s+|now\s+|currently\s+|mainly\s+|mostly\s+)?do|"
    rf"(?:{I_AM}\s+)?(?:still\s+|now\s+|currently\s+)?doing|"
    r"(?:i(?:'ve|\s+have)?\s+)?(?:moved|switched|gone|went)\s+(?:over\s+)?to\s+doing)\s+"
    r"(?P<work>[\w-]+(?:\s+[\w-]+)?)\s+(?=for\s|at\s|with\s)"
)
# What a person does for work, said as a kind of work rather than a job ("payroll", not
# "payroll clerk"): so "I do yoga at Triyoga" is no employer.
_WORK_DONE: Final = frozenset(
    """admin administration dispatch accounts accounting bookkeeping payroll marketing sales
    hr it ops operations logistics support reception security research engineering design qa
    testing compliance finance procurement recruitment recruiting fundraising comms pr
    consulting consultancy nursing teaching tutoring cleaning catering deliveries delivery
    coding development analytics policy legal communications service care maintenance
    cybersecurity devops""".split()
)
_FOR_WHOM = re.compile(r"\b(?:for|at|with)\s+")


def work_done_for(clause: str) -> Iterator[Match]:
    """The employer named after the work done for it, and the work as the job."""
    lead = _DOING_WORK.match(clause)
    if not lead:
        return
    work = lead.group("work")
    first, last = work.split()[0], work.split()[-1]
    # ("doing some research for my thesis" is no work; "IT support" is)
    if last.casefold() not in _WORK_DONE or (first.casefold() in STOPWORDS and not first.isupper()):
        return
    rest = clause[lead.end() :]
    for at in _FOR_WHOM.finditer(rest[:60]):  # "for the housing team | at Leeds City Council"
        place = proper_noun(rest[at.end() :], clause)
        if place and place.split()[0].casefold() not in STOPWORDS:
            now = not re.search(r"\bstill\b", lead.group(0), re.IGNORECASE) and bool(
                re.search(r"\b(?:now|moved|switched|gone|went)\b", lead.group(0), re.IGNORECASE)
            )
            yield Match("fact", "employer", place, f"User works at {place}", 0.8, correction=now)
            yield Match("fact", "job", work, f"User works in {work}", 0.75, correction=now)
            return


# "I'm in second year doing nursing at Cardiff uni", "I switched my course to midwifery": what
# the user studies (one slot, so a switch replaces it)
_STUDYING = _compile(
    rf"(?:{I_AM}\s+(?:now\s+)?(?:in\s+(?:my\s+)?(?:first|second|third|fourth|final|"
    r"\d(?:st|nd|rd|th))\s+year\s+(?:of\s+|doing\s+|studying\s+|reading\s+)?|"
    r"(?:doing|studying|reading)\s+)(?P<what>(?-i:[a-z]+)(?:\s+(?-i:[a-z]+))?)\s+at\s+"
    r"(?P<place>(?-i:[A-ZÀ-Ý])[\w'’-]*(?:\s+[\w'’-]+){0,2}?)(?=\s*(?:[,.;!]|$|\s+and\b|\s+but\b))|"
    r"i\s+(?:just\s+|finally\s+)?(?P<switched>switched|changed|transferred)\s+(?:my\s+)?"
    r"(?:course|degree|major|subject)\s+to\s+(?P<new>(?-i:[a-z]+)(?:\s+(?-i:[a-z]+))?)\b)"
)


_PLACE_OF_STUDY = re.compile(r"(?i:\b(?:uni|university|college|school|academy|institute)\b)")


def studying(clause: str) -> Iterator[Match]:
    found = _STUDYING.match(clause.strip())
    if not found:
        return
    if found.group("switched"):
        what = found.group("new")
        yield Match("fact", "studies", what, f"User studies {what}", 0.85, correction=True)
        return
    what, place = found.group("what"), found.group("place")
    if what.split()[-1] in STOPWORDS or what.split()[0] in ("a", "an", "the", "my", "some"):
        return
    if (
        " year " not in found.group(0)
        and not _PLACE_OF_STUDY.search(place)
        and not re.search(r"(?i:\b(?:studying|reading)\s)", found.group(0))
    ):
        return  # "I'm doing overtime at Tesco"
    text = f"User studies {what} at {place}"
    yield Match("fact", "studies", what, text, 0.8, correction="now" in found.group(0).split())


_DEGREE = _compile(
    r"(?:^|\band\s+)(?:i\s+|i'm\s+|i\s+am\s+)?(?:also\s+|then\s+)?"
    r"(?P<verb>did|have|got|completed|finished|earned|hold|doing)\s+(?:a|an|my)\s+"
    r"(?P<degree>phd|doctorate|master's|masters|mba|degree|ba|bsc|msc|ma|diploma)\b"
    r"(?:\s+in\s+(?P<subject>[a-z]+(?:\s+(?!at\b|in\b|from\b|and\b|but\b)[a-z]+){0,2}))?"
    r"(?:\s+(?:at|in|from)\s+(?P<place>[A-ZÀ-Ý][\w'’-]*(?:\s+[A-ZÀ-Ý][\w'’-]*){0,3}))?"
)
_DEGREE_VERB = {"have": "has", "hold": "holds", "doing": "is doing"}


def degree(clause: str) -> Iterator[Match]:
    """ "(I) did a PhD in Manchester", "I have a master's in law from Edinburgh"."""
    found = _DEGREE.search(clause.strip())
    if not found or not (found.group("subject") or found.group("place")):
        return
    verb = found.group("verb").casefold()
    said = found.group(0)[found.start("verb") - found.start() + len(verb) :].strip()
    text = f"User {_DEGREE_VERB.get(verb, verb)} {said}"
    key = f"degree:{found.group('degree').casefold().replace(chr(39), '')}"
    yield Match("fact", key, found.group("subject") or found.group("place"), text, 0.8)
