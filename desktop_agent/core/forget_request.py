"""Which learned facts "forget my gym" means, or else which words the user said of it.

Recall ranks by meaning, and the best hit always looks good: asked to "forget my gym", plain
recall offered "User's dentist is Dr Okafor" (said in the same message), and a "yes" erased the
dentist while the gym stayed. So a fact is offered only when it says one of the words the user
named, or means nearly the same; and a fact that says the name of an offered one ("User goes to
Iron Temple on Mondays" beside "User's gym is called Iron Temple") is offered with it, since
forgetting the gym and keeping what was said of it by name would keep the gym.

When no fact was learned of it ("forget the side gate code"), the user may still have said it:
then the sentences (or clauses) that say it are offered, never the whole message they are in.
The chat's "forget ..." and the CLI's ``memory forget --about`` both offer ``offer_to_forget``.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Final

from desktop_agent.core.extraction_words import RELATIONS
from desktop_agent.core.grounding import content_words, kin_asked, slot_keys, stems
from desktop_agent.core.grounding_words import _KIN
from desktop_agent.core.memory_changes import listed
from desktop_agent.core.memory_model import SEMANTIC, MemoryItem
from desktop_agent.core.memory_service import MemoryService, Recollection
from desktop_agent.core.questions import question_only
from desktop_agent.core.said_by_meaning import nearness
from desktop_agent.core.statements import Statement, clipped, inflected
from desktop_agent.core.user_sentences import located
from desktop_agent.memory.model import MemoryNotFound
from desktop_agent.search.tokenize import STOPWORDS

if TYPE_CHECKING:
    from desktop_agent.memory.model import ForgetReceipt

# Without a word in common, a fact must mean nearly what was named (all-MiniLM-L6-v2 cosine).
CLOSE_MEANING: Final = 0.55
SEARCH_DEPTH: Final = 10
OFFER_LIMIT: Final = 8
# "forget that my ex is called Mark" names Mark, not every fact that says "called".
_FRAME: Final = frozenset(
    "user user's i i'm me my mine our we about that everything all anything something stuff "
    "said told what called named thing things bit part info".split()
)
# A name: capitalised words, not at the start of the fact ("User", "Every Sunday ...").
_NAME: Final = re.compile(r"(?<!^)(?<![.!?]\s)\b([A-ZÀ-Ý][\w'’-]+(?:\s+[A-ZÀ-Ý][\w'’-]+)*)")


@dataclass(frozen=True, slots=True)
class ForgetOffer:
    """What a request to forget something names: learned facts, or else the user's words."""

    facts: tuple[Recollection, ...] = ()
    said: tuple[Statement, ...] = ()

    @property
    def ids(self) -> tuple[str, ...]:
        return tuple(r.item.id for r in self.facts)

    @property
    def words(self) -> dict[str, tuple[tuple[int, int], ...]]:
        """Episode id -> the ranges of its user message that say it."""
        words: dict[str, tuple[tuple[int, int], ...]] = {}
        for statement in self.said:
            episode_id = statement.source.item.id
            words[episode_id] = (*words.get(episode_id, ()), statement.span)
        return words

    def lines(self) -> list[str]:
        """One line per offered memory or sentence, as the user reads it."""
        return self.fact_lines() + self.said_lines()

    def fact_lines(self) -> list[str]:
        return [r.item.text for r in self.facts]

    def said_lines(self) -> list[str]:
        return [f"“{s.sentence}”" for s in self.said]

    def __bool__(self) -> bool:
        return bool(self.facts or self.said)


def offer_to_forget(memory: MemoryService, topic: str) -> ForgetOffer:
    """What "forget ``topic``" means: the facts it names, else the sentences that say it. A
    person and a thing ("Tomás and the Porto trip") are two topics: each sentence naming him
    goes, not only the one naming both."""
    if (two := _A_PERSON_AND.match(topic)) is not None:
        person = two["person"]
        offers = [_offer(memory, person), _offer(memory, two["thing"])]
        # (and every sentence naming them, not only those a fact of theirs was learned from)
        episodes = memory.search(person, limit=SEARCH_DEPTH, kinds=("episodic",))
        offers.append(ForgetOffer(said=tuple(statements_about(person, episodes))))
        facts = {r.item.id: r for offer in offers for r in offer.facts}
        said = {(s.source.item.id, s.span): s for offer in offers for s in offer.said}
        return ForgetOffer(facts=tuple(facts.values()), said=_joined(said.values()))
    return _offer(memory, topic)


