"""Risks: a reply must never recommend what a remembered allergy, diet or condition rules out.

Told "Keep in mind my peanut allergy", the bundled model suggested peanut butter sandwiches. A
small model cannot be trusted to respect a risk, so the core checks the reply before it is
shown: each remembered risk names the things it rules out (the allergen and what commonly
contains it, the foods a diet excludes), and a sentence that recommends one of them without
a negation ("no", "without", "avoid", "-free", ...) breaks it. The assistant then regenerates
with the risk stated first; if that reply breaks it too, a one-line warning naming the memory
is appended. A fear is a risk for plans ("any ideas for our weekend away?" after "heights are
my absolute nightmare" must not get zip lines).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Final

from desktop_agent.core.grounding_wording import contracted, second_person
from desktop_agent.core.memory_model import MemoryItem
from desktop_agent.core.risk_words import DIETS, EXPANSIONS, FEARS

_RISK_TEXT = re.compile(
    r"\ballerg|\bintoleran|\bvegetarian\b|\bveggie\b|\bvegan\b|\bpescatarian\b|\bhalal\b|\bketo\b|"
    r"\bkosher\b|\bc[o]?eliac\b|\bdiabetes\b|\blow[\s-](?:salt|sodium)\b|\bpregnan\w*|\bsober\b|\bteetotal\b|\boff alcohol\b|\b(?:gluten|dairy)[\s-]free\b|\b(?:does not|doesn't|do not|don't|never|cannot|can't) "
    r"(?:eat|drink|have|take)\b|\bavoids?\b",
    re.IGNORECASE,
)
# The word for what the risk is: "allergic" (allerg-), "intolerant", "coeliac", "vegan", ...
_RISK_KIND = re.compile(
    r"\ballerg\w*|\bintoleran\w*|\bc[o]?eliac\b|\bvegan\b|\bvegetarian\b|\bpescatarian\b|\bketo\b|"
    r"\bhalal\b|\bkosher\b|\bdiabet\w*|\bpregnan\w*",
    re.IGNORECASE,
)
_TAKEN_BACK = re.compile(
    r"\b(?:does not have|doesn't have|(?:is|are) not (?:allergic|intolerant)|"
    r"isn't (?:allergic|intolerant)|no longer (?:has|is|allergic|intolerant)|(?:is|are) no longer|"
    r"(?:is|are) not (?:vegetarian|vegan|pescatarian|halal|kosher))\b",
    re.IGNORECASE,
)
_AFTER_ALLERGY = re.compile(
    r"(?:allergic|allergy|allergies|intolerant|intolerance)\s+(?:to\s+)?(.+)$", re.IGNORECASE
)
# What the allergy is to, said before it: "my peanut allergy", "a severe shellfish allergy".
_BEFORE_ALLERGY = re.compile(r"((?:[a-z]+\s+){1,2})(?:allergy|allergies|intolerance)\b")
# Words of a risk's wording that name nothing it rules out.
_NOT_TERMS: Final = frozenset(
    "and or to the a an any all of other foods my his her their no has have is user severe "
    "mild serious bad nasty slight food known".split()
)
_AFTER_AVOID = re.compile(
    r"(?:does not|doesn't|do not|don't|never|cannot|can't)\s+(?:eat|drink|have|take)\s+(.+)$|"
    r"\bavoids?\s+(.+)$",
    re.IGNORECASE,
)
# Words just before a term that exclude it rather than recommend it ("no peanuts", "allergic to
# peanuts", "free of nuts"), and just after it ("peanut-free", "peanut allergy").
_EXCLUDED_BEFORE = re.compile(
    r"\b(?:no|not|non|without|avoid|avoiding|skip|free of|instead of|replace|replacing|swap|"
    r"substitute|allergic to|allergy to|allergies to|intolerant to|never|don't|do not|"
    r"leave out|omit|except|nor|or any|virgin|non-alcoholic|alcohol-free|alcohol free|"
    r"zero-proof|low-sugar|sugar-free)(?: \w+){0,1}$",
    re.IGNORECASE,
)
_CLAUSE_START = re.compile(r"[.!?;:,\n]|\s[-–—]\s|\bbut\b")
_TURNS: Final = frozenset("but instead try add serve enjoy have top topped swap".split())
_LOOKBACK: Final = 6
_EXCLUDED_AFTER = re.compile(r"[\s-]*(?:free|allerg\w*|intoleran\w*)\b", re.IGNORECASE)
_WORD = re.compile(r"[^\W_][\w'-]*")
# Requests where a risk matters: food and drink, and medicine for a drug allergy.
_FOOD = re.compile(
    r"\b(?:cook|cooking|recipe|recipes|eat|eating|food|meal|meals|dinner|lunch|breakfast|"
    r"snack|snacks|bake|baking|dish|dishes|restaurant|menu|order|drink|dessert|cake|"
    r"sandwich|grocer\w*|shopping list|ingredients?|hungry|tonight|cocktails?|bar|pub|"
    r"wine|beer|party|toast|brunch|supper|serve|serving|picnic|bbq|barbecue|buffet|feed|"
    r"sauce|sauces|stir[\s-]fry|soup|salad|curry|pasta|pizza|marinade|dressing|sweets|treats?|"
    r"chocolate|biscuits?|cheese\w*|takeaway|smoothie|sandwiches|baked?|roast|stew)\b",
    re.IGNORECASE,
)
_MEDICINE = re.compile(
    r"\b(?:medicine|medication|drug|drugs|antibiotic\w*|pill|pills|prescription|infection|"
    r"doctor|pharmacy|treat|treatment|take\s+for|cold|flu|headache|migraine|cough|fever|"
    r"painkillers?|pain\s+relief|remed(?:y|ies)|tablets?|sore\s+throat|congest\w*|blocked\s+nose)\b",
    re.IGNORECASE,
)
# Requests where a fear matters: plans, outings, trips, ideas for something to do.
_PLANS = re.compile(
    r"\b(?:ideas?|suggest\w*|recommend\w*|plan|plans|planning|weekend|holidays?|trip|trips|"
    r"day\s+out|days\s+out|things\s+to\s+do|activit(?:y|ies)|adventur\w*|date|birthday|"
    r"anniversary|hen|stag|honeymoon|travel\w*|visit|break|getaway|thrill\w*|exciting|"
    r"team[\s-]building|outing|excursion|itinerary|bucket\s+list|get\s+there|gift|present|"
    r"experience|treat)\b",
    re.IGNORECASE,
)
# A reply that takes a fear into account: "since you're not keen on heights", "no heights".
_FEAR_TEXT = re.compile(
    r"\b(?:fear\w*|afraid|scared|terrified|phobi\w*|vertigo|claustrophob\w*|nervous\s+fl[iy]er|"
    r"ground[\s-]level|feet\s+on\s+the\s+ground)\b",
    re.IGNORECASE,
)
_DRUGS: Final = frozenset({"penicillin", "amoxicillin", "aspirin", "ibuprofen", "sulfa", "codeine"})
# Medicines that rule others out: a blood thinner and the common anti-inflammatory painkillers
# (bleeding), and the two drugs whose levels they raise. A reply must not suggest them.
_NSAIDS: Final = (
    "ibuprofen", "aspirin", "naproxen", "diclofenac", "nurofen", "advil", "motrin", "aleve",
    "nsaid", "nsaids", "anti-inflammatory", "anti-inflammatories",
)  # fmt: skip
_INTERACTIONS: Final[dict[str, tuple[str, ...]]] = dict.fromkeys(
    "warfarin coumadin apixaban eliquis rivaroxaban xarelto edoxaban dabigatran pradaxa "
    "clopidogrel plavix heparin methotrexate lithium".split(),
    _NSAIDS,
)


@dataclass(frozen=True, slots=True)
class Risk:
    """One remembered risk and the words a reply may not recommend."""

    memory: MemoryItem
    terms: tuple[str, ...]
    medical: bool  # a drug allergy: it matters for medicine, not for food
    drug: str = ""  # a medicine taken, which rules out others ("warfarin")
    activity: bool = False  # a fear: it matters for plans and outings, not for food

    def describe(self) -> str:
        """ "User is afraid of heights" -> "you are afraid of heights"."""
        return _to_user(self.memory.text)

    def interaction(self, lead: str) -> str:
        """The line for a medicine taken: ``lead`` ("Remember", "Careful") and why."""
        return (
            f"⚠ {lead}: you take {self.drug}, and painkillers such as ibuprofen or aspirin can "
            "interact with it; ask a pharmacist or your doctor first."
        )

    def stated_in(self, reply: str) -> bool:
        """Whether a reply says the risk itself (the allergy, the diet), not only "avoid X":
        asked "can I take ibuprofen?", "avoid taking ibuprofen if your gums bleed" does not
        tell the user why."""
        if self.drug:
            return self.drug in reply.casefold()
        if self.activity:
            return self.mentioned_in(reply)
        kind = _RISK_KIND.search(self.memory.text)
        if kind is None:
            return bool(_RISK_TEXT.search(reply))
        return re.search(rf"\b{re.escape(kind.group(0)[:6])}", reply, re.IGNORECASE) is not None

    def mentioned_in(self, reply: str) -> bool:
        """Whether a reply speaks of this risk: the allergy or diet itself, or plainly leaving
        out what it rules out ("peanut-free", "no peanuts", "without shellfish")."""
        lowered = reply.casefold()
        if _RISK_TEXT.search(reply) or (self.drug and self.drug in lowered):
            return True
        feared = self.memory.subject_key.casefold().partition("fear:")[2]
        if self.activity and (_FEAR_TEXT.search(reply) or feared[:5] in lowered):
            return True  # "since heights aren't your thing", "if you're scared of ..."
        return any(
            re.search(
                rf"\b(?:no|without|avoid\w*)\s+(?:\w+\s+)?{re.escape(t)}\b|"
                rf"\b{re.escape(t)}[\s-]*free\b",
                lowered,
            )
            for t in self.terms
        )


# Conditions that rule out common medicines: decongestants raise blood pressure; the
# anti-inflammatory painkillers harm an ulcer or weak kidneys.
_CONDITIONS: Final[tuple[tuple[re.Pattern[str], tuple[str, ...]], ...]] = (
    (
        re.compile(r"\bhigh blood pressure\b|\bhypertension\b", re.IGNORECASE),
        ("pseudoephedrine", "phenylephrine", "sudafed", "decongestant", "decongestants"),
    ),
    (re.compile(r"\b(?:stomach|peptic) ulcers?\b|\bkidney disease\b", re.IGNORECASE), _NSAIDS),
)


def risks_of(items: Iterable[MemoryItem]) -> list[Risk]:
    """The risks among active semantic memories (allergies, diets, foods never eaten, a
    medicine or condition that rules out others)."""
    found = []
    for item in items:
        feared = item.subject_key.casefold().partition("fear:")[2]
        if feared:
            # (in the table's order, so a regenerated reply is told the likeliest first)
            ordered = {t: 0 for w in feared.split() for t in FEARS.get(w.rstrip("s"), ())}
            if item.active and ordered:
                found.append(Risk(item, tuple(ordered), False, activity=True))
            continue
        taken = item.subject_key.casefold().partition("medication:")[2]
        if item.active and taken in _INTERACTIONS:
            found.append(Risk(item, _INTERACTIONS[taken], True, drug=taken))
            continue
        ruled_out = [terms for condition, terms in _CONDITIONS if condition.search(item.text)]
        if item.active and ruled_out and not _TAKEN_BACK.search(item.text):
            found.append(Risk(item, ruled_out[0], True))
            continue
        if not item.active or not (item.type == "risk" or _RISK_TEXT.search(item.text)):
            continue
        if _TAKEN_BACK.search(item.text):
            continue  # "User is not allergic to cats": a risk taken back rules nothing out
        terms = _terms(item.text)
        if terms:
            medical = bool(set(terms) & _DRUGS)
            found.append(Risk(item, tuple(sorted(terms)), medical))
    return found


def relevant_risks(message: str, risks: Sequence[Risk]) -> list[Risk]:
    """Risks that matter for ``message``: food requests for food risks, medicine for drugs,
    plans and outings for fears, and any risk whose words the message names."""
    food, medicine = bool(_FOOD.search(message)), bool(_MEDICINE.search(message))
    plans = bool(_PLANS.search(message))
    said = {w.casefold() for w in _WORD.findall(message)}
    return [
        r
        for r in risks
        if (plans if r.activity else medicine if r.medical else food)
        or said & {t for t in r.terms if " " not in t}
    ]


def violations(reply: str, risks: Sequence[Risk]) -> list[Risk]:
    """Risks the reply breaks: it names something they rule out, other than to exclude it."""
    lowered = reply.casefold()
    return [r for r in risks if any(_recommends(lowered, term) for term in r.terms)]


# A reply saying a risk is not so: "you're not allergic to peanuts", "the user has no
# allergies", "you aren't vegan", "not afraid of heights". What follows the word may name what
# it is to ("to peanuts", "of heights").
_DENIED = re.compile(
    r"(?:\b(?:no|not|never|without)|n['’]t)\s+(?P<between>(?:[\w'’-]+\s+){0,2}?)"
    r"(?P<kind>allerg(?:y|ies|ic)|intoleran(?:t|ce|ces)|c[o]?eliac|vegan|vegetarian|pescatarian|"
    r"diabetic|afraid|scared|terrified|frightened)\b(?P<rest>[^.!?;\n]*)",
    re.IGNORECASE,
)
# Whom the clause is about: the user ("your friend is not allergic" is not the user).
_THE_USER = re.compile(r"\b(?:you|you['’](?:re|ve)|user)\b", re.IGNORECASE)
# "no other allergies", "not allergic to anything else": the remembered one is not denied.
_BESIDES = re.compile(r"\b(?:other|else|besides|apart|except|another|new)\b", re.IGNORECASE)
_NAMED_AFTER = re.compile(r"\s+(?:to|of|towards?)\s+(?P<what>(?:[\w'’-]+\s*){1,4})", re.I)
_FEAR_WORDS: Final = frozenset({"afraid", "scared", "terrified", "frightened"})


def denials(reply: str, risks: Sequence[Risk]) -> list[Risk]:
    """Risks the reply says are not so: "The user has no allergies to peanuts" beside a
    remembered peanut allergy. Of something else ("not allergic to cats"), or of others
    ("no other allergies"), a denial says nothing against the risk."""
    denied = []
    for risk in risks:
        for found in _DENIED.finditer(reply):
            clause = _CLAUSE_START.split(reply[: found.start()])[-1]
            if _denies(risk, found) and _THE_USER.search(clause):
                denied.append(risk)
                break
    return denied


def _denies(risk: Risk, found: re.Match[str]) -> bool:
    """Whether one denial found (``_DENIED``) is of ``risk``: the same kind of risk, and what
    it names, if anything, is among what the risk rules out."""
    kind = found.group("kind").casefold()
    if risk.drug:
        return False
    if risk.activity != (kind in _FEAR_WORDS):
        return False
    told = _RISK_KIND.search(risk.memory.text)
    if not risk.activity and (told is None or told.group(0).casefold()[:5] != kind[:5]):
        return False
    if _BESIDES.search(found.group("between")) or _BESIDES.search(found.group("rest")[:30]):
        return False
    named = _NAMED_AFTER.match(found.group("rest"))
    said = {w.casefold() for w in _WORD.findall(found.group("between"))}
    if named is not None:
        said |= {w.casefold() for w in _WORD.findall(named.group("what"))}
    said -= _NOT_TERMS | {"at", "anything", "really", "actually", "even", "any", "longer"}
    if not said:
        return True  # "you have no allergies": all of them, this one too
    if risk.activity:
        feared = risk.memory.subject_key.casefold().partition("fear:")[2]
        return any(w[:5] == feared[:5] for w in said)
    singular = {w[:-1] for w in said if w.endswith("s")}
    return bool((said | singular) & set(risk.terms))


def _recommends(text: str, term: str) -> bool:
    """Whether ``term`` occurs in ``text`` other than excluded: "no peanuts", "avoid peanut
    butter or peanuts", "peanut-free", "allergic to peanuts" are fine; "peanut butter
    sandwiches" is not, even after "if you're allergic to peanuts," in the same sentence."""
    for found in re.finditer(rf"\b{re.escape(term)}\b", text):
        after = text[found.end() : found.end() + 12]
        if _EXCLUDED_AFTER.match(after) or _excluded_before(text[: found.start()]):
            continue
        return True
    return False


