"""The in-RAM hybrid index: BM25, cosine, and keeping both in step through changes."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from desktop_agent.embed import HashingEmbedder
from desktop_agent.search import HybridIndex, KeywordIndex
from desktop_agent.search.tokenize import stem, tokens

EMBED = HashingEmbedder(dim=32)


def test_tokens_drop_function_words_and_stem() -> None:
    assert tokens("I was hiking with my dogs!") == ["hik", "dog"]
    assert stem("hiking") == stem("hiked") == stem("hikes") == stem("hike")
    assert stem("movies") == stem("movie") and stem("studies") == stem("studying")
    assert stem("running") == stem("run") and stem("boxes") == stem("box")
    assert stem("glass") == "glass" and stem("bus") == "bus" and stem("thing") == "thing"


def test_bm25_prefers_rare_terms_and_ignores_non_matches() -> None:
    index = KeywordIndex()
    for text in ["coffee and cake", "coffee at noon", "coffee with oat milk", "a walk in Lisbon"]:
        index.append(text)
    scores = index.scores("Lisbon coffee")
    assert scores.argmax() == 3  # "Lisbon" is rarer than "coffee"
    assert np.count_nonzero(index.scores("unrelated words")) == 0


def test_upsert_replaces_text_and_vector_and_bumps_the_version() -> None:
    index = HybridIndex(EMBED.dim)
    index.upsert_many(
        ["a", "b"], ["green tea", "black coffee"], EMBED.embed(["green tea", "black coffee"])
    )
    version = index.version
    index.upsert("a", "red wine", EMBED.embed(["red wine"])[0])
    assert index.version != version
    assert len(index) == 2
    assert index.keyword_scores("tea").max() == 0
    assert index.top(index.keyword_scores("wine"), 1)[0].id == "a"
    assert index.top(index.vector_scores(EMBED.embed(["red wine"])[0]), 1)[0].id == "a"


def test_top_respects_the_mask_and_skips_minus_infinity() -> None:
    index = HybridIndex(EMBED.dim)
    texts = ["one apple", "two apples", "three pears"]
    index.upsert_many(["1", "2", "3"], texts, EMBED.embed(texts))
    scores = index.keyword_scores("apple")
    assert [hit.id for hit in index.top(scores, 3, np.array([False, True, True]))] == ["2", "3"]
    matching = index.top(np.where(scores > 0, scores, -np.inf), 3)
    assert sorted(hit.id for hit in matching) == ["1", "2"]


operations = st.lists(
    st.tuples(
        st.sampled_from(["upsert", "remove"]),
        st.sampled_from(["a", "b", "c", "d", "e"]),
        st.sampled_from(["red fox", "blue whale", "green tea", "red tea", "fox and whale"]),
    ),
    max_size=25,
)


@settings(max_examples=60, deadline=None)
@given(operations)
def test_any_sequence_of_changes_scores_like_a_fresh_index(ops: list[tuple[str, str, str]]) -> None:
    index = HybridIndex(EMBED.dim)
    final: dict[str, str] = {}
    for op, doc_id, text in ops:
        if op == "upsert":
            index.upsert(doc_id, text, EMBED.embed([text])[0])
            final[doc_id] = text
        else:
            index.remove([doc_id])
            final.pop(doc_id, None)
    fresh = HybridIndex(EMBED.dim)
    fresh.upsert_many(list(final), list(final.values()), EMBED.embed(list(final.values())))
    assert sorted(index.ids) == sorted(final)
    assert all(index.ids[index.slot(doc_id)] == doc_id for doc_id in final)
    query = EMBED.embed(["red fox tea"])[0]
    for doc_id in final:
        mine, theirs = index.slot(doc_id), fresh.slot(doc_id)
        assert np.isclose(
            index.keyword_scores("red fox tea")[mine], fresh.keyword_scores("red fox tea")[theirs]
        )
        assert np.isclose(index.vector_scores(query)[mine], fresh.vector_scores(query)[theirs])


def test_feedback_terms_are_the_documents_words_the_query_lacks() -> None:
    index = KeywordIndex()
    texts = ["Ana adopted Pixel", "Ana walks Pixel daily", "Ana likes tea", "Ana reads"]
    for text in texts + [f"Ana {word}" for word in ("sings", "swims", "cooks", "naps")]:
        index.append(text)
    terms = index.feedback_terms([0, 1], "where does Ana walk")
    # "walk" is asked already; "Ana" is in every document and says nothing; words shared by
    # both feedback documents weigh more than those of one.
    assert terms == {"adopt": 0.5, "pixel": 1.0, "daili": 0.5}
    scores = index.term_scores(terms)
    assert scores[0] > 0 and scores[1] > 0 and not scores[2:].any()


def test_hybrid_feedback_scores_ignore_unknown_ids() -> None:
    index = HybridIndex(EMBED.dim)
    texts = ["red fox", "fox den", "blue whale", "grey seal"]
    index.upsert_many(["a", "b", "c", "d"], texts, EMBED.embed(texts))
    assert not index.feedback_scores(["gone"], "fox").any()
    scores = index.feedback_scores(["a", "gone"], "fox")
    assert scores[0] > 0 and not scores[1:].any()  # "red" is only in "a"


@settings(max_examples=40, deadline=None)
@given(operations)
def test_scores_between_changes_match_a_fresh_index(ops: list[tuple[str, str, str]]) -> None:
    # BM25 caches its length norms and posting arrays: scoring after every change must see it.
    index = KeywordIndex()
    slots: dict[str, int] = {}
    final: dict[str, str] = {}
    for op, doc_id, text in ops:
        if op == "upsert" and doc_id in slots:
            index.set(slots[doc_id], text)
        elif op == "upsert":
            slots[doc_id] = len(index)
            index.append(text)
        elif doc_id in slots:
            slot, last = slots.pop(doc_id), len(index) - 1
            index.swap_remove(slot)
            moved = next((d for d, s in slots.items() if s == last), None)
            if moved is not None:
                slots[moved] = slot
        if doc_id in slots:
            final[doc_id] = text
        else:
            final.pop(doc_id, None)
        fresh = KeywordIndex()
        for other in sorted(slots, key=slots.__getitem__):
            fresh.append(final[other])
        assert np.allclose(index.scores("red fox tea whale"), fresh.scores("red fox tea whale"))


def test_vectors_of_are_copies_of_the_stored_unit_rows_in_the_order_asked() -> None:
    index = HybridIndex(EMBED.dim)
    texts = ["green tea", "black coffee", "red wine"]
    index.upsert_many(["a", "b", "c"], texts, 3 * EMBED.embed(texts))

    rows = index.vectors_of(["c", "a"])

    assert rows.shape == (2, EMBED.dim)
    np.testing.assert_allclose(np.linalg.norm(rows, axis=1), 1.0, rtol=1e-6)
    np.testing.assert_array_equal(rows, index.vectors.matrix[[index.slot("c"), index.slot("a")]])
    rows[:] = 0  # a copy: the index keeps its vectors
    assert index.vectors.matrix[index.slot("c")].any()
    assert index.vectors_of([]).shape == (0, EMBED.dim)
