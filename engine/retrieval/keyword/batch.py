"""The half of a bulk keyword insert that reads nothing of the index: the batch's words split, stop words
dropped, the distinct words stemmed and numbered, made before the write transaction begins.

Until session 6 of issue 30 this half was SQL: the split into a temp table (`writes.kept_words_sql`), its
distinct words, a word -> number table and the (chunk, term) count joined to it, 6.2 of a 100k real-text
build's 12.5 CPU-s (statement-timed, load 4.4). It is numpy now (`batch_words.py`): the words come out as
codes into the batch's vocabulary, so the only strings Python touches are the ~130k distinct words of a
50k-chunk batch, stemmed once each by PyStemmer (Snowball's Porter stemmer, which the FTS extension's
`stem` compiles in; point_tokens.Stems says how that is checked). The batch keeps its own stemmer, so a
build holds no lock that queries wait on. The count itself waits for the term ids (`writes.insert_rows`,
in the transaction), so that one sort both counts the postings and orders them as the table wants them.

Nothing here writes to the database file: a write that fails after staging leaves nothing behind.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import TYPE_CHECKING, TypeVar

import duckdb
import numpy as np
import Stemmer

from engine.retrieval.keyword import tokenize
from engine.retrieval.keyword.batch_words import SplitWords, slice_bounds, split_words

if TYPE_CHECKING:
    import pyarrow as pa

T = TypeVar("T")
# A batch is split in slices of at least this many chunks, one thread each, at most MAX_SLICES of them.
SLICE_ROWS = 4_096
MAX_SLICES = 4
# The postings' sort runs in slices of at least this many words, one thread each.
SORT_ROWS = 500_000


@dataclass(frozen=True)
class StagedBatch:
    """A batch ready for `writes.insert_rows`: its chunks (path, chunk_index, text) and every kept word as
    (chunk, term number), `terms[number]` the term; the chunks are numbered 0..n-1 in the batch."""

    chunks: pa.Table
    terms: list[str]
    word_term: np.ndarray  # int32 per kept word, in order
    word_chunk: np.ndarray  # int32 per kept word (int32 halves the ~6M words' memory of a 50k batch)
    lengths: np.ndarray  # int32 per chunk: its kept words, BM25's length
    cores: int = 1  # threads its postings may be sorted on

    @property
    def rows(self) -> int:
        return int(self.chunks.num_rows)

    def postings(self, term_ids: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """(term id, chunk, tf) of every posting, sorted by term id then chunk, given each term number's
        id: a sort of `term id << 32 | chunk` keys counts them (np.unique sorted 5.7M keys in 0.40 s, a
        stable sort 0.19 s), its slices sorted on one thread each and merged by one more stable sort
        (a merge of sorted runs)."""
        words = len(self.word_term)
        bounds = slice_bounds(words, min(self.cores, MAX_SLICES, words // SORT_ROWS))
        slices = [(start, stop) for start, stop in zip(bounds[:-1], bounds[1:], strict=True)]
        runs = _in_threads(
            lambda a, b: _sorted_keys(term_ids, self.word_term[a:b], self.word_chunk[a:b]), slices
        )
        keys = runs[0]
        if len(runs) > 1:
            keys = np.concatenate(runs)
            keys.sort(kind="stable")  # in place
        if not len(keys):
            empty = np.zeros(0, np.int64)
            return empty, empty, empty
        first = np.empty(len(keys), dtype=bool)  # a posting's first word
        first[0] = True
        np.not_equal(keys[1:], keys[:-1], out=first[1:])
        starts = np.flatnonzero(first)
        distinct = keys[starts]
        chunk = distinct & 0xFFFFFFFF
        distinct >>= 32
        return distinct, chunk, np.diff(starts, append=len(keys))


def stage(cur: duckdb.DuckDBPyConnection, incoming: pa.Table, cores: int | None = None) -> StagedBatch:
    """Stage a batch (path, chunk_index, text) outside any transaction, for `writes.insert_rows` inside the
    one that follows; `cur` is the writer cursor (it lower-cases the texts that are not ASCII). A batch of
    at least 2 × SLICE_ROWS chunks is split on as many threads as `cores` (every core if None; at most
    MAX_SLICES), and its postings sorted so."""
    rows = incoming.num_rows
    cores = cores or os.cpu_count() or 1
    parts = min(cores, MAX_SLICES, rows // SLICE_ROWS)
    pieces = split_words(cur, incoming.column("text").combine_chunks(), parts)
    numbers: dict[str, int] = {}
    local_terms = [_local_terms(piece.vocabulary, numbers) for piece in pieces]
    kept = _in_threads(_kept_words, list(zip(pieces, local_terms, strict=True)))
    starts = slice_bounds(rows, len(pieces))
    word_term = np.concatenate([term for term, _ in kept])
    word_chunk = np.concatenate(
        [chunk + np.int32(start) for (_, chunk), start in zip(kept, starts[:-1], strict=True)]
    )
    lengths = np.bincount(word_chunk, minlength=rows).astype(np.int32)
    return StagedBatch(incoming, list(numbers), word_term, word_chunk, lengths, cores)


def _local_terms(vocabulary: list[str], numbers: dict[str, int]) -> np.ndarray:
    """Each word's term number (-1 for a stop word, or a word that folded to nothing), numbering the terms
    `numbers` lacks as they come."""
    stems = Stemmer.Stemmer(tokenize.STEMMER, 0).stemWords(vocabulary)  # its own: no lock held by queries
    stop = tokenize.STOPWORDS
    pairs = zip(vocabulary, stems, strict=True)
    numbered = (-1 if not w or w in stop else numbers.setdefault(s, len(numbers)) for w, s in pairs)
    return np.fromiter(numbered, np.int32, len(stems))


def _kept_words(piece: SplitWords, terms: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(term number, chunk) of every kept word of a slice."""
    term = terms[piece.code]
    kept = term >= 0
    return term[kept], piece.chunk[kept]


def _sorted_keys(term_ids: np.ndarray, term: np.ndarray, chunk: np.ndarray) -> np.ndarray:
    """`term_ids[term] << 32 | chunk` of each word, sorted; made and sorted in place, for each temporary the
    size of a 50k batch's ~6M words is 45 MB of fresh pages (docs/keyword-writes.md, session 8)."""
    keys: np.ndarray = np.asarray(term_ids, np.int64)[term]  # a new array: shifted in place below
    keys <<= 32
    np.bitwise_or(keys, chunk, out=keys)
    keys.sort(kind="stable")
    return keys


def _in_threads(work: Callable[..., T], args: Sequence[tuple[object, ...]]) -> list[T]:
    """`work(*a)` for each of `args`, on a thread each (numpy and Arrow let go of the GIL)."""
    if len(args) == 1:
        return [work(*args[0])]
    with ThreadPoolExecutor(len(args), thread_name_prefix="keyword-stage") as pool:
        return list(pool.map(lambda a: work(*a), args))
