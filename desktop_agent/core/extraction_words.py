"""Word lists the parse-based extraction reads: who a noun is, which verbs are habits, which
adjectives are feelings. Kept apart so the rules read as grammar, not as vocabulary.
"""

from __future__ import annotations

from typing import Final

# Words for the user's people -> the relation a subject key names ("mum" and "mother" share one).
RELATIONS = {
    **dict.fromkeys(("mum", "mom", "mother", "mam", "ma"), "mother"),
    **dict.fromkeys(("dad", "father", "pa"), "father"),
    **dict.fromkeys(("grandma", "gran", "granny", "nan", "nana", "grandmother"), "grandmother"),
    **dict.fromkeys(("grandpa", "grandad", "granddad", "grandfather"), "grandfather"),
    **dict.fromkeys(("husband", "hubby"), "husband"),
    **dict.fromkeys(("wife",), "wife"),
    **dict.fromkeys(("partner", "spouse", "fiance", "fiancé", "fiancee", "fiancée"), "partner"),
    **dict.fromkeys(("girlfriend",), "girlfriend"),
    **dict.fromkeys(("boyfriend",), "boyfriend"),
    **dict.fromkeys(("sister", "sis"), "sister"),
    **dict.fromkeys(("brother",), "brother"),
    **dict.fromkeys(("son",), "son"),
    **dict.fromkeys(("eldest", "youngest", "oldest"), "child"),
    **dict.fromkeys(("stepdad", "stepfather"), "stepfather"),
    **dict.fromkeys(("stepmum", "stepmom", "stepmother"), "stepmother"),
    **dict.fromkeys(("daughter",), "daughter"),
    **dict.fromkeys(("kid", "kids", "child", "children"), "kids"),
    **dict.fromkeys(("twin", "twins"), "twins"),
    **dict.fromkeys(("friend", "mate", "pal", "buddy"), "friend"),
    **dict.fromkeys(("best friend", "best mate", "best pal", "best bud"), "best friend"),
    **dict.fromkeys(("aunt", "auntie", "aunty"), "aunt"),
    **dict.fromkeys(("uncle",), "uncle"),
    **dict.fromkeys(("cousin",), "cousin"),
    **dict.fromkeys(("niece",), "niece"),
    **dict.fromkeys(("nephew",), "nephew"),
    **dict.fromkeys(("boss", "manager"), "boss"),
    **dict.fromkeys(("flatmate", "roommate", "housemate"), "flatmate"),
    **dict.fromkeys(("colleague", "coworker"), "colleague"),
    **dict.fromkeys(("neighbour", "neighbor"), "neighbour"),
    **dict.fromkeys(("parents", "folks"), "parents"),
    **dict.fromkeys(("baby",), "baby"),
    **dict.fromkeys(("stepson",), "stepson"),
    **dict.fromkeys(("stepdaughter",), "stepdaughter"),
    **dict.fromkeys(("grandson",), "grandson"),
    **dict.fromkeys(("granddaughter",), "granddaughter"),
    **dict.fromkeys(("grandkid", "grandkids", "grandchild", "grandchildren"), "grandkids"),
    **dict.fromkeys(("stepbrother",), "stepbrother"),
    **dict.fromkeys(("stepsister",), "stepsister"),
    **dict.fromkeys(("mother-in-law",), "mother-in-law"),
    **dict.fromkeys(("father-in-law",), "father-in-law"),
    **dict.fromkeys(("brother-in-law",), "brother-in-law"),
    **dict.fromkeys(("sister-in-law",), "sister-in-law"),
}
# Whom "she" or "he" can stand for, when the relation says.
FEMALE = frozenset(
    "mother grandmother wife girlfriend sister daughter stepmother aunt niece stepdaughter "
    "mother-in-law sister-in-law granddaughter stepsister".split()
)
MALE = frozenset(
    "father grandfather husband boyfriend brother son stepfather uncle nephew stepson "
    "father-in-law brother-in-law grandson stepbrother".split()
)
# Animals and breeds -> the species a pet's subject key names ("greyhound" -> "dog").
PETS = {
    **dict.fromkeys(
        """dog puppy pup greyhound labrador lab retriever spaniel terrier collie poodle
        dachshund beagle husky pug whippet lurcher corgi bulldog boxer rottweiler alsatian
        shepherd schnauzer chihuahua sheepdog cockapoo labradoodle cavapoo doodle kelpie
        heeler staffy staffie mastiff samoyed maltese vizsla weimaraner dalmatian akita shiba
        pomeranian""".split(),
        "dog",
    ),
    **dict.fromkeys("cat kitten kitty tabby moggy siamese persian ragdoll".split(), "cat"),
    **dict.fromkeys("rabbit bunny".split(), "rabbit"),
    **dict.fromkeys("hamster".split(), "hamster"),
    **dict.fromkeys("guinea".split(), "guinea pig"),
    **dict.fromkeys("parrot budgie cockatiel canary bird".split(), "parrot"),
    **dict.fromkeys("horse pony".split(), "horse"),
    **dict.fromkeys("tortoise turtle".split(), "tortoise"),
    **dict.fromkeys("goldfish fish".split(), "fish"),
    **dict.fromkeys("snake lizard gecko".split(), "reptile"),
    **dict.fromkeys("chicken chickens hen hens".split(), "chicken"),
}
# The pet words as one regex alternation, longest first ("puppy" before "pup").
PET_WORDS = "|".join(sorted(PETS, key=len, reverse=True))
KIDS = frozenset(
    "kid kids child children son sons daughter daughters boy boys girl girls twins".split()
)
MARITAL = frozenset("married single divorced engaged widowed separated".split())
DIETS = {
    "vegetarian": "vegetarian",
    "vegan": "vegan",
    "pescatarian": "pescatarian",
    "pescetarian": "pescatarian",
    "teetotal": "teetotal",
}
# Verbs whose present simple with "I" states a habit even without "every ...".
ACTIVITIES = frozenset(
    """swim run jog cycle bike walk hike climb commute train practise practice meditate
    volunteer cook bake play drive row skate ski surf dance sing paint knit garden read""".split()
)
# States, not habits: present simple of these is never a routine.
STATIVE = frozenset(
    """be have like love hate prefer enjoy adore know think believe want need mean seem feel
    live work speak understand remember forget wish hope agree own use study teach find
    guess suppose mind care see hear get can will would could should may might must""".split()
)
# Adverbs and nouns that make a present simple a habit: "I swim every Tuesday at 7".
FREQUENCY = frozenset(
    """every each usually always often normally regularly daily weekly monthly nightly
    sometimes generally typically twice thrice""".split()
)
PLURAL_TIMES = frozenset(
    """mondays tuesdays wednesdays thursdays fridays saturdays sundays weekends weekdays
    mornings evenings nights afternoons""".split()
)
# Negated verbs that say nothing lasting: "I don't know", "I can't wait", "I never said that".
NOT_A_HABIT = frozenset(
    """know think mind worry care remember understand wait believe get see want need mean agree
    say tell feel imagine guess suppose ask try find hear stop help decide expect recall follow
    bother matter make do buy read stand""".split()
)
# Verbs of news and messages: "my mum says hi", "my sister texted".
MESSAGES = frozenset(
    """say text ask tell call message email ring phone write send think reckon want wonder
    hope feel know die pass visit come arrive leave""".split()
)
# Progressive verbs that describe a stretch of life, not a moment: "my sister is studying law".
LONG_ACTIVITIES = frozenset("study learn train work live teach raise build renovate".split())
# Things the user wants that are not goals: "I want to know", "I'd like to ask".
NOT_A_GOAL = frozenset(
    """know ask see say check talk understand try find hear tell confirm point mention add
    clarify share thank apologise apologize go sleep eat rest""".split()
)
# "X is my weakness": nouns that make the subject something the user likes.
LIKED_ROLES = frozenset(
    """weakness thing jam passion obsession addiction love favourite favorite vice pleasure""".split()
)
# "X scares me" / "X relaxes me".
DISLIKE_VERBS = frozenset("scare bore annoy irritate disgust terrify frustrate stress".split())
LIKE_VERBS = frozenset("relax calm delight fascinate excite inspire".split())
POSITIVE_ADJ = frozenset(
    """fun relaxing amazing fascinating great brilliant lovely interesting calming beautiful
    wonderful delicious exciting satisfying soothing happy glad""".split()
)
NEGATIVE_ADJ = frozenset(
    """boring dull annoying tedious stressful pointless overrated awful terrible horrible
    disgusting gross tiresome exhausting unbearable sad anxious miserable nervous""".split()
)
# Things the user is that mean their work: "I'm retired".
WORK_STATES = frozenset("retired unemployed self-employed freelance".split())
EVENTS = frozenset(
    """appointment interview exam exams test wedding flight trip holiday vacation meeting
    surgery operation party gig concert match deadline presentation viva graduation move
    checkup check-up""".split()
)
# Words of time that make a statement about now, not about the person: "I'm tired today".
TRANSIENT = frozenset("today tonight now currently moment later yet".split())
# "this week", "this month": a visit, not a fact about the person.
TRANSIENT_AFTER_THIS = frozenset("week month weekend evening afternoon morning year".split())


