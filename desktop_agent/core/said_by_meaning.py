"""Said by meaning: the user's sentence nearest in meaning to a question that shares none of
its words ("what car have I got now?" -> "I went with a grey Honda Civic"), and the words said
before the change nearest to a question about the past that names nothing said.

The other half of ``statements``: there, a sentence answers by the question's words; here, by
the embedder's nearness, under floors that keep what is only loosely related out.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Sequence
from typing import Any, Final

from desktop_agent.core.grounding import content_words, kin_asked, stems
from desktop_agent.core.memory_service import Recollection
from desktop_agent.core.questions import question_only
from desktop_agent.core.redaction import MARK
from desktop_agent.core.statement_wording import ENDED, what_is_so
from desktop_agent.core.statements import (
    CHANGE,
    Statement,
    changed_since,
    clipped,
    said_before,
    with_next,
)
from desktop_agent.core.user_sentences import told_sentences

# How close in meaning (cosine of the app's embedder) a sentence must be to a question that
# shares none of its words: "what car have I got now?" -> "I went with a grey Honda Civic".
MEANING_FLOOR: Final = 0.45
# Sentences this near the closest count as saying as much; the newer of them wins (the older
# for a question about the past).
MEANING_TIE: Final = 0.05
# Among the episodes recalled best for a question, one this near with a forgotten span in it
# stops the meaning fallback.
FORGOTTEN_NEAR: Final = 3


def closest_statement(
    question: str,
    episodes: Sequence[Recollection],
    embed: Callable[[Sequence[str]], Any],
    *,
    past: bool = False,
    no_longer_so: Collection[str] = (),
) -> Statement | None:
    """The sentence among the user's messages in ``episodes`` closest in meaning to
    ``question``, when no sentence shares its words; None below ``MEANING_FLOOR``. A sentence
    saying any of ``no_longer_so`` (the names and numbers of superseded facts) is never
    quoted for the present: nearness in meaning cannot tell the old value from the new; nor
    is anything when one of the episodes recalled best had words forgotten from it."""
    if any(MARK in r.item.user_text for r in episodes[:FORGOTTEN_NEAR]):
        return None  # something near it was forgotten: what is only near in meaning may be it
    stale = {stem for word in no_longer_so for stem in stems(word)} if not past else set()
    said = _told_in(episodes, lambda s: len(s.split()) >= 3 and not stale & stems(s))
    if not said:
        return None
    scores = nearness(embed, question, [sentence for sentence, _ in said])
    top = max(scores)
    if top < MEANING_FLOOR:
        return None
    near = [
        (s, r) for (s, r), score in zip(said, scores, strict=True) if score >= top - MEANING_TIE
    ]
    near.sort(key=lambda pair: pair[1].item.created_at, reverse=not past)
    sentence, source = near[0]
    if past:
        return with_next(Statement(clipped(sentence), source, 0), question, past=True)
    found = with_next(Statement(clipped(what_is_so(sentence, question)), source, 0), question)
    # "the wedding is in Enugu" is near "what city is my sister's wedding in?"; "they ended up
    # going with Abuja instead of Enugu", said since, is what is so now
    changed = changed_since(
        found, episodes, content_words(question) | kin_asked(question), question
    )
    if changed is not None and not stale & stems(changed.sentence):
        return changed
    return found


# How near in meaning a change must be to a question about the past that shares no word with
# anything said: lower than ``MEANING_FLOOR``, as only the sentences that say a change compete.
CHANGE_FLOOR: Final = 0.25


def before_a_change(
    question: str,
    episodes: Sequence[Recollection],
    embed: Callable[[Sequence[str]], Any],
    *,
    past: bool = True,
) -> Statement | None:
    """For a question about the past that names nothing said ("where were we originally going
    to go?"), the words said before the change nearest to it in meaning ("heading to Skye in
    May", before "Aileen's gone and booked us a wee cottage in Orkney instead"). A message that
    had words forgotten takes no part: what is left of it may lean on them."""
    episodes = [r for r in episodes if MARK not in r.item.user_text]
    changes = _told_in(episodes, lambda s: bool(CHANGE.search(s) or ENDED.search(s)))
    if not changes:
        return None
    scores = nearness(embed, question, [sentence for sentence, _ in changes])
    top = max(range(len(changes)), key=scores.__getitem__)
    if scores[top] < CHANGE_FLOOR:
        return None
    sentence, source = changes[top]
    asked = content_words(question) | kin_asked(question)
    if past:
        return said_before(Statement(sentence, source, 0), episodes, asked)
    found = Statement(clipped(what_is_so(sentence, question)), source, 0)
    return changed_since(found, episodes, asked, question) or found


def _told_in(
    episodes: Sequence[Recollection], keep: Callable[[str], bool]
) -> list[tuple[str, Recollection]]:
    """The user's statements in ``episodes`` that ``keep`` keeps, each with its episode."""
    return [
        (sentence, recollection)
        for recollection in episodes
        if not question_only(recollection.item)
        for sentence in told_sentences(recollection.item.user_text)
        if keep(sentence)
    ]


def nearness(
    embed: Callable[[Sequence[str]], Any], text: str, sentences: Sequence[str]
) -> list[float]:
    """How near in meaning each of ``sentences`` is to ``text`` (cosine: the embedder's vectors
    are normalised)."""
    vectors = embed([text, *sentences])
    return [float(v) for v in vectors[1:] @ vectors[0]]
