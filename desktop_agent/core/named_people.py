"""The user's people, by the names they told: whom a question names ("How old is Ellie?",
"Where does Jess work?") and by which relation the memory knows them."""

from __future__ import annotations

import re
from collections.abc import Collection
from typing import TYPE_CHECKING, Final

from desktop_agent.core.current_words import current
from desktop_agent.core.extraction_words import KIDS, PET_WORDS, RELATIONS
from desktop_agent.core.grounding_kinds import members_asked, says_a_member
from desktop_agent.core.grounding_words import slot_keys, stems
from desktop_agent.core.memory_model import EPISODIC, SEMANTIC
from desktop_agent.core.memory_service import MemoryService
from desktop_agent.core.questions import question_only
from desktop_agent.core.statement_wording import NAMES_SOMEONE, kind_asked
from desktop_agent.core.statements import CHANGE, leans_on_the_message_before, message_before
from desktop_agent.search.tokenize import STOPWORDS

if TYPE_CHECKING:
    from desktop_agent.core.memory_model import MemoryItem
    from desktop_agent.core.statements import Statement

# How many memories a question may recall.
RECALL_DEPTH: Final = 12


def people_by_name(memory: MemoryService) -> dict[str, str]:
    """ "ana" -> "sister", from the current "User's sister is named Ana" facts."""
    people = {}
    for item in memory.active_facts():
        relation = item.subject_key.partition("name_of:")[2]
        # "User's dog is named Bolt (a rescue greyhound)": the name before what it says of it
        value = re.search(
            r"\b(?:named|called|is)\s+(?:(?:Dr|Mr|Mrs|Ms|Mx|Prof)\.?\s+)?"
            r"([A-ZÀ-Ý][\w'’-]+(?:\s+[A-ZÀ-Ý][\w'’-]+){0,2}|(?<=named\s)[^\W\d_][\w'’-]+)\s*"
            r"(?:\([^)]*\))?\s*$",
            item.text,
        )
        if relation and value and ":" not in relation:
            people[value.group(1).casefold()] = relation  # ("Jun Hao": the whole name)
    return people


# "How old is Eli?" is answered by "my grandson Eli is three", which shares no word with it.
_AGE_TOLD: Final = re.compile(
    r"\b(?:is|she's|he's|turned|turns|aged)\s+(?:about\s+|nearly\s+|almost\s+|around\s+|"
    r"roughly\s+|(?:more\s+)?like\s+|probably\s+|maybe\s+)?(?:\d+|one|two|"
    r"three|four|five|six|seven|eight|nine|ten|eleven|twelve|thirteen|fourteen|fifteen|"
    r"sixteen|seventeen|eighteen|nineteen|twenty)\b",
    re.IGNORECASE,
)


def says_what_is_asked(question: str, sentence: str, beyond: set[str], message: str = "") -> bool:
    """Whether ``sentence``, said of the person ``question`` names, says what it asks: a word
    of it beyond the name (``beyond``: "old" in "how old is Mochi?"), the kind of thing asked
    (a day for "what day is Mateo's judo?", an amount), the slot (where Chiara lives, said as
    "Chiara moved to Lisbon!"), or a change when it asks what is so now ("which school does
    Amara go to now?" after "Amara's switching to St Columba's"), or its ``message`` says a change
    and the thing asked."""
    if stems(sentence) & beyond or age_told(question, sentence):
        return True
    kind = kind_asked(question)
    if kind is not None and kind.search(sentence):
        return True
    if says_a_member(members_asked(question), sentence):
        return True  # "he's a beagle" for "what breed is Biscuit?"
    if _WORK_ASKED.search(question) and _WORK_SAID.search(sentence):
        return True  # "Kwame - he's a carpenter" for "what does Kwame do for a living?"
    if _NAME_ASKED.search(question) and any(
        stems(name) - stems(question) for name in NAMES_SOMEONE.findall(sentence)
    ):
        return True  # "Kofi stays at Little Acorns" for "what's the name of Kofi's nursery?"
    if slot_keys(question) & slot_keys(sentence) & _SLOTS_SAID_OF_PEOPLE:
        return True
    if CHANGE.search(message) and {w for w in stems(message) & beyond if not w.endswith("ing")}:
        # a change whose message says the thing asked: "we got a place for Eitan at
        # Brightwater Academy instead of Oakfield. | ... no more school run" for "which school"
        return True
    return bool(_NOW_ASKED.search(question) and CHANGE.search(sentence))


