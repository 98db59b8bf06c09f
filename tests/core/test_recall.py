"""Hybrid recall: fusion, weighting, filters, time windows, neighbour context; time parsing."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import UTC, datetime, timedelta
from typing import Any

import numpy as np
import pytest
from numpy.typing import NDArray

from desktop_agent.core.memory_model import MemoryItem
from desktop_agent.core.recall import MemoryFacts, Recaller, RecallWeights, neighbour_map
from desktop_agent.core.recall_facts import discloses, first_person
from desktop_agent.core.timeparse import parse_time_window
from desktop_agent.embed import Embedder, HashingEmbedder
from desktop_agent.search import HybridIndex

NOW = datetime(2024, 6, 12, 15, 0, tzinfo=UTC)  # a Wednesday


class Store:
    """An index and its facts, filled the way the vault fills them."""

    def __init__(self, embedder: Embedder | None = None) -> None:
        self.embedder: Embedder = embedder or HashingEmbedder()
        self.index = HybridIndex(self.embedder.dim)
        self.facts: dict[str, MemoryFacts] = {}

    def add(self, memory_id: str, text: str, days_ago: float = 1.0, **facts: Any) -> None:
        self.index.upsert(memory_id, text, self.embedder.embed([text])[0])
        created = NOW - timedelta(days=days_ago)
        self.facts[memory_id] = MemoryFacts(
            kind=facts.pop("kind", "episodic"), created_at=created, **facts
        )

    def recaller(self, **weights: Any) -> Recaller:
        return Recaller(self.index, self.embedder, self.facts.get, RecallWeights(**weights))


@pytest.fixture
def store() -> Store:
    s = Store()
    s.add("tea", "I prefer green tea in the morning")
    s.add("lisbon", "My sister lives in Lisbon near the river")
    s.add("bike", "The bike needs new brakes before the trip")
    s.add("cat", "Our cat Miso sleeps on the sofa all day")
    return s


def test_the_best_match_comes_first_with_its_components(store: Store) -> None:
    hits = store.recaller().recall("where does my sister live", now=NOW, limit=3)
    top = hits[0]
    assert top.memory_id == "lisbon"
    assert top.vector_rank == 1 and top.keyword_rank == 1
    assert top.keyword_score > 0 and top.vector_score > 0
    assert top.fused == pytest.approx(1.0)  # best on both normalised signals
    assert top.score > hits[1].score
    assert 0 < top.recency <= 1 and top.in_time_window is None
    assert len(hits) == 3


def test_empty_query_or_index_recalls_nothing(store: Store) -> None:
    assert store.recaller().recall("   ", now=NOW) == []
    empty = Store()
    assert empty.recaller().recall("tea", now=NOW) == []


def test_superseded_memories_rank_below_their_replacement_or_are_left_out() -> None:
    s = Store()
    s.add("old", "User lives in Lisbon", days_ago=30, superseded=True)
    s.add("new", "User lives in Porto", days_ago=30)
    s.add("noise", "User likes jazz", days_ago=30)
    hits = s.recaller().recall("where does the user live, Lisbon or Porto?", now=NOW)
    ids = [h.memory_id for h in hits]
    assert ids.index("new") < ids.index("old")
    assert next(h for h in hits if h.memory_id == "old").superseded
    kept = s.recaller().recall("Lisbon", now=NOW, include_superseded=False)
    assert "old" not in [h.memory_id for h in kept]


def test_kinds_and_exclude_filter_even_when_the_kind_is_rare() -> None:
    s = Store()
    for i in range(300):
        s.add(f"e{i}", f"we talked about tea number {i}")
    s.add("fact", "User drinks oolong tea", kind="semantic")
    hits = s.recaller(depth=10).recall("tea", now=NOW, kinds={"semantic"}, limit=5)
    assert [h.memory_id for h in hits] == ["fact"]
    excluded = s.recaller().recall("tea", now=NOW, exclude=["fact", "e1"], limit=400)
    assert {"fact", "e1"}.isdisjoint(h.memory_id for h in excluded)
    assert len(excluded) == 299


def test_importance_pinning_and_use_raise_an_otherwise_equal_memory() -> None:
    s = Store()
    s.add("plain", "the blue notebook", importance=0.5)
    s.add("valued", "the blue notebook", importance=1.0, pinned=True, use_count=20)
    hits = s.recaller().recall("blue notebook", now=NOW)
    assert [h.memory_id for h in hits] == ["valued", "plain"]
    assert hits[0].fused == pytest.approx(hits[1].fused)
    assert hits[0].use_boost > 0 and hits[0].pinned


def test_a_time_window_in_the_question_favours_memories_inside_it() -> None:
    s = Store()
    for i in range(20):
        s.add(f"filler{i}", f"unrelated note {i} about taxes and trains", days_ago=i)
    s.add("recent", "dinner with Rui at the new ramen place", days_ago=2)
    s.add("older", "dinner with Rui at the ramen place, ramen was great", days_ago=40)
    plain = s.recaller().recall("ramen dinner with Rui", now=NOW)
    assert [h.memory_id for h in plain[:2]] == ["older", "recent"]
    timed = s.recaller().recall_detailed("ramen dinner with Rui 2 days ago", now=NOW)
    assert timed.time_window is not None and timed.time_window.phrase == "2 days ago"
    assert timed.hits[0].memory_id == "recent" and timed.hits[0].in_time_window
    assert timed.hits[1].memory_id == "older" and timed.hits[1].in_time_window is False


def test_the_turn_after_a_matching_question_is_pulled_in_by_context() -> None:
    s = Store()
    s.add("q", "Melanie: what did you paint last weekend?", days_ago=3)
    s.add("a", "Caroline: a sunset over the lake", days_ago=3)
    for i in range(50):
        s.add(f"n{i}", f"filler words about groceries {i}", days_ago=3)
    around = neighbour_map([("q", "c", NOW), ("a", "c", NOW + timedelta(seconds=1))])
    for memory_id, near in around.items():
        s.facts[memory_id] = MemoryFacts("episodic", NOW - timedelta(days=3), neighbours=near)
    hits = s.recaller(depth=1).recall("what did Caroline paint", now=NOW, limit=2)
    answer = next(h for h in hits if h.memory_id == "a")
    assert answer.context > 0
    assert {h.memory_id for h in hits} == {"q", "a"}


def test_a_question_naming_the_speaker_favours_what_they_said() -> None:
    s = Store()
    s.add("ana", "Ana: I finally finished the painting", speaker="Ana")
    s.add("rui", "Rui: I finally finished the painting", speaker="Rui")
    hits = s.recaller().recall("what did rui finish?", now=NOW)
    assert [(h.memory_id, h.speaker_named) for h in hits] == [("rui", True), ("ana", False)]


class FlatEmbedder:
    """The same vector for every text: leaves ranking to the keyword signal alone."""

    dim = 8

    def embed(self, texts: Sequence[str]) -> NDArray[np.float32]:
        return np.ones((len(texts), self.dim), dtype=np.float32)


def test_feedback_brings_up_the_second_half_of_a_multi_hop_answer() -> None:
    # "Where does Ana walk her dog?" matches the dog's memory; the walks are told in another
    # memory that shares the dog's name with it and no word with the question.
    s = Store(FlatEmbedder())
    s.add("dog", "Ana: I adopted a dog, her name is Pixel")
    s.add("walk", "Rui: since you adopted Pixel she runs on the beach at Cascais every morning")
    topics = ["jazz", "shoes", "taxes", "a cold", "trains", "rain", "tea", "chess", "bread"]
    for i, topic in enumerate(topics):
        s.add(f"ana{i}", f"Ana: I read about {topic}")
        s.add(f"ana{i}b", f"Ana: I talked about {topic}")
    question = "Where does Ana walk her dog?"
    without = [h.memory_id for h in s.recaller(feedback=0).recall(question, now=NOW, limit=5)]
    assert without[0] == "dog" and "walk" not in without  # Ana's other memories come next
    hits = s.recaller().recall(question, now=NOW, limit=5)
    ids = [h.memory_id for h in hits]
    # Only the first pass's best three (whose own words count again) stay above it.
    assert ids[0] == "dog" and ids.index("walk") <= 3
    # Found through the feedback words alone: the raw signals (what the relevance floor and the
    # memory lens read) still say it shares no word with the question.
    walk = hits[ids.index("walk")]
    assert walk.feedback_score > 0
    assert walk.keyword_score == 0 and walk.keyword_rank is None


def test_feedback_leaves_a_single_clear_answer_first(store: Store) -> None:
    for weights in ({"feedback": 0}, {}):
        hits = store.recaller(**weights).recall("where does my sister live", now=NOW, limit=4)
        assert hits[0].memory_id == "lisbon"


def test_equal_times_keep_the_input_order() -> None:
    t = datetime(2024, 1, 1, tzinfo=UTC)
    around = neighbour_map([("D1:10", "c", t), ("D1:2", "c", t), ("D1:3", "c", t)])
    assert around["D1:2"] == ("D1:10", "D1:3")


def test_neighbours_stay_within_a_conversation_and_a_session() -> None:
    t = datetime(2024, 1, 1, tzinfo=UTC)
    around = neighbour_map(
        [
            ("a1", "A", t),
            ("b1", "B", t + timedelta(minutes=1)),
            ("a2", "A", t + timedelta(minutes=2)),
            ("a3", "A", t + timedelta(days=3)),
        ]
    )
    assert around == {"a1": ("a2",), "a2": ("a1",), "a3": (), "b1": ()}


def test_scores_computed_before_a_change_are_refused(store: Store) -> None:
    vector = store.index.vector_scores(HashingEmbedder().embed(["tea"])[0])
    keyword = store.index.keyword_scores("tea")
    store.add("late", "a late memory")
    with pytest.raises(ValueError):
        store.recaller().rank(vector, keyword, limit=3, now=NOW)


def test_time_column_follows_index_changes(store: Store) -> None:
    recaller = store.recaller()
    assert [h.in_time_window for h in recaller.recall("tea yesterday", now=NOW)][:1] == [True]
    store.add("old tea", "green tea from long ago", days_ago=100)
    store.index.remove(["tea"])
    hits = recaller.recall("green tea yesterday", now=NOW)
    assert {h.memory_id: h.in_time_window for h in hits}["old tea"] is False


# --- time expressions --------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("question", "start", "end"),
    [
        ("what did I do yesterday?", "2024-06-11", "2024-06-12"),
        ("anything from last week?", "2024-06-03", "2024-06-10"),
        ("what happened last month", "2024-05-01", "2024-06-01"),
        ("the trip in May", "2024-05-01", "2024-06-01"),
        ("the trip in August", "2023-08-01", "2023-09-01"),
        ("in May 2023", "2023-05-01", "2023-06-01"),
        ("what did we say on 8 May", "2024-05-08", "2024-05-09"),
        ("what happened on October 13, 2023?", "2023-10-13", "2023-10-14"),
        ("what did I say 2 days ago", "2024-06-09", "2024-06-12"),
        ("last year", "2023-01-01", "2024-01-01"),
        ("plans this weekend", "2024-06-15", "2024-06-17"),
        ("last weekend", "2024-06-08", "2024-06-10"),
        ("what did I eat last Friday", "2024-06-07", "2024-06-08"),
        ("on Wednesday", "2024-06-05", "2024-06-06"),
        ("in 2022", "2022-01-01", "2023-01-01"),
    ],
)
def test_time_windows(question: str, start: str, end: str) -> None:
    window = parse_time_window(question, NOW)
    assert window is not None
    assert (window.start.date().isoformat(), window.end.date().isoformat()) == (start, end)
    assert window.start.tzinfo is UTC
    assert question[window.span[0] : window.span[1]].strip() == window.phrase


@pytest.mark.parametrize(
    "question", ["I may go", "what do I like?", "we march on", "the 3 musketeers"]
)
def test_no_time_window(question: str) -> None:
    assert parse_time_window(question, NOW) is None


# --- with the real embedder --------------------------------------------------------------------


@pytest.mark.slow
def test_real_embedder_finds_a_paraphrase_that_shares_no_words() -> None:
    from desktop_agent.embed import SentenceEmbedder

    s = Store(SentenceEmbedder())
    s.add("dog", "I adopted a golden retriever puppy called Max")
    s.add("tax", "The tax return is due at the end of the month")
    s.add("gym", "Leg day at the gym was brutal")
    hits = s.recaller().recall("which pets do I own?", now=NOW, limit=3)
    assert hits[0].memory_id == "dog"
    assert hits[0].keyword_rank is None  # found by meaning alone
    assert hits[0].vector_score > hits[1].vector_score + 0.1


def test_what_a_person_tells_of_themselves_outranks_a_reaction_to_it() -> None:
    # "What did Ana paint?": Rui's reaction names the painting more briefly than Ana's own turn
    # (BM25 favours it), but the answer is in what Ana says in the first person.
    s = Store(FlatEmbedder())
    s.add(
        "wow", "Rui: wow Ana, a painted lake!", discloses=first_person("wow Ana, a painted lake!")
    )
    said = "I painted a lake at dawn with the kids last weekend"
    s.add("said", f"Ana: {said}", discloses=first_person(said))
    for i, topic in enumerate(["jazz", "shoes", "taxes", "trains", "rain", "chess"]):
        s.add(f"other{i}", f"Rui: I read about {topic}")
    question = "What did Ana paint?"
    flat = [
        h.memory_id for h in s.recaller(disclosure=0, feedback=0).recall(question, now=NOW, limit=2)
    ]
    assert flat == ["wow", "said"]
    hits = s.recaller(feedback=0).recall(question, now=NOW, limit=2)
    assert [h.memory_id for h in hits] == ["said", "wow"]
    assert hits[0].discloses and not hits[1].discloses


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("I started pottery last week", True),
        ("We went camping, my kids loved it", True),
        ("I'm off to go swimming", True),
        ("Wow, nice pic! You both looked amazing.", False),
        ("That sounds great, what did you paint?", False),
        ("Idaho is in the west", False),
    ],
)
def test_first_person(text: str, expected: bool) -> None:
    assert first_person(text) is expected


def test_every_semantic_memory_discloses_and_an_episode_by_its_users_words() -> None:
    def item(kind: str, text: str, meta: dict[str, Any] | None = None) -> MemoryItem:
        return MemoryItem(id="m", kind=kind, text=text, created_at=NOW, updated_at=NOW, meta=meta)

    assert discloses(item("semantic", "User lives in Lisbon"))
    assert discloses(item("episodic", "[8 May 2023] Ana: I live in Lisbon"))
    assert not discloses(item("episodic", "[8 May 2023] Ana: Wow, that's lovely!"))
    # A chat turn: the assistant's "I" in its reply does not count, only the user's message.
    chat = "User: Nice weather today!\nAssistant: I think so too."
    assert not discloses(item("episodic", chat, {"user_end": len("User: Nice weather today!")}))