def _joined(said: Iterable[Statement]) -> tuple[Statement, ...]:
    """Pieces of one sentence offered apart joined again: "Rui and I had a huge row at the
    Algarve house" is offered (and erased) whole, not as “Rui” and “I had a huge row ...”."""
    said = list(said)
    first = {s.source.item.id: n for n, s in reversed(list(enumerate(said)))}
    joined: list[Statement] = []
    for statement in sorted(said, key=lambda s: (first[s.source.item.id], s.span)):
        before = joined[-1] if joined else None
        if before is not None and before.source.item.id == statement.source.item.id:
            text = statement.source.item.user_text
            gap = text[before.span[1] : statement.span[0]]
            if statement.span[0] >= before.span[1] and _ONLY_AND.fullmatch(gap):
                start, end = before.span[0], max(before.span[1], statement.span[1])
                joined[-1] = replace(before, sentence=text[start:end], span=(start, end))
                continue
        joined.append(statement)
    return tuple(joined)


_ONLY_AND: Final = re.compile(r"[\s,;]*(?:and\s+)?", re.IGNORECASE)


# "Tomás and the Porto trip": a name alone, then something of theirs or the user's
_A_PERSON_AND: Final = re.compile(
    r"^(?P<person>(?-i:[A-ZÀ-Ý])[\w'’-]+)\s+and\s+(?P<thing>(?:the|my|our|his|her|their)\s.+)$",
    re.IGNORECASE,
)


def _offer(memory: MemoryService, topic: str) -> ForgetOffer:
    facts = facts_to_forget(memory, topic)
    if facts and not _says_more(topic, facts):
        return ForgetOffer(facts=tuple(facts))
    episodes = memory.search(topic, limit=SEARCH_DEPTH, kinds=("episodic",)) if topic else []
    said = statements_about(topic, episodes)
    # "forget Whiskers, the cat that died": no fact says Whiskers, a sentence does ("I had Mr
    # Whiskers for 15 years, he died"); "User has a cat named Miso" only shares "cat"
    wanted = _wanted(topic)
    covered = max((len(wanted & stems(r.item.text)) for r in facts), default=0)
    # (as many as the sentences say together, and through "she": ``statements_about``)
    best_said = max((max(len(wanted & stems(s.sentence)), s.shared) for s in said), default=0)
    if facts and (about := _only_whom(facts, wanted, episodes)):
        return ForgetOffer(said=tuple(about))
    if facts and (best_said < 2 or best_said <= covered):
        return ForgetOffer(facts=tuple(facts))
    if not said and not facts and (nearest := _nearest_said(memory, topic, episodes)):
        return ForgetOffer(said=(nearest,))
    return ForgetOffer(said=tuple(said))


# "forget what I said about my salary" when the user said "I'm making 62k now": no word is
# shared, the meaning is. Only one sentence, clearly nearer than any other, and it is shown
# before anything is forgotten.
MEANING_FLOOR: Final = 0.4
MEANING_LEAD: Final = 0.1


def _only_whom(
    facts: list[Recollection], wanted: set[str], episodes: Sequence[Recollection]
) -> list[Statement]:
    """When the facts only name whom the topic is about, the sentences that say the rest of
    it: "the Lisbon thing I told you about Ines" is "she's interviewing for a job in Lisbon",
    not "User's wife is named Ines". Else none."""
    if not all(r.item.subject_key.startswith("name_of:") for r in facts):
        return []
    named = set().union(*(stems(r.item.text) for r in facts))
    rest = wanted - named
    return statements_about(" ".join(sorted(rest)), episodes) if rest else []


