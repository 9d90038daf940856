"""Pairs of stored vectors at or above a cosine threshold, without comparing every pair of a big tree.

Up to `EXACT_ROWS` files the full similarity matrix is computed in blocks (exact). Beyond that an
all-pairs product is too slow on two cores (50,000 × 50,000 × 384 took ~38 s here), so candidates
come from sign-random-projection hashing and only they are compared, exactly.

Two unit vectors at cosine c agree on one random hyperplane's side with probability
p = 1 − arccos(c)/π. A table keys each file by `bits` such signs, so a pair at the threshold t shares a
bucket in one table with probability p(t)^bits and in at least one of L tables with 1 − (1 − p^bits)^L.
`plan(t)` picks L so that this misses a pair at the threshold at most `MISS` (10⁻⁴) of the time — pairs
above it are missed even less — with as many bits as keeps L within `MAX_TABLES`: many bits make the
buckets small, so unrelated files rarely meet and the comparisons stay near-linear (at t = 0.92:
16 bits, 79 tables). All the tables' hyperplanes are one matrix product, and a bucket's pairs are
generated with array arithmetic.

Scoring every candidate would read two 1.5 KB vectors per pair; instead the same signs, all
bits × tables of them packed into ~120 bytes per file, screen the candidates first: the number of
hyperplanes that split a pair at cosine c is Binomial(M, arccos(c)/π), so a pair whose split count is
more than `Z` standard deviations above that at the threshold (about 10⁻⁷ at Z = 5.3) is not compared.
What survives is deduplicated across tables and scored exactly. The hyperplanes come from a fixed
seed, so a pass is reproducible.
"""

from __future__ import annotations

import math

import numpy as np

EXACT_ROWS = 4000
BLOCK = 1024
MAX_BITS, MIN_BITS = 16, 8
MAX_TABLES = 96
MISS = 1e-4
Z = 5.3  # the sign screen's margin, in standard deviations of the split count at the threshold
SEED = 16
BIG_BUCKET = 512  # a bucket this large is compared as one block product rather than pair by pair
PAIR_BATCH = 262_144
CODE_ROWS = 8192  # rows projected at once (bounds the projection's memory)
_POPCOUNT = np.array([bin(b).count("1") for b in range(256)], dtype=np.uint16)


def plan(threshold: float) -> tuple[int, int]:
    """(bits per table, tables) that find a pair at `threshold` with probability ≥ 1 − MISS."""
    p = 1.0 - _split(threshold)
    tables = MAX_TABLES
    for bits in range(MAX_BITS, MIN_BITS - 1, -1):
        hit = p**bits
        tables = 1 if hit >= 1.0 else math.ceil(math.log(MISS) / math.log1p(-hit))
        if tables <= MAX_TABLES:
            return bits, tables
    return MIN_BITS, min(tables, MAX_TABLES)


def max_splits(threshold: float, planes: int) -> int:
    """How many of `planes` random hyperplanes may split a pair still worth comparing exactly."""
    q = _split(threshold)
    return math.ceil(planes * q + Z * math.sqrt(planes * q * (1.0 - q)))


def _split(cosine: float) -> float:
    """The chance that one random hyperplane separates two vectors at `cosine`."""
    return math.acos(min(1.0, max(-1.0, cosine))) / math.pi


def similar_pairs(vectors: np.ndarray, threshold: float) -> list[tuple[int, int, float]]:
    """`(i, j, cosine)` with i < j for every pair of rows at or above `threshold` (rows unit-length)."""
    n = len(vectors)
    keys = similar_pair_keys(vectors, threshold)
    out: list[tuple[int, int, float]] = []
    for start in range(0, len(keys), PAIR_BATCH):
        ia, ib = np.divmod(keys[start : start + PAIR_BATCH], n)
        scores = np.einsum("ij,ij->i", vectors[ia], vectors[ib])
        out.extend(zip(ia.tolist(), ib.tolist(), scores.tolist(), strict=True))
    return out


def similar_pair_keys(vectors: np.ndarray, threshold: float) -> np.ndarray:
    """The pairs of `similar_pairs` as ascending int64 keys `i · n + j` (i < j, n rows): 8 bytes a pair,
    where a Python tuple costs ~100, so a tight cluster of thousands of files (one template's series,
    millions of pairs) is held as one array (the Gardener's pass, issue 30: 2,000 near-identical files
    had peaked at 1.08 GB)."""
    n = len(vectors)
    if n < 2:
        return np.zeros(0, dtype=np.int64)
    if n <= EXACT_ROWS:
        return np.sort(_exact_pairs(vectors, np.arange(n), threshold, n)[0])
    bits, tables = plan(threshold)
    codes, signs = _codes(vectors, bits, tables)
    limit = max_splits(threshold, bits * tables)
    keys: list[np.ndarray] = []
    compared: set[bytes] = set()  # big buckets already compared (a tight cluster recurs in many tables)
    for t in range(tables):
        order = np.argsort(codes[:, t], kind="stable")
        ordered = codes[order, t]
        starts = np.flatnonzero(np.r_[True, ordered[1:] != ordered[:-1]])
        sizes = np.diff(np.r_[starts, n])
        big = sizes > BIG_BUCKET
        for start, size in zip(starts[big].tolist(), sizes[big].tolist(), strict=True):
            members = np.sort(order[start : start + size])
            if members.tobytes() not in compared:
                compared.add(members.tobytes())
                keys.append(_exact_pairs(vectors[members], members, threshold, n)[0])
        small = (sizes > 1) & (sizes <= BIG_BUCKET)
        keys.append(_screened(signs, _bucket_pairs(order, starts[small], sizes[small], n), n, limit))
    return _kept(vectors, np.unique(np.concatenate(keys)), n, threshold)


