"""Questions: telling a message that only asks from one that tells, and what a question about
the user asks for.

A stored question is history, not knowledge: "What is my name?" asked last week matches "What
is my name?" today better than "My name is Dana" does, but only the statement answers it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import TYPE_CHECKING, Final

from desktop_agent.core.chat_words import INFORMAL

if TYPE_CHECKING:
    from desktop_agent.core.memory_model import MemoryItem

# A sentence: up to its end mark, but "Dr." or "Mrs." inside it ends nothing ("his vet is Dr.
# Alvarez over at Maple Grove"), typed in lower case too ("piano with mrs. lindqvist").
SENTENCE = re.compile(
    # (what ends an aside ends no sentence: "his daughter Zara (my niece!) turns 4 on 12 August")
    # (nor do "!!!" before what the sentence still says: "Kwame got engaged!!! to Lerato")
    r"(?:[^.!?\n]|[.!?]+(?=\))|!+(?=\s+(?:to|with|for|from)\s+(?:his|her|their|my|our|a|an|the)\b)|\.(?<=\b[Dd]r\.)|\.(?<=\b[Mm]r\.)|\.(?<=\b[Mm]rs\.)|\.(?<=\b[Mm]s\.)|"
    r"\.(?<=\bSt\.)|\.(?<=\b[Pp]rof\.)|\.(?<=\bMx\.)|(?<=\d)\.(?=\d))+[.!?]*"
)
_ASKING = re.compile(
    r"^\s*(?:(?:and|so|ok|okay|hey|hi|hello|well|also|btw|by the way|now|then|please)[\s,]+)*"
    # ("which means her teacher is Mr Okafor now" tells)
    r"(?:what|what's|whats|where|where's|when|who|who's|whom|whose|why|how|"
    r"which(?!\s+(?:means|meant|is\s+why|was\s+why)\b)|do|does|did|"
    r"can|could|would|will|should|shall|is|are|am|was|were|have|has|may|might|tell me|"
    r"remind me (?:what|when|where|who|how|of)|any idea)\b",
    re.IGNORECASE,
)
_GREETING = re.compile(
    r"^\s*(?:hi|hey|hello|thanks|thank you|ok|okay|yes|no|sure|great|cool|hmm+|so)[\s!.,]*$",
    re.IGNORECASE,
)


# What a question asks with in texting ("wat r u doing"), beside extraction's table of chat
# spellings (which has "whos", "wat", "rn" and the like).
_CHAT_QUESTION_WORDS: Final = {
    "r": "are",
    "n": "and",
}
_CHAT_WORD = re.compile(r"(?<![\w'’/])[a-z][a-z']*(?![\w'’/])", re.IGNORECASE)


def plain_question(message: str) -> str:
    """``message`` with chat spellings written out: "whos my gp" -> "who's my gp", "wat r u
    doing" -> "what are you doing". Other words keep their case."""

    def plain(match: re.Match[str]) -> str:
        word = match.group(0)
        lower = word.casefold()
        if len(word) == 1 and word.isupper() and word != "I":
            return word  # "Dr. R", "plan B"
        return _CHAT_QUESTION_WORDS.get(lower) or INFORMAL.get(lower) or word

    message = _FOR_A_LIVING.sub(r"\1 for work", _ASIDE.sub("", _CHAT_WORD.sub(plain, message)))
    return _as_asked(message)


def _as_asked(message: str) -> str:
    """A request for something told, as the question it is: "remind me the confirmation number
    for the rome hotel" -> "what's the confirmation number for the rome hotel?" (not "remind me
    my flight is on friday", which tells)."""
    request = _REMIND_ME_THE.match(message)
    if request is None or _TELLS.search(message, request.end()):
        return message
    if not _DETAIL.search(message, request.end()):
        return message  # ("remind me my passport expires in may" tells)
    asked = message[request.end() :].rstrip(" .!?")
    return f"what's {asked}?"


