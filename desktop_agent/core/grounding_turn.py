"""The memory side of a grounded answer: which facts answer a question about the user.

Current facts come from recall over semantic memories (superseded ones never answer "where do I
live now?"); a question about the past also gets the superseded facts of the same slots, with
the dates they stopped being true. "What do you know about me?" takes every current fact,
most important first.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Collection, Sequence
from dataclasses import dataclass, replace
from typing import Final

from desktop_agent.core.before_named import before_named, named_new
from desktop_agent.core.current_words import current, no_longer_so
from desktop_agent.core.extraction import extract
from desktop_agent.core.extraction_normalise import people_capitalised
from desktop_agent.core.extraction_words import CARERS, PET_WORDS
from desktop_agent.core.fact_changes import changed_later
from desktop_agent.core.grounding import (
    DONT_KNOW,
    GroundedAnswer,
    _values,
    compose,
    content_words,
    kin_asked,
    quoted,
    select_facts,
    slot_keys,
    stems,
    unnamed_words,
)
from desktop_agent.core.grounding_kinds import members_asked, says_a_member
from desktop_agent.core.grounding_words import RELATIONS, the_thing
from desktop_agent.core.memory_changes import listed
from desktop_agent.core.memory_model import (
    EPISODIC,
    SEMANTIC,
    SUPERSEDED,
    MemoryItem,
    Provenance,
)
from desktop_agent.core.memory_service import MemoryService, Recollection
from desktop_agent.core.named_people import (
    PEOPLE_WORDS,
    RECALL_DEPTH,
    THEM,
    by_relation,
    changed_after,
    named_in_memory,
    named_in_words,
    of_them,
    people_by_name,
    pets_vet_as_ours,
    says_what_is_asked,
)
from desktop_agent.core.question_pronouns import PRONOUN, following_up, leaning_on, resolved
from desktop_agent.core.questions import (
    SENTENCE,
    AboutUser,
    about_user,
    asks_only,
    asks_the_past,
    by_role,
    of_me,
    plain_question,
    question_only,
)
from desktop_agent.core.quote_now import said_as_now, tells_a_change
from desktop_agent.core.said_by_meaning import before_a_change, closest_statement
from desktop_agent.core.slot_past import (
    before_a_missed_change,
    before_in_its_source,
    before_its_source,
    earlier_in_slot,
)
from desktop_agent.core.statement_wording import AMOUNT_SAID, ENDED, WHEN_SAID, kind_asked
from desktop_agent.core.statements import (
    Statement,
    best_statement,
    names_in,
    position,
    says_the_kind_asked,
    substance,
    with_what_is_asked,
    with_whom,
)
from desktop_agent.core.successors import ROLE
from desktop_agent.core.thing_questions import (
    ADVICE,
    said_at_last,
    said_before_at_last,
    said_of_it,
)
from desktop_agent.core.told_next import with_what_followed
from desktop_agent.core.unchanged import said_before_unchanged
from desktop_agent.core.user_sentences import as_typed, told_sentences
from desktop_agent.memory.model import MemoryNotFound

# How many facts "what do you know about me" may state.
EVERYTHING_LIMIT: Final = 10


@dataclass(frozen=True, slots=True)
class Grounding:
    answer: GroundedAnswer
    facts: tuple[Recollection, ...]
    past_recollections: tuple[Recollection, ...]


def ground(
    memory: MemoryService,
    text: str,
    excluded: Collection[str] = (),
    before: str | None = None,
    earlier: Sequence[str] = (),
    *,
    last_resort: bool = False,
) -> Grounding | None:
    """The grounded answer to ``text`` if it asks about the user, else None; ``before``: the
    user's message before it, whom "she" in "where does she live?" may mean, and ``earlier``
    the ones before that (oldest first), what "it" in the question before meant. With
    ``last_resort``, a question no rule knows is answered by the user's sentence that says
    the thing and the kind asked (``said_at_last``), before the model is."""
    if ADVICE.search(text):
        return None  # "what should I get Nia for her birthday?" asks for ideas: the model's
    grounded = _ground(memory, text, excluded, before, earlier)
    if grounded is not None and (same := _unchanged(memory, grounded, text, excluded)):
        return same  # "same spin days tho": the days, said before
    unknown = grounded is not None and grounded.answer.text == DONT_KNOW and not grounded.facts
    if (grounded is None or unknown) and last_resort:
        # (also before "I don't know": no fact fills the slot, and the user's words may say it:
        # "which football club do i support?" after "... massive Benfica fan")
        asked = plain_question(text)
        if before and PRONOUN.search(asked):
            asked = resolved(asked, before, people_by_name(memory), earlier)
        if (said := said_at_last(memory, asked, excluded)) is not None:
            return _quoting(said.sentence, said.source, memory, asked)
        if (said := said_before_at_last(memory, asked, excluded)) is not None:
            return _quoting(said.sentence, said.source, question=asked)
    alone = _WITH_SOMEONE.sub("", text)
    if grounded is not None and alone != text and not _says_asked(grounded, text):
        # "when do I have my one-to-ones with my manager?": nothing known of the manager's
        # (or only who the manager is), and the one-to-ones are known
        known = _ground(memory, alone, excluded, before, earlier)
        if known is not None and known.answer.text != DONT_KNOW and _says_asked(known, text):
            return known
    return grounded


def _unchanged(
    memory: MemoryService, grounded: Grounding, question: str, excluded: Collection[str]
) -> Grounding | None:
    """For a quote that only says the thing asked stayed the same ("date's unchanged"), the
    quote of the user's words before it that say it (``said_before_unchanged``)."""
    if len(grounded.facts) != 1 or grounded.facts[0].item.kind != EPISODIC:
        return None
    source = grounded.facts[0]
    said = source.item.text.removeprefix("User: ")
    if not says_the_kind_asked(said, question):
        # "ferry moved to the 4th of july now." quoted for the booking ref, of a message
        # that goes on "same booking ref tho": what stayed the same is said in the message
        try:
            said = memory.item(source.item.id).user_text
        except MemoryNotFound:
            return None
    found = said_before_unchanged(memory, said, source, question, excluded)
    return None if found is None else _quoting(found.sentence, found.source, question=question)