def _nearest_said(
    memory: MemoryService, topic: str, episodes: Sequence[Recollection]
) -> Statement | None:
    said = [
        (sentence, span, recollection)
        for recollection in episodes
        if not question_only(recollection.item)
        for sentence, span in located(recollection.item.user_text)
        if len(sentence.split()) >= 3
    ]
    if not said or not topic.strip():
        return None
    near = nearness(memory.embedder.embed, topic, [sentence for sentence, _, _ in said])
    scores = sorted(((score, n) for n, score in enumerate(near)), reverse=True)
    top, at = scores[0]
    runner_up = scores[1][0] if len(scores) > 1 else -1.0
    if top < MEANING_FLOOR or top - runner_up < MEANING_LEAD:
        return None
    sentence, span, recollection = said[at]
    # of its clauses, the nearest ones too: "I've got 18,000 saved ..., and I still owe my
    # mate Lukas 300 quid" for "forget that I owe Lukas money"; "got a raise at work, I'm
    # making 62k now" both for "my salary"
    message = recollection.item.user_text
    pieces = _pieces(message, span)
    if len(pieces) > 1:
        by_clause = nearness(memory.embedder.embed, topic, [message[a:b] for a, b in pieces])
        kept = [n for n, score in enumerate(by_clause) if score >= max(by_clause) - MEANING_LEAD]
        first, last = _with_what_follows(message, pieces, kept[0], kept[-1])
        return Statement(
            clipped(" ".join(message[first:last].split())), recollection, 0, (first, last)
        )
    return Statement(clipped(sentence), recollection, 0, span)


def derived(words: set[str]) -> set[str]:
    """The verbs a thing named by its noun is said with: "forget the proposal thing" is "I'm
    planning to propose to Mei"; "the engagement" is "we got engaged"; "the relocation" is
    "we relocate in May"."""
    found = set()
    for word in words:
        for ending, verb_ending in _DERIVED:
            root = word[: -len(ending)]
            if word.endswith(ending) and len(root) >= 4:
                verb = root + verb_ending
                past = verb[:-1] + "ied" if verb.endswith("y") else verb.removesuffix("e") + "ed"
                found |= {verb, past, verb.removesuffix("e") + "ing"}
    return found - words


# noun ending -> verb ending: proposal/propose, payment/pay, relocation/relocate, marriage/marry,
# diagnosis/diagnose (by its stem "diagnosi")
_DERIVED: Final = (
    ("ation", "ate"),
    ("ment", ""),
    ("sal", "se"),
    ("val", "ve"),
    ("iage", "y"),
    ("osi", "ose"),
)


def _wanted(topic: str) -> set[str]:
    return content_words(topic) - _FRAME - set(STOPWORDS)


def _says_more(topic: str, facts: list[Recollection]) -> bool:
    """Whether the topic says a word of substance no offered fact says."""
    said = set().union(*(stems(r.item.text) for r in facts))
    return bool(_wanted(topic) - said)


def forget_offered(memory: MemoryService, offer: ForgetOffer) -> ForgetReceipt:
    """Forget what ``offer`` holds: its words, then its facts (with the words they came from)
    that forgetting the words did not take (words first: their ranges are of the messages as
    they are now, before a fact's forget rewrites them)."""
    return forget_pending(memory, offer.ids, offer.words)


def forget_pending(
    memory: MemoryService,
    ids: Sequence[str],
    words: Mapping[str, Sequence[tuple[int, int]]],
) -> ForgetReceipt:
    """Forget the words (episode id -> ranges), then the facts of ``ids`` still remembered;
    one receipt for both."""
    if not words:
        return memory.forget(ids)
    receipt = memory.forget_words(words)
    left = [i for i in ids if i not in receipt.ids and i in memory.vault]
    if not left:
        return receipt
    more = memory.forget(left)
    return replace(
        more,
        ids=(*receipt.ids, *more.ids),
        kinds=(*receipt.kinds, *more.kinds),
        redacted=tuple(dict.fromkeys((*receipt.redacted, *more.redacted))),
        learned=(*receipt.learned, *more.learned),
        damaged=(*receipt.damaged, *more.damaged),
        rekeyed=receipt.rekeyed + more.rekeyed,
    )


