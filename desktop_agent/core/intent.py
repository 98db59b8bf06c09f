"""Perceive: what kind of message the user sent, by deterministic rules.

The kind steers the turn: a question recalls harder, a preference or task gets extracted, feedback
updates the procedural statistics of the previous reply, a command is executed, not answered.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Literal

from desktop_agent.core.extraction import extract

IntentKind = Literal["question", "preference", "task", "feedback", "command", "statement"]


@dataclass(frozen=True, slots=True)
class Intent:
    kind: IntentKind
    # Feedback only: True for "thanks, that worked", False for "that's wrong".
    positive: bool | None = None
    # Command only: "remember" or "forget", and its argument ("/forget my old address").
    command: str | None = None
    argument: str = ""


_SLASH = re.compile(r"^\s*/(remember|forget)\b\s*(.*)$", re.IGNORECASE | re.DOTALL)
_FORGET = re.compile(
    r"^\s*(?:please\s+)?(?:forget|delete|erase)\s+(?:that|about|what i said about|everything about)"
    r"\b\s*(.*)$",
    re.IGNORECASE | re.DOTALL,
)

# Feedback is short and about the last reply; a thanks at the start or a verdict anywhere counts.
_THANKS = re.compile(r"^\s*(?:thanks|thank you|thx|ty|cheers|much appreciated)\b", re.IGNORECASE)
_PRAISE = re.compile(
    r"^\s*(?:great|perfect|awesome|nice|excellent|brilliant|cool|spot on|exactly)\b[!. ]*$|"
    r"\b(?:that|it|this)\s+(?:worked|works|helped|helps|fixed it|did the trick)\b|"
    r"\b(?:that'?s|that is|this is|you'?re|you are)\s+(?:right|correct|perfect|helpful|great|"
    r"spot on|exactly what i (?:needed|wanted))\b|\bexactly what i (?:needed|wanted)\b",
    re.IGNORECASE,
)
_NEGATIVE = re.compile(
    r"^\s*(?:(?:no[,.!]?\s+)?(?:that'?s|that is|this is|it'?s|you'?re)\s+(?:wrong|not right|"
    r"incorrect|not correct|not what i (?:asked|meant|wanted)|not true|false|useless|unhelpful)|"
    r"(?:that|it|this)\s+(?:didn'?t|did not|doesn'?t|does not)\s+(?:work|help)|"
    r"wrong(?: answer)?|not helpful|that'?s not it|nope,? that'?s not)\b",
    re.IGNORECASE,
)
_QUESTION_START = re.compile(
    r"^\s*(?:what|what's|where|when|who|whom|whose|why|how|which|do|does|did|can|could|would|"
    r"will|should|shall|is|are|am|was|were|have|has|may|might|tell me|explain|remind me (?:what|"
    r"when|where|who|how|of))\b",
    re.IGNORECASE,
)
_TASK = re.compile(
    r"^\s*(?:please\s+)?(?:remind me to|don't let me forget|add (?:a )?(?:task|todo|to-do|"
    r"reminder)|i need to|i have to|i must|i've got to|help me|write|draft|make|create|plan|"
    r"summari[sz]e|translate|fix|find|book|schedule|list|compose|rewrite|generate|set up)\b",
    re.IGNORECASE,
)


def perceive(message: str) -> Intent:
    """Classify one user message (commands first, then feedback, questions, tasks, facts)."""
    text = message.strip()
    slash = _SLASH.match(text)
    if slash:
        return Intent("command", command=slash.group(1).casefold(), argument=slash.group(2).strip())
    forget = _FORGET.match(text)
    if forget:
        return Intent("command", command="forget", argument=forget.group(1).strip(" .!"))
    if _NEGATIVE.match(text):
        return Intent("feedback", positive=False)
    if len(text) < 80 and not text.endswith("?") and (_THANKS.match(text) or _PRAISE.search(text)):
        return Intent("feedback", positive=True)
    if text.endswith("?") or _QUESTION_START.match(text):
        return Intent("question")
    facts = extract(text)
    # "Great idea, now write a haiku": the request may follow a short remark.
    clauses = (
        re.sub(r"^\s*(?:now|then|ok|okay|so|and)\b[\s,]*", "", c) for c in re.split(r"[,.!;]", text)
    )
    if any(fact.type == "task" for fact in facts) or any(_TASK.match(c) for c in clauses):
        return Intent("task")
    # Facts about oneself ("my name is...") are statements: extraction stores them either way.
    if any(fact.type == "preference" for fact in facts):
        return Intent("preference")
    return Intent("statement")
