"""Forgetting, with everything that repeats the forgotten words: the facts learned only from
them, the topic summaries that quoted them, and the spans of the user's messages they came
from (redacted in place, in the same key ratchet as the forget)."""

from __future__ import annotations

import logging
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from desktop_agent.core.memory_changes import ForgetPreview, MemoryChange
from desktop_agent.core.memory_model import EPISODIC, SEMANTIC, TOPIC, MemoryItem, Provenance
from desktop_agent.errors import InputError

if TYPE_CHECKING:
    from desktop_agent.core.memory_service import MemoryService
    from desktop_agent.core.memory_writes import MemoryWrites
    from desktop_agent.core.recall_facts import RecallFacts
    from desktop_agent.core.redaction import EpisodeRedaction
    from desktop_agent.core.usage_counts import UsageCounts
    from desktop_agent.memory.model import ForgetReceipt

logger = logging.getLogger(__name__)
# How many exchanges naming a forgotten name are read for replies that repeated it (a search
# by the names: the replies saying them rank first).
REPLIES_SEARCHED = 200


class Forgetting:
    """The forgetting verbs of a ``MemoryService``."""

    def __init__(
        self,
        service: MemoryService,
        writes: MemoryWrites,
        usage: UsageCounts,
        facts: RecallFacts,
    ) -> None:
        self.service = service
        self.writes = writes
        self.usage = usage
        self.facts = facts

    def forget(self, memory_ids: Iterable[str], *, rebuild_topics: bool = True) -> ForgetReceipt:
        """Forget these memories, and everything that repeats their words: every topic summary
        that ever quoted one of them (in its current text or its history), and the span of
        the user's words each was learned from, redacted in its source episode (with the
        reply's sentences that repeated them). Topics are then rebuilt without them."""
        with self.service.lane:
            ids = list(dict.fromkeys(memory_ids))
            if not ids:
                raise InputError("nothing to forget: give at least one memory id")
            preview = self.preview(ids)
            _learned, kept = self._learned_only_from(ids)
            for fact_id, remaining in kept.items():  # learned elsewhere too: only the source goes
                self.writes.set_meta(fact_id, provenance=[p.to_json() for p in remaining])
            ids += [*preview.learned, *preview.topics]
            receipt = self._forget_sealed(ids, self._redaction_plans(ids))
            if preview.learned:
                receipt = replace(receipt, learned=preview.learned)
            if rebuild_topics and any(k == SEMANTIC for k in receipt.kinds):
                self.rebuild_topics(had_topics=bool(preview.topics))
            return receipt

    def forget_words(self, spans: Mapping[str, Sequence[tuple[int, int]]]) -> ForgetReceipt:
        """Forget words the user said, not a learned fact: each episode id maps to ranges of
        its user message ("forget my phone number" when no fact holds it). The ranges are
        redacted as a forgotten fact's span is, in the same ratchet; a fact learned from
        inside them is forgotten with them."""
        from desktop_agent.core.redaction import rewrite_episode

        service = self.service
        with service.lane:
            facts = service.items(SEMANTIC)
            ranges = {e: list(r) for e, r in spans.items() if e in service.vault}
            doomed = {
                f.id: f
                for f in facts
                for p in f.provenance
                if any(
                    p.start < end and start < p.end for start, end in ranges.get(p.episode_id, ())
                )
            }
            for fact in doomed.values():
                for p in fact.provenance:
                    if p.episode_id in service.vault and p.end > p.start:
                        ranges.setdefault(p.episode_id, []).append((p.start, p.end))
            ids = [*doomed, *self._topics_quoting(set(doomed))]
            plans = []
            for episode_id, said in ranges.items():
                kept = [
                    (f, p)
                    for f in facts
                    if f.id not in doomed
                    for p in f.provenance
                    if p.episode_id == episode_id
                ]
                if (plan := rewrite_episode(service.item(episode_id), said, kept)) is not None:
                    plans.append(plan)
            if not plans and not ids:
                raise InputError("nothing to forget: those words are no longer in any message")
            receipt = self._forget_sealed(ids, plans)
        if doomed:
            self.rebuild_topics()
        return receipt

    def forget_all(self) -> ForgetReceipt:
        service = self.service
        with service.lane:
            receipt = service.vault.forget_all()
            self.usage.clear()
            service.notify(MemoryChange(forgotten=tuple(receipt.ids), receipt=receipt))
            return receipt

    def _forget_sealed(
        self, ids: Sequence[str], plans: Sequence[EpisodeRedaction]
    ) -> ForgetReceipt:
        """Forget ``ids`` and rewrite each planned episode in one ratchet (the caller holds
        the lock), then move the surviving memories' spans and tell the panels."""
        from desktop_agent.memory.model import Rewrite

        service = self.service
        vectors: Any = service.embedder.embed([p.text for p in plans]) if plans else []
        rewrite = {
            p.episode_id: Rewrite(p.text, p.meta, vector)
            for p, vector in zip(plans, vectors, strict=True)
        }
        receipt = service.vault.forget(ids, rewrite=rewrite)
        repeated = tuple(p.episode_id for p in plans if p.reply_only)
        receipt = replace(receipt, repeated=repeated) if repeated else receipt
        logger.info("forgot %d memories, redacted %d messages", len(ids), len(plans))
        self.usage.drop(ids)
        for plan in plans:
            self.facts.rewritten(plan.episode_id)
        moved = {m: prov for p in plans for m, prov in p.moved.items() if m in service.vault}
        for memory_id, provenance in moved.items():
            self.writes.set_meta(memory_id, provenance=[p.to_json() for p in provenance])
        service.notify(
            MemoryChange(forgotten=tuple(ids), edited=tuple(receipt.redacted), receipt=receipt)
        )
        return receipt

    def preview(self, memory_ids: Iterable[str]) -> ForgetPreview:
        """What forgetting these memories also touches, said before it is done."""
        service = self.service
        ids = list(dict.fromkeys(memory_ids))
        for memory_id in ids:
            if memory_id not in service.vault:
                raise InputError(f"no memory with id {memory_id!r}; nothing was forgotten")
        learned, _kept = self._learned_only_from(ids)
        doomed = [*ids, *learned]
        topics = self._topics_quoting(set(doomed))
        plans = self._redaction_plans([*doomed, *topics])
        return ForgetPreview(
            tuple(ids),
            tuple(topics),
            tuple(p.episode_id for p in plans if p.episode_id not in set(ids)),
            tuple(learned),
            tuple(p.episode_id for p in plans if p.reply_only),
        )

    def _learned_only_from(
        self, ids: Sequence[str]
    ) -> tuple[list[str], dict[str, list[Provenance]]]:
        """Facts every source of which is among the episodes in ``ids`` (they go too), and the
        remaining sources of facts also learned elsewhere (they stay, without these)."""
        vault = self.service.vault
        episodes = {i for i in ids if vault.kind_of(i) == EPISODIC}
        inside = self._said_inside([i for i in ids if vault.kind_of(i) == SEMANTIC])
        if not episodes:
            return inside, {}
        asked = set(ids)
        only: list[str] = list(inside)
        kept = {}
        for fact in self.service.learned_from(episodes):
            if fact.id in asked:
                continue
            remaining = [p for p in fact.provenance if p.episode_id not in episodes]
            if remaining:
                kept[fact.id] = remaining
            else:
                only.append(fact.id)
        return only, kept

    def _said_inside(self, fact_ids: Sequence[str]) -> list[str]:
        """Current facts learned only from inside the words of the facts ``fact_ids``: "the
        dentist is Dr Feldman" read from "a dentist appointment with Dr Feldman on March 14"
        goes with the appointment."""
        service = self.service
        forgotten = [service.item(fact_id) for fact_id in fact_ids]
        spans = [
            (p.episode_id, p.start, p.end)
            for f in forgotten
            for p in f.provenance
            if p.end > p.start
        ]
        if not spans:
            return []
        asked = set(fact_ids)
        # ... and about the same thing: "I live in Lisbon with my sister Ana" forgets where the
        # user lives, not the sister's name
        topics = {w for f in forgotten for w in _key_words(f.subject_key)}

        def within(p: Provenance) -> bool:
            # strictly inside: a fact of the same words ("peanuts and penicillin") is its peer
            return any(
                e == p.episode_id and s <= p.start and p.end <= t and p.end - p.start < t - s
                for e, s, t in spans
            )

        return [
            fact.id
            for fact in service.active_facts()
            if fact.id not in asked
            and fact.provenance
            and all(map(within, fact.provenance))
            and topics & _key_words(fact.subject_key)
            and not _ones_person(fact.subject_key)
        ]

    def _redaction_plans(self, ids: Sequence[str]) -> list[EpisodeRedaction]:
        from desktop_agent.core.redaction import plan_redactions

        service = self.service
        doomed = set(ids)
        semantic = [service.item(i) for i in ids if service.vault.kind_of(i) == SEMANTIC]
        if not any(item.provenance for item in semantic):
            return []
        survivors = [i for i in service.items(SEMANTIC) if i.id not in doomed]

        def episode(episode_id: str) -> MemoryItem | None:
            if episode_id in doomed or episode_id not in service.vault:
                return None
            return service.item(episode_id)

        plans = plan_redactions(semantic, survivors, episode)
        return plans + self._replies_repeating(semantic, doomed | {p.episode_id for p in plans})

    def _replies_repeating(
        self, forgotten: Sequence[MemoryItem], skip: set[str]
    ) -> list[EpisodeRedaction]:
        """The replies of other exchanges that repeated a forgotten name: the model said
        "enjoy your time in Seville" two messages after the trip was told, and that exchange
        reached the next prompts after the trip was forgotten."""
        from desktop_agent.core.redaction import names_in, rewrite_reply

        names = names_in(forgotten)
        if not names:
            return []
        found = self.service.search(
            " ".join(sorted(names)),
            limit=REPLIES_SEARCHED,
            kinds=(EPISODIC,),
            include_superseded=True,
        )
        return [
            plan
            for hit in found
            if hit.item.id not in skip and (plan := rewrite_reply(hit.item, names)) is not None
        ]

    def rebuild_topics(self, *, had_topics: bool = False) -> None:
        rebuild_topics(self.service, had_topics=had_topics)

    def _topics_quoting(self, doomed: set[str]) -> list[str]:
        found = []
        for record in self.service.vault.list(TOPIC):
            quoted = record.meta.get("summarised") or record.meta.get("members") or ()
            if str(record.id) not in doomed and not doomed.isdisjoint(str(i) for i in quoted):
                found.append(str(record.id))
        return found


