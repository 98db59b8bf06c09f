"""Consolidation against a real vault: merges, supersedes, idempotence, undo, the CLI."""

from __future__ import annotations

import json
import weakref
from typing import Any

import numpy as np
import pytest

from desktop_agent.app import App
from desktop_agent.cli import main
from desktop_agent.core.consolidation import (
    APART_KEY,
    DUPLICATE_THRESHOLD,
    LOG_KEY,
    RUN_KEY,
    consolidate,
    runs,
    same_statement,
    undo,
)
from desktop_agent.core.memory_model import MERGED, SEMANTIC, SUPERSEDED, TOPIC, Provenance
from desktop_agent.core.memory_service import MemoryService
from desktop_agent.embed import HashingEmbedder
from desktop_agent.errors import InputError
from desktop_agent.memory.model import MemoryNotFound

# Paraphrases and different facts in the assistant's phrasing; DUPLICATE_THRESHOLD was chosen on
# their all-MiniLM-L6-v2 cosines (see core/consolidation.py).
SAME = [
    ("User likes hiking", "User loves hiking"),
    ("User likes hiking", "User enjoys hiking"),
    ("User likes hiking", "User likes going hiking"),
    ("User lives in Lisbon", "User lives in Lisbon, Portugal"),
    ("User is allergic to peanuts", "User is allergic to peanut"),
    ("User is allergic to peanuts", "User has a peanut allergy"),
    ("User works as a nurse", "User is a nurse"),
    ("User works as a software engineer", "User is a software engineer"),
    ("User prefers tea over coffee", "User prefers tea to coffee"),
    ("User plans to visit Japan in May", "User plans to travel to Japan in May"),
    ("User's sister is named Ana", "User's sister is called Ana"),
    ("User hates loud music", "User dislikes loud music"),
    ("User likes jazz", "User likes jazz music"),
    ("User is vegetarian", "User is a vegetarian"),
    ("User has a dog named Rex", "User's dog is named Rex"),
    ("User plays the guitar", "User plays guitar"),
    ("User likes spicy food", "User enjoys spicy food"),
    ("User's birthday is 12 March", "User's birthday is on March 12"),
    ("Remind User to call the dentist", "Remind User to phone the dentist"),
    ("User decided to learn Spanish", "User decided to start learning Spanish"),
    ("User is afraid of flying", "User has a fear of flying"),
    ("User drinks coffee every morning", "User has coffee every morning"),
]
DIFFERENT = [
    ("User likes hiking", "User likes cooking"),
    ("User likes hiking", "User hates hiking"),
    ("User likes hiking", "User likes swimming"),
    ("User likes jazz", "User likes rock music"),
    ("User lives in Lisbon", "User lives in Porto"),
    ("User lives in Lisbon", "User is from Lisbon"),
    ("User is allergic to peanuts", "User is allergic to shellfish"),
    ("User is allergic to peanuts", "User is allergic to penicillin"),
    ("User works as a nurse", "User works as a doctor"),
    ("User works as a software engineer", "User works as a data engineer"),
    ("User prefers tea over coffee", "User prefers coffee over tea"),
    ("User plans to visit Japan in May", "User plans to visit Japan in October"),
    ("User plans to visit Japan in May", "User plans to visit Korea in May"),
    ("User's sister is named Ana", "User's brother is named Ana"),
    ("User's sister is named Ana", "User's sister is named Maria"),
    ("User hates loud music", "User hates loud restaurants"),
    ("User is vegetarian", "User is vegan"),
    ("User is vegetarian", "User is no longer vegetarian"),
    ("User has a dog named Rex", "User has a cat named Rex"),
    ("User plays the guitar", "User plays the piano"),
    ("User likes spicy food", "User likes sweet food"),
    ("User's birthday is 12 March", "User's birthday is 21 March"),
    ("Remind User to call the dentist", "Remind User to call the plumber"),
    ("User decided to learn Spanish", "User decided to learn French"),
    ("User is afraid of flying", "User is afraid of spiders"),
    ("User drinks coffee every morning", "User drinks tea every morning"),
    ("User is 34 years old", "User is 43 years old"),
    ("User works at Google", "User works at Microsoft"),
    ("User likes Italian food", "User likes Thai food"),
]


def source(episode: str) -> Provenance:
    return Provenance(episode, "c1", 0, 10)


def versions(memory: MemoryService) -> dict[str, int]:
    return {i.id: i.version for i in memory.items()}


def slipped_in(memory: MemoryService, text: str, **meta: Any):  # noqa: ANN201
    """A memory that reached the vault without ``remember`` (an import or a restored backup)."""
    fields = {"type": "fact", "status": "active", "importance": 0.6, **meta}
    vector = memory.embedder.embed([text])[0]
    with memory.lane:
        return memory.vault.add(SEMANTIC, text, vector=vector, meta=fields)


