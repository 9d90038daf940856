"""The one shape of a search hit, as `semantic_search`, the CLI and the agent's sources return it.

Declared once so every path serialises the same keys (`bridge.to_jsonable` turns it into JSON, the
`highlights` pairs into two-element lists); callers in the engine read its attributes. The
page reads `path`, `name`, `score`, `snippet` and, when present, `highlights`: character ranges of
the snippet that are whole query terms (stemmed forms included, never stop words), so the page marks
exactly what the keyword index matched instead of guessing with its own regular expression.
`semantic` says whether the file's vectors are in yet ("done") or only its keyword rows ("pending").
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
    semantic: str = "done"  # "pending": found by keyword; its vectors are still being computed
