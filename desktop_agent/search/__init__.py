"""In-RAM search over decrypted memories: exact cosine over a float32 matrix and BM25.

Nothing here ever touches disk: the vault fills these indexes at unlock from decrypted rows, so
plaintext and vectors live only in this process's memory.
"""

from desktop_agent.search.bm25 import KeywordIndex
from desktop_agent.search.hybrid import HybridIndex, ScoredId
from desktop_agent.search.vectors import VectorIndex

__all__ = ["HybridIndex", "KeywordIndex", "ScoredId", "VectorIndex"]