def _says_asked(grounded: Grounding, question: str) -> bool:
    """Whether ``grounded`` says something, and the kind of thing ``question`` asks (a time
    for "when ...?") if it asks one."""
    said = grounded.answer.text
    kind = kind_asked(question)
    return said != DONT_KNOW and (kind is None or bool(kind.search(said)))


# The event a past question dates by: "before I moved in with my girlfriend"
_BEFORE_WE: Final = re.compile(r"\s+before\s+(?:i|we)\b[^?]*", re.IGNORECASE)
_WITH_THEM: Final = re.compile(
    rf"\bwith\s+(?:my|our)\s+(?:{'|'.join(sorted(RELATIONS - {'manager', 'boss'}))})\b", re.I
)
# Whom something is done with, said last: "... with my manager?"
_WITH_SOMEONE: Final = re.compile(r"\s+with\s+(?:my|our)\s+[\w'’-]+(?=\s*[?.!]*\s*$)", re.I)


def _ground(
    memory: MemoryService,
    text: str,
    excluded: Collection[str],
    before: str | None,
    earlier: Sequence[str],
) -> Grounding | None:
    # "whos my gp" as "who's my gp"; "who's my dog's vet?" as "who's my vet?"; "when is
    # callum's birthday" as "when is Callum's birthday"
    text = pets_vet_as_ours(memory, people_capitalised(plain_question(text)))
    if before and PRONOUN.search(text):
        text = resolved(text, before, people_by_name(memory), earlier)
    if (alone := _the_question(text) or _without_purpose(text)) is not None:
        # "What's my dog's name again? | My memory isn't what it was!"
        return ground(memory, alone, excluded, before, earlier)
    event = _BEFORE_WE.search(text)
    bare = f"{text[: event.start()]} before?" if event else text
    if event and asks_the_past(text) and _WITH_THEM.search(event.group(0)) and not kin_asked(bare):
        # "where was I living before I moved in with my girlfriend?" asks where the user
        # lived: the girlfriend names the event, not whom it asks about
        return ground(memory, bare, excluded, before, earlier)
    if before and (leaning := leaning_on(text, [*earlier, before])) is not None:
        # "when is the pup going in to get looked at?" then "and what time is that?"
        grounded = ground(memory, leaning, excluded)
        if grounded is not None:
            return grounded
    if before and earlier:
        before = leaning_on(before, list(earlier)) or before  # what "that" meant then
    if before and (follow := following_up(text, before)) is not None:
        # "What dose am I taking now?" then "And what was it before the doctor changed it?"
        return ground(memory, follow, excluded)
    if (roled := by_role(text)) != text:
        # "who's coaching me?" as "who is my coach?", when a fact names the coach
        grounded = ground(memory, roled, excluded)
        if grounded is not None and grounded.facts:
            return grounded
    question = about_user(text)
    renamed_from = ""  # the question as asked, when it named one of the user's people
    ours = question is None and asks_only(text) and bool(_OURS.search(text) or of_me(text))
    if question is None or question.named:
        # "How old is Amara?": the user's daughter, by the name they told
        renamed = by_relation(memory, text)
        if renamed is not None and (asked := about_user(renamed)) is not None:
            question, text, renamed_from = asked, renamed, text
        elif ours:  # "when is the baby due?": answered if the memory knows, else the model's
            # ("which dentist retired?" asks the one before; "what was the band's name
            # before we changed it?" is answered by the user's words, as of the present)
            before_it = asks_the_past(text) and bool(_ended_asked(text))
            question = AboutUser(text, everything=False, past=before_it, named=text)
        elif question is None and (name := named_in_memory(memory, text)) and asks_only(text):
            # "How old is Ellie?" after "two kids: Ellie who's 9 and Sam who's 6"
            question = AboutUser(text, everything=False, past=False, named=name)
        elif question is None and (name := named_in_words(memory, text)) and asks_only(text):
            # "When does Omar have football?"
            grounded_of_them = _told_of(memory, text, name, excluded)
            if grounded_of_them is None and _PERSONAL.search(text):
                # "what's Kai's phone number?" after it was forgotten: not known, never a
                # number the model makes up
                question = AboutUser(text, everything=False, past=False, named=name)
                return Grounding(compose(question, [], []), (), ())
            return grounded_of_them
        elif question is None and asks_only(text) and (it := said_of_it(memory, text, excluded)):
            return _quoting(it.sentence, it.source, memory, text)  # "what night is pottery on now?"
        elif question is None:
            return None
    if question.everything:
        found = _everything(memory, excluded)
    else:
        found = memory.search(text, limit=RECALL_DEPTH, kinds=(SEMANTIC,), exclude=excluded)
        # The slot the question names, whether or not recall ranked it ("where do I live?"
        # among many facts that share none of its words).
        keys, have = slot_keys(text), {r.item.id for r in found}
        found += [
            listed(i)
            for i in memory.active_facts()
            if i.subject_key.casefold() in keys and i.id not in have and i.id not in excluded
        ]
    found = _with_about(memory, found)
    facts = select_facts(replace(question, named="") if ours else question, found)
    if not _NAMING_ASKED.search(renamed_from or text):
        # "who's looking after Pepper?": that the dog is named Pepper answers nothing asked
        # (unless it says what else is asked: "User's guinea pig is named Biscuit" for "what
        # kind of pet is Biscuit?")
        named = stems(" ".join(_NAMES.findall(renamed_from or text)))
        else_asked = content_words(text) - named
        members = members_asked(text)
        facts = [
            r
            for r in facts
            if not r.item.subject_key.startswith("name_of:")
            or not stems(" ".join(_NAMES.findall(r.item.text))) - {"user"} <= named
            or stems(r.item.text) & else_asked
            or says_a_member(members, r.item.text)
        ]
    if _ASKS_WHO.match(text) and any(names_in(r.item.text) for r in facts):
        # "who's my manager now?": "User's manager is Tariq Halloum", not what was said of the
        # one before ("User's manager is fine", from "my manager is Oona, she's fine i guess")
        facts = [r for r in facts if ":said:" not in r.item.subject_key or names_in(r.item.text)]
    # (or in its other words: "the wedding" is "User's sister is getting married ...")
    for thing in (
        sorted(the_thing(text) | _other_words(the_thing(text))) if ours and not facts else ()
    ):
        # "when is the move happening?": a fact saying the thing ("User is moving to Porto in
        # September"), though "move" is a word of the home slot that fact does not fill
        facts = facts or select_facts(replace(question, named=thing), found)
    if ours and (kind := kind_asked(text)) is not None:
        # "when is the greyhound going to the vet?": not "User has a retired greyhound"
        facts = [r for r in facts if kind.search(r.item.text)]
    if question.named and not facts and not ours:
        # the user's own words about them, if they say it; else "who is Ada Lovelace?" asks
        # the model, not the memory
        return _told_of(memory, text, question.named, excluded)
    past: list[Recollection] = []
    if question.past:
        older = memory.search(
            text,
            limit=RECALL_DEPTH,
            kinds=(SEMANTIC,),
            exclude=excluded,
            include_superseded=True,
        )
        past = _not_now(
            memory, select_facts(question, [r for r in older if r.item.status == SUPERSEDED])
        )
        if not past:
            # the slot of the facts that answer, else of the current facts saying the words
            wanted = content_words(text)
            current = facts or [r for r in found if wanted & stems(r.item.text)]
            past = _not_now(memory, earlier_in_slot(memory, current, excluded))
            facts = facts or [r for r in current if r.item.subject_key in _keys(past)]
        if new := named_new(text):
            # "where did I work before Ocado?": not the job at Ocado, which ended since
            past = [p for p in past if not new & stems(p.item.text)]
        # the names the current facts give ("Utrecht"), which a question's "before Haarlem"
        # must be among for the words before Haarlem to be the past
        known = {w for r in facts for w in stems(" ".join(_NAMES.findall(r.item.text)))}
        # and those of the messages they were learned from: "got a place in Headingley" in
        # "we're officially Leeds people now" is the move to Leeds
        sources = [e.user_text for r in facts for e in memory.provenance(r.item.id)[:1]]
        known |= {w for said in sources for w in stems(" ".join(_NAMES.findall(said)))}
        if not past and (said := _said(memory, text, excluded, known=known)) and said.earlier:
            # no fact's past, but the user's words before a change they told ("our cat Mochi
            # is on Royal Canin" before "we've switched her over to Hill's")
            return _quoting(said.sentence, said.source, question=text)
        if (
            not past
            and facts
            and (said := before_a_missed_change(memory, facts[0], text, excluded))
        ):
            # "we're renting in Bristol for now"
            return _quoting(said.sentence, said.source, question=text)
        if not past and facts and (said := before_its_source(memory, facts[0], text, excluded)):
            # "my honda civic is making a noise"
            return _quoting(said.sentence, said.source, question=text)
        if not past and facts and (said := before_in_its_source(memory, facts[0])):
            # "After 35 years in Linz my wife Gerda and I moved to Graz"
            return _quoting(said.sentence, said.source, question=text)
    if not facts and not question.past and not question.everything:
        # "Do I smoke?" after "I used to smoke": only the past was told, and it is the answer
        older = memory.search(
            text, limit=RECALL_DEPTH, kinds=(SEMANTIC,), exclude=excluded, include_superseded=True
        )
        past = select_facts(question, [r for r in older if _told_as_past(r.item)])
        ended = select_facts(question, [r for r in older if _ended(r.item)]) if not past else []
        if ended and (told := _ending(memory, ended[0].item)) is not None:
            # "What car do I have?" after "it got written off": how it ended, in their words
            return _quoting(*told)
    if not past and not question.everything and not _answers(facts, text, renamed_from):
        # No fact, or only facts of the slot that miss what is asked ("what shifts do I work?"
        # with only "User works at the hospital"): the user's own words may say it.
        # what the facts miss must be said
        beyond = unnamed_words(text) | _ended_asked(text) if facts else None
        statement = _said(memory, text, excluded, saying=beyond)
        if statement is not None and (
            not facts
            # (in other words too: "University of Lagos" for the "uni" asked)
            or (stems(statement.sentence) | content_words(statement.sentence))
            & (unnamed_words(text) | _ended_asked(text))
            # only who they are is known ("User's granddaughter is named Anya"), and the words
            # closest to what is asked of them say it ("... flying in from Singapore")
            or _says_of_them(statement, facts, text)
            # "where does my dad live?": none of his facts is where, and the sentence naming
            # him nearest the question says it ("he's been in Sapporo since he retired")
            or (_slot_missed(facts, text) and _names_them(statement, facts))
            # "who's teaching Jayden to drive?": someone else, named beside him
            or _names_another(statement.sentence, text, renamed_from)
        ):
            now = "" if question.past else text
            return _quoting(statement.sentence, statement.source, memory, now, question=text)
        if (
            facts
            and not question.past
            and (news := _said(memory, text, excluded)) is not None
            and _news_of_them(news, facts, text)
        ):
            return _quoting(news.sentence, news.source, memory, text)
    if ours and not facts:
        return None  # nothing remembered of "the nursery": the model answers
    # "Tomasz finally quit Hillcrest! he starts monday at ... Renalcare": told since, no rule
    # learned it, and the fact would say what the user took back
    if (
        facts
        and not question.past
        and not question.everything
        and (later := changed_later(memory, facts, text, excluded)) is not None
    ):
        return _quoting(later.sentence, later.source, memory, text)
    answer = compose(question, facts, [r.item for r in past])
    return Grounding(answer, tuple(facts), tuple(past))