def facts_to_forget(memory: MemoryService, topic: str) -> list[Recollection]:
    """The current facts ``topic`` names, best first (empty when none does)."""
    if not topic.strip():
        return []
    wanted = _wanted(topic)
    # "my medication", "my salary": the slot the words name, whatever the fact says
    slots = slot_keys(topic)
    if "name_of" in slots:
        # "the name of the startup I work for" names no one's name: only the names of whom
        # the topic says ("my dog's name")
        slots = (slots - {"name_of"}) | {
            i.subject_key.casefold()
            for i in memory.active_facts()
            if i.subject_key.startswith("name_of:")
            and stems(i.subject_key.partition(":")[2]) & (wanted | stems(topic))
        }
    found = memory.search(topic, limit=SEARCH_DEPTH, kinds=(SEMANTIC,))
    have = {r.item.id for r in found}
    if slots:
        found += [
            listed(i)
            for i in memory.active_facts()
            if i.id not in have and _fills(i.subject_key, slots)
        ]
    named = [
        r
        for r in found
        if (wanted and (wanted | derived(wanted)) & stems(r.item.text))
        or _fills(r.item.subject_key, slots)
    ]
    if not named:
        named = [r for r in found if r.hit.vector_score >= CLOSE_MEANING]
    if not named:
        return []
    named = _most_specific(named, wanted | derived(wanted))
    have = {r.item.id for r in named}
    # Only what a name stands for spreads: "my gym" -> its name -> the facts that say it.
    names = {
        n for r in named if r.item.subject_key.startswith("name_of:") for n in _names(r.item.text)
    }
    # ... and so does what a slot of many holds: "medication:sertraline" -> "sertraline"
    names |= {
        r.item.subject_key.partition(":")[2]
        for r in named
        if _fills(r.item.subject_key, slots) and ":" in r.item.subject_key
    } - {""}
    if names:
        for item in memory.active_facts():
            if item.id not in have and any(_says(item.text, n) for n in names):
                named.append(listed(item))
                have.add(item.id)
    named += [listed(item) for item in _said_with(memory, named) if item.id not in have]
    return named[:OFFER_LIMIT]


def _said_with(memory: MemoryService, named: Sequence[Recollection]) -> list[MemoryItem]:
    """What the sentence that told a named statement about someone also told of them: "my
    brother Liam has a gambling problem, he owes about 6000": forgetting the gambling forgets
    what he owes (kept, it would still tell it)."""
    found = []
    for recollection in named:
        person = _SAID_OF.match(recollection.item.subject_key)
        if person is None:
            continue
        for source in recollection.item.provenance:
            try:
                message = memory.item(source.episode_id).user_text
            except MemoryNotFound:
                continue
            start, end = _sentence_around(message, source.start, source.end)
            found += [
                item
                for item in memory.active_facts()
                if item.subject_key.startswith(person.group(0))
                and any(
                    p.episode_id == source.episode_id and start <= p.start and p.end <= end
                    for p in item.provenance
                )
            ]
    return found


# A statement about one of the user's people: "person:brother:said:..."
_SAID_OF: Final = re.compile(r"^person:[^:]+:said:")


def _sentence_around(message: str, start: int, end: int) -> tuple[int, int]:
    before = [m.end() for m in re.finditer(r"[.!?]+\s", message[:start])]
    after = re.search(r"[.!?](?:\s|$)", message[end:])
    return (before[-1] if before else 0, end + after.end() if after else len(message))


def _most_specific(named: list[Recollection], wanted: set[str]) -> list[Recollection]:
    """ "Forget that I'm allergic to kiwi" names the kiwi: of "allergic to shellfish" and
    "allergic to kiwi", only the fact saying a word the others do not say is meant."""
    said = [wanted & stems(r.item.text) for r in named]
    common = set.intersection(*said) if said else set()
    specific = [r for r, words in zip(named, said, strict=True) if words - common]
    return specific or named


def _fills(subject_key: str, slots: set[str]) -> bool:
    """Whether a fact's key is one of ``slots`` or one of its kind ("medication:sertraline")."""
    key = subject_key.casefold()
    return any(key == slot or key.startswith(f"{slot}:") for slot in slots)


def _names(text: str) -> set[str]:
    return {
        n
        for n in _NAME.findall(text)
        if n.casefold() not in STOPWORDS and n.casefold() not in {"user", "user's"}
    }


