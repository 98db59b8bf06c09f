"""Kinds of thing a question names, and the things of each kind a fact may name.

"What instrument am I learning?" names a kind, "instrument"; the fact that answers it names a
member, "User has been learning the cello". Without the kind's members, the question's word
"instrument" looked unanswered and the fact was set aside ("only a qualified slot needs its
qualifier named"), so the reply was "you haven't told me". A short list per kind, of the
members people mention most; a member the list lacks still answers through shared words or
meaning, as before.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Final

_WORD: Final = re.compile(r"[a-z]+(?:-[a-z]+)?")

KINDS: Final[dict[str, frozenset[str]]] = {
    "instrument": frozenset(
        "piano guitar bass cello violin viola drums drum flute clarinet saxophone sax trumpet "
        "trombone ukulele harp banjo mandolin accordion keyboard keyboards harmonica oboe "
        "bassoon tuba synth organ sitar tabla shamisen koto erhu guzheng pipa oud kora djembe "
        "bouzouki balalaika bagpipes didgeridoo cajon xylophone marimba glockenspiel "
        "recorder horn euphonium piccolo dulcimer lute harpsichord steelpan".split()
    ),
    "language": frozenset(
        "english spanish french german italian portuguese dutch polish russian ukrainian "
        "japanese korean chinese mandarin cantonese arabic hindi urdu bengali turkish greek "
        "swedish norwegian danish finnish czech hungarian romanian hebrew persian farsi thai "
        "vietnamese indonesian swahili welsh irish gaelic catalan basque latin esperanto "
        "icelandic tagalog".split()
    ),
    "sport": frozenset(
        "football soccer rugby cricket tennis badminton squash golf basketball baseball "
        "hockey volleyball netball swimming swim swims running run runs marathon marathons "
        "cycling cycle cycles climbing climb boxing judo karate yoga pilates rowing sailing "
        "surfing surf skiing ski snowboarding skating hiking triathlon athletics padel "
        "table-tennis ping-pong fencing archery handball lacrosse crossfit".split()
    ),
    "herb": frozenset(
        "coriander cilantro basil parsley mint dill rosemary thyme oregano sage tarragon chives "
        "fennel lemongrass bay".split()
    ),
    "fruit": frozenset(
        "apple apples banana bananas kiwi kiwis mango mangoes orange oranges strawberry "
        "strawberries peach peaches pineapple grape grapes cherry cherries melon watermelon "
        "lemon lime pear pears plum plums raspberry raspberries blueberry blueberries avocado "
        "papaya apricot apricots coconut fig figs pomegranate".split()
    ),
    "nut": frozenset(
        "peanut peanuts almond almonds cashew cashews walnut walnuts hazelnut hazelnuts pecan "
        "pecans pistachio pistachios macadamia brazil".split()
    ),
    "colour": frozenset(
        "red blue green yellow black white silver grey gray orange purple pink brown gold "
        "navy maroon beige teal".split()
    ),
    "pet": frozenset(
        "dog dogs puppy cat cats kitten hamster guinea pig rabbit bunny parrot budgie tortoise "
        "turtle goldfish fish snake lizard gecko ferret horse pony chicken chickens".split()
    ),
    "breed": frozenset(
        "greyhound labrador spaniel terrier collie poodle whippet beagle dachshund pug husky "
        "retriever shepherd bulldog corgi lurcher schnauzer chihuahua rottweiler boxer doberman "
        "dalmatian cockapoo labradoodle cavapoo staffie staffy siamese persian ragdoll bengal "
        "tabby sphynx".split()
    ),
    # "Which race am I training for?" is answered by "the Stockholm half marathon"
    "race": frozenset(
        "marathon marathons half-marathon 10k 5k parkrun triathlon ironman ultra ultramarathon "
        "duathlon sportive".split()
    ),
    # "what am I studying?", "what's my degree in?": "2nd year sociology at Yonsei"
    "subject": frozenset(
        "sociology psychology law medicine nursing midwifery engineering architecture economics "
        "history geography biology chemistry physics maths math mathematics philosophy politics "
        "accounting finance business marketing design art drama education linguistics "
        "anthropology pharmacy dentistry veterinary journalism statistics neuroscience "
        "biochemistry criminology theology classics computing".split()
    ),
    # "When is my sister's wedding?" is answered by "... is getting married on 6 September"
    "wedding": frozenset("married marry marrying marries wedding wed".split()),
}
# The question's word for a kind, singular or plural, and its near synonyms.
_NAMES: Final = {
    "instrument": "instrument",
    "instruments": "instrument",
    "language": "language",
    "languages": "language",
    "sport": "sport",
    "sports": "sport",
    "wedding": "wedding",
    "herb": "herb",
    "herbs": "herb",
    "fruit": "fruit",
    "fruits": "fruit",
    "nut": "nut",
    "nuts": "nut",
    "colour": "colour",
    "color": "colour",
    "pet": "pet",
    "pets": "pet",
    "animal": "pet",
    "animals": "pet",
    "breed": "breed",
    "race": "race",
    "races": "race",
    "subject": "subject",
    "subjects": "subject",
    "major": "subject",
    "majoring": "subject",
    "degree": "subject",
}


def kinds_named(words: Iterable[str]) -> set[str]:
    """The kinds among a question's words: {"instrument"} for "what instrument ...?"."""
    return {_NAMES[w] for w in words if w in _NAMES}


def members_asked(question: str) -> frozenset[str]:
    """The members of the kinds ``question`` names: a breed for "what breed is Biscuit?"."""
    # (not "wedding", whose words are other words for it: a sentence saying "married" is
    # about the wedding, not the answer to which one)
    kinds = kinds_named(_WORD.findall(question.casefold())) - {"wedding"}
    return frozenset().union(*(KINDS[k] for k in kinds)) if kinds else frozenset()


def says_a_member(members: frozenset[str], sentence: str) -> bool:
    """Whether ``sentence`` names one of ``members`` ("he's a beagle, 4 years old")."""
    return bool(members) and bool(members & set(_WORD.findall(sentence.casefold())))


def names_one_of(kinds: Iterable[str], said: Iterable[str]) -> bool:
    """Whether words a fact says name a member of one of ``kinds``."""
    members = frozenset().union(*(KINDS[k] for k in kinds)) if kinds else frozenset()
    return bool(members & {w.casefold() for w in said})
