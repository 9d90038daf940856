"""A bulk batch's kept words, split in numpy over the batch's UTF-8 bytes: one pass, no Python object per
word, and exactly the tokens of `tokenize.tokenize_sql` (a test compares them on awkward text, and the
bulk build was compared with the SQL split on 100k chunks of real text, docs/keyword-writes.md).

The SQL split (`writes.split_sql`: `lower(strip_accents(...))`, a `translate` of every separator to a
space, `string_split`, stop words dropped) cost 1.9 CPU-s per 50k real chunks, 0.64 of it the `translate`,
and the (chunk, term) count over its 6M words 1.2 more. Here:

- a text that is all ASCII is lower-cased by the same byte table that turns every separator into a space
  (`strip_accents` leaves ASCII as it is, and DuckDB's `lower` of ASCII is A-Z -> a-z); any other text
  is first `lower(strip_accents(...))` in DuckDB itself, so Unicode case and accents are DuckDB's own.
  Every separator is ASCII and UTF-8 uses bytes >= 0x80 only inside multi-byte characters, so the byte
  table never touches them and the split is the same on any text (as tokenize.normalized_words says);
- a word is a maximal run of non-space bytes within one chunk: its start and end come from comparing
  each byte with the one before, its chunk from where it starts among the chunks' byte offsets;
- the words, packed into one Arrow string array without their separators, are numbered by Arrow's
  `dictionary_encode` (a hash in C++): the batch's distinct words (~130k of its ~8M) are the only strings
  Python sees, to drop stop words and stem (`batch.py`).
"""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import TYPE_CHECKING

import duckdb
import numpy as np

from engine.retrieval.keyword.tokenize import SEPARATORS

if TYPE_CHECKING:
    import pyarrow as pa

_SPACE = ord(" ")
# A slice is split in blocks of about this many bytes of text (_blocks says why).
BLOCK_BYTES = 1 << 20


def _byte_table() -> np.ndarray:
    """byte -> byte: A-Z lower-cased, every separator a space, everything else as it is."""
    table = np.arange(256, dtype=np.uint8)
    table[ord("A") : ord("Z") + 1] += ord("a") - ord("A")
    for char in SEPARATORS:
        table[ord(char)] = _SPACE
    return table


_BYTES = _byte_table()
_SEPARATOR_SET = frozenset(SEPARATORS)


@dataclass(frozen=True)
class SplitWords:
    """The words of one slice of a batch, in order (stop words included): `vocabulary[code[k]]` is the k-th
    word and `chunk[k]` the number of the chunk it is in, counted from the slice's first."""

    vocabulary: list[str]
    code: np.ndarray  # int32 per word
    chunk: np.ndarray  # int32 per word


def split_words(cur: duckdb.DuckDBPyConnection, texts: pa.Array, parts: int = 1) -> list[SplitWords]:
    """The words of `texts` (a string array, one text per chunk) as `tokenize_sql` splits them, before stop
    words are dropped, in `parts` consecutive slices split on as many threads (numpy and Arrow let go of
    the GIL: the split ran 1.0 s of wall per 50k real chunks alone, 0.6 s on two threads); `cur`
    lower-cases and strips the accents of the words that are not ASCII (`_folded_words`)."""
    import pyarrow as pa  # loaded by the writes that use it: a keyword peek loads none (issue 30)
    import pyarrow.compute as pc

    raw = pc.fill_null(texts.cast(pa.large_string()), "")
    if not _has_nul(raw):  # see _folded_words
        folded = _folded_words(cur, _split_slices(raw, parts))
        if folded is not None:
            return folded
    return _split_slices(_normalized(cur, raw), parts)


def _has_nul(texts: pa.LargeStringArray) -> bool:
    """Whether any of `texts` holds a NUL: the smallest byte, 2 ms per 50k real chunks (Arrow's
    `match_substring` took 90)."""
    data = _buffers(texts)[1]
    return bool(len(data)) and int(data.min()) == 0


