"""BM25 keyword scoring with an in-RAM inverted index."""

from __future__ import annotations

import math
from collections import Counter

import numpy as np
from numpy.typing import NDArray

from desktop_agent.search.tokenize import tokens


class KeywordIndex:
    """Okapi BM25 over documents addressed by dense slot numbers (kept in step with VectorIndex)."""

    def __init__(self, k1: float = 1.2, b: float = 0.75) -> None:
        self.k1 = k1
        self.b = b
        self._postings: dict[str, dict[int, int]] = {}
        self._doc_terms: list[Counter[str]] = []
        self._lengths: list[int] = []
        self._total_length = 0

    def __len__(self) -> int:
        return len(self._doc_terms)

    def append(self, text: str) -> None:
        slot = len(self._doc_terms)
        terms = Counter(tokens(text))
        self._doc_terms.append(terms)
        self._lengths.append(sum(terms.values()))
        self._total_length += self._lengths[-1]
        for term, tf in terms.items():
            self._postings.setdefault(term, {})[slot] = tf

    def set(self, slot: int, text: str) -> None:
        self._unindex(slot)
        terms = Counter(tokens(text))
        self._doc_terms[slot] = terms
        self._lengths[slot] = sum(terms.values())
        self._total_length += self._lengths[slot]
        for term, tf in terms.items():
            self._postings.setdefault(term, {})[slot] = tf

    def swap_remove(self, slot: int) -> None:
        last = len(self._doc_terms) - 1
        self._unindex(slot)
        if slot != last:
            moved = self._doc_terms[last]
            for term, tf in moved.items():
                posting = self._postings[term]
                del posting[last]
                posting[slot] = tf
            self._doc_terms[slot] = moved
            self._lengths[slot] = self._lengths[last]
        self._doc_terms.pop()
        self._lengths.pop()

    def _unindex(self, slot: int) -> None:
        for term in self._doc_terms[slot]:
            posting = self._postings[term]
            posting.pop(slot, None)
            if not posting:
                del self._postings[term]
        self._total_length -= self._lengths[slot]
        self._doc_terms[slot] = Counter()
        self._lengths[slot] = 0

    def scores(self, query: str) -> NDArray[np.float32]:
        """BM25 score of ``query`` against every document (0 where no term matches)."""
        n = len(self._doc_terms)
        result = np.zeros(n, dtype=np.float32)
        if n == 0:
            return result
        lengths = np.asarray(self._lengths, dtype=np.float32)
        average = max(self._total_length / n, 1e-9)
        for term, query_tf in Counter(tokens(query)).items():
            posting = self._postings.get(term)
            if not posting:
                continue
            idf = math.log(1.0 + (n - len(posting) + 0.5) / (len(posting) + 0.5))
            slots = np.fromiter(posting.keys(), dtype=np.int64, count=len(posting))
            tf = np.fromiter(posting.values(), dtype=np.float32, count=len(posting))
            norm = self.k1 * (1.0 - self.b + self.b * lengths[slots] / average)
            result[slots] += query_tf * idf * tf * (self.k1 + 1.0) / (tf + norm)
        return result