def _says(text: str, name: str) -> bool:
    return re.search(rf"\b{re.escape(name)}\b", text, re.IGNORECASE) is not None


# "forget the salary figure" when the user said "I'm a data analyst at Ocado on 48k": the
# figure is an amount said as earned, whatever words are around it ("on 48k", "making 62k",
# "£31,000 a year"); not every amount ("the deposit target is now 35k").
_EARNINGS_TOPIC: Final = re.compile(
    r"\b(?:salary|salaries|pay|paid|payslip|wages?|income|earn\w*|how\s+much\s+i\s+make)\b",
    re.IGNORECASE,
)
_SUM: Final = r"(?:[£$€]\s?\d[\d,.]*k?|\d[\d,.]*\s?k\b|\d{1,3}(?:,\d{3})+)"
_EARNED: Final = re.compile(
    rf"\b(?:on|making|make|makes|earn\w*|paid|pays?|salary|take\s+home|bring\s+in)\s+"
    rf"(?:about\s+|around\s+|roughly\s+|like\s+|just\s+(?:over|under)\s+)?{_SUM}|"
    rf"{_SUM}\s*(?:a|per)\s+(?:year|annum|hour)\b|{_SUM}\s+(?:salary|p\.?a)\b",
    re.IGNORECASE,
)
_MONEY: Final = "#money"  # what a sentence saying an amount earned counts as saying


def _said_in(text: str) -> set[str]:
    """The stems of ``text``, with ``_MONEY`` when it says an amount earned, ``_SUM_SAID``
    when it says any amount, ``_NAME_SAID`` when it names something."""
    said = stems(text) | ({_MONEY} if _EARNED.search(text) else set())
    # ("her ex-husband Frank" says "ex" and "husband"; not "talking-therapy" the therapist)
    said |= {p for word in said if word.startswith("ex-") for p in stems(word.replace("-", " "))}
    if _AN_AMOUNT.search(text):
        said.add(_SUM_SAID)
    if any(not _NOT_A_NAME.match(n) for n in _NAME_IN.findall(text)):
        said.add(_NAME_SAID)
    if _HOME_IN.search(text):
        said.add(_HOME_SAID)
    if _DETAIL_IN.search(text):
        said.add(_DETAIL_SAID)
    return said


def _names_beside_home(sentence: str) -> bool:
    """Whether ``sentence`` names someone, the names of where they live aside ("he lives at
    9 Mill Lane, Ely" names no one)."""
    home = [m.span() for m in _HOME_IN.finditer(sentence)]
    return any(
        not any(a <= m.start() < b for a, b in home) and not _NOT_A_NAME.match(m.group(0))
        for m in _NAME_IN.finditer(sentence)
    )


