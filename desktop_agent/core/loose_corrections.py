"""Corrections no rule read: the user's newer words replace the one fact they are about.

Extraction reads the corrections it has rules for ("I moved to Leeds", "the class moved to
Thursdays"), but people put things right in endless other ways: "coach moved me to defense",
"New number: 07700 900456", "I had her name wrong, it's Kathryn", "we ended up going with a
Ranger instead". Blind batches written by others than the rules' author scored 0.27 on
corrections: most were never read, so the old value stayed current and was answered.

So, as the last reader: a sentence that says it changes or corrects something (``_CHANGE``),
where no rule changed anything, and that shares a word with exactly one current fact, replaces
that fact with the user's own clause. The fact's slot keeps the old value as its past, its
episode leaves prompts (``outdated_episodes``), and answers say the newer words. It never fires
on a question or a request to forget, on what only adds ("a second dog too"), or on news about
the same thing that takes nothing back ("Biscuit is poorly now" says every word of "User's dog
is named Biscuit": the clause must drop one of the fact's words and say one of its own).
"""

from __future__ import annotations

import re
from collections.abc import Collection, Iterator, Sequence
from dataclasses import dataclass
from typing import Final

from desktop_agent.core.extraction_normalise import normalise
from desktop_agent.core.grounding_words import RELATIONS, stems
from desktop_agent.core.memory_model import SEMANTIC, SUPERSEDED, MemoryItem, Provenance
from desktop_agent.core.memory_service import MemoryService
from desktop_agent.core.named_people import THEM, people_by_name
from desktop_agent.core.procedures import STYLE_KEY
from desktop_agent.core.questions import SENTENCE
from desktop_agent.core.quote_now import said_as_now
from desktop_agent.core.statements import measured_in
from desktop_agent.core.timeparse import DAY_OR_MONTH
from desktop_agent.search.tokenize import STOPWORDS