_REMIND_ME_THE: Final = re.compile(
    r"\s*(?:(?:pls|please|can\s+you|could\s+you|can\s+u)\s+)?(?:remind|tell)\s+me(?:\s+of)?\s+"
    r"(?=(?:the|my|our)\s)",
    re.IGNORECASE,
)
# What such a request asks for: a detail of something ("the confirmation number", "my
# dentist's name", "our wifi password")
_DETAIL: Final = re.compile(
    r"\b(?:name|names|number|no|ref|reference|code|password|pin|address|postcode|zip|date|"
    r"day|time|price|cost|amount|email|phone|account|booking|confirmation|policy|dose|size|"
    r"details|info)\b",
    re.IGNORECASE,
)
_TELLS: Final = re.compile(r"\b(?:is|are|was|were|has|have|had|will|to)\b", re.IGNORECASE)


# "what does Amy do for a living?" asks her work, not where she lives
_FOR_A_LIVING: Final = re.compile(r"\b(do|does|did)\s+for\s+an?\s+living\b", re.IGNORECASE)
# A filler after the question, no part of what is asked: "wats my cats name again, brain fog",
# "when's the dentist, I forgot lol"
_ASIDE: Final = re.compile(
    r"[,;]\s*(?:(?:sorry|lol|haha|thanks|thank\s+you|pls|please|brain\s+fog|i\s+forg[eo]t|"
    r"can'?t\s+remember|cant\s+remember|my\s+memory|memory\s+like\s+a\s+sieve)\b[\s,.!]*)+"
    r"(?=[?.!\s]*$)",
    re.IGNORECASE,
)


def asks_only(message: str) -> bool:
    """True when every sentence of ``message`` asks something (greetings aside)."""
    message = plain_question(message)  # "wat rate am i getting"
    sentences = [s.strip() for s in SENTENCE.findall(message) if s.strip()]
    asking = [s for s in sentences if not _GREETING.match(s)]
    return bool(asking) and all(_asks(s) for s in asking)


def _asks(sentence: str) -> bool:
    if not (sentence.endswith("?") or _ASKING.match(sentence)):
        return False
    if re.search(r"\?\?|\?!|!\?", sentence) and not _ASKING.match(sentence):
        return False  # "she's getting divorced from Mark, he's been seeing someone??" tells
    if _REMIND_ME_THAT.search(sentence):
        return False  # "can you remind me I've got the clinic on the 12th?" tells it
    # "I live in Ghent, do you know any bakeries there?" tells something before it asks.
    clauses = [c for c in _CLAUSE.split(sentence) if c.strip()]
    return not any(_TELLING.match(c) for c in clauses[:-1])


# What a reminder asked for tells, opening with the user: "remind me I've got ..." (not
# "remind me my dentist's name?", which asks)
REMINDED_OF: Final = r"(?:i|we)(?:['’]ve|['’]m|['’]re|\s+have|\s+am|\s+are|\s+got|\s+need)\b"
_REMIND_ME_THAT = re.compile(rf"\bremind\s+me\s+(?:that\s+)?{REMINDED_OF}", re.IGNORECASE)
_CLAUSE = re.compile(r"[,;:]|\s[-–—]\s")
_TELLING = re.compile(
    r"^\s*(?:(?:so|well|hi|hey|ok|okay|btw|also)[\s,]+)*(?:i|i'm|im|i've|my|we|we're|our)\b",
    re.IGNORECASE,
)


def question_only(item: MemoryItem) -> bool:
    """An episode whose user message only asks: kept for history, never evidence."""
    meta = item.meta or {}
    if "question_only" in meta:
        return bool(meta["question_only"])
    if meta.get("source") == "chat":
        return asks_only(item.user_text)
    return False


# --- questions about the user ---------------------------------------------------------------