_WORK_ASKED: Final = re.compile(
    r"\bwhat\s+(?:does|did)\s+[\w'’ ]+?\s+do(?:\s+(?:for\s+(?:work|a\s+living|a\s+job)|now|"
    r"these\s+days))?\s*[?.!]*$|\b(?:job|work|occupation|profession)\b",
    re.IGNORECASE,
)
_WORK_SAID: Final = re.compile(
    r"\b(?:(?:he|she|they)(?:['’]s|\s+is|\s+are|['’]re)\s+(?:now\s+)?an?\s+[a-z]|"
    r"works?\s+(?:as|at|in)\b)",
    re.IGNORECASE,
)
_NAME_ASKED: Final = re.compile(r"\bwhat(?:['’]s|\s+is|\s+was)\s+the\s+name\s+of\b", re.I)
_SLOTS_SAID_OF_PEOPLE: Final = frozenset({"home_city", "job", "employer"})
_NOW_ASKED: Final = re.compile(
    r"\b(?:now|these\s+days|nowadays|currently|at\s+the\s+moment|right\s+now|rn)\b", re.I
)


def age_told(question: str, sentence: str) -> bool:
    return bool(re.search(r"\bhow\s+old\b", question, re.I) and _AGE_TOLD.search(sentence))


def asked_name(text: str) -> str:
    """The name a question asks about: right after its question word ("How old is Ellie?"), or
    else the first capitalised word after it ("What's the name of Kofi's nursery?"); or ""."""
    asked = _ASKED_OF.match(text)
    if asked is not None:
        return "" if asked.group(1).casefold() in _NOT_NAMES else asked.group(1)
    # elsewhere in a question that asks: "What's the name of Kofi's nursery?", "who teaches
    # Sofía piano?"
    if not _ASKS.match(text):
        return ""
    names = (n for n in _NAME_INSIDE.findall(text) if n.casefold() not in _NOT_NAMES | _MONTHS)
    return next(names, "")


def named_in_memory(memory: MemoryService, text: str) -> str:
    """The person a question asks about by a name told only inside a fact about the user's
    people ("How old is Ellie?" after "User has two kids: Ellie who's 9 and Sam who's 6"), or
    "" (a place, "any tips for living in Lisbon?", is no one)."""
    name = asked_name(text)
    said = re.compile(rf"\b{re.escape(name)}\b")
    for item in memory.active_facts() if name else ():
        words = {w.casefold() for w in re.findall(r"[a-z]+", item.text)}
        if item.kind == SEMANTIC and said.search(item.text) and words & PEOPLE_WORDS:
            return name
    return ""


def named_in_words(memory: MemoryService, text: str) -> str:
    """The name a question asks about when only the user's words say it ("When does Omar have
    football?" after "Omar's football is Saturday mornings at 9"), or ""."""
    name = asked_name(text)
    if not name:
        return ""
    # a message that taught a fact no longer so still names them in its other sentences: "his
    # daughter Zara turns 4 on 12 August" beside "Femi is sous chef at Suya Spot"
    found = current(memory, memory.search(name, limit=RECALL_DEPTH, kinds=(EPISODIC,)))
    naming = _naming(name)
    told = [r.item for r in found if naming.search(r.item.user_text)]
    return name if any(not question_only(item) for item in told) else ""


def _naming(name: str) -> re.Pattern[str]:
    """``name`` as a whole word, in any case ("mateo has swimming")."""
    return re.compile(rf"\b{re.escape(name)}\b", re.IGNORECASE)


def _told_naming(memory: MemoryService, name: str, excluded: Collection[str]) -> list[MemoryItem]:
    """The recalled episodes whose user message names ``name``."""
    naming = _naming(name)
    found = memory.search(name, limit=RECALL_DEPTH, kinds=(EPISODIC,), exclude=excluded)
    return [r.item for r in found if naming.search(r.item.user_text)]


_ASKED_OF: Final = re.compile(
    # after words that only lead in: "roughly how old is Rocket?", "and where does Jess work?"
    r"^\s*(?i:(?:and|so|ok|okay|roughly|approximately|remind\s+me|also|sorry)[,:]?\s+)*"
    r"(?i:how\s+old\s+is|how\s+old's|where\s+does|what\s+does|when\s+is|when's|what\s+is|"
    r"what's|who\s+is|who's|which\s+school\s+does|when\s+does|what\s+time\s+does|"
    r"what\s+day\s+(?:is|does)|which\s+days?\s+(?:is|does)|where\s+is|where's|"
    r"where\s+did|what\s+did|how\s+is|how's|"
    # "what instrument does Zainab play?", "which vet practice is Pepper registered with?"
    r"(?:what|which)\s+(?:[a-z]+\s+){1,2}?(?:does|did|is|was|has))\s+([A-ZÀ-Ý][a-zà-ÿ'’-]+?)"
    r"(?:['’]s)?\b"
)
_NOT_NAMES: Final = frozenset("i monday tuesday wednesday thursday friday saturday sunday".split())
_MONTHS: Final = frozenset(
    "january february march april may june july august september october november december".split()
)
_ASKS: Final = re.compile(
    r"^\s*(?:what|what's|which|who|who's|whose|where|where's|when|when's|how)\b", re.I
)
# a capitalised word after the first
_NAME_INSIDE: Final = re.compile(r"(?<=\s)([A-ZÀ-Ý][a-zà-ÿ’-]+?)(?:['’]s)?\b")
PEOPLE_WORDS: Final = frozenset(RELATIONS) | KIDS