# Words that say a sentence changes what was so, or puts it right.
_CHANGE: Final = re.compile(
    r"\b(?:actually|correction|scratch\s+that|no\s+wait|i\s+meant|wrong|mistake|"
    r"turns?\s+out|turned\s+out|any\s*more|no\s+longer|these\s+days|nowadays|now|instead|"
    r"update[ds]?|changed|switched|swapped|moved|shifted|transferred|upgraded|downgraded|"
    r"new|ended\s+up|gave\s+up|given\s+up|taken\s+up|took\s+up|dropped|replaced|"
    r"went\s+back|gone\s+back|became|become|postponed|rescheduled|pushed\s+back|"
    r"brought\s+forward|rather\s+than|promoted|raised|increased|upped|lowered|reduced|"
    # one thing given up for another in one breath: "has quit ballet and joined a fencing club"
    r"(?:quit|quitted|dropped|ditched)\s+[^.!?]*?\band\s+(?:has\s+)?(?:joined|started|took\s+up|"
    r"taken\s+up|signed\s+up)|"
    r"(?:go|goes|gone|went|going)\s+(?:up|down)\s+to|"
    r"decreased|doubled|halved|bumped|since\s+(?:the\s+)?(?:\d|last|spring|summer|"
    r"autumn|fall|winter|christmas|easter|(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)\w*))\b",
    re.IGNORECASE,
)
# What only adds to what was so: "we got a second cat", "I also play squash", "me too".
_ADDS: Final = re.compile(
    # ("too" ending a clause: "a dog too", not "still too high")
    r"\b(?:another|a\s+(?:second|third|fourth)|one\s+more|as\s+well)\b|\btoo\b(?=\s*(?:[,.!;]|$)|\s+(?:now|lol|haha|btw|tbh|though|then|actually)\b)|"
    r"\balso\b",  # (an opening "also" is stripped first: "ALSO coach moved me to defense")
    re.IGNORECASE,
)
_NOT_A_STATEMENT: Final = re.compile(
    r"\?\s*$|\b(?:forget|delete|erase|remind\s+me)\b|\b(?:can|could|would)\s+you\b|"
    # what happened today is no lasting change: "I left work early today"
    r"\b(?:today|tonight|this\s+(?:morning|afternoon|evening)|right\s+now)\b",
    re.IGNORECASE,
)
# A request to the assistant: "actually, keep it short" changes how to answer, not a fact.
_REQUEST: Final = re.compile(
    r"^(?:please\s+)?(?:keep|make|give|tell|be|use|stop|don't|do|try|write|show|list|explain|"
    r"answer|just|let's|can|could|would|will)\b",
    re.IGNORECASE,
)
# Clauses: at punctuation, and before the words that join a second one.
_CLAUSE: Final = re.compile(
    r"\s*(?:[,;–—]|\s-\s|\b(?:but|so|and\s+then|which|although|bc|because|cos|coz)\b)\s*"
)
# ... and where the new value may be said: "Yuki's left | and we've got Hiroshi Tanaka now"
# (a second subject, a second clause; the change word of the second is the whole's)
_NEW_CLAUSE: Final = re.compile(
    rf"{_CLAUSE.pattern}|\s*\band(?=\s+(?:we|i|she|he|they)(?:['’]|\s))\s*"
)
# Openers that carry no fact: "oops, ...", "update: ...", "anyway ...".
_FILLER: Final = re.compile(
    r"^(?:(?:oh+|ok+|okay|oops|sorry|so+|but|and|anyway|well|ugh+|also|fyi|btw|update|"
    r"correction|actually|hey|hi|hello|lol|haha|yeah|yes|no|wait|hmm|um|right|heads\s+up)\b"
    r"[\s,!:.-]*)+",
    re.IGNORECASE,
)
# Words too common to say what a sentence is about.
_PLAIN: Final = frozenset(
    """user i im ive me my we our us you your it its just really like get got go going went
    now new one thing things bit lot today yesterday week weeks lol tbh btw way also
    still back told tell said say called named name time actually correction update finally
    anyway ugh""".split()
)
_RELATION_STEMS: Final = frozenset(RELATIONS)


@dataclass(frozen=True, slots=True)
class LooseCorrection:
    """A clause of the user's that replaces one remembered fact."""

    old: MemoryItem
    text: str  # the new fact, in the third person where it speaks of the user
    span: tuple[int, int]  # of the sentence, in the user's message


def apply(
    memory: MemoryService,
    text: str,
    source: Provenance,
    learned: Sequence[MemoryItem],
    handled: Collection[tuple[int, int]] = (),
) -> list[MemoryItem]:
    """Replace the facts the sentences of ``text`` correct, where no rule did. ``learned``:
    what this message taught already (not what it corrects); ``handled``: spans of the message
    a rule already changed something from."""
    from desktop_agent.core.revisions import revise

    if not _CHANGE.search(text):
        return []  # most messages change nothing: no need to read every fact
    taught = {item.id for item in learned}
    replaced = [
        item
        for item in learned
        if (item.meta or {}).get("supersedes") or (item.meta or {}).get("past")
    ]
    spans = [*handled, *((p.start, p.end) for item in replaced for p in item.provenance)]
    # what this message ended without saying what came instead ("I'm not at Blue Bottle
    # anymore, I started as a hygienist") may still be replaced by its words
    ended = _ended_by(memory, source.episode_id)
    facts = [
        f
        for f in (*memory.active_facts(), *ended)
        if f.id not in taught and f.type != "task" and f.subject_key != STYLE_KEY
    ]
    people = frozenset(people_by_name(memory))
    written: list[MemoryItem] = []
    for found in corrections(text, facts, spans, {f.id for f in ended}, people):
        provenance = Provenance(source.episode_id, source.conversation_id, *found.span)
        if any(item.text == found.text for item in written):
            memory.end([found.old.id], provenance)  # one new fact for the facts it replaces
        else:
            # what the replaced fact was about ("... for User's phone") still finds the new
            # words ("Switched to Vodafone, 20 euro a month now"); by id, not a copy of its
            # words, so forgetting it leaves nothing behind
            about = {"about_id": found.old.id}
            written.append(revise(memory, found.old, found.text, provenance, extra=about))
    return written


