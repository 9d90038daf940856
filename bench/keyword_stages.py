"""Where a keyword-only query's CPU goes, stage by stage, on a keyword index that no process holds.

bench/serve_latency.py times `keyword_search` through `serve`; on two shared cores its wall time is
mostly other processes' turns, so it also prints this breakdown, taken in its own process after the
server has stopped, on the same index and the same kind of queries (distinct, as typed). Each stage is
timed by the calling thread's CPU clock (time.thread_time), so load inflates it far less than wall time:

- query terms: the words split, stemmed and looked up (a statement for words new to the process);
- postings, top-k, rows: the terms' postings (a statement for terms not yet kept), the sum and the k
  best, and the winners' rows (a statement for chunks not yet kept: keyword/chunk_rows.py);
- snippets: the shown files' snippets (snippet.py);
- result page: best chunk per existing file, the results (result_page.py; the catalog's pending check,
  one SQLite statement in `serve`, is not in it);
- JSON: the bridge's envelope made JSON-able and encoded, as the server sends it.

Used by bench/serve_latency.py (`breakdown(home, queries)`).
"""

from __future__ import annotations

import os
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bridge.api import to_jsonable
from bridge.server import _json_bytes
from engine.datadir import KEYWORDS_FILE
from engine.retrieval.fusion import single_arm
from engine.retrieval.keyword.index import KeywordIndex
from engine.retrieval.keyword.query import KeywordAnswer
from engine.retrieval.result_page import best_per_file, result_page, snippets_ahead
from engine.retrieval.results import SearchResult

STAGES = ("query terms", "postings, top-k, rows", "snippets", "result page", "JSON")
T = TypeVar("T")


def breakdown(home: Path, queries: list[str], limit: int = 10, candidates: int = 50) -> dict[str, float]:
    """Stage -> mean CPU milliseconds per query (the module docstring), and "all" their sum."""
    spent = dict.fromkeys(STAGES, 0.0)

    def timed(stage: str, work: Callable[[], T]) -> T:
        began = time.thread_time()
        result = work()
        spent[stage] += time.thread_time() - began
        return result

    index = KeywordIndex(Path(home) / KEYWORDS_FILE)
    try:
        for query in queries:
            timed("query terms", lambda q=query: index.query_terms(q))
            answer = timed("postings, top-k, rows", lambda q=query: index.answer(q, candidates))
            timed("snippets", lambda a=answer: snippets_ahead(a.hits, a.texts, limit, a.terms.terms))
            page = timed("result page", lambda q=query, a=answer: _page(q, a, limit))
            timed("JSON", lambda p=page: _json_bytes({"ok": True, "data": to_jsonable(p)}))
    finally:
        index.close()
    per_query = {stage: 1000 * seconds / max(len(queries), 1) for stage, seconds in spent.items()}
    per_query["all"] = sum(per_query.values())
    return per_query


def _page(query: str, answer: KeywordAnswer, limit: int) -> list[SearchResult]:
    best = best_per_file(single_arm(answer.hits), limit, os.path.exists)
    return result_page(query, best, answer.texts, dict, set(), answer.terms.terms)


def report(per_query: dict[str, float]) -> str:
    return "; ".join(f"{stage} {ms:.2f}" for stage, ms in per_query.items()) + " (ms CPU per query)"
