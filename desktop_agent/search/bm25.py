"""BM25 keyword scoring with an in-RAM inverted index."""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Iterable, Mapping

import numpy as np
from numpy.typing import NDArray

from desktop_agent.search.tokenize import tokens

# A word in more than this share of documents says nothing about what one is about (a speaker's
# name in a two-person history, the year): feedback leaves it out, which also keeps it cheap.
FEEDBACK_MAX_DF = 0.3


class KeywordIndex:
    """Okapi BM25 over documents addressed by dense slot numbers (kept in step with VectorIndex)."""

    def __init__(self, k1: float = 1.2, b: float = 0.75) -> None:
        self.k1 = k1
        self.b = b
        self._postings: dict[str, dict[int, int]] = {}
        self._doc_terms: list[Counter[str]] = []
        self._lengths: list[int] = []
        self._total_length = 0
        # Each document's BM25 length normalisation, rebuilt after a change (see ``_norms``).
        self._norm_cache: NDArray[np.float32] | None = None
        # Postings as arrays, made on first use and dropped when a document with the term changes.
        self._arrays: dict[str, tuple[NDArray[np.int64], NDArray[np.float32]]] = {}

    def __len__(self) -> int:
        return len(self._doc_terms)

    def append(self, text: str) -> None:
        self._norm_cache = None
        slot = len(self._doc_terms)
        terms = Counter(tokens(text))
        self._doc_terms.append(terms)
        self._lengths.append(sum(terms.values()))
        self._total_length += self._lengths[-1]
        for term, tf in terms.items():
            self._postings.setdefault(term, {})[slot] = tf
            self._arrays.pop(term, None)

    def set(self, slot: int, text: str) -> None:
        self._norm_cache = None
        self._unindex(slot)
        terms = Counter(tokens(text))
        self._doc_terms[slot] = terms
        self._lengths[slot] = sum(terms.values())
        self._total_length += self._lengths[slot]
        for term, tf in terms.items():
            self._postings.setdefault(term, {})[slot] = tf
            self._arrays.pop(term, None)

    def swap_remove(self, slot: int) -> None:
        self._norm_cache = None
        last = len(self._doc_terms) - 1
        self._unindex(slot)
        if slot != last:
            moved = self._doc_terms[last]
            for term, tf in moved.items():
                posting = self._postings[term]
                del posting[last]
                posting[slot] = tf
                self._arrays.pop(term, None)
            self._doc_terms[slot] = moved
            self._lengths[slot] = self._lengths[last]
        self._doc_terms.pop()
        self._lengths.pop()

    def _unindex(self, slot: int) -> None:
        for term in self._doc_terms[slot]:
            self._arrays.pop(term, None)
            posting = self._postings[term]
            posting.pop(slot, None)
            if not posting:
                del self._postings[term]
        self._total_length -= self._lengths[slot]
        self._doc_terms[slot] = Counter()
        self._lengths[slot] = 0

    def scores(self, query: str) -> NDArray[np.float32]:
        """BM25 score of ``query`` against every document (0 where no term matches)."""
        return self.term_scores(Counter(tokens(query)))

    def term_scores(self, weights: Mapping[str, float]) -> NDArray[np.float32]:
        """BM25 of a bag of (already tokenized) terms, each counted ``weights[term]`` times."""
        n = len(self._doc_terms)
        result = np.zeros(n, dtype=np.float32)
        if n == 0:
            return result
        norms = self._norms()
        for term, query_tf in weights.items():
            found = self._posting_arrays(term) if query_tf > 0 else None
            if found is None:
                continue
            slots, tf = found
            result[slots] += query_tf * self.idf(term) * tf * (self.k1 + 1.0) / (tf + norms[slots])
        return result

    def _posting_arrays(self, term: str) -> tuple[NDArray[np.int64], NDArray[np.float32]] | None:
        found = self._arrays.get(term)
        if found is None:
            posting = self._postings.get(term)
            if not posting:
                return None
            slots = np.fromiter(posting.keys(), dtype=np.int64, count=len(posting))
            tf = np.fromiter(posting.values(), dtype=np.float32, count=len(posting))
            found = self._arrays[term] = (slots, tf)
        return found

    def _norms(self) -> NDArray[np.float32]:
        # Converting the 100k lengths took about 3 ms a query; now once per change.
        if self._norm_cache is None:
            lengths = np.asarray(self._lengths, dtype=np.float32)
            average = max(self._total_length / max(len(lengths), 1), 1e-9)
            self._norm_cache = self.k1 * (1.0 - self.b + self.b * lengths / average)
        return self._norm_cache

    def idf(self, term: str) -> float:
        df = len(self._postings.get(term, ()))
        n = len(self._doc_terms)
        return math.log(1.0 + (n - df + 0.5) / (df + 0.5))

    def feedback_terms(self, slots: Iterable[int], query: str) -> dict[str, float]:
        """The words of the documents at ``slots`` that ``query`` lacks, each weighted by the
        share of those documents that hold it (pseudo-relevance feedback, Rocchio's centroid)."""
        slots = list(slots)
        asked = set(tokens(query))
        common = FEEDBACK_MAX_DF * len(self._doc_terms)
        shares: Counter[str] = Counter()
        for slot in slots:
            shares.update(
                term
                for term in self._doc_terms[slot]
                if term not in asked and len(self._postings[term]) <= common
            )
        return {term: count / len(slots) for term, count in shares.items()}
