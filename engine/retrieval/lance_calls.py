"""How the vector store calls LanceDB: a connection whose metadata cache is bounded, failures turned into
StoreError, a search that is started now and collected later, and the table's history set aside when an
old version is damaged.

LanceDB caches the manifest and fragment metadata of every table version it reads, up to 1 GB by
default. Indexing writes a version per batch (a delete and an append) and each manifest lists every
fragment, so that cache grew with the square of the batches written: 11 MB after 10,000 tiny files and
growing each batch (bench/index_memory.py, issue 30). Only the newest versions are read again, so a
small cap costs nothing; the index cache (the HNSW graph, 600 MB at 1M rows, and the path B-tree) keeps
LanceDB's default, since a query must find the graph loaded.

Why the caller's own thread runs the keyword arm while LanceDB searches: LanceDB's blocking call only
waits on its background event loop, which runs the request on LanceDB's own threads, and an arm on a
thread of its own would cost twice on two shared cores: a hand-off to the arm's thread and back
(0.3 ms p50, 4-6 ms p95 on a loaded machine, bench/hybrid_steps.py), and the two Python threads
contending for the GIL while LanceDB wants it to start and to finish its request. `PendingSearch`
submits the request to LanceDB's loop and returns at once, so
the caller's own thread runs the keyword arm meanwhile and then collects the vector hits.
"""

from __future__ import annotations

import asyncio
import os
import time
from collections.abc import Coroutine
from concurrent.futures import Future
from pathlib import Path
from typing import Any

import lancedb
import numpy as np
import pyarrow as pa
from lancedb.background_loop import LOOP
from lancedb.table import AsyncTable

from engine.errors import InvalidInput, StoreDamaged, StoreError
from engine.retrieval.fusion import ChunkKey, Hit

# Words of LanceDB's errors for a table whose files are damaged (a truncated or garbled data file or
# manifest, a missing one), as opposed to a full disk or a refused query: found by fuzzing the data folder
# (tests/store_damage.py, bench/store_fuzz.py).
_DAMAGE_WORDS = ("corrupt", "invalid", "decode", "magic", "out of range", "not found", "panicked")

METADATA_CACHE_BYTES = 16 << 20  # the newest manifests many times over (a 100k-chunk one is well under 1 MB)


def bounded_session() -> lancedb.Session:
    """LanceDB's caches for one store: metadata capped, the index cache LanceDB's default."""
    return lancedb.Session(index_cache_size_bytes=None, metadata_cache_size_bytes=METADATA_CACHE_BYTES)


def is_panic(exc: BaseException) -> bool:
    """A Rust panic surfaced by pyo3: `PanicException` derives from BaseException, `RustPanic` (an async
    call's) from Exception; both mean LanceDB met data it could not handle."""
    return "Panic" in type(exc).__name__


class store_errors:
    """Turn LanceDB/Arrow failures (a Rust panic included) into a StoreError that names the operation:
    `StoreDamaged` when the table's files are at fault."""

    def __init__(self, what: str):
        self._what = what

    def __enter__(self) -> None:
        return None

    def __exit__(self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: object) -> None:
        if exc is None or isinstance(exc, InvalidInput | StoreError):
            return
        if isinstance(exc, (OSError, ValueError, RuntimeError, pa.ArrowException)) or is_panic(exc):
            message = f"Could not {self._what}: {exc}"
            if is_panic(exc) or any(word in str(exc).lower() for word in _DAMAGE_WORDS):
                raise StoreDamaged(message) from exc
            raise StoreError(message) from exc


COLUMNS = ["path", "chunk_index", "text", "_distance"]  # what a nearest-neighbour search reads per hit


def nearest(table: Any, query: np.ndarray, k: int, where: str | None, ef: int | None) -> PendingSearch:
    """The k nearest rows to `query` by cosine distance, prefiltered by `where`; exact when `ef` is None,
    else through the ANN index at that breadth. One request to LanceDB's event loop: the synchronous query
    builder makes four (it reads the table's schema three times, to infer the vector column and to look
    for blob columns), and each is a hand-off to LanceDB's loop thread and back: on two busy cores those
    wake-ups cost more than the search (bench/compare.py; docs/search-latency.md)."""
    inner = getattr(table, "_table", None)
    if not isinstance(inner, AsyncTable):  # another LanceDB layout: the public builder, slower
        return PendingSearch(table=nearest_sync(table, query, k, where, ef))
    request = inner.query().nearest_to(query).distance_type("cosine").limit(k).select(COLUMNS)
    if where is not None:
        request = request.where(where)  # the async query prefilters by default
    request = request.bypass_vector_index() if ef is None else request.ef(ef)
    return PendingSearch(request.to_arrow())


def nearest_sync(table: Any, query: np.ndarray, k: int, where: str | None, ef: int | None) -> pa.Table:
    """`nearest` through LanceDB's public (synchronous) query builder, waited for."""
    builder = (
        table.search(query, vector_column_name="vector").distance_type("cosine").limit(k).select(COLUMNS)
    )
    if where is not None:
        builder = builder.where(where, prefilter=True)
    builder = builder.bypass_vector_index() if ef is None else builder.ef(ef)
    return builder.to_arrow()


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


U64_MAX = 2**64 - 1


def set_aside_history(table_dir: Path, version: int) -> Path | None:
    """Move the manifests of every version older than `version` (the one in force) out of the table, into
    `<table_dir's folder>.corrupt-<time>-history`; returns that folder, or None when there were none.

    Why: `optimize()`'s clean-up reads every version's manifest, so one damaged old manifest made every
    maintenance run fail (issue 31). SenseTree never reads old versions (no time travel), so their
    manifests are only history; once they are gone the clean-up deletes what only they referred to."""
    versions = table_dir / "_versions"
    manifests = versions.glob("*.manifest") if versions.is_dir() else []
    old = [p for p in manifests if p.stem.isdigit() and _version_of(int(p.stem)) < version]
    if not old:
        return None
    aside = aside_path(table_dir.parent, "-history")
    aside.mkdir()
    for path in old:
        os.replace(path, aside / path.name)
    return aside


def _version_of(name: int) -> int:
    """A manifest's version from its file name: LanceDB's newer scheme names version v `u64::MAX - v`
    (so the newest sorts first), the older one `v`."""
    return U64_MAX - name if name > U64_MAX // 2 else name


def aside_path(folder: Path, suffix: str = "") -> Path:
    """`<folder>.corrupt-<time><suffix>` beside `folder`, with a counter when that is taken."""
    base = folder.with_name(f"{folder.name}.corrupt-{time.strftime('%Y%m%d-%H%M%S')}")
    candidate, n = Path(f"{base}{suffix}"), 1
    while os.path.lexists(candidate):
        n += 1
        candidate = Path(f"{base}-{n}{suffix}")
    return candidate


def set_aside(folder: Path) -> Path:
    """Move a damaged vector store's folder aside (kept for a bug report, never deleted)."""
    aside = aside_path(folder)
    os.replace(folder, aside)
    return aside