# "forget how much the wedding costs": a sentence saying an amount says it ("they're spending
# like 90 million pesos on it"), more than one that only says the wedding
_AMOUNT_TOPIC: Final = re.compile(
    r"\b(?:how\s+much|costs?|price|budget|bill|fees?|spend\w*|spent|rent|owe\w*|debt|dose|"
    r"dosage)\b",
    re.IGNORECASE,
)
_AN_AMOUNT: Final = re.compile(
    rf"{_SUM}|\b\d[\d,.]*\s*(?:million|thousand|grand|quid|bucks|dollars|euros|pounds|pesos|"
    r"rupees|kr|yen|rand|mg|mcg|µg|ml|units?|iu)\b",
    re.IGNORECASE,
)
_SUM_SAID: Final = "#sum"
# "forget the name of Leo's school": a sentence naming something says the name ("he's at
# Greenfield Primary"), not one that only says the school ("football after school")
_NAME_TOPIC: Final = re.compile(r"\bnames?\b", re.IGNORECASE)
_NAME_IN: Final = re.compile(r"(?<=[\w,;] )[A-ZÀ-Ý][\w'’-]+")
_NOT_A_NAME: Final = re.compile(
    r"(?:I|I'm|I've|I'd|I'll|Monday|Tuesday|Wednesday|Thursday|Friday|Saturday|Sunday|"
    r"January|February|March|April|May|June|July|August|September|October|November|December)"
    r"s?\b"
)
_NAME_SAID: Final = "#name"
# "forget my dad's address", "what I said about where Tom lives": a sentence saying where
# someone lives says it ("he lives at 9 Mill Lane", "he's just moved to croydon, some flat"),
# more than one that only names them
_HOME_TOPIC: Final = re.compile(
    r"\baddress(?:es)?\b|\bwhere\b.*\b(?:lives?|living|staying)\b", re.IGNORECASE
)
_HOME_IN: Final = re.compile(
    r"\b(?:lives?|living|moved|moving|staying)\s+(?:at|in|to|into|near|over\s+in)\b"
    r"(?:[\s,]+(?:the\s+)?\d*\s*[\w'’-]+)*?(?=[.!?]|$|\s+(?:if|and|but|so|since|for|with)\b)|"
    r"\b\d+[a-z]?\s+(?:[A-Z][\w'’-]*\s+)+(?:road|rd|street|st|lane|ln|avenue|ave|close|drive|"
    r"way|crescent|court|place|terrace|gardens|grove)\b|\bpostcode\b|\b(?:flat|apartment|house)\s+"
    r"(?:near|by|on|in|at)\b",
    re.IGNORECASE,
)
_HOME_SAID: Final = "#home"
_PEOPLE: Final = frozenset(stems(" ".join(RELATIONS)))


