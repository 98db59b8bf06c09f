"""The grammar extraction reads from a spaCy parse: sentences that state something, clause
heads and their subjects, who a subject is (the user, one of their people, a thing), phrases,
times, and the third-person rendering of a clause. The readers (``extraction_people``,
``extraction_user``, ``extraction_habits``) build on these.

The grammar lives by noun: ``extraction_clauses`` (statements, clauses, phrases),
``extraction_subjects`` (who a subject is), ``extraction_third_person`` (a clause in the third
person, and the fact made from it) and ``extraction_times`` (habits and dates); this module
keeps them importable from one place.
"""

from __future__ import annotations

from desktop_agent.core.extraction_clauses import (
    _LIKING,
    Found,
    Token,
    _base,
    _clause_heads,
    _clause_tokens,
    _conjuncts,
    _find_subject,
    _is_job,
    _is_statement,
    _negated,
    _object,
    _phrase,
    _place,
    _possessor,
    _prep_object,
    _span,
    _subject,
    _words,
)
from desktop_agent.core.extraction_subjects import KNOWN_PEOPLE, Who, _Context, _who
from desktop_agent.core.extraction_third_person import _make, third_person
from desktop_agent.core.extraction_times import _habitual, _is_time, _transient, _when

__all__ = [
    "KNOWN_PEOPLE",
    "_LIKING",
    "Found",
    "Token",
    "Who",
    "_Context",
    "_base",
    "_clause_heads",
    "_clause_tokens",
    "_conjuncts",
    "_find_subject",
    "_habitual",
    "_is_job",
    "_is_statement",
    "_is_time",
    "_make",
    "_negated",
    "_object",
    "_phrase",
    "_place",
    "_possessor",
    "_prep_object",
    "_span",
    "_subject",
    "_transient",
    "_when",
    "_who",
    "_words",
    "third_person",
]