def _ended_by(memory: MemoryService, episode_id: str) -> list[MemoryItem]:
    """Facts the words of ``episode_id`` ended (superseded by no newer version)."""
    return [
        item
        for item in memory.items(SEMANTIC)
        if item.status == SUPERSEDED
        and not (item.meta or {}).get("superseded_by")
        and any(p.get("episode") == episode_id for p in (item.meta or {}).get("ended_by", ()))
    ]


def corrections(
    text: str,
    facts: Sequence[MemoryItem],
    handled: Collection[tuple[int, int]] = (),
    ended: Collection[str] = (),
    people: Collection[str] = (),
) -> Iterator[LooseCorrection]:
    """The corrections in ``text`` of ``facts`` (current facts, and those of ``ended`` that
    the same message ended), sentence by sentence. ``people``: the names of the user's people
    and pets, which say who a sentence is about, not what changed ("Ananya's annual day got
    postponed" changes nothing of "User's daughter is named Ananya")."""
    # Of two sentences correcting one fact, the one that names the new value: "the club
    # changed the whole schedule. | mateo's swimming is on saturday mornings at 10 now."
    chosen: dict[str, tuple[bool, LooseCorrection]] = {}
    for sentence, span in _sentences(text):
        if any(start < span[1] and span[0] < end for start, end in handled):
            continue
        if not _CHANGE.search(sentence) or _NOT_A_STATEMENT.search(sentence):
            continue
        if _REQUEST.match(_FILLER.sub("", sentence).lstrip(" ,")):
            continue
        if _ADDS.search(_FILLER.sub("", sentence)):
            continue  # "turns out I'm also allergic to latex": one more, nothing replaced
        for old, clause in _correction(sentence, facts, ended, people):
            named = bool(_NAMED.search(clause) or DAY_OR_MONTH.search(clause))
            if old.id not in chosen or (named and not chosen[old.id][0]):
                chosen[old.id] = (named, LooseCorrection(old, _third_person(clause), span))
    for old, clause, span in _quit_then(text, facts, handled, people):
        chosen.setdefault(old.id, (True, LooseCorrection(old, clause, span)))
    yield from (correction for _named, correction in chosen.values())


# Giving something up, said without a change word: "ava quit ballet!!"
_QUIT: Final = re.compile(r"\b(?:quit|quits|stopped|gave\s+up|packed\s+in)\b", re.IGNORECASE)
_QUIT_WORDS: Final = frozenset({"quit", "stopped", "gave", "packed"})
_PRONOUN_START: Final = re.compile(r"^(?:she|he|they)\b", re.IGNORECASE)
# who an old fact is about: "User's daughter Ava", "User"
_WHO: Final = re.compile(r"^User(?:['’]s\s+[\w-]+(?:\s+[A-ZÀ-Ý][\w'’-]+)?)?")


def _quit_then(
    text: str,
    facts: Sequence[MemoryItem],
    handled: Collection[tuple[int, int]],
    people: Collection[str],
) -> Iterator[tuple[MemoryItem, str, tuple[int, int]]]:
    """ "ava quit ballet!! | she wants to play football now, joined the under-9s": the first
    sentence names what ended (the one fact sharing its words), the next says what came instead
    (with a change word, sharing no word with that fact); the next replaces the fact."""
    sentences = list(_sentences(text))
    named = set(people)
    for (first, first_span), (then, span) in zip(sentences, sentences[1:], strict=False):
        if not _QUIT.search(first) or _CHANGE.search(first) or not _CHANGE.search(then):
            continue
        if any(a < span[1] and span[0] < b for a, b in handled) or _NOT_A_STATEMENT.search(then):
            continue
        if _NOT_A_STATEMENT.search(first) or _ADDS.search(_FILLER.sub("", then)):
            continue
        said = _salient(first) - named - _RELATION_STEMS - _QUIT_WORDS
        about = [f for f in facts if said & _salient(f.text) - named]
        if len(about) != 1 or _salient(then) & _salient(about[0].text) - named:
            continue
        clause = _FILLER.sub("", then).strip(" .!")
        who = _WHO.match(about[0].text)
        if who and _PRONOUN_START.match(clause):
            clause = _PRONOUN_START.sub(who.group(0), clause, count=1)
        yield about[0], _third_person(clause), (first_span[0], span[1])


