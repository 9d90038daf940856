"""Which of a turn's search hits become the answer's sources (the chips under it).

A turn collects many hits (pre-RAG's 6 plus up to 8 per `search_files` call); showing them all buries
the two that matter. The rule, also in docs/chat.md:

- a hit is **used** when the answer names it (its path, or its file name, case-insensitive) or the
  agent read it with `read_file`;
- the sources are the used hits plus the `TOP_RESULTS` best-scoring hits, sorted by score (highest
  first), each marked `used`;
- the page shows the first `MAX_CHIPS` as chips and the rest behind "n more".
"""

from __future__ import annotations

from typing import Any

TOP_RESULTS = 3
MAX_CHIPS = 5


def _mentioned(source: dict[str, Any], answer: str) -> bool:
    text = answer.casefold()
    name = str(source.get("name") or "")
    return str(source["path"]).casefold() in text or (len(name) > 2 and name.casefold() in text)


def select_sources(sources: list[dict[str, Any]], answer: str, read_paths: set[str]) -> list[dict[str, Any]]:
    ranked = sorted(sources, key=lambda s: -float(s.get("score") or 0.0))
    chosen = []
    for rank, source in enumerate(ranked):
        used = source["path"] in read_paths or _mentioned(source, answer or "")
        if used or rank < TOP_RESULTS:
            chosen.append({**source, "used": used})
    return chosen