def _other_words(things: set[str]) -> set[str]:
    """The synonyms of ``things`` ("wedding" -> "married", "marrying")."""
    return {w for thing in things for w in content_words(thing)} - things


_NAMES: Final = re.compile(r"(?<=\s)(?!User\b)[A-ZÀ-Ý][\w'’-]*")


# A household's own things, asked about with "the": "when is the baby due?", "what colour is
# the nursery?". Only answered from memory when a fact says so.
_OURS: Final = re.compile(
    r"\bthe\s+(?:new\s+)?(?:baby|babies|bump|nursery|wedding|kids|children|twins|dog|puppy|cat|kitten|"
    r"garden|allotment|extension|renovation|house\s+move|move|mortgage|operation|surgery|"
    r"due\s+date|christening|anniversary|(?:[\w'’-]+\s+)?(?:trip|holiday|vacation|honeymoon)|"
    # what the user runs or keeps: "which day is the shop shut?", "how big is the herd?"
    r"shop|salon|business|store|caf[eé]|bakery|restaurant|farm|herd|flock|boat|truck|van|car|"
    # ("when is the pup going in to get looked at?": an animal of the household by its kind)
    r"flat|apartment|landlord|rent|lease|band|allotment|" + PET_WORDS + r")\b|"
    # "which dentist retired?": who treats the user, asked by which one
    rf"\b(?:which|what)\s+(?:{ROLE})\b",
    re.IGNORECASE,
)