def verb_of(gerund: str) -> str:
    """ "smoking" -> "smoke", "running" -> "run", "drinking" -> "drink" (a noun the parser made
    of a gerund has no verb lemma)."""
    stem = gerund.removesuffix("ing")
    if len(stem) > 2 and stem[-1] == stem[-2] and stem[-1] not in "ls":
        return stem[:-1]
    if len(stem) > 2 and stem[-1] in "kvpcgzbl" and stem[-2] in "aeiou" and stem[-3] not in "aeiou":
        return f"{stem}e"
    if len(stem) > 2 and stem.endswith(("bl", "tl", "gl")):
        return f"{stem}e"
    return stem


__all__ = [
    "CARERS",
    "ACTIVITIES",
    "DIETS",
    "DISLIKE_VERBS",
    "EVENTS",
    "FEMALE",
    "FREQUENCY",
    "KIDS",
    "LIKED_ROLES",
    "LONG_ACTIVITIES",
    "LIKE_VERBS",
    "MALE",
    "MARITAL",
    "MESSAGES",
    "NEGATIVE_ADJ",
    "NOT_A_GOAL",
    "NOT_A_HABIT",
    "PETS",
    "PLURAL_TIMES",
    "POSITIVE_ADJ",
    "RELATIONS",
    "STATIVE",
    "TRANSIENT",
    "TRANSIENT_AFTER_THIS",
    "WORK_STATES",
    "verb_of",
]


# Who treats or serves the user, met by appointment: a question of "my dentist" asks of the
# appointment as much as of the person ("when's my dentist appointment?").
CARERS: Final = frozenset(
    "doctor gp dentist physio physiotherapist therapist optician psychiatrist psychologist "
    "counsellor counselor surgeon consultant midwife orthodontist dermatologist vet hairdresser "
    "barber chiropractor osteopath tutor coach trainer teacher".split()
)
