"""Topics: deterministic grouping and summaries, refreshed idempotently through a real vault."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import numpy as np

from desktop_agent.core.consolidation import consolidate, forget_topics_of, refresh_topics
from desktop_agent.core.memory_model import SUPERSEDED, TOPIC, MemoryItem
from desktop_agent.core.memory_service import MemoryService
from desktop_agent.core.topics import ABOUT_YOU, OTHER, family_topic, plan_topics, summarise

T0 = datetime(2024, 5, 1, tzinfo=UTC)


def item(n: int, text: str, key: str = "", importance: float = 0.5, **meta: object) -> MemoryItem:
    moment = T0 + timedelta(minutes=n)
    return MemoryItem(
        f"m{n}",
        "semantic",
        text,
        moment,
        moment,
        importance=importance,
        subject_key=key,
        topic=str(meta.get("topic", "")),
        meta=meta,
    )


def test_families_name_topics() -> None:
    assert family_topic("home_city") == ABOUT_YOU
    assert family_topic("likes:coffee") == "Likes and dislikes"
    assert family_topic("allergy:peanut") == "Health"
    assert family_topic("name_of:sister") == "People"
    assert family_topic("plan:visit-japan") == "Plans and tasks"
    assert family_topic("") is None and family_topic("weird:x") is None


def test_plan_groups_by_family_most_important_first() -> None:
    items = [
        item(1, "User lives in Lisbon", "home_city", 0.6),
        item(2, "User's name is Sam", "name", 0.95),
        item(3, "User is allergic to peanuts", "allergy:peanut", 0.9),
        item(4, "User's own topic", "home_city", topic="Travel"),
    ]
    topics = {t.name: t for t in plan_topics(items, lambda _id: np.ones(4, np.float32) / 2)}
    assert set(topics) == {ABOUT_YOU, "Health", "Travel"}  # a topic the user chose wins
    assert topics[ABOUT_YOU].members == ("m2", "m1")
    assert topics[ABOUT_YOU].summary == "About you: name is Sam; lives in Lisbon"


def test_loose_memories_cluster_by_similarity_and_singletons_go_to_other() -> None:
    vectors = {
        "m1": np.array([1.0, 0.0]),
        "m2": np.array([0.9, 0.436]),
        "m3": np.array([0.0, 1.0]),
    }
    items = [
        item(1, "The wifi password is taped under the router"),
        item(2, "The wifi router sits in the hall"),
        item(3, "Kites are fun"),
    ]
    topics = {t.name: t.members for t in plan_topics(items, lambda i: vectors[i])}
    assert topics == {"Wifi password": ("m1", "m2"), OTHER: ("m3",)}


def test_summary_is_clipped() -> None:
    members = [item(n, f"User likes thing number {n} a lot") for n in range(40)]
    text = summarise("Likes and dislikes", members)
    assert len(text) <= 240 and text.endswith("…")


def test_refresh_stores_topics_and_tags_members(memory: MemoryService) -> None:
    name = memory.remember("User's name is Sam", subject_key="name")
    city = memory.remember("User lives in Lisbon", subject_key="home_city")
    allergy = memory.remember("User is allergic to peanuts", subject_key="allergy:peanut")

    report = refresh_topics(memory)

    topics = {t.meta["topic"]: t for t in memory.items(TOPIC)}
    assert set(topics) == {ABOUT_YOU, "Health"}
    assert list(topics[ABOUT_YOU].meta["members"]) == [name.id, city.id]
    assert topics[ABOUT_YOU].text.startswith("About you: ")
    assert memory.item(allergy.id).topic == "Health"
    assert {c.action for c in report.changes} == {"topic_created", "topic"}


def test_refresh_twice_changes_nothing(memory: MemoryService) -> None:
    memory.remember("User's name is Sam", subject_key="name")
    memory.remember("User likes jazz", subject_key="likes:jazz", type="preference")
    refresh_topics(memory)
    before = {i.id: i.version for i in memory.items()}
    assert refresh_topics(memory).changes == ()
    assert {i.id: i.version for i in memory.items()} == before


def test_new_fact_updates_the_summary_in_place(memory: MemoryService) -> None:
    memory.remember("User's name is Sam", subject_key="name")
    consolidate(memory)
    (topic,) = memory.items(TOPIC)
    memory.remember("User works as a nurse", subject_key="job")

    report = consolidate(memory)

    (updated,) = memory.items(TOPIC)
    assert updated.id == topic.id and "works as a nurse" in updated.text
    assert any(c.action == "topic_updated" for c in report.changes)
    assert len(memory.history(topic.id)) == 2


def test_topic_left_empty_is_kept_and_marked(memory: MemoryService) -> None:
    allergy = memory.remember("User is allergic to peanuts", subject_key="allergy:peanut")
    consolidate(memory)
    memory.edit(allergy.id, kind="episodic")  # no longer a semantic memory
    consolidate(memory)
    (topic,) = memory.items(TOPIC)
    assert topic.status == SUPERSEDED and list(topic.meta["members"]) == []


def test_forgetting_a_member_forgets_every_summary_that_quoted_it(memory: MemoryService) -> None:
    peanuts = memory.remember("User is allergic to peanuts", subject_key="allergy:peanut")
    memory.remember("User has asthma", subject_key="condition:asthma")
    consolidate(memory)
    (old_topic,) = memory.items(TOPIC)
    assert "peanuts" in old_topic.text

    receipt = memory.forget([peanuts.id])
    assert old_topic.id in receipt.ids  # the service forgets the summary with its member
    assert old_topic.id not in memory.vault  # its history (with the old summary) is gone too
    assert forget_topics_of(memory, [peanuts.id]) == []

    consolidate(memory)
    (topic,) = memory.items(TOPIC)
    assert "peanuts" not in topic.text and "asthma" in topic.text


def test_a_run_purges_a_topic_that_quoted_a_forgotten_memory(memory: MemoryService) -> None:
    peanuts = memory.remember("User is allergic to peanuts", subject_key="allergy:peanut")
    memory.remember("User has asthma", subject_key="condition:asthma")
    consolidate(memory)
    with memory.lane:
        memory.vault.forget([peanuts.id])  # a forget that went around the service
    report = consolidate(memory, force=True)
    assert any(c.action == "topic_purged" for c in report.changes)
    assert all("peanuts" not in v.text for t in memory.items(TOPIC) for v in memory.history(t.id))
