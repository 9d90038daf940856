"""Query embedding runs on its own thread with one torch thread, and repeats are served from a cache."""

from __future__ import annotations

import threading

import numpy as np
import torch

from engine.embed import HashingEmbedder
from engine.retrieval.query_embedding import QueryEmbedder


class ThreadRecordingEmbedder(HashingEmbedder):
    """The hashing embedder, noting torch's thread count and the thread each call ran on."""

    def __init__(self) -> None:
        super().__init__(16)
        self.calls: list[tuple[int, str]] = []

    def embed(self, texts: list[str]) -> np.ndarray:
        self.calls.append((torch.get_num_threads(), threading.current_thread().name))
        return super().embed(texts)


def test_one_thread_query_embedding_leaves_the_batch_embedders_thread_setting_unchanged():
    before = torch.get_num_threads()
    embedder, queries = ThreadRecordingEmbedder(), QueryEmbedder()
    queries.embed(embedder, "vitamin K deficiency")
    assert embedder.calls[0][0] == 1 and embedder.calls[0][1].startswith("query-embed")
    assert torch.get_num_threads() == before  # a batch embedded on this thread keeps its setting
    embedder.embed(["a batch of chunks"])
    assert embedder.calls[-1][0] == before
    queries.close()


def test_a_repeated_query_costs_no_model_call_and_equals_the_first():
    embedder, queries = ThreadRecordingEmbedder(), QueryEmbedder(cached=2)
    first = queries.embed(embedder, "budget 2024")
    again = queries.embed(embedder, "budget 2024")
    assert embedder.embedded == 1 and np.array_equal(first, again)
    queries.embed(embedder, "other")
    queries.embed(embedder, "third")  # the cache holds two: "budget 2024" is evicted
    queries.embed(embedder, "budget 2024")
    assert embedder.embedded == 4
    queries.close()


def test_warm_loads_the_model_on_the_query_thread_without_embedding_anything():
    class Loading(ThreadRecordingEmbedder):
        loaded_on = ""

        def load(self) -> None:
            self.loaded_on = threading.current_thread().name

    embedder, queries = Loading(), QueryEmbedder()
    queries.warm(embedder).result(timeout=30)
    assert embedder.loaded_on.startswith("query-embed") and embedder.embedded == 0
    queries.warm(HashingEmbedder()).result(timeout=30)  # nothing to load: nothing happens
    queries.close()


def test_the_model_is_loaded_and_torch_set_to_one_thread_once_not_before_every_query(monkeypatch):
    class Loading(ThreadRecordingEmbedder):
        loads = 0

        def load(self) -> None:
            self.loads += 1

    settings: list[int] = []
    real = torch.set_num_threads
    monkeypatch.setattr(torch, "set_num_threads", lambda n: settings.append(n) or real(n))
    embedder, queries = Loading(), QueryEmbedder()
    for query in ("first", "second", "third"):
        queries.embed(embedder, query)
    assert embedder.loads == 1 and settings == [1]
    assert [threads for threads, _ in embedder.calls] == [1, 1, 1]  # the setting holds on the query thread
    other = Loading()
    queries.embed(other, "fourth")  # another embedder (the settings changed): prepared once in turn
    assert other.loads == 1 and settings == [1, 1]
    queries.close()