# "my", "me", "I" in a question: it asks about the user (or their people).
_ABOUT_ME = re.compile(
    r"\b(?:my|mine|i|i'm|im|i've|i'd|about me|myself|we|we're|our|us|call me|calls me|"
    # someone the user has by what they do for them: "who teaches me cello?"
    r"who\s+(?:\w+s|drives|cuts|looks\s+after)\s+me|who(?:'s|’s|\s+is)\s+\w+ing\s+me|"
    # what a family calls its own without "my": "where did grandma live before?"
    r"mum|mom|dad|grandma|grandpa|granny|gran|nan|nana|grandad|granddad)\b",
    re.IGNORECASE,
)
_EVERYTHING = re.compile(
    r"\bwhat (?:do|else do) you (?:know|remember)(?: about me)?\b(?!\s+about\s+(?:my|the|our)\s)|"
    r"\bwhat have i told you\b|"
    r"\btell me (?:about me|about myself|what you (?:know|remember))\b|"
    r"\bwho am i\s*[?.!]*$|\bwhat do you know\b(?!\s+about\s+(?:my|the|our)\s)",
    re.IGNORECASE,
)
_PAST = re.compile(
    r"\b(?:before|used to|previously|previous|formerly|originally(?! from)|at first|earlier|in the past|"
    r"(?<!how )old|former|last (?:job|city|address|place)|did i (?:live|work|have|drive|ride|own)|"
    r"where did i(?! grow up| go to school| study| meet)|what did i (?:do|use to|have|drive|ride|own)|did i use to|"
    r"(?:what|who) (?:was|were) (?:my|our)|"
    # "what was the name of my first physio?"
    r"\b(?:was|were)\s+[^?]*\b(?:my|our)\s+(?:first|original)\b|(?:was|were) (?:i|we) (?:living|working|based)|"
    r"did (?:we|i) (?:live|work)|last year|a year ago|back then|(?:did|had) (?:i|we) first|"
    r"(?:i|we) first (?:started|began|got)|"
    # "what dose did I start on?", "which bank did we start with?"
    r"did (?:i|we|they|he|she) (?:start|begin) (?:on|with|at|out)|"
    # what was given up, or chosen first: "which practice did we ditch?", "what name had
    # they picked first?"
    r"(?:did|have|had)\s+(?:i|we|they)\s+(?:ditch|drop|dump|quit|leave|sell|cancel|give\s+up|stop)|"
    # where someone moved away from: "which city did Keiko move away from?"
    r"\bmov(?:e|ed)\s+away\s+from\b|"
    r"(?:picked|chose|chosen|planned|wanted|booked|picking|choosing)\s+(?:at\s+)?first|"
    r"first\s+(?:picked|chose|chosen|planned|wanted|booked)|"
    # "what's my maiden name?": the name before marrying
    r"maiden\s+name|"
    # "which dentist retired?": the one before, who ended
    r"^\s*(?:which|what)\s+(?:[\w'’-]+\s+)?(?:retired|quit|closed|shut\s+down|moved\s+away|"
    r"left|went\s+on\s+(?:\w+\s+)?leave|stepped\s+down|handed\s+in)\b|"
    # "the doctor I'd been seeing for twelve years": what went on until a change
    r"\b(?:i|we)(?:['’]d|\s+had)\s+been\s+(?:seeing|going\s+to|using|with|living|working|"
    r"renting|driving)\b|"
    # "what did the physio first think it was?": what was thought before it turned out else
    r"(?:did|had)\s+(?:\w+\s+){1,3}first\s+(?:think|thought|say|said|suspect|diagnose|call|"
    r"name)\b|"
    r"(?:was|were)\s+(?:the|my|our|her|his|their)\s+(?:starting|initial|original|first)\b|"
    r"(?:which|what) (?:company|job|firm|employer|school|gym|club|team|city|town|place|flat|house) "
    r"did (?:i|we) (?:leave|quit|move out of|sell|give up|drop))\b",
    re.IGNORECASE,
)
_CHILDHOOD = re.compile(
    r"\b(?:as\s+a\s+(?:child|kid|boy|girl)|growing\s+up|when\s+i\s+was\s+(?:little|young|small|"
    r"a\s+(?:child|kid|boy|girl)))\b",
    re.IGNORECASE,
)
# Requests that only mention the user ("help me write...", "can you tell me a joke") are not
# questions about the user.
_NOT_ABOUT_ME = re.compile(
    r"^\s*(?:can|could|would|will)\s+you\s+(?!remind|tell me (?:my|what my|where i|who my))|"
    # ("what surname should I put on forms?" asks what the user's surname is)
    r"\b(?:help me|give me|show me|write|explain|translate|recommend|suggest|"
    r"should i(?!\s+(?:put|write|use|give)\b)|"
    r"how (?:do|can|should) i(?! (?:take|like|have) my\b| (?:usually )?(?:get|travel|go) to (?:work|the office|school|uni)\b| (?:usually )?commute\b)|what should i|what can i|could i|can i|do i need|"
    r"i (?:could|can|should|might|would|need|want)|"
    # "any quick lunch ideas for him?", "ideas for our weekend away?", "plan me a workout"
    r"any\s+(?:[\w-]+\s+){0,2}(?:ideas|suggestions?|tips|recommendations?|recipes?)|"
    r"ideas\s+for|plan\s+(?:me|us)|what\s+(?:should|shall|could|can)\s+we)\b(?!['’]t|not)",
    re.IGNORECASE,
)