def _codes(vectors: np.ndarray, bits: int, tables: int) -> tuple[np.ndarray, np.ndarray]:
    """Each row's bucket key in every table, `(rows, tables)` int64, and all its signs packed into
    64-bit words `(rows, ⌈bits · tables / 64⌉)`, from one set of hyperplanes."""
    planes = np.random.default_rng(SEED).standard_normal((vectors.shape[1], bits * tables)).astype(np.float32)
    key_bytes = (bits + 7) // 8
    place = (256 ** np.arange(key_bytes - 1, -1, -1)).astype(np.int64)  # a table's bytes, big end first
    words = (bits * tables + 63) // 64
    codes = np.empty((len(vectors), tables), dtype=np.int64)
    packed = np.zeros((len(vectors), words * 8), dtype=np.uint8)
    for start in range(0, len(vectors), CODE_ROWS):
        signs = (vectors[start : start + CODE_ROWS] @ planes) > 0
        per_table = np.packbits(signs.reshape(len(signs), tables, bits), axis=2)
        codes[start : start + CODE_ROWS] = per_table @ place
        packed[start : start + CODE_ROWS, : (bits * tables + 7) // 8] = np.packbits(signs, axis=1)
    return codes, packed.view(np.uint64)


def _screened(signs: np.ndarray, keys: np.ndarray, n: int, limit: int) -> np.ndarray:
    """The pair keys whose packed signs differ in at most `limit` places."""
    kept = []
    for start in range(0, len(keys), PAIR_BATCH):
        batch = keys[start : start + PAIR_BATCH]
        differ = np.bitwise_xor(signs[batch // n], signs[batch % n])
        if hasattr(np, "bitwise_count"):  # numpy ≥ 2
            splits = np.bitwise_count(differ).sum(axis=1, dtype=np.int64)
        else:
            splits = _POPCOUNT[differ.view(np.uint8)].sum(axis=1, dtype=np.int64)
        kept.append(batch[splits <= limit])
    return np.concatenate(kept) if kept else keys


def _bucket_pairs(order: np.ndarray, starts: np.ndarray, sizes: np.ndarray, n: int) -> np.ndarray:
    """Every pair inside each bucket (`order[start : start + size]`) as a key `min · n + max`."""
    if not len(starts):
        return np.zeros(0, dtype=np.int64)
    # positions of the buckets' members in `order`, and how many later members each one pairs with
    first = np.repeat(starts, sizes)
    position = first + (np.arange(int(sizes.sum())) - np.repeat(np.cumsum(sizes) - sizes, sizes))
    later = np.repeat(starts + sizes, sizes) - position - 1
    left = np.repeat(position, later)
    run_start = np.repeat(np.cumsum(later) - later, later)
    right = left + (np.arange(len(left)) - run_start) + 1
    a, b = order[left].astype(np.int64), order[right].astype(np.int64)
    keys: np.ndarray = np.minimum(a, b) * n + np.maximum(a, b)
    return keys


def _kept(vectors: np.ndarray, keys: np.ndarray, n: int, threshold: float) -> np.ndarray:
    """The candidate pair keys (`i · n + j`, ascending) at or above `threshold`, scored in vectorised
    batches (many tiny matrix products cost more in BLAS thread hand-offs than the arithmetic itself)."""
    kept = [np.zeros(0, dtype=np.int64)]
    for start in range(0, len(keys), PAIR_BATCH):
        batch = keys[start : start + PAIR_BATCH]
        ia, ib = np.divmod(batch, n)
        kept.append(batch[np.einsum("ij,ij->i", vectors[ia], vectors[ib]) >= threshold])
    return np.concatenate(kept)


def _exact_pairs(
    vectors: np.ndarray, ids: np.ndarray, threshold: float, n: int
) -> tuple[np.ndarray, np.ndarray]:
    """The pairs of rows at or above `threshold`: keys `min · n + max` of their ids, and their cosines."""
    keys, scores = [np.zeros(0, dtype=np.int64)], [np.zeros(0, dtype=np.float32)]
    for start in range(0, len(vectors), BLOCK):
        block = vectors[start : start + BLOCK] @ vectors.T
        rows, cols = np.nonzero(block >= threshold)
        upper = rows + start < cols
        rows, cols = rows[upper], cols[upper]
        a, b = ids[rows + start].astype(np.int64), ids[cols].astype(np.int64)
        keys.append(np.minimum(a, b) * n + np.maximum(a, b))
        scores.append(block[rows, cols])
    return np.concatenate(keys), np.concatenate(scores)