# What only the user can have told of someone they know: asked of them and not told, it is
# not known (the model would make one up).
# A question that asks for a name, or who someone is ("who is Pepper?"): a fact naming them
# answers it
_NAMING_ASKED: Final = re.compile(
    r"(?i:\b(?:name|named|called|call)\b)|^\s*(?i:who(?:['’]s|\s+is|\s+was))\s+"
    r"[A-ZÀ-Ý][\w'’-]*(?:\s+[A-ZÀ-Ý][\w'’-]*)?\s*\??\s*$"
)
_PERSONAL: Final = re.compile(
    r"\b(?:phone|number|mobile|address|email|e-mail|birthday|postcode|zip\s+code)\b",
    re.IGNORECASE,
)


def _told_as_past(item: MemoryItem) -> bool:
    return item.status == SUPERSEDED and bool((item.meta or {}).get("past"))


def _ended(item: MemoryItem) -> bool:
    """Ended by the user's words ("we had to rehome Rufus"), not replaced by a new value."""
    meta = item.meta or {}
    return item.status == SUPERSEDED and not item.superseded_by and bool(meta.get("ended_by"))


def _ending(memory: MemoryService, item: MemoryItem) -> tuple[str, Recollection] | None:
    """The sentence that ended ``item`` and its episode."""
    said = Provenance.from_json((item.meta or {})["ended_by"][0])
    try:
        episode = memory.item(said.episode_id)
    except MemoryNotFound:
        return None  # the episode was forgotten since
    sentence = episode.user_text[said.start : said.end].strip()
    # "We had to rehome Rufus" names the old value: saying it again would repeat what ended
    if not sentence or stems(sentence) & stems(" ".join(_values([item]))):
        return None
    return sentence, listed(episode)