# Words of a question -> the subject_key families that answer it. Used to pick, among the
# recalled facts, those that answer this question rather than merely share a word with it.
SLOT_WORDS: Final[dict[str, tuple[str, ...]]] = {
    "name": ("name", "called", "call", "surname", "last name", "family name", "maiden name"),
    "home_city": (
        "live",
        "living",
        "city",
        "town",
        "from",
        "home",
        "where",
        "move",
        "moved",
        "based",
        "address",
        "house",
    ),
    "origin": (
        "from",
        "born",
        "grow",
        "grew",
        "originally",
        "as a child",
        "as a kid",
        "childhood",
        "when i was little",
    ),
    "address": ("address", "postcode", "post code", "zip code"),
    "age": ("how old", "age", "years old"),
    "birthday": ("birthday", "born"),
    "job": (
        "job",
        "work",
        "do for a living",
        "profession",
        "occupation",
        "career",
        "role",
        "position",
        "trade",
        "title",
        "job title",
        "promotion",
        "promoted",
        "did i do before",  # "what did I do before freelancing?"
        "still working",  # "am I still working?" (not "what am I working on?")
        "where was i working",
        "where am i working",
        "teach",
        "teaching",
        "employed",
        "retired",
    ),
    "employer": (
        "work",
        "company",
        "employer",
        "job",
        # "where was I working before this?" (not "what am I working on?")
        "where was i working",
        "where am i working",
        "working at",
        "working for",
        "working in",
    ),
    "diet": ("eat", "diet", "vegetarian", "vegan", "health", "dietary"),
    # "Is there anything I can't eat?": what the user must keep off the plate.
    "allergy": ("allergic", "allergy", "allergies", "avoid", "health", "medical", "can't eat"),
    "condition": ("condition", "conditions", "health", "medical", "can't eat", "intolerant"),
    "medication": (
        "medication",
        "medications",
        "medicine",
        "medicines",
        "meds",
        "take",
        "health",
        "medical",
        "blood thinner",
        "blood thinners",
        "pills",
        "tablets",
        "prescription",
        "prescribed",
    ),
    "speaks": ("speak", "language", "languages"),
    "likes": ("like", "love", "enjoy", "favourite", "favorite", "hobby", "hobbies", "into"),
    "dislikes": ("dislike", "hate", "like", "can't stand"),
    "favorite": ("favourite", "favorite", "like", "best"),
    "prefers": ("prefer", "preference", "like"),
    "name_of": ("name", "called", "who"),
    # "Who am I dating?" asks for the partner, whatever the user called them.
    "partner": (
        "dating",
        "seeing",
        "married to",
        "going out with",
        "partner",
        "together with",
        "ex",
    ),
    # "How long have I been with my partner?": "partner:together"
    "together": ("been with", "together for", "been together", "married for", "dating for"),
    "religion": ("religion", "religious", "faith"),
    "plan": (
        "plan",
        "plans",
        "going to",
        "going",
        "go",
        "next",
        "trip",
        "when",
        "travel",
        "travelling",
        "traveling",
        "holiday",
        "vacation",
        "visit",
        "fly",
        "flying",
        "flight",
    ),
    "hobby": ("hobby", "hobbies", "spare time", "free time", "for fun", "pastime"),
    "team": ("support", "team", "football team", "fan of"),
    "learning": ("learning", "learn", "lessons", "taking lessons", "classes in"),
    # "I studied chemistry at Leeds": what the user studied, where, and the degrees
    "studies": ("study", "studied", "studying", "degree", "major", "university"),
    "degree": ("degree", "phd", "doctorate", "masters", "master's", "mba"),
    "income": ("earn", "salary", "income", "paid", "wage", "make a year", "pay"),
    "drink": ("drink", "drinks", "drinking", "beverage"),
    "vehicle": (
        "drive",
        "driving",
        "drove",
        "car",
        "vehicle",
        "ride",
        "riding",
        "bike",
        "scooter",
        "motorbike",
    ),
    # "I commute on a Brompton": how the user gets about
    "commute": (
        "commute",
        "commuting",
        "get to work",
        "travel to work",
        "go to work",
        "get to the office",
        "ride",
        "drive",
        "cycle",
        "bike",
        "car",
    ),
    # "I'm terrified of flying": what the user is afraid of
    "fear": (
        "afraid",
        "scared",
        "fear",
        "fears",
        "terrified",
        "frightened",
        "phobia",
        "phobias",
        "scare",
        "scares",
    ),
}


