"""What a Gardener pass reads: the catalog's rows under a folder (hash, size, dates, sense) and the
stored chunk-#0 vectors of the same files, aligned row for row. Nothing here embeds or reads a file's
content: every figure comes from the index, which is what keeps a pass over 50,000 files fast.

The catalog is read in one query of only the columns the checks use, and summarised by a digest of those
rows (paths, sizes, dates, hashes, senses, when and with which model each file was embedded): when the
digest has not changed since the last pass, nothing those checks see has changed, so their findings
are reused without reading a single vector (engine/gardener/analyze.py)."""

from __future__ import annotations

import hashlib
import os
from dataclasses import dataclass
from typing import Protocol

import numpy as np

from engine.indexing.catalog import Catalog, under_clause, under_params
from engine.indexing.pathtext import from_store


class LeadVectors(Protocol):
    def lead_vectors(self, scope: str | None = None) -> tuple[list[str], np.ndarray]: ...


@dataclass(frozen=True)
class FileInfo:
    path: str
    name: str
    folder: str
    size: int | None
    modified: float | None
    hash: str | None
    sense: str | None
    doc_type: str | None


@dataclass(frozen=True)
class Catalogued:
    files: list[FileInfo]
    digest: str  # changes whenever anything the vector-based checks depend on changes


@dataclass(frozen=True)
class Inputs:
    files: list[FileInfo]
    by_path: dict[str, FileInfo]
    vector_paths: list[str]  # files that have a stored chunk #0, in the order of `vectors`' rows
    vectors: np.ndarray  # unit rows


_COLUMNS = "path, name, size, mtime, hash, sense, doc_type, status, indexed_at, embed_model, semantic"


def read_catalog(catalog: Catalog, folder: str, limit: int) -> Catalogued:
    """The indexed files under `folder` (of its first `limit` catalog rows, by path), in one query.

    The digest covers every column read, so it also changes when a file is re-embedded (`indexed_at`,
    `embed_model`) or a keyword-first file's vectors land (`semantic` turns "done"). Rows come back as
    plain tuples (no `sqlite3.Row` per file) and are hashed in one piece."""
    cursor = catalog.db.conn.cursor()
    cursor.row_factory = None
    rows = cursor.execute(
        f"SELECT {_COLUMNS} FROM files WHERE {under_clause()} ORDER BY path LIMIT {int(limit)}",
        under_params(folder),
    ).fetchall()
    kept = [r for r in rows if r[7] in ("done", "skipped")]
    files = []
    for path, name, size, mtime, hash_, sense, doc_type, *_ in kept:
        path = from_store(path)
        files.append(FileInfo(path, from_store(name), parent(path), size, mtime, hash_, sense, doc_type))
    return Catalogued(files, hashlib.blake2b(repr(kept).encode(), digest_size=16).hexdigest())


def parent(path: str) -> str:
    """`os.path.dirname` of an absolute, normalised path, without its per-call overhead (it runs once
    per file of a 50,000-file pass); a path just below a drive or the file-system root takes the slow way."""
    cut = path.rfind(os.sep)
    return path[:cut] if cut > 2 else os.path.dirname(path)


def with_vectors(files: list[FileInfo], store: LeadVectors, folder: str) -> Inputs:
    """`files` and their stored lead vectors under `folder` (one columnar read), normalised."""
    by_path = {f.path: f for f in files}
    paths, vectors = store.lead_vectors(folder)
    keep = [i for i, p in enumerate(paths) if p in by_path]
    vectors = vectors[keep] if len(keep) != len(paths) else vectors
    norms = np.sqrt(np.einsum("ij,ij->i", vectors, vectors))[:, None] if len(vectors) else np.ones((0, 1))
    vectors = (vectors / np.where(norms == 0, 1.0, norms)).astype(np.float32)
    return Inputs(files, by_path, [paths[i] for i in keep], vectors)


def without_vectors(files: list[FileInfo]) -> Inputs:
    """`files` for the checks that need no vectors (exact duplicates, names, stale files)."""
    return Inputs(files, {f.path: f for f in files}, [], np.zeros((0, 0), np.float32))
