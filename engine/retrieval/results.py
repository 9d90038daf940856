"""The one shape of a search hit, as `semantic_search`, the CLI and the agent's sources return it.

Declared once so every path serialises the same keys (`bridge.to_jsonable` turns it into JSON, the
`highlights` pairs into two-element lists); callers in the engine read its attributes. The
page reads `path`, `name`, `score`, `snippet` and, when present, `highlights`: character ranges of
the snippet that are whole query terms (stemmed forms included, never stop words), so the page marks
exactly what the keyword index matched instead of guessing with its own regular expression.
`semantic` says whether the file's vectors are in yet ("done") or only its keyword rows ("pending"), or
that this search could not ask the vectors at all and matched words only ("keyword-only": the vector
store is being rebuilt after it was set aside, or the embedding model failed); the page and the CLI
say so beside the results (issue 31, item 1). `page`, set by the engine after the search, is the page
of a scanned PDF whose OCR text the snippet came from (issue 33). `copies` names the files with exactly
the same content that this row stands for (engine/retrieval/copies.py: one row per content, the
best-ranked copy's), so a copy never takes a second row and is still reachable; empty for most rows.
"""

from __future__ import annotations

from dataclasses import dataclass, field

Span = tuple[int, int]  # [start, end) character offsets into the snippet


@dataclass(frozen=True)
class SearchResult:
    path: str
    name: str
    score: float
    snippet: str
    chunk_index: int
    highlights: list[Span] = field(default_factory=list)
    semantic: str = "done"  # "pending": its vectors are still being computed; "keyword-only": see above
    page: int | None = None  # a scanned PDF's page (from 1) the snippet was read from by OCR (ocr_phase.py)
    copies: list[str] = field(default_factory=list)  # identical copies' paths, folded into this row


def copies_text(copies: list[str], most: int = 5) -> str:
    """The copies a row stands for, in words for a terminal or the model: the first `most` paths, the rest
    counted (`a, b (+3 more)`)."""
    more = len(copies) - most
    return ", ".join(copies[:most]) + (f" (+{more} more)" if more > 0 else "")