@dataclass(frozen=True, slots=True)
class AboutUser:
    """A question about the user: what it asks for, and whether about the past."""

    text: str
    everything: bool  # "what do you know about me?"
    past: bool  # "where did I live before I moved?"
    # "Who is Leo?": about someone by name, which only the user's facts can make about the
    # user; with none, it is a general question for the model.
    named: str = ""


_WHO_NAMED = re.compile(
    r"^\s*(?i:(?:and\s+)?(?:who(?:'s|’s|\s+is|\s+was)|what\s+about|tell\s+me\s+about)\s+)"
    r"([A-ZÀ-Ý][\w'’-]+)\s*\??\s*$"
)
_NOT_A_NAME = frozenset("i you he she it we they this that there god".split())


def of_me(question: str) -> bool:
    """Whether ``question`` asks something of the user as "me" alone ("how much is Spotify
    costing me?", "who's coming to Zurich with me?"), not as the one a request is for ("can
    you tell me a joke?", "what would you recommend for me?")."""
    return bool(_ME.search(question)) and not _FOR_ME.search(question)


_ME: Final = re.compile(r"\bme\b", re.IGNORECASE)
_FOR_ME: Final = re.compile(
    r"^\s*(?:(?:can|could|would|will)\s+(?:you|u)|please)\b|"
    r"\b(?:tell|give|show|help|teach|let|explain|recommend|suggest|send|write|make|find|get|"
    r"bring|lend|buy|remind|read|sing|draw|describe|call|text|email|ask|answer|surprise|"
    r"(?:explain|recommend|suggest|describe)\s+(?:\w+\s+){0,3}(?:to|for))\s+me\b|"
    r"\b(?:for|to)\s+me\b",
    re.IGNORECASE,
)


def about_user(message: str) -> AboutUser | None:
    """The question about the user in ``message``, or None if it asks something else."""
    text = message.strip()
    if not asks_only(text):
        return None
    if _EVERYTHING.search(text):
        return AboutUser(text, everything=True, past=False)
    named = _WHO_NAMED.match(text)
    if named and named.group(1).casefold() not in _NOT_A_NAME:
        return AboutUser(text, everything=False, past=False, named=named.group(1))
    if not _ABOUT_ME.search(text) or _NOT_ABOUT_ME.search(text):
        return None
    return AboutUser(text, everything=False, past=asks_the_past(text))


def asks_the_past(question: str) -> bool:
    """Whether ``question`` asks what was so before a change ("what was the starting dose?")."""
    # "where did I live as a kid?" asks where the user grew up, which is no earlier value
    return bool(_PAST.search(question)) and not _CHILDHOOD.search(question)


