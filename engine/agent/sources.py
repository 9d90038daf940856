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

from collections.abc import Sequence
from typing import NotRequired

from typing_extensions import TypedDict  # pydantic reads TypedDicts from typing_extensions before 3.12

TOP_RESULTS = 3
MAX_CHIPS = 5


class Excerpt(TypedDict):
    """A search hit the turn found (pre-RAG or `search_files`): the prompt's excerpt, a candidate source."""

    path: str
    name: str
    score: float
    snippet: str
    page: NotRequired[int]  # only for a hit in a scanned PDF: the page OCR read it from


class Source(Excerpt):
    """A source the answer cites: an excerpt, marked `used` when the answer named it or the agent read it."""

    used: bool


def _mentioned(excerpt: Excerpt, answer: str) -> bool:
    text = answer.casefold()
    name = excerpt["name"] or ""
    return excerpt["path"].casefold() in text or (len(name) > 2 and name.casefold() in text)


def select_sources(excerpts: Sequence[Excerpt], answer: str, read_paths: set[str]) -> list[Source]:
    ranked = sorted(excerpts, key=lambda s: -float(s["score"] or 0.0))
    chosen: list[Source] = []
    for rank, e in enumerate(ranked):
        used = e["path"] in read_paths or _mentioned(e, answer or "")
        if used or rank < TOP_RESULTS:
            source = Source(path=e["path"], name=e["name"], score=e["score"], snippet=e["snippet"], used=used)
            if "page" in e:
                source["page"] = e["page"]
            chosen.append(source)
    return chosen