def _excluded_before(before: str) -> bool:
    """An exclusion earlier in the same clause, within a few words, with no turn between
    ("avoid X or Y" excludes Y; "skip X and add Y" does not)."""
    clause = _CLAUSE_START.split(before)[-1]
    words = _WORD.findall(clause.casefold())[-_LOOKBACK:]
    for at in range(len(words) - 1, -1, -1):
        if words[at] in _TURNS:
            return False
        if _EXCLUDED_BEFORE.search(" ".join(words[: at + 1])):
            return True
    return False


_DIET_KINDS: Final = frozenset({"vegan", "vegetarian", "pescatarian", "halal", "kosher"})


def taken_back(message: str, risks: Sequence[Risk]) -> list[Risk]:
    """The risks ``message`` itself takes back ("I'm not vegetarian anymore, I eat chicken
    now"): learned after the reply, so the reply is not checked against them. An allergy only
    when the message also names what it was to ("no longer allergic to cats")."""
    lowered = message.casefold()
    gone = []
    for risk in risks:
        kind = _RISK_KIND.search(risk.memory.text)
        if kind is None:
            continue
        stem = re.escape(kind.group(0).casefold()[:6])
        if not re.search(rf"\b(?:not|no\s+longer|n't)\s+(?:\w+\s+)?{stem}", lowered):
            continue
        said = {w.casefold() for w in _WORD.findall(message)}
        if kind.group(0).casefold() in _DIET_KINDS or said & set(risk.terms):
            gone.append(risk)
    return gone