def _correction(
    sentence: str, facts: Sequence[MemoryItem], ended: Collection[str], people: Collection[str]
) -> list[tuple[MemoryItem, str]]:
    """The fact ``sentence`` corrects and the clause that says the new value; or several facts
    when they tie and the words in common name the same thing in each ("User works at Blue
    Bottle", "User works as a barista at Blue Bottle"): both go."""
    said = _salient(sentence)
    scored = []
    # "Correction: ...", "Update: ...": the opening says that the whole sentence changes
    opening = _FILLER.match(sentence.strip())
    whole = bool(opening and _CHANGE.search(opening.group(0)))
    changing = [_salient(c) for c in _clauses(sentence) if whole or _CHANGE.search(c)]
    for fact in facts:
        if (
            _of_someone_not_named(sentence, fact)
            or _same_workplace(sentence, fact)
            or _still_named(sentence, fact)
        ):
            continue
        shared = said & _salient(fact.text) - set(people)
        # ... in a clause that says the change: "the Leeds race got moved", not "I'll need
        # different tire sizes" beside "I'm driving a Subaru now" (the Kal Tire stays)
        if shared - _RELATION_STEMS and any(words & shared for words in changing):
            scored.append((len(shared), shared, fact))
    if not scored:
        return []
    scored.sort(key=lambda found: -found[0])
    # of facts tied, the one that says most first: its slot keeps the new words
    best = sorted(
        (found for found in scored if found[0] == scored[0][0]), key=lambda f: -len(f[2].text)
    )
    if len({fact.subject_key for _, _, fact in best}) > 1 and not all(
        shared & _values(fact.text) for _, shared, fact in best
    ):
        return []  # two facts it could be about: not a guess to make
    found = []
    for _, _, fact in best[:MOST_TIED]:
        clause = _new_clause(sentence, fact, ended=fact.id in ended)
        if clause is not None:
            found.append((fact, clause))
    return found


# More facts tied than this: the sentence is about something general, not one fact.
MOST_TIED: Final = 2
_LEFT: Final = re.compile(r"\b(?:from|left|leaving|quit|no\s+longer|not\s+at|instead)\b", re.I)


def _same_workplace(sentence: str, fact: MemoryItem) -> bool:
    """Whether ``sentence`` names the workplace ``fact`` says and leaves nothing: "new shift
    pattern at Crumb & Co means I'm now up at 5:30" is news of the same job."""
    if fact.subject_key not in ("employer", "job"):
        return False
    names = set(_NAMES_IN.findall(fact.text)) - {"User"}
    return bool(names) and all(n in sentence for n in names) and not _LEFT.search(sentence)


_NAMES_IN: Final = re.compile(r"\b[A-ZÀ-Ý][\w'’-]+")


def _still_named(sentence: str, fact: MemoryItem) -> bool:
    """Whether ``sentence`` names the one ``fact`` names as still so: "Dr Nguyen halved his
    carprofen" is news of the vet, not a new vet."""
    if not fact.subject_key.startswith("name_of:"):
        return False
    names = set(_NAMES_IN.findall(fact.text)) - _NO_NAMES
    return any(
        re.search(rf"\b{re.escape(n)}\b", sentence) for n in names
    ) and not _TAKEN_BACK.search(sentence)