def statements_about(topic: str, episodes: Sequence[Recollection]) -> list[Statement]:
    """Every sentence of the user's in ``episodes`` that says most of ``topic`` ("my phone
    number"): what "forget my phone number" must reach when no fact was learned from it.
    A topic about earnings (``_EARNINGS_TOPIC``) is said by a sentence saying an amount earned."""
    wanted = content_words(topic) | kin_asked(topic)
    if not wanted:
        return []
    wanted |= inflected(wanted) | derived(wanted)
    # half of the words the topic says itself (its synonyms only widen what counts)
    needed = max(1, (len(content_words(topic) & stems(topic)) + 1) // 2)
    money = bool(_EARNINGS_TOPIC.search(topic))
    if money:
        wanted.add(_MONEY)
    if _AMOUNT_TOPIC.search(topic):
        wanted.add(_SUM_SAID)
    if _NAME_TOPIC.search(topic):
        wanted.add(_NAME_SAID)
    home = bool(_HOME_TOPIC.search(topic))
    if home:
        wanted.add(_HOME_SAID)
    if _DETAIL_TOPIC.search(topic) and not _NAMED_NOT_OWNING.search(topic):
        # (a detail of someone's, not them: "car salesman Tomasz mobile number" takes Tomasz too)
        wanted.add(_DETAIL_SAID)
    # each word of the topic counts once, however many of its forms or synonyms a sentence
    # says: "Rafael's phone number" is not said by "phone is a Pixel 7 and I'm on Mint Mobile"
    root: dict[str, str] = {}
    for word in sorted(content_words(topic) & stems(topic)):
        for form in {word} | inflected({word}) | derived({word}) | content_words(word):
            root.setdefault(form, word)
    root[_NAME_SAID] = "name"  # (a name said and the word "named" say the name once)
    if home:  # (and "lives" and "lives at 9 Mill Lane" say where once)
        asked_home = [w for w in stems(topic) if w.startswith(("address", "live", "living"))]
        root[_HOME_SAID] = asked_home[0] if asked_home else _HOME_SAID
    # (the names the topic says, first word too: "Lena getting engaged"; and whom it names
    # by relation: "my father's diagnosis" is "he was just diagnosed with ...")
    whom = {w for name in _CAPITALISED.findall(topic) for w in stems(name)} & wanted
    if home:  # whose home: "he lives at ..." for "my dad's address", "where tom lives"
        whom |= (content_words(topic) & stems(topic)) - {root[_HOME_SAID]} - set(STOPWORDS)
    kin = kin_asked(topic) & wanted
    found = []
    # a message saying it across its sentences: "she told me she's pregnant!! | due in
    # February." for "Amara being pregnant and the due date"
    across: list[Statement] = []
    for recollection in episodes:
        if question_only(recollection.item):
            continue
        message = recollection.item.user_text
        parts: list[tuple[Statement, set[str]]] = []
        in_message: set[str] = set()
        hit: list[Statement] = []
        hit_words: set[str] = set()
        for sentence, span in located(message):
            said = _said_in(sentence)
            if _PERSON_PRONOUN.search(sentence) and said & (wanted - whom):
                # "she's pregnant" says Amara's news, for "Amara being pregnant" (a "her" alone
                # is anyone's: "her name's Pixel" is the cat, not "everything about Lena")
                said |= whom
                if not _names_beside_home(sentence) and not (stems(sentence) & _PEOPLE) - kin:
                    said |= kin  # ... and "she" by relation, when it can mean no one else
            words = {root.get(word, word) for word in wanted & said}
            shared = len(words)
            if money and _MONEY in said:
                shared = max(shared, needed)
            if shared >= needed:
                clause, where = _clauses_saying(message, span, wanted)
                hit.append(Statement(clipped(clause or sentence), recollection, shared, where))
                hit_words |= words
            elif words:
                parts.append((Statement(clipped(sentence), recollection, shared, span), words))
                in_message |= words
        if hit:
            # and, of a topic of two things, the sentences of the same message saying the
            # other: "due in March." beside "she told me she's pregnant!!" for "Hana being
            # pregnant and the due date" (not "new router set up." beside "the admin PIN I
            # picked is 4471" for "router admin PIN": what follows it leans on it)
            most_here = max(h.shared for h in hit)
            found += hit + _fragments_after(hit, message, most_here, _associated(wanted))
            if _TWO_THINGS.search(topic):
                found += [replace(p, shared=most_here) for p, words in parts if words - hit_words]
        elif len(in_message) >= needed and len(parts) > 1:
            across += [replace(part, shared=len(in_message)) for part, _ in parts]
    found = found or across
    if _SUM_SAID in wanted and any(_AN_AMOUNT.search(s.sentence) for s in found):
        # "how much the bakery cost" is the sentence saying the sum ("he's sunk about 80
        # thousand euros into it"), not the news of the bakery beside it
        found = [s for s in found if _AN_AMOUNT.search(s.sentence)]
    # "forget the credit score" is "my credit score is 712", not "Refinanced through my
    # credit union" too: sentences saying more of it leave out those saying one word
    most = max((s.shared for s in found), default=0)
    return [s for s in found if s.shared == most] if most >= 2 else found


def _associated(wanted: set[str]) -> set[str]:
    """The words that go with what is wanted: "due" with "pregnant"."""
    return {w for group in _KIN.values() if wanted & group for w in group}


def _fragments_after(
    hit: list[Statement], message: str, shared: int, associated: set[str]
) -> list[Statement]:
    """The short sentence with no subject of its own right after a sentence to forget, which
    goes on saying it in a word that goes with it: "due in June." after "she's expecting!!"
    (not "three days in the office" after "... on 61k" for "the salary figure", nor "it lives
    in the hallway cupboard" after "the admin PIN I picked is 4471")."""
    sentences = located(message)
    taken = {h.span for h in hit}
    found = []
    for statement in hit:
        at = next(
            (n for n, (_, span) in enumerate(sentences) if span[0] <= statement.span[0] < span[1]),
            None,
        )
        if at is None or at + 1 >= len(sentences):
            continue
        after, span = sentences[at + 1]
        words = re.findall(r"[\w'’]+", after.casefold())
        if span in taken or not words or len(words) > 5 or words[0] in _SUBJECTS:
            continue
        if set(words) & _FINITE or not stems(after) & associated:
            continue  # "Tom is 5." says something of its own
        found.append(Statement(clipped(after), statement.source, shared, span))
        taken.add(span)
    return found


_SUBJECTS: Final = frozenset(
    "i i'm i've my we we're our he he's she she's they they're it it's its the this that these "
    "those his her their there you your and but so also btw oh anyway ok okay".split()
)
_FINITE: Final = frozenset(
    "is are was were am has have had does do did will can could would should 's".split()
)


_TWO_THINGS: Final = re.compile(r"\s(?:and|&)\s", re.IGNORECASE)
_CAPITALISED: Final = re.compile(r"\b(?!I\b)[A-ZÀ-Ý][\w'’-]+")
_PERSON_PRONOUN: Final = re.compile(r"\b(?:she|he|her|him|his)\b", re.IGNORECASE)
_CLAUSE_BREAK = re.compile(
    r",\s*(?:and\s+|but\s+)?|;\s*|\s+(?:and|but)\s+(?=(?:i|my|we|our)\b)", re.I
)


# (not "he", "she", "they": "my landlord is being a nightmare about the deposit, | he's trying
# to keep 600 quid" goes on about him)
_NEW_SUBJECT = re.compile(r"(?:i|i'm|im|i've|my|we|we're|our)\b", re.I)


def _clauses_saying(
    message: str, span: tuple[int, int], wanted: set[str]
) -> tuple[str, tuple[int, int]]:
    """Only the clauses of a sentence that say the topic: "my salary is 52k" in "I work at
    Barclays, my salary is 52k, and I live in Croydon" (forgetting it keeps the rest)."""
    pieces = _pieces(message, span)
    if _DETAIL_SAID in wanted:
        # a number, a code, a password: only the clause saying it, "and" apart too ("wifi is
        # called MOTHSHED and the password is bluefinch2291" keeps the network's name)
        pieces = [p for a, b in pieces for p in _cut_at(message, a, b, _AND)]
        detail = [n for n, (a, b) in enumerate(pieces) if _DETAIL_SAID in _said_in(message[a:b])]
        if detail and len(detail) < len(pieces):
            first, last = pieces[detail[0]][0], pieces[detail[-1]][1]
            return " ".join(message[first:last].split()), (first, last)
    saying = [n for n, (a, b) in enumerate(pieces) if wanted & _said_in(message[a:b])]
    if not saying or len(saying) == len(pieces):
        return "", span
    first, last = _with_what_follows(message, pieces, saying[0], saying[-1])
    return " ".join(message[first:last].split()), (first, last)


_AND: Final = re.compile(r"\s+and\s+", re.IGNORECASE)
# "forget her phone number", "the gate code", "the wifi password": a sentence saying digits or a
# secret says it, whatever it calls it ("her mobile is 07911 238556")
_DETAIL_TOPIC: Final = re.compile(
    r"\b(?:number|mobile|phone|code|pin|password|passcode|passwords|codes)\b", re.IGNORECASE
)
_DETAIL_IN: Final = re.compile(
    r"\d[\d -]{2,}\d|\b(?:password|passcode|pin|code)\s+(?:is\s+|was\s+|=\s*|:\s*)\S+",
    re.IGNORECASE,
)
_DETAIL_SAID: Final = "#detail"
# a name in the topic that is no owner ("Tomasz mobile", not "Bernadette's mobile")
_NAMED_NOT_OWNING: Final = re.compile(r"(?<!^)\b[A-ZÀ-Ý][\w-]*\b(?!['’]s\b)")


def _pieces(message: str, span: tuple[int, int]) -> list[tuple[int, int]]:
    """The clauses of the sentence at ``span`` of ``message``, as ranges."""
    return _cut_at(message, *span, _CLAUSE_BREAK)


def _cut_at(message: str, start: int, end: int, breaks: re.Pattern[str]) -> list[tuple[int, int]]:
    """``message[start:end]`` as the ranges between the matches of ``breaks``."""
    pieces, at = [], start
    for cut in breaks.finditer(message, start, end):
        pieces.append((at, cut.start()))
        at = cut.end()
    pieces.append((at, end))
    return pieces


def _with_what_follows(
    message: str, pieces: list[tuple[int, int]], first: int, last: int
) -> tuple[int, int]:
    """The range of clauses ``first`` to ``last`` and what follows them: it belongs to them
    until a clause starts with the user's own subject ("i started seeing a therapist, Dr. Hollis,
    every second wednesday": the name too)."""
    after = last + 1
    while after < len(pieces) and not _NEW_SUBJECT.match(message, pieces[after][0]):
        after += 1
    return pieces[first][0], pieces[after - 1][1]
