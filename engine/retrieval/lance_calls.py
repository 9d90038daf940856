"""How the vector store calls LanceDB: failures turned into StoreError, and a search that is started
now and collected later.

A hybrid search used to run its keyword arm on a thread of its own while the caller waited in LanceDB's
blocking call (its background event loop runs the request on LanceDB's own threads). On two shared cores
that cost twice: a hand-off to the arm's thread and back (0.3 ms p50, 4-6 ms p95 on a loaded machine,
bench/hybrid_steps.py), and the two Python threads contending for the GIL while LanceDB wanted it to start
and to finish its request. `PendingSearch` submits the request to LanceDB's loop and returns at once, so
the caller's own thread runs the keyword arm meanwhile and then collects the vector hits.
"""

from __future__ import annotations

import asyncio
from collections.abc import Coroutine
from concurrent.futures import Future
from typing import Any

import pyarrow as pa
from lancedb.background_loop import LOOP

from engine.errors import InvalidInput, StoreError
from engine.retrieval.fusion import ChunkKey, Hit


class store_errors:
    """Turn LanceDB/Arrow failures into a StoreError that names the operation."""

    def __init__(self, what: str):
        self._what = what

    def __enter__(self) -> None:
        return None

    def __exit__(self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: object) -> None:
        if (
            exc is not None
            and isinstance(exc, (OSError, ValueError, RuntimeError, pa.ArrowException))
            and not isinstance(exc, InvalidInput | StoreError)
        ):
            raise StoreError(f"Could not {self._what}: {exc}") from exc


class PendingSearch:
    """A nearest-neighbour request running on LanceDB's loop (or a table already read); `result()` waits
    for it and gives the hits (score = 1 − cosine distance) and the text of each."""

    def __init__(self, request: Coroutine[Any, Any, pa.Table] | None = None, table: pa.Table | None = None):
        self._future: Future[pa.Table] | None = (
            asyncio.run_coroutine_threadsafe(request, LOOP.loop) if request is not None else None
        )
        self._table = table

    def result(self) -> tuple[list[Hit], dict[ChunkKey, str]]:
        found = self._table
        if self._future is not None:
            with store_errors("search the vector index"):
                found = self._future.result()
        if found is None:
            return [], {}
        hits = [
            Hit(p, int(i), 1.0 - float(d))
            for p, i, d in zip(
                found["path"].to_pylist(),
                found["chunk_index"].to_pylist(),
                found["_distance"].to_pylist(),
                strict=False,
            )
        ]
        return hits, dict(zip((h.key for h in hits), found["text"].to_pylist(), strict=False))