def named_risks(message: str, risks: Sequence[Risk]) -> list[Risk]:
    """Risks whose ruled-out things the message names ("would penicillin help?")."""
    lowered = message.casefold()
    return [r for r in risks if any(re.search(rf"\b{re.escape(t)}\b", lowered) for t in r.terms)]


def reminder(risks: Sequence[Risk]) -> str:
    """The line added when the user asks about something a risk rules out."""
    return _lines(risks, "Remember")


# After the risks, said to the user: "⚠ Careful: you don't eat pork, and this suggests ..."
_SAID: Final = {
    "Remember": "",
    "Careful": ", and this reply suggests something you should avoid",
    "Denied": ", and this reply says otherwise",
}


def _lines(risks: Sequence[Risk], lead: str, said: str = "") -> str:
    """One line for every risk of a medicine taken, one for all the others together, each
    naming the memory as said to the user ("you are allergic to peanuts")."""
    lines = [r.interaction(lead) for r in risks if r.drug]
    others = [r for r in risks if not r.drug]
    if others:
        named = "; ".join(_to_user(r.memory.text) for r in others)
        lines.append(f"⚠ {lead}: {named}{_SAID[said or lead]}.")
    return "\n".join(lines)


def _to_user(text: str) -> str:
    """ "User does not eat pork" -> "you don't eat pork"."""
    said = contracted(second_person(text))
    return said[:1].lower() + said[1:]