def _keys(found: list[Recollection]) -> set[str]:
    return {r.item.subject_key for r in found}


def _ended_asked(question: str) -> set[str]:
    """The words of what ended that ``question`` asks about: {"retired"} in "which dentist
    retired?"."""
    ended = ENDED.search(question)
    return stems(ended.group(0)) if ended is not None else set()


def _names_another(sentence: str, question: str, asked_as: str) -> bool:
    """Whether ``question`` asks who, of someone it names, and ``sentence`` names another."""
    of = _who_of(question, asked_as)
    if not of or tells_a_change(sentence):
        return False  # (a change's names may be who it was: "Kwame's moved to Bristol")
    return bool(names_in(sentence) - of)


def _who_of(question: str, asked_as: str) -> set[str]:
    """The stems of the names a question asking who names, as the user put it (``asked_as``,
    "Jayden" for "my son"); empty for any other question."""
    if not _ASKS_WHO.match(question):
        return set()
    return stems(" ".join(_NAMES.findall(asked_as or question)))


def _answers(facts: list[Recollection], question: str, asked_as: str = "") -> bool:
    """Whether ``facts`` say what ``question`` asks: something of each word asked beyond the
    slot, and more than a name unless a name is asked ("which university is my grandson going
    to?" is not answered by "User's grandson is named Cian"). ``asked_as``: the question as
    the user put it, when it named one of their people ("Jayden" for "my son")."""
    if (ended := _ended_asked(question)) and not any(ended & stems(f.item.text) for f in facts):
        return False  # "which dentist retired?" is not answered by who the dentist is now
    if _slot_missed(facts, question):
        return False
    if _A_NAME_ASKED.search(question) and not any(names_in(f.item.text) for f in facts):
        return False  # "what's the name of the running club?" is no "User joined a running club"
    named = {f.item.subject_key.partition("name_of:")[2] for f in facts}
    if facts and "" not in named and _WHO_IS_MY.match(question):
        # "who's my Portuguese tutor?": the tutor's name answers, whatever the tutor teaches
        # (the one asked is the last words: "who's my sister's husband?" asks no sister)
        asked = _NOW_WORDS.sub("", question).split()
        if any(stems(r) == stems(" ".join(asked[-len(r.split()) :])) for r in named):
            return True
    of = _who_of(question, asked_as)
    if of and not {w for f in facts for w in names_in(f.item.text)} - of:
        # "who's teaching Jayden to drive?" is not answered by "User's son Jayden is 17": it
        # asks for someone else
        return False
    if facts and "" not in named and named <= PEOPLE_WORDS and not _NAME_ASKED.search(question):
        which = re.match(r"\s*(?:which|what)\s+([\w'’-]+)", question, re.IGNORECASE)
        if not (which and stems(which.group(1)) & stems(" ".join(named))):  # "which dentist?"
            return False
    # "when's my wedding?" is not answered by "User is getting married", nor "what city is the
    # wedding in?" by "User's sister is getting married in December" (tried for "where is the
    # wedding?" too: the fact then gave way to the first sentence, which named the old venue)
    if kind_asked(question) is WHEN_SAID and not any(WHEN_SAID.search(f.item.text) for f in facts):
        return False
    if _HOW_MUCH_IS.search(question) and not any(
        AMOUNT_SAID.search(f.item.text) or _NUMBER_WORD.search(f.item.text) for f in facts
    ):
        return False  # "how much is our energy direct debit?" is not "User's energy is Octopus"
    if _CITY_ASKED.search(question) and not any(_PLACE_SAID.search(f.item.text) for f in facts):
        return False
    return _names_all(facts, unnamed_words(question))