def _split_slices(texts: pa.LargeStringArray, parts: int) -> list[SplitWords]:
    bounds = slice_bounds(len(texts), parts)
    slices = [texts.slice(start, stop - start) for start, stop in zip(bounds[:-1], bounds[1:], strict=True)]
    if len(slices) == 1:
        return [_split(slices[0])]
    with ThreadPoolExecutor(len(slices), thread_name_prefix="keyword-split") as pool:
        return list(pool.map(_split, slices))


def _folded_words(cur: duckdb.DuckDBPyConnection, pieces: list[SplitWords]) -> list[SplitWords] | None:
    """`pieces` with every word that is not ASCII replaced by DuckDB's `lower(strip_accents(word))`, or
    None where folding would cut a word (a character that folds to a separator: U+037E, the Greek
    question mark, is canonically ';'), so the texts must be folded before they are split. Nor can a
    batch with a NUL in its text be folded word by word: `strip_accents` of a text that is not ASCII
    ends at its first NUL (utf8proc reads it as the end), which `split_words` checks first.

    Folding the words instead of the texts gives the same words: separators are ASCII and both functions
    map one character at a time, so a word's characters fold to the same characters either way; a word
    that folds to nothing (combining marks alone) is no word, which `batch._local_terms` drops. Folding
    the ~9 % of real chunks that are not ASCII, whole, cost 0.12-0.24 CPU-s per 50k (utf8proc's
    decomposition of every character) and a copy of the batch's text; their distinct words are a few
    thousand."""
    import pyarrow as pa

    other = sorted({word for piece in pieces for word in piece.vocabulary if not word.isascii()})
    if not other:
        return pieces
    cur.register("batch_words", pa.table({"w": pa.array(other, pa.large_string())}))
    try:
        folded = dict(cur.execute("SELECT w, lower(strip_accents(w)) FROM batch_words").fetchall())
    finally:
        cur.unregister("batch_words")
    if any(not _SEPARATOR_SET.isdisjoint(word) for word in folded.values()):
        return None
    return [
        SplitWords([folded.get(word, word) for word in piece.vocabulary], piece.code, piece.chunk)
        for piece in pieces
    ]