def by_relation(memory: MemoryService, text: str) -> str | None:
    """``text`` with a person's name put as the user's relation ("Where does Jess work?" ->
    "Where does my partner work?"), or None when it names none of the user's people."""
    people = people_by_name(memory)
    if not people:
        return None
    # a message typed all in lower case names people in lower case too ("when does mateo
    # have swim class now?")
    name = r"[A-ZÀ-Ý][\w’-]+?" if text != text.casefold() else r"[^\W\d_][\w’-]+?"
    changed = re.sub(
        rf"\b({name})(['’]s)?\b",
        lambda m: (
            f"my {people[m.group(1).casefold()]}{m.group(2) or ''}"
            # (in lower case, "will" is a word before it is Will)
            if m.group(1).casefold() in people and m.group(1) not in STOPWORDS
            else m.group(0)
        ),
        text,
    )
    changed = pets_vet_as_ours(memory, changed)
    return changed if changed != text else None


def pets_vet_as_ours(memory: MemoryService, text: str) -> str:
    """ "who's my dog's vet?" as "who's my vet?" when the memory knows the vet by name: a
    pet's vet is the household's, kept as the user's ("Our vet is Dr. Ramírez"). (Not "when is
    my dog's vet appointment?", which the dog's news answers.)"""
    if not (_PETS_VET.search(text) and _WHO_OR_NAME.match(text)) or not any(
        item.subject_key == "name_of:vet" for item in memory.active_facts()
    ):
        return text  # (the facts read only for a question of a pet's vet)
    # ("who's the cat's vet?" asks of the household's cat: "our vet")
    return _PETS_VET.sub(
        lambda m: f"{'our' if m['our'].casefold() == 'the' else m['our']} {m['vet']}", text
    )


_WHO_OR_NAME: Final = re.compile(
    r"\s*(?:who|what(?:['’]s|\s+is)\s+(?:the\s+)?name)\b(?!.*\b(?:appointment|visit|check-?up)\b)",
    re.IGNORECASE,
)


_PETS_VET: Final = re.compile(
    rf"\b(?P<our>my|our|the)\s+(?:{PET_WORDS}|pet)['’]s\s+(?P<vet>vets?|veterinarian)\b",
    re.IGNORECASE,
)


def of_them(
    memory: MemoryService,
    statement: Statement,
    name: str,
    beyond: set[str],
    excluded: Collection[str],
) -> bool:
    """Whether ``statement`` is about ``name``: it names them, or it tells a change to what an
    earlier sentence naming them said ("we're doing the party in our backyard now instead"
    after "planning Noor's 7th birthday!! party is saturday at Jumpz")."""
    naming = _naming(name)
    if naming.search(statement.sentence):
        return True
    message = statement.source.item.user_text
    if naming.search(message) and THEM.search(statement.sentence):
        return True  # "Mateo gave up on swimming. | he's doing judo now instead, thursdays"
    if (
        message.find(statement.sentence[:24]) <= 0
        and leans_on_the_message_before(statement.sentence)
        and statement.source.item.conversation_id
        and naming.search(
            message_before(
                statement.source.item, memory.episodes(statement.source.item.conversation_id)
            )
        )
    ):
        return True  # "planning a surprise 40th for gareth!!" | "his actual birthday is 9 march"
    at = message.find(statement.sentence[:24])
    if at > 0 and naming.search(message[:at]) and CHANGE.search(statement.sentence):
        return True  # "scratch that about theo, | we swapped friday for thursday"
    shared = stems(statement.sentence) & beyond
    if not shared or not CHANGE.search(statement.sentence):
        return False
    told = statement.source.item.created_at
    return any(
        item.created_at < told and stems(item.user_text) & shared
        for item in _told_naming(memory, name, excluded)
    )


THEM: Final = re.compile(r"\b(?:he|she|they|he's|she's|they're|his|her|their|him|them)\b", re.I)


def changed_after(
    memory: MemoryService,
    statement: Statement,
    name: str,
    beyond: set[str],
    excluded: Collection[str],
) -> bool:
    """Whether a later message naming ``name`` says a change to what the question names
    beyond them: "what sport did Mateo do before judo?" is answered by "mateo has swimming on
    tuesdays" when "Mateo gave up on swimming ... he's doing judo now" came after it."""
    told = statement.source.item.created_at
    return any(
        item.created_at > told and stems(item.user_text) & beyond and CHANGE.search(item.user_text)
        for item in _told_naming(memory, name, excluded)
    )