_NO_NAMES: Final = frozenset({"User", "User's", "Dr", "Mr", "Mrs", "Ms", "Mx", "Prof"})
_TAKEN_BACK: Final = re.compile(
    r"\b(?:not|wrong|instead|retired|retiring|left|leaving|no\s+longer|any\s*more|replaced|"
    r"mistake|meant|typo|misspelt|misspelled|spelt|spelled|actually)\b",
    re.IGNORECASE,
)
_USER_OPENS: Final = re.compile(r"(?:i|i['’](?:m|ve|d|ll)|my|we|we['’](?:re|ve))\b", re.IGNORECASE)


def _of_someone_not_named(sentence: str, fact: MemoryItem) -> bool:
    """Whether ``fact`` is about one of the user's people whom ``sentence`` neither names nor
    points at: "I dropped my Galaxy down the stairs at work" changes nothing of "User's
    boyfriend Jamie works in IT support at a law firm"."""
    if not fact.subject_key.startswith("person:") or THEM.search(sentence):
        return False
    if not _USER_OPENS.match(_FILLER.sub("", sentence).lstrip(" ,")):
        return False  # "Sam's left nursing! | retrained and now works as a paramedic": his
    who = _WHO.match(fact.text)
    words = set(re.findall(r"\w+", (who.group(0) if who else "").casefold()))
    words = (words | {fact.subject_key.split(":")[1].casefold()}) - {"user", "s"}
    return not words & set(re.findall(r"\w+", sentence.casefold()))


def _new_clause(sentence: str, old: MemoryItem, *, ended: bool = False) -> str | None:
    """The clause of ``sentence`` that says the new value: it says a word the old fact does
    not, leaves out one the old fact says, and does not open on the old value (its names,
    numbers and last word); of several, the one that names the old value only to take it back
    ("..., not the 12th"), then one with a change word, then the last."""
    old_words = _salient(old.text)
    values = _values(old.text)
    best: tuple[tuple[bool, bool, bool, bool, int], str] | None = None
    new: list[str] = []
    for index, clause in enumerate(_clauses(sentence, _NEW_CLAUSE)):
        words = _salient(clause)
        if not words - old_words or not old_words - words:
            continue
        opening = next((w for w in re.findall(r"[\w'’]+", clause) if stems(w) & words), "")
        if stems(opening) & _last(old.text) and not ended:
            continue  # "Tom moved to Canada": news of the old value, not what replaced it
        if ended and words & old_words:
            # "we had to give Max away", "I cancelled the gym membership": the ending; what
            # came instead shares nothing with it ("I started as a dental hygienist")
            continue
        if re.search(rf"\b(?:because|bc|cos|coz)\s+{re.escape(clause[:20])}", sentence, re.I):
            continue  # why it changed ("because the field got rebooked") is not what is so now
        # why, when it names the old one, is left out: "it's Well Pharmacy on Kingsway now |
        # since Boots kept losing my orders"
        why = _WHY.search(clause)
        if why and stems(why.group(0)) & values:
            clause = clause[: why.start()]
            words = _salient(clause)
        denied = _only_denied(clause, words & values)
        # a clause naming something new ("I'm at Iron Republic now") over one that only
        # says something changed ("switched gyms lol")
        named = bool(_NAMED.search(clause) and _values(_third_person(clause)) - old_words)
        changes = bool(_CHANGE.search(clause))
        if not named and not changes and not _DIGIT.search(clause):
            continue  # "good news for once": says neither a change nor anything new
        # (a clause naming the new one with a change, and no old value, first: "it's Well
        # Pharmacy on Kingsway now" over "swapped pharmacies")
        key = (named and changes and denied, denied, named, changes, index)
        if best is None or key > best[0]:
            best = (key, clause)
        if named and not words & values:
            new.append(clause)
    if len(new) > 1:
        # "Switched to Vodafone, | 20 euro a month now": each names something new
        return ", ".join(new)
    if best is None:
        return None
    # what it replaced, said on the way ("moved us off Spotify onto Apple Music"), is no part
    # of the new fact
    return said_as_now(best[1], old.text, "")


