"""Questions about a thing the user told of, asked without "my": "when's the dentist?", "what
night is pottery on now?", "the wifi password?". The user's own sentence that says the thing
answers, or a change to it said since; else the model does ("what's the capital of France?"
after "off to France in May").
"""

from __future__ import annotations

import re
from collections.abc import Collection
from typing import Final

from desktop_agent.core.grounding import content_words, stems
from desktop_agent.core.grounding_words import the_thing
from desktop_agent.core.memory_model import EPISODIC
from desktop_agent.core.memory_service import MemoryService
from desktop_agent.core.named_people import RECALL_DEPTH
from desktop_agent.core.questions import asks_the_past
from desktop_agent.core.statement_wording import kind_asked
from desktop_agent.core.statements import Statement, best_statement


def said_of_it(memory: MemoryService, text: str, excluded: Collection[str]) -> Statement | None:
    """The user's sentence that says the two or more words of a question naming no one ("what
    night is pottery on now?" after "started a pottery class, wednesday nights 7pm"), or the
    one thing it names with "the" when it asks when or where ("when's the dentist?"), or a
    change to it said since; for the past, the words before that change. None when no
    sentence says them all ("what's the capital of France?" after "off to France in May")."""
    asked = content_words(text) & stems(text)
    if any(w[:1].isupper() for w in re.findall(r"[\w'’-]+", text)[1:]):
        return None
    # "when's the dentist?": one thing named with "the", asked when or where it is
    # ... or said bare ("when is pottery now?"), answered only by a sentence saying when
    bare = len(asked) == 1 and _WHEN_OR_WHERE.match(text) is not None
    if (
        len(asked) < 2
        and not bare
        and not (_WHEN_OR_WHERE.match(text) and asked and asked <= the_thing(text))
    ):
        return None
    hidden = {*excluded, *memory.outdated_episodes()}
    episodes = memory.search(text, limit=RECALL_DEPTH, kinds=(EPISODIC,), exclude=hidden)
    found = best_statement(text, episodes)
    # (a change said since is quoted for it: the words are counted in what it changes)
    if found is None:
        return None
    # "colour of the new cabinets?": the thing named with "the" is one the user told of;
    # "what day does book club meet now?": two of its words, and the kind asked ("moving to
    # the second wednesday")
    says = kind_asked(text)
    of_kind = found.shared >= 2 and says is not None and bool(says.search(found.sentence))
    if bare and not the_thing(text) and not (says is not None and says.search(found.sentence)):
        return None
    if found.shared < len(asked) and not the_thing(text) & stems(found.sentence) and not of_kind:
        return None
    if not asks_the_past(text):
        return found
    # "what was the starting dose?": the words before the change, in what is outdated too
    episodes = memory.search(text, limit=RECALL_DEPTH, kinds=(EPISODIC,), exclude=excluded)
    return best_statement(text, episodes, reasons=True)


_WHEN_OR_WHERE: Final = re.compile(
    r"\s*(?:when|where|what\s+(?:time|day|date)|which\s+(?:day|date))\b", re.IGNORECASE
)


__all__ = ["said_of_it"]
