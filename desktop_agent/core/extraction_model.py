"""Model-assisted extraction: a capable chat model proposes facts under a JSON schema.

Off by default (``memory.model_assisted_extraction``): the bundled tiny model's JSON is unreliable
even with grammar-constrained decoding. Whatever the model returns is validated strictly; any
invalid output, and any item not grounded in the user's own words, falls back to (or is dropped
in favour of) the deterministic extractor, which always runs.
"""

from __future__ import annotations

import json
import logging
import re
from typing import Any, Protocol

from desktop_agent.core.extraction import FACT_TYPES, ExtractedFact, FactType, extract

logger = logging.getLogger(__name__)


class JsonEngine(Protocol):
    """A chat engine that decodes under a JSON schema (llama.cpp ``response_format``)."""

    def complete_json(self, prompt: str, schema: dict[str, Any]) -> str: ...


SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "facts": {
            "type": "array",
            # Bounded everywhere, so that grammar-constrained decoding always closes the JSON
            # within the engine's token budget (a small model will otherwise run on in a string).
            "maxItems": 4,
            "items": {
                "type": "object",
                "properties": {
                    "type": {"type": "string", "enum": list(FACT_TYPES)},
                    "subject_key": {"type": "string", "maxLength": 40},
                    "statement": {"type": "string", "maxLength": 160},
                    "quote": {"type": "string", "maxLength": 200},
                    "negated": {"type": "boolean"},
                    "is_correction": {"type": "boolean"},
                },
                "required": [
                    "type",
                    "subject_key",
                    "statement",
                    "quote",
                    "negated",
                    "is_correction",
                ],
                "additionalProperties": False,
            },
        }
    },
    "required": ["facts"],
    "additionalProperties": False,
}

PROMPT = """Extract lasting facts the USER states about themselves in the message below.
Only explicit statements; nothing from questions, hypotheticals or other people.
For each: type (fact, preference, plan, decision, task, risk), subject_key (a stable slot such as
name, home_city, job, likes:<thing>, allergy:<thing>), statement (third person, starting with
"User"), quote (the exact words from the message), negated, is_correction.
Return {{"facts": []}} when there is nothing.

Message: {message}
"""

_KEY = re.compile(r"^[a-z_]+(?::[\w' -]{1,60})?$")
_FIELDS = {"type", "subject_key", "statement", "quote", "negated", "is_correction"}


class InvalidModelOutput(ValueError):
    """The model's JSON broke the schema or quoted words the user never wrote."""


def parse_model_output(raw: str, message: str) -> list[ExtractedFact]:
    """Strictly validated facts from the model's JSON; raises InvalidModelOutput otherwise."""
    try:
        data = json.loads(raw)
    except (json.JSONDecodeError, TypeError) as error:
        raise InvalidModelOutput(f"not JSON: {error}") from error
    if not isinstance(data, dict) or set(data) != {"facts"} or not isinstance(data["facts"], list):
        raise InvalidModelOutput('expected exactly {"facts": [...]}')
    return [_item(item, message) for item in data["facts"]]


def _item(item: object, message: str) -> ExtractedFact:
    if not isinstance(item, dict) or set(item) != _FIELDS:
        raise InvalidModelOutput("each fact needs exactly the schema's fields")
    kind, key, statement, quote = (item[f] for f in ("type", "subject_key", "statement", "quote"))
    if kind not in FACT_TYPES:
        raise InvalidModelOutput(f"unknown type {kind!r}")
    if not all(isinstance(v, str) for v in (key, statement, quote)):
        raise InvalidModelOutput("subject_key, statement and quote must be strings")
    if not all(isinstance(item[f], bool) for f in ("negated", "is_correction")):
        raise InvalidModelOutput("negated and is_correction must be booleans")
    if not _KEY.match(key) or not statement.strip() or len(statement) > 300:
        raise InvalidModelOutput(f"bad subject_key or statement: {key!r}")
    start = message.find(quote) if quote.strip() else -1
    if start < 0:
        # A quote the user never wrote means the model made it up or read the assistant's words.
        raise InvalidModelOutput("quote is not in the user's message")
    fact_type: FactType = kind
    return ExtractedFact(
        text=statement.strip(),
        type=fact_type,
        subject_key=key,
        value=quote.strip(),
        confidence=0.7,
        span=(start, start + len(quote)),
        is_correction=item["is_correction"],
        negated=item["negated"],
    )


class ModelAssistedExtractor:
    """Deterministic extraction, widened by a capable model's validated proposals."""

    def __init__(self, engine: JsonEngine) -> None:
        self.engine = engine
        self.last_error: str | None = None

    def extract(self, message: str) -> list[ExtractedFact]:
        rules = extract(message)
        try:
            raw = self.engine.complete_json(PROMPT.format(message=message), SCHEMA)
            proposed = parse_model_output(raw, message)
        except Exception as error:  # noqa: BLE001 - any engine or output failure falls back
            self.last_error = str(error) or type(error).__name__
            logger.warning(
                "model-assisted extraction fell back to the rules: %s", type(error).__name__
            )
            return rules
        self.last_error = None
        # The rules are precise: where both speak of a slot, the rule's reading wins.
        taken = {fact.subject_key for fact in rules}
        return rules + [fact for fact in proposed if fact.subject_key not in taken]