_WHY: Final = re.compile(r"\s+(?:since|because|as|cos|coz|bc)\s+.*$", re.IGNORECASE)


def _sentences(text: str) -> Iterator[tuple[str, tuple[int, int]]]:
    for found in SENTENCE.finditer(text):
        sentence = found.group(0).strip()
        if sentence:
            yield sentence, (found.start(), found.end())


def _clauses(sentence: str, at: re.Pattern[str] = _CLAUSE) -> list[str]:
    clauses = [_FILLER.sub("", part.strip(" .!")).strip() for part in at.split(sentence)]
    return [clause for clause in clauses if len(clause.split()) >= 2 or _DIGIT.search(clause)]


_DIGIT: Final = re.compile(r"\d")
_ONE_TO_ONES: Final = re.compile(r"\b1[:-](?:2[:-])?1s\b")
_NAMED: Final = re.compile(r"(?<!^)\b[A-Z][\w'’-]+|\d")
_DENIAL: Final = re.compile(r"^(?:not|no|never|instead|rather|from|than|of)$", re.IGNORECASE)


def _only_denied(clause: str, values: set[str]) -> bool:
    """Whether each of ``values`` the clause names is taken back within the three words before
    it: "the 21st of March, not the 12th", "a guinea pig instead of a hamster"."""
    words = re.findall(r"[\w'’]+", clause)
    for index, word in enumerate(words):
        if stems(word) & values and not any(
            _DENIAL.match(w) for w in words[max(0, index - 3) : index]
        ):
            return False
    return True


def _salient(text: str) -> set[str]:
    """The stems that say what ``text`` is about: no stop words, no change words."""
    words = stems(_ONE_TO_ONES.sub("one-to-ones", text))  # as extraction writes "1:1s"
    return {
        w
        for w in words
        if (len(w) >= 3 or w.isdigit())
        and w not in STOPWORDS
        and w not in _PLAIN
        and not _CHANGE.fullmatch(w)
    } | measured_in(text)  # "go up to 100mg" is about what was "sertraline 50mg"


def _values(fact: str) -> set[str]:
    """The words of a fact that are its value: names and numbers, and its last word ("User's
    best friend is Tom", "User's daughter plays netball")."""
    body = re.sub(r"^User(?:['’]s)?\s+\S+", "", fact)
    names = {w.casefold() for w in re.findall(r"\b[A-Z][\w'’-]*|\b\d[\w.,:]*", body)}
    return (stems(" ".join(names)) | _last(fact)) & _salient(fact)


def _last(fact: str) -> set[str]:
    words = re.findall(r"[\w'’]+", fact)
    return stems(words[-1]) if words else set()


_FIRST_PERSON: Final = (
    (re.compile(r"\bI['’]m\b"), "User is"),
    (re.compile(r"\bI['’]ve\b"), "User has"),
    (re.compile(r"\bI['’]d\b"), "User would"),
    (re.compile(r"\bI['’]ll\b"), "User will"),
    (re.compile(r"\b(?:my|mine)\b", re.IGNORECASE), "User's"),
    (re.compile(r"\b(?:me|myself)\b", re.IGNORECASE), "User"),
    (re.compile(r"\bI\b"), "User"),
)


def _third_person(clause: str) -> str:
    """ "I've upgraded my entry to the full marathon" -> "User has upgraded User's entry to the
    full marathon"; a clause about someone else stays as said."""
    text = normalise(clause).text.strip(" .!,")
    for pattern, said in _FIRST_PERSON:
        text = pattern.sub(said, text)
    return text[:1].upper() + text[1:]


__all__ = ["LooseCorrection", "apply", "corrections"]
