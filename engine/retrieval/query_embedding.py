"""Embedding a person's query: on one dedicated thread, with torch at one intra-op thread, cached.

Measured (issue 17): with torch's default of 2 threads on 2 cores, one other busy process turned a 12 ms
query embedding into 181 ms p50 (p95 770 ms): the OpenMP threads of one tiny matrix product wait on a
descheduled sibling. A single query is too small to gain from a second thread, so it runs on one.
torch's thread count is per OS thread under OpenMP (ATen keeps it in the calling thread's OpenMP state),
so the setting lives on a thread of its own here: the indexer's batches, embedded on other threads,
keep their own setting. The model is loaded by `warm()` at start, so the first
search does not pay for it, and the vectors of recent queries are kept (people repeat and refine
queries; a repeat costs no model time).
"""

from __future__ import annotations

import logging
import sys
import threading
from collections import OrderedDict
from concurrent.futures import Future, ThreadPoolExecutor
from typing import TYPE_CHECKING

import numpy as np

if TYPE_CHECKING:  # the embedder module brings the settings; a keyword answer needs neither
    from engine.embed import Embedder

log = logging.getLogger(__name__)

CACHED_QUERIES = 256
CLOSE_WAIT_S = 60.0  # closing waits this long for a model load under way, then goes on


def _one_torch_thread() -> bool:
    """The query thread's own torch setting, once torch is loaded (by the embedder's `load`): an
    embedder without torch (the hashing one, an endpoint) never imports it (issue 12: a command
    imports only what it uses). True when torch was there to be set."""
    torch = sys.modules.get("torch")
    if torch is None:
        return False
    torch.set_num_threads(1)
    return True


class QueryEmbedder:
    """`embed(embedder, query)` on the query thread, with an LRU of recent query vectors."""

    def __init__(self, cached: int = CACHED_QUERIES):
        self._pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="query-embed")
        self._lock = threading.Lock()
        self._cache: OrderedDict[tuple[str, str], np.ndarray] = OrderedDict()
        self._cached = cached
        # the embedder loaded on the query thread with torch's setting made there (read and written on
        # that one thread only): loading and setting the thread count again before every query made
        # each query take the embedder's lock and reconfigure torch's pool
        self._ready: Embedder | None = None

    def embed(self, embedder: Embedder, query: str) -> np.ndarray:
        return self.embed_later(embedder, query).result()

    def embed_later(self, embedder: Embedder, query: str) -> Future[np.ndarray]:
        """`embed`, started on the query thread without waiting for it (a remembered vector is a future
        already done): hybrid search runs its keyword arm meanwhile."""
        key = (embedder.name, query)
        with self._lock:
            vector = self._cache.get(key)
            if vector is not None:
                self._cache.move_to_end(key)
                done: Future[np.ndarray] = Future()
                done.set_result(vector)
                return done
        return self._pool.submit(self._embed_kept, embedder, query, key)

    def _embed_kept(self, embedder: Embedder, query: str, key: tuple[str, str]) -> np.ndarray:
        vector = self._embed_one(embedder, query)
        vector.setflags(write=False)  # shared by every caller of the same query
        with self._lock:
            self._cache[key] = vector
            while len(self._cache) > self._cached:
                self._cache.popitem(last=False)
        return vector

    def _embed_one(self, embedder: Embedder, query: str) -> np.ndarray:
        """One query's vector, on the query thread. The first time for an embedder its model is loaded
        and torch set to one thread here (the setting must precede the forward pass); after that only
        the forward pass runs."""
        if self._ready is not embedder:
            self._prepare(embedder)
        vector: np.ndarray = embedder.embed([query])[0]
        return vector

    def _prepare(self, embedder: Embedder) -> None:
        load = getattr(embedder, "load", None)
        if load is not None:
            load()
        if _one_torch_thread() or load is None:  # a model without `load` never brings torch in
            self._ready = embedder

    def warm(self, embedder: Embedder) -> Future[None]:
        """Load the model on the query thread, in the background (embedders without a `load` need none;
        nothing is embedded, so the embedder's count of embedded texts is unchanged)."""

        def run() -> None:
            if getattr(embedder, "load", None) is None:
                return
            try:
                self._prepare(embedder)
            except Exception:  # a model that cannot load reports itself at the first real query
                log.warning("could not load the embedding model %s", embedder.name, exc_info=True)

        return self._pool.submit(run)

    def close(self, timeout: float = CLOSE_WAIT_S) -> None:
        """Cancel what waits and wait, bounded, for what runs (a model's load takes seconds): a thread left
        inside torch while the interpreter shuts down can abort the process (issue 31, N8)."""
        closing = threading.Thread(
            target=self._pool.shutdown, kwargs={"wait": True, "cancel_futures": True}, daemon=True
        )
        closing.start()
        closing.join(timeout)