def test_near_duplicate_merges_into_the_older_with_both_sources(memory: MemoryService) -> None:
    older = memory.remember("User likes hiking", importance=0.5, provenance=[source("e1")])
    newer = memory.remember("User likes hiking!", importance=0.9, provenance=[source("e2")])

    report = consolidate(memory)

    kept, merged = memory.item(older.id), memory.item(newer.id)
    assert merged.status == MERGED and merged.meta["merged_into"] == older.id
    assert [p.episode_id for p in kept.provenance] == ["e1", "e2"]
    assert kept.importance == 0.9 and kept.active
    assert {(c.memory_id, c.action) for c in report.changes} >= {
        (older.id, "absorbed"),
        (newer.id, "merged"),
    }
    assert merged.meta[RUN_KEY] == report.run_id == kept.meta[RUN_KEY]
    assert newer.id in memory.vault  # never deleted
    assert len(memory.history(newer.id)) == 2


def test_second_run_changes_nothing_and_writes_no_version(memory: MemoryService) -> None:
    memory.remember("User likes hiking", provenance=[source("e1")])
    memory.remember("User likes hiking!", provenance=[source("e2")])
    memory.remember("User lives in Lisbon", subject_key="home_city")
    slipped_in(memory, "User lives in Porto", subject_key="home_city")
    assert consolidate(memory).changed
    before = versions(memory)

    again = consolidate(memory, force=True)

    assert again.changes == () and not again.skipped
    assert versions(memory) == before


def test_a_run_is_skipped_until_something_semantic_changes(memory: MemoryService) -> None:
    memory.remember("User likes hiking")
    consolidate(memory)
    memory.record_episode("c1", "hello", "hi")  # episodes do not matter to consolidation
    assert consolidate(memory).skipped
    memory.remember("User likes hiking!")
    report = consolidate(memory)
    assert not report.skipped and report.changed


def test_newer_statement_of_a_subject_key_supersedes_what_slipped_through(
    memory: MemoryService,
) -> None:
    old = memory.remember("User lives in Lisbon", subject_key="home_city")
    new = slipped_in(memory, "User lives in Porto", subject_key="home_city")

    report = consolidate(memory)

    assert memory.item(old.id).status == SUPERSEDED
    assert memory.item(old.id).superseded_by == new.id
    assert memory.item(new.id).supersedes == old.id and memory.item(new.id).active
    change = next(c for c in report.changes if c.memory_id == old.id)
    assert (change.action, change.before_status, change.after_status) == (
        "superseded",
        "active",
        "superseded",
    )


def test_guards_keep_apart_what_embeds_alike(memory: MemoryService) -> None:
    # Same words for the hashing embedder (cosine 1), different facts.
    a = memory.remember("User prefers tea over coffee")
    b = memory.remember("User prefers coffee over tea")
    c = memory.remember("User is 34 years old")
    d = memory.remember("User is 43 years old")
    consolidate(memory)
    assert all(memory.item(i.id).active for i in (a, b, c, d))


def test_a_number_in_words_keeps_two_statements_apart() -> None:
    # MiniLM puts these at 0.93; merged, "she's five" was lost from the answer to "how old?"
    bike = "User's daughter Mei is learning to ride a bike"
    assert not same_statement(bike, f"{bike}, she's five", cosine=0.93)
    assert not same_statement("User has two cats", "User has three cats", cosine=0.97)
    assert same_statement("User has two cats", "User has two cats now", cosine=0.97)


def test_undo_restores_exactly(memory: MemoryService) -> None:
    memory.remember("User likes hiking", importance=0.5, provenance=[source("e1")])
    memory.remember("User likes hiking!", importance=0.9, provenance=[source("e2")])
    memory.remember("User lives in Lisbon", subject_key="home_city")
    slipped_in(memory, "User lives in Porto", subject_key="home_city")
    before = {i.id: (i.text, dict(i.meta or {})) for i in memory.items()}

    report = consolidate(memory)
    assert runs(memory) == [report.run_id]
    undone = undo(memory, report.run_id)

    after = {i.id: (i.text, _without(i.meta, APART_KEY)) for i in memory.items()}
    assert after == before  # topics this run created are gone, every field is back
    assert not memory.items(TOPIC)
    assert undone.conflicts == () and len(undone.restored) == len(
        [c for c in report.changes if c.action != "topic_created"]
    )
    with pytest.raises(InputError):
        undo(memory, report.run_id)


def test_undone_merge_is_not_redone(memory: MemoryService) -> None:
    a = memory.remember("User likes hiking")
    b = memory.remember("User likes hiking!")
    report = consolidate(memory)
    undo(memory, report.run_id)
    consolidate(memory)
    assert memory.item(a.id).active and memory.item(b.id).active


