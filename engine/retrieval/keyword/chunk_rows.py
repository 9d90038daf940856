"""The rows (path, chunk index, text) of recently found chunks, kept until the next write.

A keyword query ends with one statement that reads its k winners back by id (reading.py). Measured on two
cores (bench/serve_latency.py's folder and a 20k-chunk index of real text, issue 30): that statement cost
1.2-1.6 ms of CPU whatever the table's size (`id IN (…50 literals…)`; a bound list parameter 6 ms), the
largest single part of a keyword-only query through `serve` (~3.5 ms). Queries typed one after another
("inv", "invo", "invoice") find mostly the same chunks, so a chunk's row is kept once read and a query
whose winners are all kept runs no statement at all.

The rows are kept for one write generation (KeywordIndex.generation: every write transaction that ends
moves it, renames included), by the rules generation_map.py holds for every such answer, at most
KEPT_ROWS of them.
"""

from __future__ import annotations

from engine.retrieval.keyword.generation_map import GenerationMap

Row = tuple[str, int, str]  # path, chunk index, text
KEPT_ROWS = 4096  # ~4 MB of ~1 KB chunk texts: a few hundred queries' winners


class ChunkRows(GenerationMap[int, Row]):
    """Chunk id → its row, for one write generation (module docstring)."""

    def __init__(self, kept: int = KEPT_ROWS):
        super().__init__(kept)