def risk_instruction(risks: Sequence[Risk]) -> str:
    """Stated first in the system prompt of a regenerated reply."""
    lines = [f"- {r.describe()}: never suggest {', '.join(_distinct(r.terms)[:6])}." for r in risks]
    return "Important, the user's safety:\n" + "\n".join(lines)


def _distinct(terms: Sequence[str]) -> list[str]:
    """One form of each thing: "zip line", not also "zip lines", "zipline", "ziplining"."""
    seen: dict[str, str] = {}
    for term in terms:
        seen.setdefault(re.sub(r"\W", "", term)[:3], term)
    return list(seen.values())


def warning(risks: Sequence[Risk], denied: Sequence[Risk] = ()) -> str:
    """The line appended when a reply still breaks a risk, and the one when it says a risk is
    not so (``denied``)."""
    broken = [r for r in risks if r not in denied]
    lines = [_lines(denied, "Careful", "Denied"), _lines(broken, "Careful")]
    return "\n".join(line for line in lines if line)


def _terms(text: str) -> set[str]:
    lowered = text.casefold()
    objects = []
    for pattern in (_AFTER_ALLERGY, _AFTER_AVOID, _BEFORE_ALLERGY):
        found = pattern.search(lowered)
        if found:
            objects.append(next(g for g in found.groups() if g))
    words = {w for obj in objects for w in _WORD.findall(obj)}
    terms: set[str] = set()
    for diet, ruled_out in DIETS.items():
        if re.search(rf"\b{diet}\b", lowered):
            for family in ruled_out:
                terms.update(EXPANSIONS.get(family, (family,)))
    for word in words:
        singular = word[:-1] if word.endswith("s") and len(word) > 3 else word
        if word in _NOT_TERMS:
            continue
        terms.update({word, singular})
        for family in (word, singular):
            terms.update(EXPANSIONS.get(family, ()))
    for phrase in ("tree nut", "peanut butter"):
        if phrase in lowered:
            terms.update(EXPANSIONS.get(phrase, (phrase,)))
    return terms