def test_undo_leaves_alone_what_changed_since(memory: MemoryService) -> None:
    a = memory.remember("User likes hiking", importance=0.5)
    b = memory.remember("User likes hiking!", importance=0.9)
    report = consolidate(memory)
    memory.edit(a.id, importance=0.3)  # the user changed the kept memory after the run

    undone = undo(memory, report.run_id)

    assert a.id in undone.conflicts
    assert memory.item(a.id).importance == 0.3
    assert memory.item(b.id).active  # the other side of the merge is restored


def test_undo_of_an_unknown_run_is_an_input_error(memory: MemoryService) -> None:
    with pytest.raises(InputError, match="no consolidation run"):
        undo(memory, "nope")


def test_faded_memories_are_reported_and_never_written(memory: MemoryService) -> None:
    from datetime import timedelta

    item = memory.remember("User once mentioned a blue kite", importance=0.1)
    report = consolidate(memory, now=item.updated_at + timedelta(days=900))
    assert item.id in report.stale
    assert memory.item(item.id).importance == 0.1 and item.id in memory.vault


@pytest.fixture
def cli(key_source, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]):  # noqa: ANN001, ANN201
    monkeypatch.setattr(App, "embedder", property(lambda self: HashingEmbedder()))

    def run(*argv: str) -> tuple[int, str, str]:
        code = main(["memory", *argv])
        out, err = capsys.readouterr()
        return code, out, err

    return run


def test_cli_runs_and_undoes(cli) -> None:  # noqa: ANN001
    assert cli("add", "User likes hiking")[0] == 0
    assert cli("add", "User likes hiking!")[0] == 0
    code, out, _ = cli("consolidate", "--json")
    report = json.loads(out)
    assert code == 0 and "merged" in {c["action"] for c in report["changes"]}
    code, out, _ = cli("consolidate", "--undo", report["run_id"])
    assert code == 0 and out.startswith(f"run {report['run_id']}:")
    code, out, err = cli("consolidate", "--undo", report["run_id"])
    assert code != 0 and out == "" and err.count("\n") == 1 and "Traceback" not in err


@pytest.mark.slow
def test_threshold_separates_paraphrases_from_different_facts() -> None:
    from desktop_agent.embed import SentenceEmbedder

    embedder = SentenceEmbedder()
    pairs = SAME + DIFFERENT
    left = embedder.embed([a for a, _ in pairs])
    right = embedder.embed([b for _, b in pairs])
    merged = [
        same_statement(a, b, float(u @ v)) for (a, b), u, v in zip(pairs, left, right, strict=True)
    ]
    assert not any(merged[len(SAME) :]), "a different fact would be merged"
    assert sum(merged[: len(SAME)]) >= 0.85 * len(SAME)
    assert 0.85 < DUPLICATE_THRESHOLD < 0.97


def _without(meta: Any, *keys: str) -> dict[str, Any]:
    return {k: v for k, v in dict(meta or {}).items() if k not in keys}


def test_log_lives_in_the_changed_memory(memory: MemoryService) -> None:
    a = memory.remember("User likes hiking")
    memory.remember("User likes hiking!")
    report = consolidate(memory)
    log = memory.item(a.id).meta[LOG_KEY]
    assert log[-1]["run"] == report.run_id and log[-1]["action"] in {"absorbed", "topic"}


def test_the_service_hands_out_its_stored_vectors(memory: MemoryService) -> None:
    # Consolidation reads vectors through this public read, not through the vault's index.
    a = memory.remember("User likes hiking")
    b = memory.remember("User lives in Lisbon")

    vectors = memory.vectors_of([b.id, a.id])

    assert list(vectors) == [b.id, a.id]
    expected = memory.embedder.embed(["User lives in Lisbon"])[0]
    np.testing.assert_allclose(vectors[b.id], expected / np.linalg.norm(expected), atol=1e-6)
    vectors[b.id][:] = 0  # a copy: the service's vector is unchanged
    assert memory.vectors_of([b.id])[b.id].any()
    memory.forget([a.id])
    with pytest.raises(MemoryNotFound):
        memory.vectors_of([a.id])


def test_consolidation_keeps_its_watch_on_the_service(open_memory: Any) -> None:
    # Whether anything changed since the last run is the service's state, one per service: a
    # run on one service tells nothing about another (and the module holds no state).
    import desktop_agent.core.consolidation as module

    first = open_memory()
    first.remember("User likes hiking")
    consolidate(first)
    assert consolidate(first).skipped

    second = open_memory()  # the same vault, opened again (as the next session would)

    assert not consolidate(second).skipped
    assert consolidate(second).skipped
    assert first.consolidation_watch is not second.consolidation_watch
    assert not any(isinstance(v, weakref.WeakKeyDictionary) for v in vars(module).values())
