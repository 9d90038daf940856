"""A hybrid search overlaps its arms: the keyword arm runs while the query is embedded when the query has
to be embedded, and while LanceDB searches when its vector is already known; results are the same."""

from __future__ import annotations

import threading

import numpy as np

from engine.embed import HashingEmbedder
from engine.retrieval.hybrid import HybridSearch
from tests.retrieval.helpers import filled_stores

FILES = {
    "/docs/a.txt": ["the budget review for spring", "travel costs of the team"],
    "/docs/b.txt": ["budget travel plans", "nothing to see here"],
}
BOUND_S = 10


class WaitingEmbedder(HashingEmbedder):
    """Embeds a query only once the keyword arm has answered (or BOUND_S passed): it records whether the
    keyword arm had answered while the query was being embedded."""

    def __init__(self, answered: threading.Event):
        super().__init__(64)
        self.answered = answered
        self.overlapped: list[bool] = []

    def embed(self, texts: list[str]) -> np.ndarray:
        self.overlapped.append(self.answered.wait(BOUND_S))
        return super().embed(texts)


def test_the_keyword_arm_runs_while_the_query_is_embedded(tmp_path):
    answered = threading.Event()
    keywords, vectors = filled_stores(tmp_path, FILES, HashingEmbedder(64))
    embedder = WaitingEmbedder(answered)
    search = HybridSearch(keywords, vectors, embedder, exists=lambda _p: True, floor=0.0)
    real_answer = keywords.answer

    def answer(*args, **kwargs):
        try:
            return real_answer(*args, **kwargs)
        finally:
            answered.set()

    keywords.answer = answer  # type: ignore[method-assign]
    results = search.search("budget travel", limit=5)
    assert embedder.overlapped == [True]
    plain = HybridSearch(keywords, vectors, HashingEmbedder(64), exists=lambda _p: True, floor=0.0)
    assert results == plain.search("budget travel", limit=5)
    answered.clear()  # a repeated query's vector is remembered: nothing is embedded, the arms still run
    assert search.search("budget travel", limit=5) == results
    assert embedder.overlapped == [True]
    keywords.close()
