"""What a Gardener pass reads: the catalog's rows under a folder (hash, size, dates, sense) and the
stored chunk-#0 vectors of the same files, aligned row for row. Nothing here embeds or reads a file's
content: every figure comes from the index, which is what keeps a pass over 50,000 files fast."""

from __future__ import annotations

import os
from dataclasses import dataclass
from typing import Protocol

import numpy as np

from engine.indexing.catalog import Catalog


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
class Inputs:
    files: list[FileInfo]
    by_path: dict[str, FileInfo]
    vector_paths: list[str]  # files that have a stored chunk #0, in the order of `vectors`' rows
    vectors: np.ndarray  # unit rows


def load(catalog: Catalog, store: LeadVectors, folder: str, limit: int) -> Inputs:
    """The indexed files under `folder` (at most `limit`) and their stored lead vectors."""
    records = catalog.under(folder, limit=limit)
    files = [
        FileInfo(
            r.path,
            r.name,
            os.path.dirname(r.path),
            r.size,
            r.mtime,
            r.hash,
            r.sense,
            r.doc_type,
        )
        for r in records
        if r.status in ("done", "skipped")
    ]
    by_path = {f.path: f for f in files}
    paths, vectors = store.lead_vectors(folder)
    keep = [i for i, p in enumerate(paths) if p in by_path]
    vectors = vectors[keep] if len(keep) != len(paths) else vectors
    norms = np.linalg.norm(vectors, axis=1, keepdims=True) if len(vectors) else np.ones((0, 1))
    vectors = (vectors / np.where(norms == 0, 1.0, norms)).astype(np.float32)
    return Inputs(files, by_path, [paths[i] for i in keep], vectors)
