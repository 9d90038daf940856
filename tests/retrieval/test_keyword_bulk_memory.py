"""A bulk batch's numpy work holds no temporary the size of the batch (issue 30, session 8): on this
machine every fresh page costs a fault and the kernel's zeroing, ~1 of a 100k real build's 7 CPU-s, so
the split and the weights run in blocks whose temporaries the allocator hands out again. numpy reports its
arrays to tracemalloc, so the peak of what the split and the weights hold is measured, not timed."""

from __future__ import annotations

import random
import tracemalloc

import duckdb
import numpy as np
import pyarrow as pa

from engine.retrieval.keyword import batch_words, writes


def _texts(chunks: int, seed: int) -> list[str]:
    rng = random.Random(seed)
    vocabulary = ["".join(rng.choice("abcdefghij") for _ in range(rng.randint(2, 9))) for _ in range(3_000)]
    return [" ".join(rng.choice(vocabulary) for _ in range(300)) + "." for _ in range(chunks)]


def _peak(work) -> int:  # type: ignore[no-untyped-def]
    tracemalloc.start()
    try:
        work()
        return tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


def test_splitting_a_batch_holds_no_temporary_the_size_of_its_text():
    texts = pa.array(_texts(4_000, seed=5), pa.string())  # ~7 MB of text, 7 blocks
    text_bytes = texts.buffers()[2].size
    with duckdb.connect() as cur:
        peak = _peak(lambda: batch_words.split_words(cur, texts, 1))
    # what the split returns (each word's code and chunk) and keeps until then (the packed words) is
    # ~3.7x the text's bytes; split whole, its byte masks and word bounds came to ~8x
    assert peak < 5 * text_bytes


def test_weights_in_blocks_are_the_bits_of_one_call_and_hold_no_batch_sized_temporary(monkeypatch):
    rng = np.random.default_rng(8)
    postings = 1_000_003  # not a multiple of the block
    idfs = rng.uniform(0.01, 5.0, postings)
    tf = rng.integers(1, 40, postings)
    lengths = rng.integers(0, 3_000, 5_000).astype(np.int32)
    chunk = rng.integers(0, len(lengths), postings)
    whole = writes.impacts_of(idfs, tf, lengths[chunk], 231.7)
    for block in (writes.IMPACT_ROWS, 1_000):
        monkeypatch.setattr(writes, "IMPACT_ROWS", block)
        assert writes._block_impacts(idfs, tf, lengths, chunk, 231.7).tobytes() == whole.tobytes()
    monkeypatch.setattr(writes, "IMPACT_ROWS", 1 << 16)
    peak = _peak(lambda: writes._block_impacts(idfs, tf, lengths, chunk, 231.7))
    # the float32 result (4 bytes a posting) and a block's temporaries; in one call its float64
    # temporaries held ~9 times the result at once
    assert peak < 4 * postings + (8 << 20)
