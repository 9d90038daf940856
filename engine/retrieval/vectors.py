"""The dense half of search: chunk vectors (and the chunk text) in one LanceDB table.

Table `chunks(path, chunk_index, text, vector float32[dim])`. A file's chunks are replaced as a
whole; a rename rewrites only the path column's values (no re-embedding); a folder delete or rename
acts on everything beneath it on segment boundaries.

Search is exact (flat) while the table is small. `optimize()` — called by the engine in the
background — compacts, keeps a B-tree on `path` for scoped queries, and once the table has
`ANN_MIN_ROWS` rows builds an HNSW-SQ index (one graph, m 20, ef_construction 150). Measured with
bench/ann_choice.py on 100k real MiniLM vectors (docs/search-latency.md): HNSW-SQ at ef 200 answers a
top-50 in ~6 ms at recall@10 1.000 and builds in ~48 s, where IVF-PQ gave 26 ms at 0.962 (24 partitions,
nprobes 10, refine 20) and at best 12 ms at 0.984 (316 partitions, nprobes 40, refine 10). Rows
written after the index was built are scanned flat until the next `optimize()`. A scoped query
prefilters on the path; when the scope holds few rows it bypasses the ANN index and is exact (the
scope's row count is kept until the next write).
"""

from __future__ import annotations

import copy
import logging
import os
import threading
from collections.abc import Callable, Iterable, Sequence
from datetime import timedelta
from pathlib import Path
from typing import Any

import lancedb
import numpy as np
import pyarrow as pa
from lancedb.index import BTree, HnswSq

from engine import native_memory
from engine.errors import InvalidInput, StoreError
from engine.paths import subtree_range
from engine.retrieval.fusion import ChunkKey, Hit
from engine.retrieval.lance_calls import (
    PendingSearch,
    bounded_session,
    nearest,
    set_aside,
    set_aside_history,
)
from engine.retrieval.lance_calls import store_errors as _store_errors
from engine.retrieval.sql_literal import sql_string

log = logging.getLogger(__name__)

TABLE = "chunks"
ANN_MIN_ROWS = 20_000  # below this, flat search is fast enough (measured in bench/search_latency.py)
EXACT_SCOPE_ROWS = 20_000  # a scope this small is searched exactly, bypassing the ANN index
# The ANN index's pieces (its first build and the delta each later `optimize()` appends for the rows written
# since: LanceDB's default, which its Python API cannot change) past which maintenance builds it again as
# one. Every save of a watched file ends in a maintenance, so without a bound the pieces grow for as long
# as the app runs and each query walks every one (docs/search-latency.md, "The ANN index's pieces").
MAX_ANN_PIECES = 8
# Counting them reads the index's statistics, where Lance 0.40 warns on every call unless this is set (and
# the centroids it would add are not wanted). Set on import, before any thread reads the environment.
os.environ.setdefault("LANCE_INCLUDE_VECTOR_CENTROIDS", "false")
HNSW_M = 20  # graph degree (LanceDB's default)
HNSW_EF_CONSTRUCTION = 150  # build ~50 s per 100k rows on 2 cores, and recall@10 is already 1.0 at ef 200
HNSW_EF_MIN = 200  # search breadth at ≤ 250k rows: recall@10 1.000 at 100k real vectors, top-50 in ~6 ms
HNSW_ROWS_PER_EF = (
    1250  # larger tables search wider: at 1M real vectors ef 200 gave recall@10 0.832, ef 800 0.974
)
HNSW_EF_MAX = 1000  # for ~1 ms more than ef 200 (bench/ann_choice.py --rows 1000000)


def path_filter(path: str) -> str:
    """`path` itself or anything beneath it, as a range the path B-tree can answer (no LIKE)."""
    prefix, upper = subtree_range(path)
    return f"(path = {sql_string(path)} OR (path >= {sql_string(prefix)} AND path < {sql_string(upper)}))"


