"""The vault's in-RAM index: the shared HybridIndex with its keyword half built on first use.

Decrypting 100k rows takes a fraction of a second, but tokenising their texts for BM25 takes
seconds in Python; so unlock fills only the vector matrix, and the keyword index is built from
the decrypted texts the first time anyone asks for keyword scores (or when ``warm()`` runs on a
background thread). Nothing here is ever written to disk.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np
from numpy.typing import NDArray

from desktop_agent.search import HybridIndex, KeywordIndex


class LazyKeywords:
    """Stands in for a KeywordIndex; the real one is built on the first ``scores`` call."""

    def __init__(self, ids: Callable[[], Sequence[str]], text_of: Callable[[str], str]) -> None:
        self._ids = ids
        self._text_of = text_of
        self._count = 0
        self._real: KeywordIndex | None = None

    @property
    def built(self) -> bool:
        return self._real is not None

    def build(self) -> KeywordIndex:
        if self._real is None:
            real = KeywordIndex()
            for doc_id in self._ids():
                real.append(self._text_of(doc_id))
            self._real = real
        return self._real

    def __len__(self) -> int:
        return len(self._real) if self._real is not None else self._count

    def append(self, text: str) -> None:
        if self._real is not None:
            self._real.append(text)
        else:
            self._count += 1

    def set(self, slot: int, text: str) -> None:
        if self._real is not None:
            self._real.set(slot, text)

    def swap_remove(self, slot: int) -> None:
        if self._real is not None:
            self._real.swap_remove(slot)
        else:
            self._count -= 1

    def scores(self, query: str) -> NDArray[np.float32]:
        return self.build().scores(query)


class VaultIndex(HybridIndex):
    """HybridIndex plus a per-slot kind code kept in step with its swap-remove slots."""

    def __init__(self, dim: int, text_of: Callable[[str], str]) -> None:
        super().__init__(dim)
        self.keywords = LazyKeywords(lambda: self.ids, text_of)  # type: ignore[assignment]
        self._kinds = np.zeros(1024, dtype=np.uint8)

    def put(
        self,
        doc_ids: Sequence[str],
        texts: Sequence[str],
        vectors: NDArray[np.float32],
        kinds: Sequence[int],
    ) -> None:
        slots = [self.slot(doc_id) if doc_id in self else -1 for doc_id in doc_ids]
        self.upsert_many(doc_ids, texts, vectors)
        needed = len(self)
        if needed > len(self._kinds):
            grown = np.zeros(max(needed, 2 * len(self._kinds)), dtype=np.uint8)
            grown[: len(self._kinds)] = self._kinds
            self._kinds = grown
        for doc_id, slot, kind in zip(doc_ids, slots, kinds, strict=True):
            self._kinds[self.slot(doc_id) if slot < 0 else slot] = kind

    def load(
        self, doc_ids: Sequence[str], unit_vectors: NDArray[np.float32], kinds: Sequence[int]
    ) -> None:
        """Fill an empty index at unlock without HybridIndex's per-row loop and re-normalising.

        The rows are unit length already (the vault normalises on the way in), and at 100k
        rows the generic path's temporaries cost more than the decryption. It sets the same
        fields ``upsert_many`` would.
        """
        assert len(self) == 0
        self.vectors._matrix = unit_vectors  # noqa: SLF001
        self.vectors._count = len(doc_ids)  # noqa: SLF001
        self._ids = list(doc_ids)
        self._slots = {doc_id: slot for slot, doc_id in enumerate(self._ids)}
        assert isinstance(self.keywords, LazyKeywords)
        self.keywords._count = len(self._ids)  # noqa: SLF001
        self._kinds = np.zeros(max(1024, len(self._ids)), dtype=np.uint8)
        self._kinds[: len(self._ids)] = np.asarray(kinds, dtype=np.uint8)

    def drop(self, doc_ids: Sequence[str]) -> None:
        for doc_id in doc_ids:
            if doc_id not in self:
                continue
            slot = self.slot(doc_id)
            last = len(self) - 1
            self.remove([doc_id])
            self._kinds[slot] = self._kinds[last]

    def clear(self) -> None:
        text_of = self.keywords._text_of  # type: ignore[attr-defined]  # noqa: SLF001
        self.__init__(self.dim, text_of)  # type: ignore[misc]

    def kind_mask(self, code: int) -> NDArray[np.bool_]:
        mask: NDArray[np.bool_] = self._kinds[: len(self)] == code
        return mask

    def warm(self) -> None:
        assert isinstance(self.keywords, LazyKeywords)
        self.keywords.build()