def _ones_person(subject_key: str) -> bool:
    """A fact of the user's own people or pets ("name_of:brother"): said in passing inside a
    debt to him, it is still the brother's name, kept when the debt is forgotten."""
    # imported here: `memory search` loads no extraction (tests/cli/test_search_process.py)
    from desktop_agent.core.extraction_words import PETS, RELATIONS

    family, _, relation = subject_key.partition(":")
    return family in ("name_of", "person") and (
        relation.split(":")[0] in RELATIONS.values() or relation in PETS.values()
    )


def _key_words(subject_key: str) -> set[str]:
    """What a slot is about, not what kind of slot it is: "plan:dentist appointment" ->
    {"dentist", "appointment"}, "name_of:dentist" -> {"dentist"}, "home_city" -> {}."""
    return set(re.split(r"[:\s]+", subject_key.casefold())[1:]) - {""}


def rebuild_topics(service: MemoryService, *, had_topics: bool = False) -> None:
    """Topic summaries after a forget or an edit: the "About you" summary must not keep
    saying what the user took back."""
    from desktop_agent.core.consolidation import refresh_topics

    if not had_topics and not service.vault.list(TOPIC):
        return  # none yet: the first consolidation run makes them
    try:
        refresh_topics(service)
    except Exception:  # the forget or edit is done; topics are rebuilt on the next run
        logger.exception("rebuilding topics failed")
