"""The words of a question about the user: what it asks about beyond its frame ("what", "my"),
the slots it names, and the people or animals it is about with their kin ("my pets" -> the dog).
"""

from __future__ import annotations

import re
from typing import Final

from desktop_agent.core.extraction_words import PETS, verb_of
from desktop_agent.core.extraction_words import RELATIONS as RELATION_SLOTS
from desktop_agent.core.questions import SLOT_WORDS
from desktop_agent.search.tokenize import STOPWORDS

# The people and animals a fact can be about ("User's sister is called Ana").
RELATIONS: Final = frozenset(
    "sister sisters brother brothers mother mum mom father dad parents folks wife husband partner "
    "boyfriend girlfriend fiance fiancee son sons daughter daughters kid kids child children "
    "baby friend friends boss colleague coworker roommate flatmate grandmother grandma "
    "grandfather grandpa aunt uncle cousin niece nephew dog dogs cat cats pet pets puppy kitten "
    "horse rabbit hamster parrot budgie bird family sibling siblings dentist doctor gp landlord landlady "
    "therapist trainer physio accountant lawyer solicitor vet hairdresser barber neighbour "
    "neighbor mentor tutor coach teacher manager supervisor midwife ex twin twins youngest "
    "eldest brother-in-law sister-in-law mother-in-law father-in-law son-in-law "
    "daughter-in-law grandson grandsons granddaughter granddaughters grandkid grandkids "
    "grandchild grandchildren stepbrother stepsister stepson stepdaughter".split()
)
# A question about one of these is answered by facts naming any of its kin ("my pets" -> the
# dog called Pickle).
_KIN: Final[dict[str, set[str]]] = {
    "pet": {
        "pet",
        "dog",
        "cat",
        "puppy",
        "kitten",
        "horse",
        "pony",
        "rabbit",
        "hamster",
        "parrot",
        "budgie",
        "bird",
        "guinea",
        "tortoise",
        "fish",
        "snake",
        "lizard",
    },
    "kid": {"kid", "child", "children", "son", "daughter", "baby", "boy", "girl", "twin"},
    "child": {"kid", "child", "children", "son", "daughter", "baby", "boy", "girl", "twin"},
    "children": {"kid", "child", "children", "son", "daughter", "baby", "boy", "girl", "twin"},
    "twin": {"kid", "child", "children", "son", "daughter", "baby", "boy", "girl", "twin"},
    "son": {"son", "boy", "twin", "children", "kid"},
    # "when is the baby due?": "User's wife is pregnant with User's first child, due in March"
    "baby": {"baby", "child", "pregnant", "pregnancy", "due", "bump", "newborn"},
    # "what's my bird's name?" after "I keep a budgie called Captain"
    "bird": {"bird", "parrot", "budgie", "cockatiel", "canary"},
    "daughter": {"daughter", "girl", "twin", "children", "kid"},
    "parent": {"parent", "mother", "mum", "mom", "father", "dad"},
    "folk": {"parent", "mother", "mum", "mom", "father", "dad"},  # "my folks"
    # "who's my doctor?" after "my GP is Dr Patel"
    "doctor": {"doctor", "gp"},
    "gp": {"doctor", "gp"},
    "roommate": {"roommate", "flatmate", "housemate"},
    "flatmate": {"roommate", "flatmate", "housemate"},
    "boss": {"boss", "manager", "supervisor"},
    "manager": {"boss", "manager", "supervisor"},
    "sibling": {"sibling", "sister", "brother"},
    **dict.fromkeys(
        ("partner", "boyfriend", "girlfriend", "husband", "wife", "fiance", "fiancee", "ex"),
        {"partner", "boyfriend", "girlfriend", "husband", "wife", "fiance", "fiancee"},
    ),
    "family": {
        "family",
        "sister",
        "brother",
        "mother",
        "mum",
        "mom",
        "father",
        "dad",
        "wife",
        "husband",
        "partner",
        "son",
        "daughter",
        "kid",
        "child",
        "children",
    },
}
_WORD = re.compile(r"[^\W_][\w'’-]*")
_QUESTION_FRAME: Final = frozenset(
    "what what's whats where where's when who who's whom whose which how do does did is are am "
    "was were my mine me i i'm im you your know remember tell now currently again still anymore "
    "name's these days lately today moment right exactly usually most really like actually "
    "before after ago last year years month months week weeks january february march april may "
    "june july august september october november december use get remind recall again please "
    "currently anything something everything any".split()
)
# Words a question may use for what a fact calls otherwise ("favourite movie" -> "film").
_SYNONYM_GROUPS: Final = (
    ("movie", "film"),
    ("book", "novel"),
    ("show", "series", "programme", "program"),
    ("song", "track", "tune"),
    ("holiday", "trip", "vacation", "travel", "travelling", "traveling"),
    ("language", "speak"),
    ("sport", "play"),
    ("instrument", "play"),
    ("town", "city"),
    ("flight", "fly", "flying", "flights"),
    ("support", "supporter", "fan", "team"),
    ("mum", "mom", "mother"),
    ("dad", "father"),
    ("salary", "earn", "income", "wage", "pay", "paid"),
    ("exercise", "gym", "workout", "training", "fitness", "lift", "lifting"),
    ("phone", "mobile", "cell"),
    ("provider", "network", "supplier", "carrier"),
    ("therapy", "therapist", "counselling", "counsellor", "counseling", "counselor"),
    ("pottery", "ceramics"),
    ("annual", "yearly"),
    ("checkup", "physical"),
    ("parents", "folks"),
    ("dog", "puppy", "pup"),
    ("reservation", "booking", "booked", "table"),
    ("wedding", "married", "marrying"),
    ("wake", "alarm", "waking"),
    ("preparing", "training", "prepare", "train", "ready"),
    ("uni", "university"),
    ("cafe", "café"),  # (no folding of accents in stems: names like "Róisín" stay apart)
    ("masters", "master", "master's", "msc", "mba", "mres", "postgrad"),
    ("shut", "closed", "close"),
    ("endocrinologist", "endo"),
    ("physio", "physiotherapist", "physiotherapy"),
    ("vet", "vets", "veterinarian"),
    ("weight", "weigh", "kg", "kgs", "kilos", "lbs"),
    ("dose", "dosage"),
    ("surgery", "operation"),
    ("school", "primary", "academy"),  # "he's at Greenfield Primary"
    ("pregnant", "pregnancy", "expecting"),
    ("debit", "dd"),  # "octopus dropped our dd to £118"
    ("appointment", "appt"),
    # "booking ref QZLMRT" for "what's the booking reference?"
    ("reference", "ref", "confirmation", "conf"),
    ("registration", "reg"),
    ("information", "info"),
    ("internet", "broadband"),  # "who's my internet with?"
    ("kindergarten", "nursery", "preschool", "pre-school"),
    ("due", "deadline"),  # "new deadline is 4 june" for "when's my dissertation due?"
)
# Chat's short forms of the people and days asked of in full, the same word: "callum's bday is
# 2 august" for "when is callum's birthday?"
_SHORT_FORMS: Final = {"bday": "birthday", "gf": "girlfriend", "bf": "boyfriend",
                       "hubby": "husband", "wifey": "wife", "sis": "sister"}  # fmt: skip