def _renamed(path: str, pairs: list[tuple[str, str]]) -> str:
    for old, new in pairs:
        if path == old or path.startswith(old + os.sep):
            return new + path[len(old) :]
    return path


class VectorIndex:
    """Chunk vectors keyed by (path, chunk_index); see the module docstring."""

    def __init__(self, directory: Path, dim: int):
        self.directory = Path(directory)
        self.dim = dim
        self._breadth: Callable[[int, int], int] = search_breadth  # HNSW's ef for a top-k over n rows
        self._lock = threading.RLock()
        self._shape: tuple[int, bool] | None = None  # (rows, has ANN index), cached between writes
        self._scope_rows: dict[str, int] = {}  # rows under a scope, cached between writes
        self._session = bounded_session()  # kept across start_over (lance_calls.py: metadata capped)
        try:
            self._db = lancedb.connect(str(self.directory), session=self._session)
            self._table = self._open_table()
        except (OSError, ValueError, RuntimeError) as exc:
            raise StoreError(f"The vector index at {self.directory} could not be opened: {exc}") from exc

    def _schema(self) -> pa.Schema:
        return pa.schema(
            [
                pa.field("path", pa.string()),
                pa.field("chunk_index", pa.int32()),
                pa.field("text", pa.string()),
                pa.field("vector", pa.list_(pa.float32(), self.dim)),
            ]
        )

    def _open_table(self) -> Any:  # a lancedb.table.Table (LanceDB's table types are not exported)
        try:
            table = self._db.open_table(TABLE)
        except ValueError:  # "Table 'chunks' was not found": a new index
            return self._db.create_table(TABLE, schema=self._schema(), exist_ok=True)
        stored = table.schema.field("vector").type
        if getattr(stored, "list_size", self.dim) != self.dim:
            raise StoreError(
                f"The vector index at {self.directory} holds {stored.list_size}-d vectors but the embedding "
                f"model gives {self.dim}-d ones; re-index to rebuild it for the new model."
            )
        return table

    def with_breadth(self, breadth: Callable[[int, int], int]) -> VectorIndex:
        """This index, searched with HNSW's ef = `breadth(k, rows)` instead of `search_breadth`: the same
        connection, table and LanceDB caches (bench/compare.py times both engines at LanceDB's default
        breadth with it; a second connection would load a second copy of the graph, 600 MB at 1M). A view
        for reading: the row counts it caches are not told of writes made through this index."""
        view = copy.copy(self)
        view._breadth = breadth
        return view

    # ---- writes ------------------------------------------------------------------------------

    def upsert(self, path: str, texts: Sequence[str], vectors: np.ndarray) -> None:
        """Replace one file's chunks with these texts and their vectors (row i is chunk i)."""
        self.upsert_many([(path, texts, vectors)])

    def upsert_many(self, files: Iterable[tuple[str, Sequence[str], np.ndarray]]) -> None:
        paths: list[str] = []
        indexes: list[int] = []
        texts: list[str] = []
        blocks: list[np.ndarray] = []
        replaced: list[str] = []
        for path, chunk_texts, vectors in files:
            vectors = (
                np.asarray(vectors, dtype=np.float32).reshape(-1, self.dim)
                if len(chunk_texts)
                else np.zeros((0, self.dim), np.float32)
            )
            if vectors.shape[0] != len(chunk_texts):
                raise InvalidInput(f"{path}: {len(chunk_texts)} chunks but {vectors.shape[0]} vectors")
            if not np.isfinite(vectors).all():  # LanceDB's own refusal named a build machine's path (N16)
                raise InvalidInput(f"{path}: the embedding model gave vectors with missing values (NaN)")
            replaced.append(path)
            paths += [path] * len(chunk_texts)
            indexes += range(len(chunk_texts))
            texts += list(chunk_texts)
            blocks.append(vectors)
        flat = np.concatenate(blocks) if blocks else np.zeros((0, self.dim), np.float32)
        rows = pa.table(
            {
                "path": pa.array(paths, pa.string()),
                "chunk_index": pa.array(indexes, pa.int32()),
                "text": pa.array(texts, pa.string()),
                "vector": pa.FixedSizeListArray.from_arrays(
                    pa.array(flat.reshape(-1), pa.float32()), self.dim
                ),
            }
        )
        with self._lock, _store_errors("update the vector index"):
            for start in range(0, len(replaced), 500):
                names = ", ".join(sql_string(p) for p in replaced[start : start + 500])
                self._table.delete(f"path IN ({names})")
            if rows.num_rows:
                self._table.add(rows)
            self._forget_shape()

    def delete(self, path: str) -> None:
        """Remove a file, or a folder and everything beneath it."""
        with self._lock, _store_errors(f"remove {path} from the vector index"):
            self._table.delete(path_filter(path))
            self._forget_shape()

    def rename(self, old: str, new: str) -> None:
        """Move a file's or folder's rows to the new path; vectors and text are kept as they are."""
        with self._lock, _store_errors(f"rename {old} in the vector index"):
            self._table.delete(path_filter(new))
            self._table.update(
                where=path_filter(old),
                values_sql={"path": f"concat({sql_string(new)}, substr(path, {len(old) + 1}))"},
            )
            self._forget_shape()

    def rename_many(self, pairs: Sequence[tuple[str, str]], batch: int = 500) -> None:
        """Several independent renames as one read, one delete and one append per batch: the rows are
        copied with their vectors under the new paths (Lance's update cannot map many prefixes at once,
        and a thousand single updates would cost a thousand table versions)."""
        with self._lock, _store_errors("rename files in the vector index"):
            for start in range(0, len(pairs), batch):
                part = list(pairs[start : start + batch])
                olds = " OR ".join(path_filter(old) for old, _ in part)
                rows = self._table.search().where(olds).limit(None).to_arrow()
                self._table.delete(" OR ".join(path_filter(new) for _, new in part) + " OR " + olds)
                if rows.num_rows:
                    moved = [_renamed(p, part) for p in rows["path"].to_pylist()]
                    rows = rows.set_column(
                        rows.schema.get_field_index("path"), "path", pa.array(moved, pa.string())
                    )
                    self._table.add(rows.select(self._schema().names))
            self._forget_shape()

    def optimize(self) -> None:
        """Compact, index `path`, and build or refresh the ANN index once the table is big enough. A
        damaged old version (its manifest is read by the clean-up) has the history set aside, once."""
        with self._lock:
            try:
                self._optimize()
            except StoreError as exc:
                aside = set_aside_history(self.directory / f"{TABLE}.lance", self._table.version)
                if aside is None:
                    raise
                log.error("vector index history was damaged (%s); kept as %s", exc, aside)
                self._optimize()

    def _optimize(self) -> None:
        with _store_errors("optimise the vector index"):
            rows = self._table.count_rows()
            if rows == 0:
                return
            indexed = {tuple(ix.columns): ix for ix in self._table.list_indices()}
            if ("path",) not in indexed:
                self._table.create_index("path", config=BTree())
            if ("vector",) not in indexed and rows >= ANN_MIN_ROWS:
                self._build_ann_apart(rows)
            self._table.optimize(cleanup_older_than=timedelta(minutes=5))
            ann = indexed.get(("vector",))
            if ann is not None and self._ann_pieces(ann.name) > MAX_ANN_PIECES:
                self._build_ann_apart(rows)  # replaces the index and its deltas with one graph
            self._forget_shape()

    def _ann_pieces(self, name: str) -> int:
        """How many pieces the ANN index is in (MAX_ANN_PIECES)."""
        stats = self._table.index_stats(name)
        return stats.num_indices if stats is not None else 1

    def _build_ann_apart(self, rows: int) -> None:
        """An ANN build (the first, or one over too many pieces: MAX_ANN_PIECES), with malloc's free space
        handed back before it and after it (issue 30).

        Why: this build and the compaction after it are the peak of an indexing run. The build allocates
        about twice the raw vectors (+145 MB at 50,000 384-d rows) and leaves ~70 MB of it freed but held
        in malloc's arenas, which the compaction (+130 MB: it rewrites the fragments and remaps the new
        index) only partly reuses. Trimmed, maintenance peaked at 354-368 MB instead of 370-372 MB
        (bench/maintenance_memory.py, docs/indexing.md): a small gain, since the build itself is the peak."""
        native_memory.trim(now=True)  # what the last indexing batches freed, before the build's peak
        self._build_ann(rows)
        native_memory.trim(now=True)  # what the build freed, before the compaction's peak

    def _build_ann(self, rows: int) -> None:
        log.info("building an HNSW-SQ index over %d vectors", rows)
        self._table.create_index(
            "vector",
            config=HnswSq(
                distance_type="cosine", num_partitions=1, m=HNSW_M, ef_construction=HNSW_EF_CONSTRUCTION
            ),
        )

    # ---- reads -------------------------------------------------------------------------------

    def _forget_shape(self) -> None:
        """After a write: the row counts (whole table and per scope) are read again when next needed."""
        self._shape = None
        self._scope_rows = {}

    def _rows_under(self, scope: str, where: str) -> int:
        """Rows in `scope`, kept until the next write: counting them on every scoped query was one more
        filtered scan of the path column per search."""
        rows = self._scope_rows
        count = rows.get(scope)
        if count is None:
            count = rows[scope] = self._table.count_rows(where)
            if len(rows) > 64:
                rows.pop(next(iter(rows)))
        return count

    def _current_shape(self) -> tuple[int, bool]:
        shape = self._shape
        if shape is None:
            ann = any(tuple(ix.columns) == ("vector",) for ix in self._table.list_indices())
            shape = self._shape = (self._table.count_rows(), ann)
        return shape

    def has_ann(self) -> bool:
        return self._current_shape()[1]

    def search(self, vector: np.ndarray, k: int = 50, scope: str | None = None) -> list[Hit]:
        """The k nearest chunks by cosine similarity (score = 1 − cosine distance)."""
        return self.search_with_text(vector, k, scope)[0]

    def search_with_text(
        self, vector: np.ndarray, k: int = 50, scope: str | None = None
    ) -> tuple[list[Hit], dict[ChunkKey, str]]:
        """`search`, plus the text of every hit (read in the same query, which saves hybrid search a
        second round trip for snippets)."""
        return self.start_search(vector, k, scope).result()

    def start_search(self, vector: np.ndarray, k: int = 50, scope: str | None = None) -> PendingSearch:
        """`search_with_text`, started on LanceDB's threads without waiting for it: the caller does other
        work and collects the hits with `.result()` (lance_calls.py)."""
        query = np.asarray(vector, dtype=np.float32).reshape(-1)
        if query.shape[0] != self.dim:
            raise InvalidInput(f"A {query.shape[0]}-d query vector was given to a {self.dim}-d vector index")
        with _store_errors("search the vector index"):
            return self._nearest(query, k, scope)

    def _nearest(self, query: np.ndarray, k: int, scope: str | None) -> PendingSearch:
        """The k nearest rows, searched exactly (no ANN index yet, or a small scope) or with HNSW at the
        breadth `self._breadth` gives; one request to LanceDB's loop (lance_calls.nearest)."""
        ann = self.has_ann()
        where = None
        if scope is not None:
            where = path_filter(scope)
            if ann and self._rows_under(scope, where) <= EXACT_SCOPE_ROWS:
                ann = False  # a small scope is searched exactly (prefiltered on the path B-tree)
        ef = self._breadth(k, self._current_shape()[0]) if ann else None
        return nearest(self._table, query, k, where, ef)

    def texts(self, keys: Iterable[ChunkKey]) -> dict[ChunkKey, str]:
        """The stored text of several chunks at once (for snippets and rerank)."""
        wanted = set(keys)
        if not wanted:
            return {}
        paths = ", ".join(sql_string(p) for p in sorted({p for p, _ in wanted}))
        with _store_errors("read chunk text"):
            rows = (
                self._table.search()
                .where(f"path IN ({paths})")
                .select(["path", "chunk_index", "text"])
                .limit(None)
                .to_arrow()
            )
        out: dict[ChunkKey, str] = {}
        for p, i, t in zip(
            rows["path"].to_pylist(), rows["chunk_index"].to_pylist(), rows["text"].to_pylist(), strict=False
        ):
            if (p, i) in wanted:
                out[(p, int(i))] = t
        return out

    def text(self, path: str, chunk_index: int) -> str | None:
        return self.texts([(path, chunk_index)]).get((path, chunk_index))

    def lead_vectors(self, scope: str | None = None) -> tuple[list[str], np.ndarray]:
        """Every file's chunk #0 vector under `scope` (the sense-bearing chunk), as stored: the Gardener
        compares files with these and never embeds anything itself."""
        where = "chunk_index = 0" + (f" AND {path_filter(scope)}" if scope is not None else "")
        with _store_errors("read the stored vectors"):
            rows = self._table.search().where(where).select(["path", "vector"]).limit(None).to_arrow()
        paths = rows["path"].to_pylist()
        if not paths:
            return [], np.zeros((0, self.dim), np.float32)
        flat = rows["vector"].combine_chunks().flatten().to_numpy(zero_copy_only=False)
        return paths, np.asarray(flat, dtype=np.float32).reshape(len(paths), self.dim)

    def chunk_counts(self) -> dict[str, int]:
        with _store_errors("count chunks"):
            paths = self._table.search().select(["path"]).limit(None).to_arrow()
        grouped = paths.group_by("path").aggregate([("path", "count")])
        return dict(zip(grouped["path"].to_pylist(), grouped["path_count"].to_pylist(), strict=False))

    def count(self) -> int:
        return int(self._table.count_rows())

    def probe(self) -> None:
        """Read what a start depends on — every path, one search, one scoped search (the data files and
        the index files) — so damage shows at start-up (engine/stores.py), not at the first search."""
        counts = self.chunk_counts()
        if counts:
            query = np.full(self.dim, 1.0 / np.sqrt(self.dim), dtype=np.float32)
            self.search(query, 1)
            self.search(query, 1, scope=os.path.dirname(next(iter(counts))))

    def drop_indices(self) -> None:
        """Forget the path B-tree and the ANN index (both derived; `optimize()` builds them again)."""
        with self._lock, _store_errors("drop the vector index structures"):
            for index in self._table.list_indices():
                self._table.drop_index(index.name)
            self._forget_shape()

    def start_over(self) -> Path:
        """Keep the folder aside (`<folder>.corrupt-<time>`, returned) and go on with a new, empty table
        in this same object (the indexer and search hold it)."""
        with self._lock:
            aside = set_aside(self.directory)
            self._db = lancedb.connect(str(self.directory), session=self._session)
            self._table = self._open_table()
            self._forget_shape()
            return aside

    def close(self) -> None:
        """LanceDB holds no open handles that need closing; kept for symmetry with KeywordIndex."""


def search_breadth(k: int, rows: int) -> int:
    """HNSW's `ef` for a top-k over `rows` vectors: at least 2k (LanceDB needs ef ≥ k), wider as the graph
    grows, since a fixed ef loses recall with size while its cost barely moves (docs/search-latency.md)."""
    return max(2 * k, min(HNSW_EF_MAX, max(HNSW_EF_MIN, rows // HNSW_ROWS_PER_EF)))
