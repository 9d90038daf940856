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
import sqlite3
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Protocol

import numpy as np

from engine.indexing.catalog import SEARCHABLE, Catalog, FileStatus, sql_in, under_clause, under_params
from engine.indexing.descriptors import FOLDER_TYPE, NAME_ONLY_TYPES
from engine.indexing.pathtext import from_store


class LeadVectors(Protocol):
    def lead_vectors(self, scope: str | None = None) -> tuple[list[str], np.ndarray]: ...

    def texts(self, keys: Iterable[tuple[str, int]]) -> dict[tuple[str, int], str]: ...


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
    chunks: int = 0  # stored chunks: how much text the index holds for the file


@dataclass(frozen=True)
class Catalogued:
    files: list[FileInfo]
    digest: str  # changes whenever anything the vector-based checks depend on changes
    waiting: int = 0  # files not yet understood: still queued, or their vectors not written yet


@dataclass(frozen=True)
class Inputs:
    files: list[FileInfo]
    by_path: dict[str, FileInfo]
    vector_paths: list[str]  # files that have a stored chunk #0, in the order of `vectors`' rows
    vectors: np.ndarray  # unit rows


_COLUMNS = "path, name, size, mtime, hash, sense, doc_type, chunks, status, indexed_at, embed_model, semantic"


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
    kept = [r for r in rows if r[8] in SEARCHABLE]
    waiting = _waiting(cursor, folder)
    files = []
    for path, name, size, mtime, hash_, sense, doc_type, chunks, *_ in kept:
        path = from_store(path)
        files.append(
            FileInfo(path, from_store(name), parent(path), size, mtime, hash_, sense, doc_type, chunks or 0)
        )
    return Catalogued(files, hashlib.blake2b(repr(kept).encode(), digest_size=16).hexdigest(), waiting)


def _waiting(cursor: sqlite3.Cursor, folder: str) -> int:
    """Files under `folder` not yet understood: queued for indexing, or indexed without their vectors."""
    files = (
        f"SELECT path FROM files WHERE {under_clause()} "
        f"AND (semantic = 'pending' OR status NOT IN {sql_in((*SEARCHABLE, FileStatus.FAILED))})"
    )
    has_queue = cursor.execute(
        "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'queue'"
    ).fetchone()
    if not has_queue:
        return int(cursor.execute(f"SELECT count(*) FROM ({files})", under_params(folder)).fetchone()[0])
    queued = f"SELECT path FROM queue WHERE state = 'queued' AND action = 'index' AND {under_clause()}"
    sql = f"SELECT count(*) FROM ({files} UNION {queued})"
    return int(cursor.execute(sql, under_params(folder) * 2).fetchone()[0])


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


MAX_CHUNKS = 12  # text read per compared file: enough to tell copies from a series, bounded for big files


def bodies(files: list[FileInfo], store: LeadVectors) -> dict[str, str]:
    """The extracted text the index keeps for `files` (their first `MAX_CHUNKS` chunks), without the
    sense chunk #0 carries in front: what two files *say*, for the textual duplicate check. A file
    catalogued by name only has no body (an empty string)."""
    keys = [(f.path, i) for f in files for i in range(max(1, min(f.chunks, MAX_CHUNKS)))]
    stored = store.texts(keys) if keys else {}
    out = {}
    for f in files:
        if f.doc_type in NAME_ONLY_TYPES or f.doc_type == FOLDER_TYPE:
            out[f.path] = ""  # its chunk is a descriptor (kind, folder, siblings): nothing it *says*
            continue
        lead = stored.get((f.path, 0), "")
        head = f"[{f.doc_type}] {f.sense or ''}".strip()
        if lead.startswith(head) and lead[len(head) : len(head) + 2] == "\n\n":
            lead = lead[len(head) + 2 :]
        elif "\n\n" in lead:
            lead = lead.split("\n\n", 1)[1]
        else:
            lead = ""  # "[doc_type] name": nothing was extracted
        rest = [stored.get((f.path, i), "") for i in range(1, max(1, min(f.chunks, MAX_CHUNKS)))]
        out[f.path] = "\n".join([lead, *rest]).strip()
    return out
