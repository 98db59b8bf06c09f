"""Statements: the user's own words that answer a question no learned fact answers.

Extraction is rules over a weak model's help, so some facts are said and never learned ("I see
Dr Okafor for my teeth"). Saying "you haven't told me" then is wrong: the user did tell, and
the words are in an episode. So, when no fact answers a question about the user, the sentence
of a past message that shares the question's words is quoted back, linked to its episode; a
later sentence that says a change to it is quoted instead (and, for a question about the past,
the sentence said before the change); with no sentence sharing a word, the one closest in
meaning (``said_by_meaning``).

Only what may still be true is quoted: never a message that only asked, never the words that
taught a fact since superseded or edited nor a sentence naming its old value (blanked by
``current_words``), never words after a forgotten span that may lean on it, never a sentence
that itself asks or asks to forget (``user_sentences``).
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable, Collection, Iterable, Sequence
from dataclasses import dataclass, replace
from typing import Final

from desktop_agent.core.extraction_words import CARERS, RELATIONS
from desktop_agent.core.grounding import content_words, kin_asked, stems
from desktop_agent.core.grounding_kinds import members_asked, says_a_member
from desktop_agent.core.grounding_words import the_thing
from desktop_agent.core.memory_model import MemoryItem
from desktop_agent.core.memory_service import Recollection
from desktop_agent.core.questions import question_only
from desktop_agent.core.statement_wording import (
    A_VALUE,
    AMOUNT_SAID,
    ENDED,
    NAMES_SOMEONE,
    PARTS,
    kind_asked,
    what_is_so,
)
from desktop_agent.core.timeparse import DAY_OR_MONTH
from desktop_agent.core.user_sentences import told_sentences
from desktop_agent.search.tokenize import STOPWORDS

# A quote is a sentence, not a speech: long ones are cut at a word.
QUOTE_LIMIT: Final = 240


@dataclass(frozen=True, slots=True)
class Statement:
    """One sentence the user said, and the episode it is in."""

    sentence: str
    source: Recollection
    shared: int  # how many of the question's words it says
    span: tuple[int, int] = (0, 0)  # of the sentence in the user's message
    earlier: bool = False  # said before a change the user told since (``said_before``)
    told_on: bool = False  # a headline joined with what the user said after it (``told_on``)


def best_statement(
    question: str,
    episodes: Sequence[Recollection],
    *,
    reasons: bool = False,
    saying: Collection[str] | None = None,
    known_as: Collection[str] = (),
) -> Statement | None:
    """The sentence, among the user's messages in ``episodes`` (best recalled first), that says
    most of what ``question`` asks about; the newer wins a tie. None when no sentence shares a
    word with it beyond the question's frame. Without ``reasons`` the sentence is quoted
    without why ("... now | bc CoreFit put their prices up"), which often names the old
    value; a question about the past wants it, and the older of two sentences that say as
    much. A later sentence that says a change to the best one is quoted instead
    (``changed_since``); with ``saying``, only one that says one of those words. For the
    past, a change's earlier words are (``said_before``). The short sentence after that says
    what is asked (when, how much, a name) joins it (``with_next``). ``known_as``: the names
    of the people asked about ("magnus" for "my grandson"), which say whom a sentence is about
    as well as the relation does."""
    wanted = content_words(question)
    kin = kin_asked(question)
    if kin:
        # the relation alone ("my sister") does not answer "what's her job?", nor a carer's
        # other words ("physiotherapist" for "who's my physio?")
        wanted -= kin | content_words(" ".join(kin & CARERS))
    if not wanted and not kin:
        return None
    wanted |= inflected(wanted)  # "which race did I sign up for?" -> "Signed up for ..."
    # where one lives is said by the home ("sold the Leeds flat and bought a little bungalow
    # in Harrogate"), work by the job
    wanted |= {said for word in wanted & _SAID_AS.keys() for said in _SAID_AS[word]}
    best: Statement | None = None
    best_key: tuple[int, bool, bool, bool, float, float] | None = None
    # of sentences as near, one saying the kind asked ("Netflix is 10.99" for "how much is
    # netflix costing me?", over the newer "netflix unchanged")
    says = kind_asked(question)
    # (for the past, a name is no sign: the change that ended it names people too)
    past_by_name = reasons and says is NAMES_SOMEONE
    now_asked = bool(_NOW_ASKED.search(question))
    counted = counted_in(question)
    # ("how much did I pay for the hotel?": "paid €612 upfront", not "conf number 4471902")
    money = money_or_kind_asked(question) is MONEY_SAID
    thing = the_thing(question)
    members = members_asked(question)
    # the head of a thing named in two words, which says it more than the first: "insurance"
    # in "my car insurance" ("Insured with Aviva", not "Car stuff: it's a Ford Fiesta")
    compound = _COMPOUND.search(question)
    head = stems(compound.group(2)) if compound else set()
    head = (head | inflected(head)) & wanted if head - STOPWORDS else set()
    # how many of the user's sentences say each word asked: of two sentences as near, the one
    # saying the rarer words ("Insured with Aviva" over "Car stuff: it's a Ford Fiesta" for
    # "who's my car insurance with?")
    told = Counter(
        word
        for recollection in episodes
        if not question_only(recollection.item)
        for sentence in told_sentences(recollection.item.user_text)
        for word in stems(sentence) & wanted
    )
    # the names a question asks about, in lower case too ("when's gareth's birthday")
    names = names_asked(question) & wanted
    # whom a question asks what they do, by name: "what marathon is Maya doing?"
    doing = stems(" ".join(_DOING.findall(question))) & names
    for recollection in episodes:
        item = recollection.item
        if question_only(item):
            continue
        sentences = told_sentences(item.user_text)
        for n, sentence in enumerate(sentences):
            said = stems(sentence)
            before = sentences[n - 1] if n else ""
            if not n and leans_on_the_message_before(sentence):
                # (the one recalled: "also Ollie asked ... his divorce" names its own)
                before = message_before(item, (r.item for r in episodes))
            if before and _THEIR.search(sentence):
                # whom "her" means, named just before: "Mia's 6 and obsessed with axolotls. |
                # her teacher this year is Mrs. Achterberg" for "who's Mia's teacher?"; or in
                # the message before ("planning a surprise 40th for gareth!!" | "his actual
                # birthday is 9 march btw")
                named = stems(" ".join(_NAMED.findall(before))) | names & stems(before)
                said |= (wanted | set(known_as)) & named
                if n and _OPENS_WITH_THEM.match(sentence):
                    # and who they are, said just before: "Saw a physio today, Thandi. | She
                    # thinks it's shin splints" for "what did the physio think it was?"
                    said |= (wanted | kin) & stems(sentences[n - 1]) & _ROLES
            if kin and not kin & said and not said & set(known_as):
                continue
            if doing and not doing & said and any(told[name] for name in doing):
                # someone asked of by name, whom other sentences name: "my friend Maya is doing
                # Chicago" for "what marathon is Maya doing?", not the user's own marathon
                continue
            shared = len(wanted & said) + (1 if kin else 0)
            # (said of the one asked about by name, the kind asked answers: "Pip's teeth say
            # he's more like 6" for "how old is my dog?")
            # (a name is no such kind: the one asked about is named)
            of_kin = (
                bool(said & set(known_as))
                and says not in (None, NAMES_SOMEONE)
                and bool(says.search(sentence))
            )
            if wanted and not wanted & said and not of_kin:
                continue
            # asked what is so now, a sentence that puts something right counts one more: it
            # outranks the older sentence it corrects, which may share more words with the
            # question; else it only breaks a tie after the kind asked. A question about the
            # past wants the earlier words, not the correction
            when = item.created_at.timestamp()
            kind = (says is not None and not past_by_name and bool(says.search(sentence))) or (
                says_a_member(members, sentence)  # "he's a beagle" for "what breed is he?"
            )
            if kind and counted is not None and not counted.search(sentence):
                kind = False  # "how many hours ...?": "3 hours", not "£17 an hour"
            if kind and money and not MONEY_SAID.search(sentence):
                kind = False
            corrects = bool(_CORRECTS.search(sentence))
            if reasons:
                key = (shared, kind, False, False, 0.0, -when)
            elif now_asked:  # "what day is it now?": the newest correction, of those as near
                # the one saying the kind asked ("now I start at 6:00" for "what time ...?"),
                # itself or in the short sentence after it ("put the rent up. | it's £1,325")
                said_next = kind or (
                    says is not None
                    and n + 1 < len(sentences)
                    and len(sentences[n + 1].split()) <= 14
                    and bool(says.search(sentences[n + 1]))
                )
                key = (shared + corrects, said_next, False, False, 0.0, when)
            else:  # "how old is Tobi?": what says an age, over news that says none; then
                # what names the thing asked ("contractor is Declan Byrne" for "who's the
                # contractor doing the kitchen?" over "we're doing up the kitchen")
                rare = sum(1 / told[word] for word in wanted & said if told[word])
                rare += 1.0 if head & said else 0.0
                key = (shared, kind, bool(thing & said), corrects, rare, when)
            if best_key is None or key > best_key:
                said_now = clipped(sentence if reasons else what_is_so(sentence, question))
                best, best_key = Statement(said_now, recollection, shared), key
    if best is not None:
        best = with_next(best, question, past=reasons)  # "... Spanish course! | Tuesdays 6:30"
    if best is not None and not reasons:
        changed = changed_since(best, episodes, wanted | kin, question, known_as)
        if changed is not None and _of_something_else(best, changed, question):
            # "we're spending £150 on their present" for "how much were we spending on the
            # present?", not "lol the wedding's moved to the 28th", which says no amount
            changed = None
        if changed is not None and _the_same_asked(changed.sentence, question):
            changed = None  # "..., same office tho": what is asked is still as said before
        if changed is not None and (saying is None or stems(changed.sentence) & set(saying)):
            return with_next(changed, question, past=reasons)
    if best is not None and not reasons and _the_same_asked(best.sentence, question):
        # "they rescheduled my passport appt to the 21st, same office tho" for "which office
        # do i go to?": the office is in what was said before the change
        earlier = said_before(best, episodes, wanted | kin)
        if earlier is None:
            # in other words: "they pay me £310 a day" before "the day rate stays the same"
            said_at = best.source.item.created_at
            older = [r for r in episodes if r.item.created_at < said_at]
            earlier = best_statement(question, older, known_as=known_as) if older else None
        if earlier is not None:
            return with_next(earlier, question, past=False)
    if best is not None and reasons and CHANGE.search(best.sentence):
        # the past of a change is what was said before it: "raised the metformin to 1000 mg"
        # tells what it is now; "I take metformin 500 mg twice a day" what it was
        earlier = said_before(best, episodes, wanted | kin)
        return with_next(earlier, question, past=True) if earlier is not None else best
    return best


def money_or_kind_asked(question: str) -> re.Pattern[str] | None:
    """``kind_asked``, but an amount of money for a question on what is paid or costs ("how
    much did I pay for the hotel?"), which a booking's other numbers do not answer."""
    says = kind_asked(question)
    return MONEY_SAID if says is AMOUNT_SAID and _MONEY_ASKED.search(question) else says


_MONEY_ASKED: Final = re.compile(
    r"\b(?:pay|paid|paying|pays|cost|costs|costing|spend|spent|spending|charge|charges|"
    r"charging|price|prices|rent|fee|fees|budget|owe|earn|earning|salary|wage|rate)\b",
    re.IGNORECASE,
)
# An amount of money: "€612", "R5,100", "1,150 a month", "38 euros", "4.5k"
MONEY_SAID: Final = re.compile(
    r"[£$€¥₦₹]\s?\d|\bR\s?\d|\d[\d,.]*\s?(?:k|euros?|dollars?|pounds?|quid|bucks|yen|rand|"
    r"naira|rupees?|pesos?|zloty|kr|chf|eur|usd|gbp|aud|cad)\b|"
    r"\d[\d,.]*\s*(?:a|an|per|/)\s*(?:month|mo|week|wk|year|yr|hour|hr|h|day|night|session|"
    r"lesson|class|walk|visit|person|head)\b",
    re.IGNORECASE,
)


def counted_in(question: str) -> re.Pattern[str] | None:
    """What says the count ``question`` asks, in its unit: "3 hours" for "how many hours does
    she do?"; None when it asks no count of a unit."""
    how_many = _HOW_MANY_OF.search(question)
    if how_many is None:
        return None
    unit = re.escape(how_many.group("unit").rstrip("s"))
    return re.compile(rf"(?:\d|\b(?:{_COUNT_WORDS}))[\d.,]*\s*-?\s*{unit}s?\b", re.I)


_HOW_MANY_OF: Final = re.compile(r"\bhow\s+many\s+(?P<unit>[a-z]{3,})\b", re.I)
_COUNT_WORDS: Final = (
    "one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|fifteen|twenty|thirty"
)


def _the_same_asked(sentence: str, question: str) -> bool:
    """Whether ``sentence`` says that what ``question`` asks stayed the same without saying it:
    "same office tho" for "which office?", "same time" for "what time is it at?", "same
    saturday slot" for "what day is his swimming?", "same number apparently"."""
    asked = content_words(question)
    # "rent stays the same" says how much it is, not when it is due nor to whom it is paid
    # ("date's unchanged" does say when)
    any_kind = kind_asked(question) in (None, AMOUNT_SAID)
    for same in [*_SAME_WHAT.finditer(sentence), *_STAYS_THE_SAME.finditer(sentence)]:
        what = stems(same.group("what"))
        when = any(what & words and asking.search(question) for words, asking in _SAME_WHEN)
        stays = same.re is _STAYS_THE_SAME
        if when or what & asked and (any_kind or not stays):
            return True
    return False


# "same office", "same time", "same saturday slot" (what stayed, in the words after "same")
_SAME_WHAT: Final = re.compile(r"\bsame\s+(?P<what>[a-z]+(?:\s+[a-z]+)?)", re.IGNORECASE)
# "rate stays the same", "the time's the same", "price hasn't changed"
_STAYS_THE_SAME: Final = re.compile(
    r"\b(?P<what>[a-z]+)(?:(?:['’]s|\s+(?:stays|stayed|is|remains|will\s+stay))\s+(?:the\s+same|"
    r"unchanged)|\s+(?:hasn['’]?t|has\s+not|didn['’]?t)\s+changed?)\b",
    re.IGNORECASE,
)
# ... and what each says of when: "same day" for "what day is it on?", "same saturday slot"
# for "what day is his swimming?", "same time" for "what time is it at?"
_SAME_WHEN: Final = (
    (frozenset({"day", "slot"}), re.compile(r"\b(?:what|which)\s+day\b", re.I)),
    (frozenset({"time", "slot"}), re.compile(r"\bwhat\s+time\b", re.I)),
    (frozenset({"date"}), re.compile(r"\bwhat\s+date\b", re.I)),
)


def _of_something_else(best: Statement, changed: Statement, question: str) -> bool:
    """Whether ``changed``, a change told since ``best``, is to something else than what
    ``question`` asks: ``best`` says the kind asked (an amount, a time, someone) and the
    change's whole message does not."""
    what_says = _what_says(question)
    if what_says is None:
        return False
    if kind_asked(question) is AMOUNT_SAID:  # (an amount, not "the 28th")
        return bool(_AN_AMOUNT.search(best.sentence)) and not _AN_AMOUNT.search(
            changed.source.item.user_text
        )
    return what_says(best.sentence) and not what_says(changed.source.item.user_text)


# a number with its unit ("20mg", "£300", "4.5k"), not a day of the month ("the 28th")
_AN_AMOUNT: Final = re.compile(
    r"(?<![\w.])\d[\d.,]*(?!\d|(?:st|nd|rd|th)\b|\s*(?i:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|"
    r"nov|dec)[a-z]*\b)"
)


def names_asked(question: str) -> set[str]:
    """The stems of the names ``question`` asks about: its capitalised words after the first,
    and in lower case the words before "'s" that are no question word, relation or thing
    named with "the" ("when's gareth's birthday?" -> {"gareth"})."""
    capitalised = _NAMED.findall(question.lstrip()[1:])
    possessive = [
        m["name"]
        for m in _POSSESSIVE.finditer(question)
        if m["name"].casefold() not in STOPWORDS and not _BEFORE_A_THING.match(m["before"] or "")
    ]
    return stems(" ".join([*capitalised, *possessive])) - _RELATION_WORDS


def leans_on_the_message_before(sentence: str) -> bool:
    """Whether ``sentence``, the first of its message, goes on about someone named before it:
    it opens with "he", "his", "she" ... and names no one ("his actual birthday is 9 march")."""
    # (a titled name is someone else: "which means her teacher is Mr Okafor now")
    titled = stems(" ".join(_TITLED_NAME.findall(sentence))) | {"mr", "mrs", "ms", "dr", "mx"}
    return _LEADS_WITH_THEM.match(sentence) is not None and not names_in(sentence) - titled


def names_in(text: str) -> set[str]:
    """The stems of the names ``text`` says: its capitalised words after the first, no day or
    month, not "User" ("also Ollie asked me not to talk about his divorce" -> {"ollie"})."""
    return {
        word
        for name in _NAMED.findall(text.lstrip()[1:])
        if not DAY_OR_MONTH.fullmatch(name)
        for word in stems(name)
        if word != "user"  # ("User's son Jayden is 17")
    }


def message_before(item: MemoryItem, episodes: Iterable[MemoryItem]) -> str:
    """The user's message just before ``item`` in its conversation: as recall read it with
    ``item`` (meta ``BEFORE``), else among ``episodes``, else ""."""
    if said := str((item.meta or {}).get(BEFORE, "")):
        return said
    if not item.conversation_id:
        return ""
    earlier = [
        e
        for e in episodes
        if e.conversation_id == item.conversation_id and e.created_at < item.created_at
    ]
    return max(earlier, key=lambda e: e.created_at).user_text if earlier else ""


_RELATION_WORDS: Final = content_words(" ".join(RELATIONS))
_POSSESSIVE: Final = re.compile(r"(?:^|\s)(?P<before>\w+\s+)?(?P<name>[^\W\d_][\w-]*)['’]s\b")
_BEFORE_A_THING: Final = re.compile(r"(?:the|my|our|your|his|her|their|a|an)\s", re.I)


_SAID_AS: Final = {
    "live": frozenset("flat house bungalow apartment cottage condo".split()),
    "work": frozenset("job".split()),
    # what one pays is a rent, a bill, a fee: "rent is £1,150 a month" for "what was i paying
    # before he put it up?"
    "pay": frozenset("rent bill fee cost price".split()),
    # a rate is what is paid or charged: "they pay me £310 a day" for "how much is my day rate?"
    "rate": frozenset("pay paying paid charge charging earn earning wage wages salary".split()),
}
_OPENS_WITH_THEM: Final = re.compile(r"\s*(?:he|she)(?:['’]s)?\b", re.IGNORECASE)
# A message that goes on about someone from its first words: "his actual birthday is 9 march",
# "oh and she's moved to Leeds"
_LEADS_WITH_THEM: Final = re.compile(
    r"\s*(?:[\w'’]+\s+){0,2}?(?:he|she|his|her|he['’]s|she['’]s|him)\b", re.IGNORECASE
)
_ROLES: Final = frozenset(stems(" ".join(CARERS | RELATIONS.keys())))
_THEIR: Final = re.compile(r"\b(?:he|she|his|her|he's|she's|him)\b", re.IGNORECASE)
_NAMED: Final = re.compile(r"\b[A-ZÀ-Ý][\w'’-]*")
_TITLED_NAME: Final = re.compile(r"\b(?:Dr|Mr|Mrs|Ms|Mx|Prof)\.?\s+([A-ZÀ-Ý][\w'’-]*)")
_NOW_ASKED: Final = re.compile(
    r"\b(?:now|these\s+days|nowadays|currently|at\s+the\s+moment|right\s+now|anymore|still)\b",
    re.IGNORECASE,
)


# Words that say something changed: "the doctor has increased the metformin to 1000 mg", "it's
# actually a meniscus tear", "we booked Porto instead".
CHANGE: Final = re.compile(
    r"\b(?:actually|instead|anymore|no\s+longer|changed|switched|swapped|switch(?=\s+(?:to|over)\b)|moved|increased|"
    r"decreased|upped|raised|lowered|reduced|cut|raising|upping|lowering|increasing|reducing|"
    # ("dropped our dd to £118", not "dropped my phone in the bath")
    r"(?:dropped|hiked|(?:went|gone)\s+(?:up|down))(?=[^.,;!?]{0,30}?\b(?:to|by)\s+[£$€]?\d)|pushed|postponed|rescheduled|brought\s+forward|"
    r"shifted|(?:re)?shuffled|rearranged|this\s+time|skipping|skipped|ditched|ditching|"
    r"(?:gone|went|going|come|came)\s+over\s+to|"
    r"transferred|transferring|quit|(?:took|taken|taking)\s+up|"
    r"replaced|replacement|bumped|took\s+over|taking\s+over|new|now|turns\s+out|updated?|moving|changing|switching|put\s+\w+\s+(?:up|down)|"
    r"wrong|mistake|ended\s+up|going\s+with|gone\s+with|went\s+with|not\s+the|"
    r"(?:went|gone|going)\s+(?:up|down)|up\s+to|down\s+to|dropped(?!\s+(?:my|his|her|our|their|off|by|in|round|over)\b)|doubled|halved|"
    r"(?:taking|took|takes)\s+(?:her|his|their|my)\s+"
    r"(?:spot|place)|refinanced|extended(?!\s+family)|extending|re-?(?:mortgag|book|locat|nam|hom|register|negotiat)\w*)\b",
    re.IGNORECASE,
)


def _names_another(sentence: str, before: str) -> bool:
    """Whether ``sentence`` names someone ``before`` does not: a change of who."""
    named = stems(" ".join(NAMES_SOMEONE.findall(f" {before}")))
    return any(
        not stems(name) & named and not DAY_OR_MONTH.fullmatch(name)
        for name in NAMES_SOMEONE.findall(_PLACE_OR_THING.sub(" ", f" {sentence}"))
    )


# Where something is, or a thing: "at a vineyard in Kent", "the Barn Venue went bust" (as the
# reading capitalises it) name no new maid of honour
_PLACE_OR_THING: Final = re.compile(r"\b(?i:the|in|at|near|from)\s+(?:[A-ZÀ-Ý][\w'’-]*(?:\s+|$))+")


def _whose(name: str, *, after_is: bool, flags: int = 0) -> re.Pattern[str]:
    """Where a question names whom it asks about: before "'s", after "does" or "did" (and
    "is", when ``name`` is capitalised: "is Ana living")."""
    places = [rf"{name}(?=['’]s\b)", rf"(?<=\bdoes\s){name}", rf"(?<=\bdid\s){name}"]
    places += [rf"(?<=\bis\s){name}"] if after_is else []
    return re.compile(rf"(?<![\w'’-])(?:{'|'.join(places)})", flags)


# Whom a question asks about by name: "Maya's teacher", "does Theo go", "is Ana living"
_WHOSE_ASKED: Final = _whose(r"(?-i:[A-ZÀ-Ý])[a-zà-ÿ-]+", after_is=True, flags=re.IGNORECASE)
# ... and typed in lower case: "when's ezra's judo"
_WHOSE_TYPED: Final = _whose(r"[a-zà-ÿ-]+", after_is=False)


def _people_named(text: str) -> set[str]:
    """The stems of the names ``text`` says, never a day or a month: capitalised words after
    its first, and the first when it is no function word and comes before "'s" or a verb of
    the third person or a modal ("Theo's doing", "Theo does nursery", "Priya can't do it";
    not "Named her Pickle")."""
    named = NAMES_SOMEONE.findall(text)
    first = re.match(
        r"\s*([A-ZÀ-Ý][a-zà-ÿ-]+)(?:['’]s\b|(?=\s+[a-z]+s\b)|(?=\s+(?:can['’]?t|cannot|"
        r"couldn['’]?t|won['’]?t|will|had|did|didn['’]?t|just|got|quit|left)\b))",
        text,
    )
    if first and first.group(1).casefold() not in STOPWORDS:
        named.append(first.group(1))
    return stems(" ".join(n for n in named if not DAY_OR_MONTH.fullmatch(n.rstrip("s'’"))))


def changed_since(
    best: Statement,
    episodes: Sequence[Recollection],
    asked: Collection[str],
    question: str,
    known_as: Collection[str] = (),
) -> Statement | None:
    """A later sentence of the user's that says a change to what ``best`` told: it shares a
    word of substance with ``best``'s message ("metformin", "Lisbon") and says it changed. No
    fact was learned from either (else the fact would answer), so only the words tell. The
    clauses of ``best`` that say none of the ``asked`` words are another topic: "flying ANA on
    April 3rd" beside the ryokan asked about is no reason to quote "my flight got pushed".
    ``known_as``: the names of the one asked about by relation ("my best friend": "priya")."""
    told = best.source.item
    # (a short word asked is a topic too: "isa", "gym", "vet")
    short = {w for w in asked if len(w) == 3 and w not in STOPWORDS and not w.isdigit()}

    def topic(text: str) -> set[str]:
        # (and when something ends: "they extended me to the end of january" changes "my
        # contract at Fennick Studios ends 31 october", whose words it shares none of)
        return (
            substance(text) | (stems(text) & short) | ({_AN_END} if _ENDS.search(text) else set())
        )

    # ("my cat biscuit is 4 | and HATES the new flat": the flat is another thing)
    clauses = [c for part in PARTS.split(best.sentence) for c in _AND.split(part)]
    # (how often or how much is no topic: "monthly budget: rent 850, ... | and i put 150 into
    # a stocks isa" for "how much am i putting into the ISA monthly?" is on the ISA)
    asked_of = set(asked) - _HOW_OFTEN
    on_it = {n for n, clause in enumerate(clauses) if stems(clause) & asked_of}
    if best.told_on or not on_it:
        # a headline and what it told: "Japan is booked!!! | flying to Osaka on 2 April with
        # Chiara" is all the one piece of news; and a quote found by its meaning, no clause of
        # which says a word asked ("honestly spotify is the one I use most" for "what do I use
        # for music streaming?"), is all on it
        on_it = set(range(len(clauses)))
    if all(len(clauses[n].split()) < 4 for n in on_it):
        # "dentist with Dr Nwosu is Tuesday the 14th at 8.40, | the crown thing": a clause
        # that only names the thing leans on its neighbours
        on_it |= {m for n in on_it for m in (n - 1, n + 1) if 0 <= m < len(clauses)}
    # a clause that says the kind of thing asked is on it: "... for the Summit, 12-14 May 🎉 |
    # I booked the Avenida Palace for 3 nights" for "which hotel am I at for the lisbon trip?"
    # (when the clauses on it say none: of "swimming is wednesdays at 5:30, football saturday
    # mornings at 10am", only the football's time is on "when does Ava have football?")
    what_says = _what_says(question)
    if what_says is not None and not any(what_says(clauses[n]) for n in on_it):
        on_it |= {n for n, clause in enumerate(clauses) if what_says(clause)}
    # a clause that says it of the one before goes on with it: "I swim at the city pool three
    # mornings a week, | honestly it's the only thing keeping my back in shape"
    on_it |= {n - 1 for n in on_it if n > 0 and _SAYS_IT_OF_THE_LAST.match(clauses[n])}
    # a clause that only names who or where goes on with the one before it: "dentist is
    # booked for tuesday at 4:15pm, | Dr. Halvorsen at Brightsmile on Elm Street"
    on_it |= {n + 1 for n in on_it if n + 1 < len(clauses) and _NAMED_ASIDE.match(clauses[n + 1])}
    aside = {
        word
        for n, clause in enumerate(clauses)
        if n not in on_it
        for word in topic(clause)
        if not word.startswith("#")  # "sertraline, | 50mg": the dose is what is asked
    }
    subject = topic(told.user_text) - aside
    told_said = told_sentences(told.user_text)
    # the people the message's sentences on other things name are theirs: "Sam's teacher is
    # Mrs. Doyle. | Ruby goes to Tiny Steps daycare" is not changed by "Mrs. Doyle left" (by
    # title only: a place or a thing named there may be what the quote is about too)
    subject -= {
        word
        for sentence in told_said
        if not stems(sentence) & set(asked)
        for word in stems(" ".join(_TITLED_NAME.findall(sentence)))
    } - stems(best.sentence)
    # what the question asks for (an amount, a day), when the quote says one: a change that
    # says none is to something else ("12 week course, cost me 340 euros" is not changed by
    # "spanish got moved to tuesdays" for "how much did the course set me back?")
    says = kind_asked(question)
    # (a name first in the quote is one too: "Deb is going to be my maid of honor")
    # the names the quote's message says, none of them a new one ("booked!! Marrakech, ... |
    # my neighbour Kwame said he'll water the plants" is not changed by "flights got moved ...
    # still Marrakech")
    said_there = " ".join([best.sentence, *told_said])
    # (or beside it, in a headline's message: "Japan trip is booked!!! | flying out 3 October,
    # me and my sister Mei" is not changed by "they moved us to 10 October instead")
    named = says is NAMES_SOMEONE and bool(
        _people_named(best.sentence) or any(_people_named(s) for s in told_said)
    )
    says = says if says is not None and (named or says.search(best.sentence)) else None
    # as for a member of the kind asked: "he's a beagle" for "what breed is Biscuit?" is not
    # changed by "so Biscuit is registered with Dr. Kenji Tanaka now"
    members = members_asked(question)
    members = members if says_a_member(members, best.sentence) else frozenset()
    counted = counted_in(question)
    counted = counted if counted is not None and counted.search(best.sentence) else None
    # the one asked about, by name: their name alone is no subject a change shares
    whom = set(known_as) & stems(best.sentence)
    on_topic = topic(best.sentence) | {
        word for sentence in told_said if stems(sentence) & set(asked) for word in topic(sentence)
    }
    # the words of the message's sentences on someone the question does not ask about, when
    # it asks about someone by name ("who's Priya's teacher?")
    asked_names = stems(" ".join(_WHOSE_ASKED.findall(question))) - STOPWORDS
    # (typed in lower case, a name the message's reading capitalises: "when's ezra's judo" of
    # "Ezra does judo tuesdays 5pm ... | his sister Nia has violin saturday mornings")
    read = " ".join(told_said)
    asked_names |= {
        name
        for name in stems(" ".join(_WHOSE_TYPED.findall(question))) - STOPWORDS
        if re.search(rf"\b{re.escape(name.capitalize())}\b", read)
    }
    of_others: set[str] = set()
    # (the user is another too, asked of someone else: "I'll have my usual flat white with oat
    # milk | Dev wants a cortado" is not changed by "it's almond in my flat white now" for
    # "what does Dev drink?")
    not_of_me = not _OF_ME.search(question)
    for sentence in told_said if asked_names else ():
        names = _people_named(sentence)
        if names & asked_names:
            continue
        if names - asked_names - stems(best.sentence) or (not_of_me and _OF_ME.search(sentence)):
            of_others |= topic(sentence)
    of_others -= on_topic
    later: Statement | None = None
    later_topical = later_priced = False
    most = (0, False)  # how many words of it ``later`` says, and whether it names a value
    for recollection in episodes:
        item = recollection.item
        same = item.id == told.id  # "the swim school just rang. | They're moving Oscar's ..."
        if (item.created_at <= told.created_at and not same) or question_only(item):
            continue
        if not same and _still_so(item.user_text, asked):
            continue  # "her title is actually Marketing Director ... same company still"
        sentences = told_sentences(item.user_text)
        if same:
            at = position(best, sentences)
            sentences = sentences[at + 1 :] if at is not None else []
        for n, sentence in enumerate(sentences):
            newest = later is None or item.created_at > later.source.item.created_at
            # In the same message: the sentence right after ("the swim school just rang. |
            # They're moving Oscar's lessons ..."), or one that shares words with what is
            # quoted or asked; any sentence shares words with its own message ("subscriptions:
            # Spotify family plan at 17.99 ... | I should probably cut something"). When the
            # quote says a change itself, only a sentence on what is asked: "she wants to play
            # the cello instead ... | new teacher is Ms Okonkwo".
            about = subject
            if same and CHANGE.search(best.sentence):
                about = set(asked)
            elif same:
                about = topic(sentence if n == 0 else best.sentence) | set(asked)
            # (a name first in the sentence is one too: "Priya can't do it anymore")
            first_named = says is NAMES_SOMEONE and bool(_people_named(sentence))
            if says is not None and not says.search(sentence) and not first_named:
                continue
            if counted is not None and not counted.search(sentence):
                continue  # "3 hours" for "how many hours?" is not changed by "£17 an hour"
            if (
                says is NAMES_SOMEONE
                and not _names_another(sentence, said_there)
                # (unless it ends or changes the one named, and the next sentence names who
                # came: "ugh Chiara had to bail | my cousin Ravi is taking her spot")
                and not (
                    (ENDED.search(sentence) or CHANGE.search(sentence))
                    and n + 1 < len(sentences)
                    and _names_another(sentences[n + 1], said_there)
                )
            ):
                # "who is Ananya marrying?": "wedding's moved - venue in Jaipur flooded so it's
                # now 8 February" names no one the quote did not; the groom is still so
                continue
            if members and not says_a_member(members, sentence):
                continue
            # (the change word itself is no subject: "Chiara moved to Lisbon!" is not changed
            # by "the trip got moved to August")
            # (the one asked about is no subject by name alone: "Ollie's now talking about
            # buying a house" changes nothing of "Ollie just got promoted to store manager")
            shared = {w for w in about & topic(sentence) if not CHANGE.fullmatch(w)} - whom
            if not same and shared and shared <= of_others:
                # what it shares is said only by the message's sentences on someone else:
                # "Rohan does Tuesday and Friday at nursery" beside "Priya's teacher is Mr
                # Adebayo" makes "we swapped tuesday for wednesday" no news of Priya
                shared = set()
            if not shared and says is not None and not same:
                # a change saying the kind asked, whose message goes on about the same things:
                # "everything's moved to Hever Castle, and the only date left was 20
                # September. | Priya's mum is fuming ... still 90 guests" for "when's the
                # wedding?" after "Priya and I booked Hengrave Hall for 14 June!! 90 guests"
                # (it weighs least: a sentence of its message that says the thing outranks it)
                # (not by the words of the sentences on someone else alone, as above)
                around = about & topic(item.user_text) - of_others
                shared = around if len(around) >= 2 else set()
                if (
                    says is NAMES_SOMEONE
                    and not topic(sentence) & set(asked)
                    and not _SWITCHED_TO.search(sentence)
                ):
                    # any capital is a name to "who": "we've moved it to 6 September at a
                    # vineyard in Kent" is no new maid of honour
                    shared = set()
                weight = (0, bool(A_VALUE.search(sentence)))
            else:
                # of two changes in one message, the one saying more of it, else the one
                # naming a value: "New school year, new everything! | Leo's gone up to Year 4
                # and this year he's got Ms Nguyen"
                weight = (len(shared), bool(A_VALUE.search(sentence)))
            more = later is not None and later.source.item.id == item.id and weight > most
            if any(
                _SAME.search(p) and _the_same_of(_kept(p, topic), shared, asked)
                for p in PARTS.split(sentence)
            ):
                continue  # "hotel's the same, just shifted the dates": not the hotel
            # a new amount in the same measure says the change by itself: "she's put me on
            # 100mcg" after "dose is up to 75mcg now", "I'm on 47k from june" after "38k"
            measured = (
                not same
                and bool(measured_in(best.sentence) & shared)
                and not _NOT_AN_AMOUNT.match(question)
                and bool(set(_AMOUNT.findall(sentence)) - set(_AMOUNT.findall(best.sentence)))
            )
            # a change sharing words with what is quoted or asked outranks a newer one that
            # shares only the words of its message's other sentences: "wages land on the 25th"
            # is changed by "no longer with natwest!!", not by "octopus dropped our dd to £95"
            # (said of the energy bill beside it)
            topical = same or best.told_on or bool(shared & on_topic)
            # (only a new amount: "we're with Sixt now" after "got enterprise instead" is the
            # next change of the hire car, though it shares no word with the first booking)
            priced = bool(_PRICE.search(sentence))
            if later is not None and later_topical and not topical and priced:
                continue
            # (and the other way round, whichever recall found first: an older change on it
            # replaces a newer price change found before it, and no other newer change)
            newest = newest or (topical and not later_topical and later_priced)
            if (newest or more) and (CHANGE.search(sentence) or measured) and shared:
                later_topical, later_priced = topical, priced
                now_said = sentence
                if (
                    ENDED.search(sentence)
                    and n + 1 < len(sentences)
                    and CHANGE.search(sentences[n + 1])
                    and (
                        not topic(sentence) - topic(told.user_text) - _STOPPED
                        or (
                            bool(A_VALUE.search(sentences[n + 1]))
                            and not _WHAT_CAME.search(sentence)
                        )
                    )
                ):
                    # only how the old one ended, then what came: "no longer with barclays!! |
                    # moved everything over to monzo last week"; or how it ended, then what
                    # came by name: "we killed the Spotify Duo plan. | I've gone over to Deezer"
                    now_said = sentences[n + 1]
                later = Statement(
                    clipped(what_is_so(now_said, question)), recollection, best.shared
                )
                most = weight
            elif (
                (newest or more)
                # (the words of what it told on what is asked, or a headline's news: not
                # "Finnair cancelled our outbound leg" for the hotel in Kyoto told beside the
                # flight; "the airbnb host cancelled" for "staying in an airbnb in Alfama")
                and (best.told_on or shared & on_topic)
                and ENDED.search(sentence)
                and n + 1 < len(sentences)
                and CHANGE.search(sentences[n + 1])
                and A_VALUE.search(sentences[n + 1])
                # (for "who", what came must be someone: "the barn venue went bust | we've
                # moved it to 6 September at a vineyard in Kent" is no new maid of honour)
                and (says is not NAMES_SOMEONE or _names_another(sentences[n + 1], said_there))
            ):
                # what ended, then what came instead: "ugh Chiara had to bail, work wouldn't
                # give her the time off. | my cousin Ravi is taking her spot"
                later_topical, later_priced = topical, bool(_PRICE.search(sentences[n + 1]))
                later = Statement(
                    clipped(what_is_so(sentences[n + 1], question)), recollection, best.shared
                )
                most = weight
    return later


_AND: Final = re.compile(r"\s+and\s+", re.IGNORECASE)
_DOING: Final = re.compile(
    r"\b(?:is|does|did|was)\s+([A-ZÀ-Ý][a-zà-ÿ-]+)\s+(?:doing|do|play|playing)\b"
)
_OF_ME: Final = re.compile(r"\b(?:i|i['’](?:m|ll|ve|d)|im|my|me|mine|we|our|us)\b", re.IGNORECASE)
_HOW_OFTEN: Final = frozenset(
    "much many monthly weekly daily yearly annual annually each every per usually normally".split()
)
# "my car insurance", "our broadband provider": two words naming one thing, the second its head
_COMPOUND: Final = re.compile(r"\b(?:my|our|the)\s+([a-z]+)\s+([a-z]+)\b(?=\s*(?:with|\?|$))", re.I)
# An ending that says what came itself: "Lisbon hotels were way too pricey so we booked Porto
# instead. | still May, just 4 nights now" (what follows it is no newer news).
_WHAT_CAME: Final = re.compile(
    r"\b(?:instead|booked|chose|picked|(?:switched|swapped|moved|changed)\s+(?:\w+\s+)?to|"
    r"(?:went|gone|going)\s+with)\b",
    re.IGNORECASE,
)
# The words of an ending, which say nothing new of what came after it.
_STOPPED: Final = frozenset(stems("no longer anymore any more not stopped ended over done gone"))
# A new price said: "dropped our dd to £95", "it's 65/month now"
_PRICE: Final = re.compile(
    r"[£$€]\s?\d|\d\s?(?:k|quid|pounds|euros|dollars|bucks)\b|\d\s?(?:/|a|per)\s?(?:month|mo|week)\b",
    re.IGNORECASE,
)
# A switch to someone named: "So I switched to Direct Line", "went with Aviva instead"
_SWITCHED_TO: Final = re.compile(
    r"\b(?:switched|changed|moved|gone|went)\s+(?:over\s+|across\s+)?(?:to|with)\s+"
    r"(?-i:[A-ZÀ-Ý])",
    re.IGNORECASE,
)
# A sentence that says what a change comes to: "so its mon, wed, thu", "which makes it 6pm"
_SUMS_UP: Final = re.compile(
    r"\s*(?:so|which\s+(?:makes|means)|meaning|now)\b(?:\s+(?:it|its|it['’]s|that['’]s))?", re.I
)
_AMOUNT: Final = re.compile(r"\d(?:[\d.,]*\d)?")
# Questions that ask when, where or who: a new amount is no answer to them.
_NOT_AN_AMOUNT: Final = re.compile(
    r"\s*(?:(?:and|so)\s+)?(?:when|where|who|what\s+time|which\s+day|what\s+day)\b", re.I
)


# When something ends, or is extended: a topic of its own (the words are short, or differ)
_AN_END: Final = "~end"
_ENDS: Final = re.compile(
    r"\b(?:ends?|ending|finish(?:es)?|expires?|expiring|expiry|extended|extension)\b", re.I
)


def _kept(part: str, topic: Callable[[str], set[str]]) -> set[str]:
    """The words of what ``part`` says stays the same: "rate" in "extended me to the end of
    january 🎉 rate stays the same" (not the end it changed); all its words when it names none
    ("still on")."""
    kept = [m.group("what") for m in _STAYS_THE_SAME.finditer(part)]
    return stems(" ".join(kept)) if kept else topic(part)


def _the_same_of(kept: set[str], shared: set[str], asked: Collection[str]) -> bool:
    """Whether what a part says stays the same (``kept``) is what a change would be of: what it
    shares with the quote, or what is asked ("extended me to the end of january, rate stays
    the same" still changes the end asked)."""
    return bool(kept & shared) and (bool(kept & set(asked)) or shared <= kept)


def _still_so(message: str, asked: Collection[str]) -> bool:
    """Whether ``message`` says the thing asked stays: "same company still" of the company
    asked (not "same venue at least" of the date asked)."""
    return any(stems(noun) & set(asked) for noun in _SAME_THING.findall(message))


_SAME_THING: Final = re.compile(r"\bsame\s+(\w+)(?=\s+still\b|\s*(?:[,.!;]|$))", re.I)
_SAME: Final = re.compile(
    r"\b(?:the\s+same|unchanged|hasn['’]?t\s+changed|not\s+changed|still\s+on)\b", re.I
)
_NAMED_ASIDE: Final = re.compile(
    r"\s*(?:(?:Dr|Mr|Mrs|Ms|Mx|Prof)\.?\s+)?(?!I\b)[A-ZÀ-Ý][a-zà-ÿ'’-]+(?:\s+[A-ZÀ-Ý][\w'’-]*)*"
    r"(?:\s+(?:at|in|on|near|from)\s+(?:the\s+)?[A-ZÀ-Ý][\w'’-]*(?:\s+[A-ZÀ-Ý][\w'’-]*)*)*"
    r"\s*[.!]*$"
)


def said_before(
    change: Statement, episodes: Sequence[Recollection], asked: Collection[str]
) -> Statement | None:
    """The user's sentence, said before ``change``, about what it changed: it shares a word of
    substance with the change and says no change itself; of several, the one
    that shares most with it and the question, then the newest."""
    told = change.source.item
    subject = substance(change.sentence)
    # the rest of its message may say what changed ("the Y changed the pool schedule. | so
    # I've shifted my swim to wednesdays"), and more ("Good news to tell!"): worth less
    around = substance(told.user_text) - subject
    best: tuple[tuple[int, int, float], Statement] | None = None
    for recollection in episodes:
        item = recollection.item
        if item.created_at >= told.created_at and item.id != told.id or question_only(item):
            continue
        sentences = told_sentences(item.user_text)
        if item.id == told.id:  # only what the same message said before it
            sentences = sentences[: position(change, sentences) or 0]
        for sentence in sentences:
            said = substance(sentence)
            # (the rest of the change's own message says its own words: only the subject counts)
            common = 2 * len(said & subject) + (
                len(said & around) if len(sentence.split()) > 4 and item.id != told.id else 0
            )
            # a change said in an earlier message may be to something else ("he upped the dose
            # on my brown inhaler" beside "my asthma review with Dr Patel at Fernbank Surgery"
            # before "Dr Patel has retired ... moved to a Dr Kowalczyk at the same surgery"):
            # only when it shares two words of substance with it
            if (
                not common
                or CHANGE.search(_HOW_LONG_NOW.sub("", sentence))
                and (item.id == told.id or len(said & subject) < 2)
            ):
                continue
            # (of two as near, the one naming what changed: "Dr. Kowalczyk at the Elm Street
            # practice" over "ugh, dentist tomorrow at 9.")
            key = (
                common + len(stems(sentence) & set(asked)),
                len(said & subject),
                item.created_at.timestamp(),
            )
            if best is None or key > best[0]:
                before = Statement(clipped(sentence), recollection, change.shared, earlier=True)
                best = (key, before)
    return None if best is None else best[1]


# "been on the cardiology ward for about 3 years now": how long, no change
_HOW_LONG_NOW: Final = re.compile(
    r"\b(?:about\s+|nearly\s+|almost\s+|over\s+)?(?:\d+|a|an|one|two|three|four|five|six|"
    r"seven|eight|nine|ten|a\s+few|a\s+couple\s+of)\s+(?:years?|yrs?|months?|weeks?)\s+now\b",
    re.IGNORECASE,
)


def said_before_fact(
    fact: MemoryItem, source: Recollection, episodes: Sequence[Recollection], asked: Collection[str]
) -> Statement | None:
    """The user's words, before the message ``fact`` was learned from (``source``), about what
    that message changed: "What was my previous car?" when "sold the Civic and bought a used
    Mazda CX-5" taught the car and no rule kept the Civic as its past ("my honda civic is
    making this grinding noise"). Only when that message says a change."""
    told = source.item.user_text
    if not (CHANGE.search(told) or ENDED.search(told)):
        return None
    for where in fact.provenance:
        if where.episode_id != source.item.id or not 0 <= where.start < where.end <= len(told):
            continue
        change = Statement(told[where.start : where.end], source, 0, (where.start, where.end))
        return said_before(change, [source, *episodes], asked)
    return None


# Meta key of an episode as recalled for quoting: the user's next message in the same
# conversation, which may go on with what it told ("My brother just got a new job." | "He's a
# paramedic in Bristol now.").
THEN: Final = "then"
# ... and the user's message before it, whom "she" in its first words means ("I live in Hobart
# with my wife Saoirse." | "She's a pharmacist at the hospital."), read even when recall leaves
# that message out (it told a home since changed): it only says who, and is never quoted.
BEFORE: Final = "before"
# A headline says that something happened in a few words and names nothing of it.
_HEADLINE_WORDS: Final = 8


def with_next(best: Statement, question: str, *, past: bool = False) -> Statement:
    """``best`` and the short sentence after it in the same message that says what
    ``question`` asks (a time, a name) when ``best`` does not; or, when ``best`` is a headline,
    what the user told next (``told_on``)."""
    best = with_whom(best, question)
    says = money_or_kind_asked(question)
    if says is None:
        return told_on(best, question, past=past)
    sentences = told_sentences(best.source.item.user_text)
    at = position(best, sentences)
    if says.search(best.sentence):
        # what it comes to, said next: "we swapped monday for thursday. | so its tue, thu, fri"
        after = sentences[at + 1] if at is not None and at + 1 < len(sentences) else ""
        if _SUMS_UP.match(after) and len(after.split()) <= 14 and says.search(after):
            joined = f"{best.sentence.rstrip()} {after}"
            return Statement(clipped(joined), best.source, best.shared, best.span, best.earlier)
        return best
    if at is None:
        return best
    if at + 1 >= len(sentences):
        # the last of its message: what is asked may be in the next ("had to switch my gym
        # days" | "so it's tuesdays and thursdays now")
        return told_on(best, question, past=past)
    after = sentences[at + 1]
    if len(best.sentence.split()) <= 3:
        # a heading ("wedding drama.") is told by what follows: the first of the next few
        # sentences that says what is asked ("... we've moved it to 6 September ...")
        after = next((s for s in sentences[at + 1 : at + 4] if says.search(s)), after)
    elif len(after.split()) > 14:
        return best
    if not says.search(after):
        return told_on(best, question, past=past)
    joined = f"{best.sentence.rstrip()} {after}"
    return Statement(clipped(joined), best.source, best.shared, best.span, best.earlier)


def with_what_is_asked(
    sentence: str, message: str, question: str, no_longer_so: Collection[str] = ()
) -> str:
    """``sentence`` of ``message`` as a quote that says the kind of thing ``question`` asks (a
    time, an amount, someone, a sport), when it does not and its whole sentence or a
    neighbour in the message does: "Joined a book club!" | "We meet ... at Hester's flat" for
    "whose place does the book club meet at?"; "so I've swapped my weekend shifts" is the end
    of "my daughter just made the netball A team ..." for "what sport does my girl play?".
    People tell one thing over a few sentences; the one that names the topic may not say it.
    Nothing saying one of ``no_longer_so`` (the names and numbers of superseded facts) is
    added: the rest of an old message may say what changed since."""
    what_says = _what_says(question)
    if what_says is None or what_says(sentence):
        return sentence  # (``says_the_kind_asked``)
    stale = {stem for word in no_longer_so for stem in stems(word)}

    def says(neighbour: str) -> bool:
        return what_says(neighbour) and not stems(neighbour) & stale

    sentences = told_sentences(message)
    at = next((i for i, s in enumerate(sentences) if sentence.rstrip(".!?… ")[:40] in s), None)
    if at is None:
        return sentence
    if sentences[at] != sentence and says(sentences[at]):
        return clipped(sentences[at])  # a clause of it was quoted
    if at + 1 < len(sentences) and says(sentences[at + 1]):
        after = sentences[at + 1]
        joined = f"{_ended(sentence)} {after}"
        return clipped(joined) if len(joined) <= QUOTE_LIMIT else clipped(after)
    if at > 0 and says(sentences[at - 1]):
        return clipped(f"{_ended(sentences[at - 1])} {sentence}")
    return sentence


def says_the_kind_asked(sentence: str, question: str) -> bool:
    """Whether ``sentence`` says the kind of thing ``question`` asks, or it asks none that a
    neighbour could say (``with_what_is_asked`` leaves such a quote as it is)."""
    what_says = _what_says(question)
    return what_says is None or what_says(sentence)


def parts_saying(sentence: str, says: Callable[[str], bool]) -> str:
    """The parts of ``sentence`` (between commas, semicolons and dashes) that ``says`` keeps,
    joined; "" when none does. The rest of an old sentence may be what changed since ("on 21
    March, departs 19:25" before "now leaves at 20:10. date's unchanged")."""
    return ", ".join(part.strip() for part in _PART_BREAK.split(sentence) if says(part))


_PART_BREAK: Final = re.compile(r",\s+|;\s+|\s[-–—]\s")


def _ended(sentence: str) -> str:
    sentence = sentence.rstrip()
    return sentence if sentence[-1:] in ".!?…" else f"{sentence}."


def _what_says(question: str) -> Callable[[str], bool] | None:
    """What a sentence must say to answer ``question``: the kind it asks (``kind_asked``),
    someone for "who"/"whose", or a member of a kind it names ("what sport ...?")."""
    kind = kind_asked(question)
    if kind is not None:
        return lambda sentence: kind.search(sentence) is not None
    if _ASKS_WHO.match(question):
        # (a name, not a day: "I'm hosting a dinner party on Saturday" names no one)
        return lambda sentence: any(
            not DAY_OR_MONTH.fullmatch(name) for name in NAMES_SOMEONE.findall(sentence)
        )
    if _ASKS_A_NAMED_THING.search(question):
        # (and a name in capitals: "got MUBI instead")
        return lambda sentence: any(
            not DAY_OR_MONTH.fullmatch(name) for name in _NAMED_THING.findall(sentence)
        )
    members = members_asked(question)
    if members:
        return lambda sentence: says_a_member(members, sentence)
    return None


_SAYS_IT_OF_THE_LAST: Final = re.compile(
    r"\s*(?:(?:honestly|really|tbh|and|but|so|which)[\s,]+)*(?:it|that|this|which)\b", re.I
)
_NAMED_THING: Final = re.compile(r"(?<=[\s,(])(?!I\b|I['’])[A-ZÀ-Ý][\w'’&+-]+")
_ASKS_WHO: Final = re.compile(r"\s*(?:and\s+|so\s+)?(?:who|whose|whom)\b", re.IGNORECASE)
# Things known by their names, which a question asking which one wants: "what book is the
# book club reading?" is answered by "Lessons in Chemistry".
_ASKS_A_NAMED_THING: Final = re.compile(
    r"\b(?:what|which)\s+(?:book|novel|film|movie|show|series|song|album|band|"
    r"podcast|game|restaurant|hotel|school|college|university|uni|company|firm|shop|gym|"
    r"club|team|app|airline|hospital|clinic|practice|bank|garage|venue|pub|bar|cafe|café|"
    r"studio|salon|nursery|pharmacy|supermarket|agency|theatre|cinema|station|church)\b",
    re.IGNORECASE,
)


def with_whom(best: Statement, question: str) -> Statement:
    """Asked who, a sentence that says "he" or "she" for them with the one before it that
    names them: "I'm with Dr Osei now. | He's doing the crown" for "who's doing my crown?"."""
    if not _WHO.match(question) or not _OPENS_WITH_THEM.match(best.sentence):
        return best
    if NAMES_SOMEONE.search(best.sentence):
        return best
    sentences = told_sentences(best.source.item.user_text)
    at = position(best, sentences)
    if not at or not NAMES_SOMEONE.search(sentences[at - 1]):
        return best
    before = sentences[at - 1].rstrip()
    joined = f"{before}{'' if before[-1:] in '.!?' else '.'} {best.sentence}"
    return replace(best, sentence=clipped(joined))


_WHO: Final = re.compile(r"\s*(?:and\s+|so\s+)?who(?:['’]s|\s+is|\s+will)?\b", re.IGNORECASE)


def told_on(best: Statement, question: str, *, past: bool = False) -> Statement:
    """A headline that names nothing of what it tells ("My son got into uni!!!", "change of
    plan for mum and dad's anniversary") with what the user said after it, in the same message
    or the next (``THEN``), up to the first sentence that names something ("Edinburgh, to do
    geology."). People chat in short messages that go on with each other; the headline alone
    answers nothing."""
    if len(best.sentence.split()) > _HEADLINE_WORDS or _names_something(best.sentence, question):
        return best
    sentences = told_sentences(best.source.item.user_text)
    at = position(best, sentences)
    if at is None:
        return best
    then = str((best.source.item.meta or {}).get(THEN, ""))
    following = [*sentences[at + 1 :], *(told_sentences(then) if then else [])][:3]
    if not past and CHANGE.search(best.sentence):
        # a change's headline, for what is so now: the sentence saying the new value, past
        # why ("I finally switched dentists. | Sato kept double booking me. | Now I go to Dr.
        # Priya Nair")
        following = [s for s in following if CHANGE.search(s)][:1] or following
    joined = [best.sentence.rstrip()]
    for sentence in following[:2]:
        if joined[-1][-1:] not in ".!?":
            joined[-1] += "."  # "so Rory's switched course already lol. he's doing ..."
        joined.append(sentence if past else what_is_so(sentence, question))
        if _names_something(sentence, question):
            said = clipped(" ".join(joined))
            return replace(best, sentence=said, told_on=True)
    return best


def _names_something(sentence: str, question: str) -> bool:
    """Whether ``sentence`` names a value the question does not: a number, a day or month, a
    name (also first: "Edinburgh, to do geology."; none in a sentence typed in capitals)."""
    if re.search(r"\d", sentence) or DAY_OR_MONTH.search(sentence):
        return True
    if sentence.isupper():
        return False  # "WE GOT A PUPPY"
    asked = stems(question)
    names = _NAMED_VALUE.findall(sentence)
    first = _FIRST_NAME.match(sentence)
    if first is not None and first.group(0).casefold() not in STOPWORDS:
        names.append(first.group(0))
    return any(not stems(name) <= asked for name in names)


_FIRST_NAME: Final = re.compile(r"(?!I\b|I['’])[A-ZÀ-Ý][a-zà-ÿ]+(?=[\s,.!])")
# A capitalised word after the first (not "I"): a name, which may be a value.
_NAMED_VALUE: Final = re.compile(r"(?<=[\s,(])(?!I\b|I['’])[A-ZÀ-Ý][\w'’-]*")


_LIGHT_VERBS: Final = frozenset("make do have get go take give put say see come keep".split())


def inflected(words: set[str]) -> set[str]:
    """The past and -ing forms of the verbs a question may ask with: "sign" -> "signed",
    "signing"; "move" -> "moved", "moving"."""
    found = set()
    for word in words:
        if len(word) < 3 or not word.isalpha() or word in _LIGHT_VERBS:
            continue  # "how much do I make?" is no question about "making pasta"
        base = word[:-1] if word.endswith("e") else word
        if word.endswith(("ance", "ence")) and len(word) >= 8:
            # "insurance" -> "insured with Aviva", "residence" -> "resides"
            root = word[:-4]
            found |= {root + "e", root + "es", root + "er"}
            base = root
        if word.endswith(("ing", "ed")) and len(word) >= 6:
            # "forget the hotel booking" -> "booked at the Sarova Stanley"
            base = word[: -3 if word.endswith("ing") else -2]
            found.add(base)
        found |= {base + "ed", base + "ing"}
    return found


def position(statement: Statement, sentences: Sequence[str]) -> int | None:
    """Where ``statement`` stands among the sentences of its message (its quote may be cut
    or trimmed, so by its opening words)."""
    return next((i for i, s in enumerate(sentences) if statement.sentence[:20] in s), None)


def substance(text: str) -> set[str]:
    """The words of ``text`` that say what it is about: not its function words, not short; and
    the units it measures in ("#mg" for "50mg"), which say the same thing is measured ("dose
    went up to 100mg" after "on sertraline, 50mg")."""
    words = {w for w in stems(text) if len(w) > 3 and w not in STOPWORDS and not w.isdigit()}
    # (and short names in capitals: "EDF dropped our dd", "BT", "TAP")
    words |= {w.casefold() for w in _ACRONYM.findall(text)} - STOPWORDS - {"ok", "i"}
    return words | measured_in(text)


_ACRONYM: Final = re.compile(r"\b[A-Z][A-Z0-9]{1,3}\b")


def measured_in(text: str) -> set[str]:
    """The units ``text`` measures in, as words ("#mg" for "50mg")."""
    return {f"#{unit.casefold()}" for unit in _MEASURED.findall(text)}


_MEASURED: Final = re.compile(
    r"\d(?:[\d.,]*\d)?\s?(mg|mcg|µg|ml|kg|lbs?|k|km|miles|mph|kcal|cal|iu|units|%)(?!\w)",
    re.IGNORECASE,
)


_CORRECTS = re.compile(
    r"\b(?:actually|correction|anymore|any\s+more|no\s+longer|instead|changed|switched|update|"
    # ("obsessed with axolotls right now" puts nothing right)
    r"i\s+meant|not\s+any|(?<!right\s)now)\b",
    re.IGNORECASE,
)


def clipped(sentence: str) -> str:
    if len(sentence) <= QUOTE_LIMIT:
        return sentence
    return sentence[:QUOTE_LIMIT].rsplit(" ", 1)[0] + "…"
