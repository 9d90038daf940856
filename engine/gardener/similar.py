"""Pairs of stored vectors at or above a cosine threshold, without comparing every pair of a big tree.

Up to `EXACT_ROWS` files the full similarity matrix is computed in blocks (exact). Beyond that an
all-pairs product is too slow on two cores (50,000 × 50,000 × 384 took ~38 s here), so candidates
come from sign-random-projection hashing: `TABLES` tables of `BITS` hyperplanes each, and only files
sharing a bucket in some table are compared, exactly. Two unit vectors at cosine c agree on one bit
with probability 1 − arccos(c)/π, so at c = 0.95 a pair shares a 10-bit bucket in one table with
p ≈ 0.35 and in at least one of 16 tables with p ≈ 0.999 — near-duplicates are not missed, and the
comparisons stay near-linear. The hyperplanes come from a fixed seed, so a pass is reproducible.
"""

from __future__ import annotations

import numpy as np

EXACT_ROWS = 4000
BLOCK = 1024
TABLES = 16
BITS = 10
SEED = 16
SMALL_BUCKET = 512  # buckets up to this size are scored pair by pair, in one batch per table
PAIR_BATCH = 200_000


def similar_pairs(vectors: np.ndarray, threshold: float) -> list[tuple[int, int, float]]:
    """`(i, j, cosine)` with i < j for every pair of rows at or above `threshold` (rows unit-length)."""
    if len(vectors) < 2:
        return []
    if len(vectors) <= EXACT_ROWS:
        return _exact(vectors, np.arange(len(vectors)), threshold)
    found: dict[tuple[int, int], float] = {}
    rng = np.random.default_rng(SEED)
    weights = 1 << np.arange(BITS)
    for _ in range(TABLES):
        planes = rng.standard_normal((vectors.shape[1], BITS)).astype(np.float32)
        codes = ((vectors @ planes) > 0).astype(np.int64) @ weights
        order = np.argsort(codes, kind="stable")
        bounds = np.flatnonzero(np.diff(codes[order])) + 1
        small_a: list[np.ndarray] = []
        small_b: list[np.ndarray] = []
        for members in np.split(order, bounds):
            if len(members) > SMALL_BUCKET:
                for i, j, score in _exact(vectors[members], members, threshold):
                    found[(i, j)] = score
            elif len(members) > 1:
                a, b = np.triu_indices(len(members), 1)
                small_a.append(members[a])
                small_b.append(members[b])
        if small_a:
            for i, j, score in _scored(vectors, np.concatenate(small_a), np.concatenate(small_b), threshold):
                found[(i, j)] = score
    return [(i, j, s) for (i, j), s in sorted(found.items())]


def _scored(
    vectors: np.ndarray, a: np.ndarray, b: np.ndarray, threshold: float
) -> list[tuple[int, int, float]]:
    """The candidate pairs (a[k], b[k]) at or above `threshold`, scored in one vectorised pass (many tiny
    matrix products cost more in BLAS thread hand-offs than the arithmetic itself)."""
    out: list[tuple[int, int, float]] = []
    for start in range(0, len(a), PAIR_BATCH):
        ia, ib = a[start : start + PAIR_BATCH], b[start : start + PAIR_BATCH]
        scores = np.einsum("ij,ij->i", vectors[ia], vectors[ib])
        for k in np.flatnonzero(scores >= threshold).tolist():
            i, j = int(ia[k]), int(ib[k])
            out.append((min(i, j), max(i, j), float(scores[k])))
    return out


def _exact(vectors: np.ndarray, ids: np.ndarray, threshold: float) -> list[tuple[int, int, float]]:
    out: list[tuple[int, int, float]] = []
    for start in range(0, len(vectors), BLOCK):
        block = vectors[start : start + BLOCK] @ vectors.T
        rows, cols = np.nonzero(block >= threshold)
        for r, c in zip(rows.tolist(), cols.tolist(), strict=True):
            a, b = start + r, c
            if a < b:
                i, j = int(ids[a]), int(ids[b])
                out.append((min(i, j), max(i, j), float(block[r, c])))
    return out