_SYNONYMS: Final[dict[str, frozenset[str]]] = {
    word: frozenset(group) - {word} for group in _SYNONYM_GROUPS for word in group
}


def _key_parts(subject_key: str) -> set[str]:
    key = subject_key.casefold()
    parts = set(key.split(":")) | set(re.split(r"[:_\s]+", key))
    # "name_of:boyfriend" is the partner slot, whatever the user called them
    return parts | {"partner"} if parts & _KIN["partner"] else parts


# Words that ask where, when or who, or how one feels: a slot they alone point at must also be
# named when the question names something else ("where do I keep my spare key?").
_WEAK_SLOT_WORDS: Final = frozenset(
    "where when who from go going next home like best into call called".split()
)


def slot_keys(question: str) -> set[str]:
    """The subject keys a question names outright: {"home_city"} for "where do I live?",
    {"person:son:age", "name_of:son"}-style keys for "how old is my son?" (by their parts)."""
    asked = question.casefold()
    strong = {
        family
        for family, words in SLOT_WORDS.items()
        if any(re.search(rf"\b{re.escape(w)}\b", asked) for w in words if w not in _WEAK_SLOT_WORDS)
    }
    relation = _relation_in(asked)
    if relation:
        kin = _KIN.get(relation, {relation})
        kin |= {RELATION_SLOTS.get(k, k) for k in kin}  # "mum" is the "mother" slot
        return {f"person:{k}:{f}" for k in kin for f in strong} | {f"name_of:{k}" for k in kin}
    return strong


def unnamed_words(question: str) -> set[str]:
    """What a question asks about beyond the slot it names: {"shifts"} in "what shifts do I
    work?" (the job slot is named by "work")."""
    asked = question.casefold()
    families = {
        family
        for family, words in SLOT_WORDS.items()
        if any(re.search(rf"\b{re.escape(w)}\b", asked) for w in words)
    }
    slot_words = {_stem(w) for family in families for p in SLOT_WORDS[family] for w in p.split()}
    return content_words(asked) - slot_words - _relation_words(_relation_in(asked))