# An amount asked of a thing ("how much is our direct debit?", "how much do I pay for the
# gym?"), not how much the user does something ("how much am I working these days?")
_HOW_MUCH_IS: Final = re.compile(
    r"\bhow\s+(?:much|many)\s+(?:is|are|was|were|does|do|did|has|have)\b", re.IGNORECASE
)
_NUMBER_WORD: Final = re.compile(
    r"\b(?:one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|twenty|thirty|forty|"
    r"fifty|hundred|thousand|couple|twins?|triplets|dozen|half|both|no)\b",
    re.IGNORECASE,
)
_CITY_ASKED: Final = re.compile(r"\b(?:which|what)\s+(?:city|town|country)\b", re.IGNORECASE)
_PLACE_SAID: Final = re.compile(
    r"\b(?:in|at|from)\s+(?!(?:January|February|March|April|May|June|July|August|September|"
    r"October|November|December)\b)[A-ZÀ-Ý]"
)
_WHO_IS_MY: Final = re.compile(
    r"\s*(?:and\s+)?who(?:['’]s|\s+is|\s+are)?\s+(?:my|our)\b(?!.*\b(?:before|used\s+to)\b)",
    re.IGNORECASE,
)
_NOW_WORDS: Final = re.compile(
    r"\b(?:now|these\s+days|nowadays|again|currently|at\s+the\s+moment|right\s+now)\b|[?!.,]",
    re.IGNORECASE,
)
_NAME_ASKED: Final = re.compile(r"\b(?:name|names|named|called|call|who|whom|whose)\b", re.I)
_A_NAME_ASKED: Final = re.compile(
    r"\bwhat(?:['’]?s|\s+is|\s+was)\s+(?:the\s+name\s+of\b|(?:the|my|our)\s+[\w\s'’-]{1,30}?"
    r"\s+called\b)",
    re.IGNORECASE,
)
_ASKS_WHO: Final = re.compile(r"\s*(?:and\s+|so\s+)?(?:who|whom)\b", re.IGNORECASE)


def _says_of_them(statement: Statement, facts: list[Recollection], question: str) -> bool:
    """Whether ``statement``, found by meaning alone, tells what is asked of the people whom
    ``facts`` only name: its message names them ("My granddaughter Anya is flying in from
    Singapore" for "where is Anya coming from?"). Never for a count ("how many cats?"): the
    facts hold those."""
    if _COUNT.match(question):
        return False
    # the kind asked (a day for "when is my cat's vet appointment?"), which no fact says
    kind = kind_asked(question)
    if (
        kind is not None
        and kind.search(statement.sentence)
        and not any(kind.search(f.item.text) for f in facts)
    ):
        return True
    if statement.shared or not all(f.item.subject_key.startswith("name_of:") for f in facts):
        return False
    told = stems(statement.source.item.user_text)
    return all(stems(f.item.text) & told - {"user", "named", "is", "call", "called"} for f in facts)


_COUNT: Final = re.compile(r"\s*how\s+many\b", re.IGNORECASE)


def _slot_missed(facts: list[Recollection], question: str) -> bool:
    """Whether ``question`` asks a slot of one of the user's people ("where does my dad
    live?") that none of ``facts``, all about people, fills: "User's dad Hiroshi turns 70 in
    November" is no answer (what they said may be: ":said:" facts are not slots)."""
    asked = {k.rsplit(":", 1)[1] for k in slot_keys(question) if k.startswith("person:")}
    if not asked or not facts or not all(_OF_SOMEONE.match(f.item.subject_key) for f in facts):
        return False
    # (by the slot's last part: "my best friend" is asked as "person:friend:job"; a name fact
    # fills a name asked, and "who ...?")
    filled = {f.item.subject_key.rsplit(":", 1)[1] for f in facts}
    if any(f.item.subject_key.startswith("name_of:") for f in facts) and (
        "name" in asked or _NAME_ASKED.search(question) or _WHICH.match(question)
    ):
        return False
    return not asked & filled and not any(":said:" in f.item.subject_key for f in facts)


_WHICH: Final = re.compile(r"\s*(?:and\s+)?which\b", re.IGNORECASE)


def _names_them(statement: Statement, facts: list[Recollection]) -> bool:
    """Whether the sentence ``statement`` is in names the person ``facts`` are about."""
    names = {w for f in facts for w in stems(" ".join(_NAMES.findall(f" {f.item.text}")))}
    # the whole sentence it is in: the statement may be a clause of it ("joined a fencing club")
    sentences = told_sentences(statement.source.item.user_text)
    at = position(statement, sentences)
    sentence = statement.sentence if at is None else sentences[at]
    return bool(names and stems(sentence) & names)