def slice_bounds(rows: int, parts: int) -> list[int]:
    """Where `parts` consecutive slices of `rows` begin, and the end: as even as whole rows allow."""
    parts = max(1, min(parts, rows))
    return [rows * k // parts for k in range(parts + 1)]


def _split(normal: pa.LargeStringArray) -> SplitWords:
    """The slice's words, split block by block (`_blocks`) and numbered over the whole slice at once."""
    import pyarrow as pa
    import pyarrow.compute as pc

    offsets, data = _buffers(normal)
    blocks = [_split_block(data, offsets[first : last + 1]) for first, last in _blocks(offsets)]
    words = pa.chunked_array([block[0] for block in blocks], pa.large_string())
    encoded = pc.dictionary_encode(words)  # one dictionary for all blocks
    per_chunk = np.concatenate([block[1] for block in blocks]) if blocks else np.zeros(0, np.int64)
    chunk = np.repeat(np.arange(len(normal), dtype=np.int32), per_chunk)
    code = np.concatenate(
        [np.asarray(piece.indices.to_numpy(zero_copy_only=False), np.int32) for piece in encoded.chunks]
        or [np.zeros(0, np.int32)]
    )
    dictionary = encoded.chunks[-1].dictionary.to_pylist() if encoded.num_chunks else []
    return SplitWords(dictionary, code, chunk)


def _blocks(offsets: np.ndarray) -> list[tuple[int, int]]:
    """(first, last) chunk of consecutive blocks of about BLOCK_BYTES of text each (a chunk is not cut).
    Split in blocks, every temporary array is a few MB that the allocator hands out again block after
    block; split whole, a 50k-chunk batch's arrays were fresh memory each (~0.9 GB, a page fault per
    page: 0.9-1.3 of the 100k real build's 7.2 CPU-s were the kernel's, statement-timed)."""
    chunks = len(offsets) - 1
    if chunks <= 0:
        return []
    targets = np.arange(BLOCK_BYTES, int(offsets[-1]), BLOCK_BYTES)
    cuts = np.unique(np.concatenate(([0], np.searchsorted(offsets, targets), [chunks])))  # targets < the end
    return [(int(a), int(b)) for a, b in zip(cuts[:-1], cuts[1:], strict=True)]


def _split_block(data: np.ndarray, offsets: np.ndarray) -> tuple[pa.LargeStringArray, np.ndarray]:
    """The words of the chunks whose byte offsets (into `data`, one more than the chunks) are `offsets`,
    packed without their separators, and how many words each chunk has."""
    import pyarrow as pa

    begin = int(offsets[0])
    local = offsets - begin
    mapped = _BYTES[data[begin : int(offsets[-1])]]
    inside = mapped != _SPACE
    starts, ends = _word_bounds(inside, local)
    packed_offsets = np.zeros(len(starts) + 1, dtype=np.int64)
    np.cumsum(ends - starts, out=packed_offsets[1:])
    words = pa.LargeStringArray.from_buffers(
        len(starts), pa.py_buffer(packed_offsets), pa.py_buffer(mapped[inside])
    )
    return words, np.diff(np.searchsorted(starts, local))


def _normalized(cur: duckdb.DuckDBPyConnection, texts: pa.LargeStringArray) -> pa.LargeStringArray:
    """`texts` with every text that is not ASCII replaced by DuckDB's `lower(strip_accents(text))` (the
    ASCII ones are lower-cased by the byte table): for a batch whose words cannot be folded one by one
    (`_folded_words`); `split_words` has read its nulls as empty text."""
    import pyarrow as pa
    import pyarrow.compute as pc

    other = pc.invert(pc.string_is_ascii(texts))
    if not pc.any(other).as_py():
        return texts
    cur.register("batch_unicode", pa.table({"text": texts.filter(other)}))
    try:
        lowered = (
            cur.execute("SELECT lower(strip_accents(text)) FROM batch_unicode").to_arrow_table().column(0)
        )
    finally:
        cur.unregister("batch_unicode")
    return pc.replace_with_mask(texts, other, lowered.combine_chunks().cast(pa.large_string()))


def _buffers(texts: pa.LargeStringArray) -> tuple[np.ndarray, np.ndarray]:
    """The array's byte offsets (from 0, one more than texts) and its bytes, without copying."""
    count = len(texts)
    offsets = np.frombuffer(texts.buffers()[1], dtype=np.int64)[texts.offset : texts.offset + count + 1]
    first = int(offsets[0]) if count else 0
    data_buffer = texts.buffers()[2]
    data = np.frombuffer(data_buffer, dtype=np.uint8) if data_buffer is not None else np.zeros(0, np.uint8)
    return offsets - first, data[first : first + (int(offsets[-1]) - first if count else 0)]


def _word_bounds(inside: np.ndarray, offsets: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Start and end (exclusive) byte of every word: a run of `inside` bytes that a chunk's start or end
    also bounds (the chunks' bytes follow each other, so a word must not run on into the next chunk; 13k
    of a 50k batch's 8M words would). Two passes over boolean arrays: 0.11 s per 50k real chunks, where
    one pass over the byte-to-byte changes, then cutting the words that cross a chunk's start, took 0.21."""
    size = len(inside)
    before = np.zeros(size, dtype=bool)  # the byte before is part of the same word
    before[1:] = inside[:-1]
    chunk_starts = offsets[:-1]
    before[chunk_starts[chunk_starts < size]] = False
    after = np.zeros(size, dtype=bool)  # the byte after is part of the same word
    after[:-1] = inside[1:]
    nonempty = offsets[1:] > offsets[:-1]
    after[offsets[1:][nonempty] - 1] = False
    return np.flatnonzero(inside & ~before), np.flatnonzero(inside & ~after) + 1
