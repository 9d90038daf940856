"""The vector store's memory does not grow with the number of writes (issue 30: 50,000 tiny files)."""

from __future__ import annotations

from engine.embed import HashingEmbedder
from engine.retrieval import lance_calls
from engine.retrieval.vectors import VectorIndex

EMBEDDER = HashingEmbedder(16)
WRITES = 40  # uncapped, the cache held 1 MB after these (2 MB after 60: it grows with their square)


def test_lancedb_metadata_cache_stays_within_its_cap_however_many_batches_are_written(tmp_path, monkeypatch):
    # every write is a new table version whose manifest lists every fragment; LanceDB's default session
    # kept them all (up to 1 GB), which grew with the square of the batches an indexing run wrote
    cap = 128 << 10
    monkeypatch.setattr(lance_calls, "METADATA_CACHE_BYTES", cap)
    index = VectorIndex(tmp_path / "vectors", EMBEDDER.dim)
    for n in range(WRITES):
        texts = [f"note {n} about the harbour budget"]
        index.upsert(f"/r/Docs/part{n // 50}/note{n}.txt", texts, EMBEDDER.embed(texts))
        index.count()
    assert index.count() == WRITES
    assert index._session.size_bytes <= 2 * cap  # the cache evicts lazily, a little past its cap