def _news_of_them(statement: Statement, facts: list[Recollection], text: str) -> bool:
    """Whether ``statement``, closest to what is asked, is news the user told of the person
    whom ``facts`` are about since each of them was learned, in a sentence that names them
    ("and Esme has quit ballet and joined a fencing club" for "which club does Esme go to?",
    when what was learned of her misses it). What they said later is fresher than facts that
    miss what is asked."""
    if not all(_OF_SOMEONE.match(f.item.subject_key) for f in facts):
        return False
    # it must say a word of the question beyond whom it asks of: "what breed is my dog?" is not
    # answered by "we've switched Biscuit over to a new vet", nor "what does my best friend do
    # for work?" by "my best friend Priya just told me she's pregnant"
    said = stems(statement.sentence) | content_words(statement.sentence)
    if not content_words(text) & said - kin_asked(text) - PEOPLE_WORDS - {"best"}:
        return False
    told = statement.source.item
    if any(f.item.created_at >= told.created_at for f in facts):
        return False
    return _names_them(statement, facts)


_OF_SOMEONE: Final = re.compile(r"(?:person|name_of):")


def _names_all(facts: list[Recollection], wanted: set[str]) -> bool:
    """Whether the facts say something of each word asked beyond the slot (no facts: no)."""
    if not facts:
        return False
    said = set().union(*(stems(f.item.text) for f in facts))
    return not wanted or bool(wanted & said)


def _told_of(
    memory: MemoryService, text: str, name: str, excluded: Collection[str]
) -> Grounding | None:
    """The user's sentence that names ``name`` and says what ``text`` asks of them; None lets
    the model answer ("What is Python?" after "I'm learning Python" says nothing asked)."""
    statement = _said(memory, text, excluded)
    beyond = content_words(text) - stems(name)  # "old" in "how old is Mochi?"
    if (
        statement is not None
        and of_them(memory, statement, name, beyond, excluded)
        and (
            says_what_is_asked(text, statement.sentence, beyond, statement.source.item.user_text)
            or (asks_the_past(text) and changed_after(memory, statement, name, beyond, excluded))
        )
    ):
        return _quoting(statement.sentence, statement.source, memory, text)
    return None


def _with_about(memory: MemoryService, found: list[Recollection]) -> list[Recollection]:
    """Each fact a loose correction wrote, with the words of the fact it replaced (in memory
    only, as meta "about"): "Switched to Vodafone, 20 euro a month now" answers "who is my
    phone with?" as "User is paying Eir 35 euro a month for User's phone" did."""
    wanted = {
        r.item.id: str((r.item.meta or {}).get("about_id", ""))
        for r in found
        if (r.item.meta or {}).get("about_id")
    }
    if not wanted:
        return found
    texts = {item.id: item.text for item in memory.items(SEMANTIC)}
    return [
        dataclasses.replace(
            r,
            item=dataclasses.replace(
                r.item, meta={**(r.item.meta or {}), "about": texts.get(wanted[r.item.id], "")}
            ),
        )
        if r.item.id in wanted
        else r
        for r in found
    ]


def _quoting(
    sentence: str,
    source: Recollection,
    memory: MemoryService | None = None,
    asked: str = "",
    *,
    question: str = "",
) -> Grounding:
    """The answer that quotes the user's ``sentence``; the memory it shows is that sentence of
    the episode (same id, so the lens links to it), not the whole exchange: the rest of the
    message, and the reply, may say what the answer leaves out ("bc CoreFit put their prices
    up"). With what is ``asked`` now, a change is quoted without the value it replaced, as
    the user's earlier messages on it name that value (``said_as_now``)."""
    item = source.item
    wanted = question or asked
    if (
        wanted
        and not says_the_kind_asked(sentence, wanted)
        and not (memory and asked and _changed_since(memory, item, asked))
    ):
        # what is asked may be said beside the sentence that names the thing (for now, not
        # from a message a later one changed: "we do Monday and Thursday" with the PT); the
        # recall and the superseded facts are read only when the quote lacks it
        stale = no_longer_so(memory) if memory is not None and asked else ()
        sentence = with_what_is_asked(sentence, item.user_text, wanted, stale)
    if memory is not None and asked and tells_a_change(sentence):
        # (recalled only for a change: the quote of any other sentence stays whole)
        episodes = memory.search(asked, limit=RECALL_DEPTH, kinds=(EPISODIC,))
        earlier = " ".join(
            r.item.user_text for r in episodes if r.item.created_at < item.created_at
        )
        sentence = said_as_now(sentence, earlier, asked)
    sentence = as_typed(sentence, item.user_text)  # (the reading may capitalise names)
    if item.kind == EPISODIC:
        said = f"User: {sentence}"
        meta = {**(item.meta or {}), "user_end": len(said)}
        source = dataclasses.replace(source, item=dataclasses.replace(item, text=said, meta=meta))
    return Grounding(quoted(sentence, source), (source,), ())