# Someone the user has by what they do for them: "who's coaching me?" asks for the coach.
_ROLE_ASKED: Final = re.compile(
    r"\bwho(?:'s|’s|\s+is|\s+was)?\s+(?P<verb>coach|teach|tutor|train|supervis|manag|treat|"
    r"mentor)\w*\s+me\b(?:\s+(?P<what>(?!(?:these|this|now|nowadays|lately|again|at|on|in|for|"
    r"right|today)\b)[a-z]+)\b)?|\bwho\s+(?:do|did)\s+i\s+(?P<live>live|share\s+a\s+(?:flat|house))"
    r"\s+with\b|\bwho(?:'s|’s|\s+is)?\s+(?P<team>leading|running|managing|heading)\s+(?:my|our)\s+team\b|"
    # "who teaches my pottery class?": the pottery teacher
    r"\bwho\s+(?P<class_verb>teach|coach|run|take)\w*\s+(?:my|our)\s+(?P<subject>[a-z]+)\s+"
    r"(?:class|classes|lessons?|group|course|sessions?)\b|"
    r"\bwho\s+(?P<aux>do|did|am|will|was|used\s+to)\s+i\s+(?:used\s+to\s+)?"
    r"(?P<report>report|reporting)\s+(?:to|into)\b|"
    # "who am I seeing for therapy at the moment?": the therapist
    r"\bwho\s+(?P<seeing_aux>am|do|did|was)\s+i\s+(?:seeing|see|going\s+to|go\s+to)\s+"
    r"(?:for|about)\s+(?:my\s+)?(?P<care>therapy|counsell?ing|physio(?:therapy)?|teeth|hair)\b|"
    # "who does my tax return now?": the accountant
    r"\bwho(?:'s|’s|\s+is)?\s+(?P<work_aux>does|doing|did)\s+(?:my|our)\s+(?P<work>tax(?:es)?|"
    r"accounts|books|hair|teeth|fillings)(?:\s+returns?)?\b|"
    # "who coaches Leo's team now?": the coach
    r"\bwho(?:'s|’s|\s+is)?\s+(?P<team_coach>coach|train)\w*\s+(?:my|our|his|her|their|"
    r"[\w'’]+['’]s)\s+(?:[\w'’]+\s+)?(?:team|squad|side)\b|"
    # "who's cleaning the house these days?": the cleaner
    r"\bwho(?:'s|’s|\s+is|\s+was)?\s+(?P<chore>clean)\w*\s+(?:the\s+house|the\s+flat|"
    r"(?:my|our)\s+(?:house|flat|place|home)|for\s+(?:me|us))\b",
    re.IGNORECASE,
)
# What the user goes to someone for, and whose work it is.
_CARE_BY: Final = {
    "therapy": "therapist",
    "counselling": "counsellor",
    "counseling": "counsellor",
    "physio": "physio",
    "physiotherapy": "physio",
    "teeth": "dentist",
    "hair": "hairdresser",
}
_WORK_BY: Final = {
    **dict.fromkeys(("tax", "taxes", "accounts", "books"), "accountant"),
    "hair": "hairdresser",
    **dict.fromkeys(("teeth", "fillings"), "dentist"),
}
_ROLE_OF: Final = {
    "coach": "coach",
    "teach": "teacher",
    "tutor": "tutor",
    "train": "trainer",
    "supervis": "supervisor",
    "manag": "boss",
    "treat": "doctor",
    "mentor": "mentor",
}


def by_role(question: str) -> str:
    """``question`` asking for the person by their role: "who's coaching me?" -> "who is my
    coach?", "who do I live with?" -> "who is my roommate?"."""
    found = _ROLE_ASKED.search(question)
    if found is None:
        return question
    if found.group("class_verb"):
        verb = found.group("class_verb").casefold()
        role = f"{found.group('subject')} {'coach' if verb == 'coach' else 'teacher'}"
    elif found.group("team"):
        role = "team lead"  # "who's leading my team now?"
    elif found.group("live"):
        role = "roommate"
    elif found.group("report"):
        role = "boss"  # "who am I reporting to at the moment?"
    elif found.group("work"):
        role = _WORK_BY[found.group("work").casefold()]
    elif found.group("care"):
        role = _CARE_BY[found.group("care").casefold()]
    elif found.group("team_coach"):
        role = "coach"
    elif found.group("chore"):
        role = "cleaner"
    else:
        role = _ROLE_OF[found.group("verb").casefold()]
    if found.group("what"):
        role = f"{found.group('what')} {role}"  # "who's teaching me piano?": the piano teacher
    who = found.group(0)[:3]  # "Who" or "who", as asked
    # "who was I reporting to before the reshuffle?" asks the past
    aux = (
        found.group("aux") or found.group("seeing_aux") or found.group("work_aux") or ""
    ).casefold()
    was = "was" if aux in ("did", "was", "used to") else "is"
    return f"{question[: found.start()]}{who} {was} my {role}{question[found.end() :]}"