def content_words(question: str) -> set[str]:
    """The stems a question asks about, beyond its frame ("what", "my", "now"), with their
    synonyms: "what's my favourite movie?" -> {favourite, movie, film}."""
    words = {_stem(w) for w in _WORD.findall(question.casefold())}
    words -= {_stem(w) for w in _QUESTION_FRAME} | {_stem(w) for w in STOPWORDS}
    words |= {_stem(other) for w in words for other in _SYNONYMS.get(w, ())}
    return words | _specialty(words)


def _specialty(words: set[str]) -> set[str]:
    """The field of a specialist and the specialist of a field: "neurologist" asks what "the
    neurology clinic" says, "psychiatry" what "my psychiatrist" does."""
    found = set()
    for word in words:
        for one, other in _SPECIALTY:
            if word.endswith(one) and len(word) > len(one) + 2:
                found.add(_stem(word[: -len(one)] + other))
    return found


_SPECIALTY: Final = (("ologist", "ology"), ("ology", "ologist"), ("iatrist", "iatry"),
                     ("iatry", "iatrist"))  # fmt: skip


def with_verbs(words: set[str]) -> set[str]:
    """``words`` and the verbs of their gerunds: "smoking" also says "smoke" ("do I smoke?" is
    answered by "User gave up smoking")."""
    return words | {verb_of(w) for w in words if len(w) > 5 and w.endswith("ing")}


# What a question names with "the", beyond how it is qualified: "the new cabinets", "the flight".
_THE_THING: Final = re.compile(r"\bthe\s+((?:[a-z][\w'’-]*\s+){0,2}[a-z][\w'’-]*)")
_QUALIFIERS: Final = frozenset("new old last first best next same other whole".split())


def the_thing(question: str) -> set[str]:
    """What ``question`` names with "the" ("the new cabinets" -> {"cabinet"}), among the words
    it asks about."""
    return {
        word
        for phrase in _THE_THING.findall(question.casefold())
        for word in stems(phrase)
        if len(word) > 3 and word not in _QUALIFIERS
    } & content_words(question)


def stems(text: str) -> set[str]:
    return {_stem(w) for w in _WORD.findall(text.casefold())}


# "where did I live as a kid?": the user as a child, not their child
_AS_A_CHILD = re.compile(r"\b(?:as|when\s+i\s+was)\s+a\s+(?:child|kid|boy|girl|baby)\b", re.I)


def _relation_in(text: str) -> str | None:
    for word in _WORD.findall(_AS_A_CHILD.sub(" ", text)):
        stem = _stem(word.removeprefix("ex-"))  # "my ex-boyfriend's name" asks of a boyfriend
        if stem in {_stem(r) for r in RELATIONS}:
            return stem
        if stem in _BREEDS:  # "what's my greyhound called?": the dog
            return _BREEDS[stem]
    return None


# The breeds that name nothing but a pet ("my boxer", "my lab", "my persian" may not be one).
_BREEDS: Final = {
    breed: species
    for breed, species in PETS.items()
    if species in ("dog", "cat")
    and breed != species
    and breed not in {"lab", "pup", "boxer", "shepherd", "maltese", "persian", "siamese", "doodle"}
}


def _stem(word: str) -> str:
    word = re.sub(r"['’]s?$", "", word.casefold())  # "my sister's", "my brothers' names"
    word = _SHORT_FORMS.get(word, word)  # "callum's got a new gf" tells of his girlfriend
    if len(word) > 4 and word.endswith("ies"):
        return word[:-3] + "y"
    # "my tomatoes" is "my tomato plants"; "boxes", "watches", "classes" (not "shoes")
    if (len(word) >= 7 and word.endswith("oes")) or word.endswith(("ches", "shes", "xes", "sses")):
        return word[:-2]
    return word[:-1] if len(word) > 3 and word.endswith("s") and not word.endswith("ss") else word


def _relation_words(relation: str | None) -> set[str]:
    """The words of one relation: "mum", "mother", "mom"."""
    if not relation:
        return set()
    return {relation} | set(_SYNONYMS.get(relation, ())) | _KIN.get(relation, set())


def kin_asked(question: str) -> frozenset[str]:
    """The people or animals a question is about and their kin ("my pets" -> dog, cat, ...);
    empty when it asks about the user."""
    relation = _relation_in(question.casefold())
    if not relation:
        return frozenset()
    return frozenset(_KIN.get(relation, {relation}))