def _changed_since(memory: MemoryService, item: MemoryItem, asked: str) -> bool:
    """Whether a message after ``item``, recalled for ``asked``, tells a change to something
    it said (they share a word of substance: "switched studios" changes nothing of the
    climbing gym)."""
    said = substance(item.user_text)
    return any(
        r.item.created_at > item.created_at
        and not question_only(r.item)
        and tells_a_change(r.item.user_text)
        and bool(substance(r.item.user_text) & said)
        for r in memory.search(asked, limit=RECALL_DEPTH, kinds=(EPISODIC,))
    )


def _said(
    memory: MemoryService,
    text: str,
    excluded: Collection[str],
    saying: Collection[str] | None = None,
    known: Collection[str] = (),
) -> Statement | None:
    """The user's own sentence that answers ``text`` when no learned fact does; with
    ``saying``, a later change is quoted only if it says one of those words too. ``known``:
    the names the current facts that answer it give, if any (see ``before_named``)."""
    asked = about_user(text)
    # (a question of someone named asks the past too: "what sport did Mateo do before judo?")
    past = asked.past if asked is not None else asks_the_past(text)
    episodes = memory.search(text, limit=RECALL_DEPTH, kinds=(EPISODIC,), exclude=excluded)
    if not past:  # (a question about the past wants the old words)
        episodes = current(memory, episodes)
    # "My son got into uni!!!" | "Edinburgh, to do geology."
    episodes = with_what_followed(memory, episodes, now=not past)
    kin = kin_asked(text)
    names = {
        w
        for name, relation in people_by_name(memory).items()
        if relation in kin or relation.split()[-1] in kin  # "best friend" is a friend
        for w in stems(name)
    }
    if past and (found := before_named(text, episodes, known)) is not None:
        return found  # "which car did I have before the Skoda?"
    found = best_statement(text, episodes, reasons=past, saying=saying, known_as=names)
    by_meaning = found is None
    if found is None and asked is not None:
        found = closest_statement(
            text,
            episodes,
            memory.embedder.embed,
            past=past,
            no_longer_so=no_longer_so(memory),
        )
    if found is None and asked is not None:
        found = before_a_change(text, episodes, memory.embedder.embed, past=past)
    if (
        by_meaning
        and found is not None
        and names
        and kin - CARERS
        and not stems(found.sentence) & (kin | names)
        and not THEM.search(found.sentence)  # ("I walk him every morning at 6:30")
    ):
        # by meaning alone, asked of "my friend" whose name is known: only a sentence that
        # names them ("physio says no running ..." is no answer to "what marathon is my friend
        # doing?" after "my friend Maya is doing Chicago")
        return None
    return found if found is None else with_whom(found, text)  # "He's doing the crown"


def _not_now(memory: MemoryService, past: list[Recollection]) -> list[Recollection]:
    """The past facts that say something other than what is so now: "before we went back to
    BT" was Virgin, not the BT of before Virgin."""
    keys = {p.item.subject_key for p in past if p.item.subject_key}
    now = {i.text.casefold() for i in memory.active_facts() if i.subject_key in keys}
    return [p for p in past if p.item.text.casefold() not in now]


def _the_question(text: str) -> str | None:
    """The one question in a message that says nothing else worth learning ("What's my dog's
    name again? My memory isn't what it was!", "when is Priya's birthday? don't let me mess
    this up"), when the message as a whole is no question about the user; else None."""
    if about_user(text) is not None or "?" not in text.rstrip()[:-1]:
        return None
    sentences = [m.group(0).strip() for m in SENTENCE.finditer(text) if m.group(0).strip()]
    asked = [s for s in sentences if s.endswith("?")]
    if len(asked) != 1 or len(sentences) < 2:
        return None
    rest = " ".join(s for s in sentences if s is not asked[0])
    return None if extract(rest) else asked[0]


# "whats my dog's name, i want to put it on a new tag": why the user asks, after the question
_PURPOSE: Final = re.compile(
    r"^(?P<question>[^,;?]+?)\??\s*(?:[,;]|\s[-–—])\s*(?:(?:cos|because|coz|as|since)\s+)?"
    r"(?:i|we)(?:['’]d|\s+would)?\s+(?:want|wanna|need|like|have|got)\s+(?:to\s+)?"
    r"(?:put|write|send|tell|fill|book|order|print|sign|label|get|buy|add|update|give)\b[^?]*\??$",
    re.IGNORECASE,
)


def _without_purpose(text: str) -> str | None:
    """The question of a message that then says what the answer is for, when the question
    alone asks about the user; else None."""
    found = _PURPOSE.match(text.strip())
    if found is None or about_user(text) is not None:
        return None
    question = found.group("question").strip()
    return question if about_user(question) is not None else None


def _everything(memory: MemoryService, excluded: Collection[str]) -> list[Recollection]:
    items = [
        i
        for i in memory.items(SEMANTIC, include_inactive=False)
        if i.id not in excluded and i.type != "task"
    ]
    items.sort(key=lambda i: (not i.pinned, -i.importance, i.created_at))
    return [listed(i) for i in items[:EVERYTHING_LIMIT]]
