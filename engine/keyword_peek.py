"""A keyword answer before the engine opens: what `sensetree search` prints first when no SenseTree runs.

Opening the engine costs seconds before its first answer (LanceDB's import alone is ~1.6 CPU-s) and the
query model seconds more; the keyword index answers from DuckDB alone in a few hundred milliseconds of
a fresh process (issue 30). So the command line opens the keyword index by itself, answers, closes it,
and only then opens the engine for the fused list.

A peek is only ever a first, provisional answer: it runs no start-up repair, heals nothing (a damaged
or missing index gives no peek; the engine heals it next) and checks the scope only as a path prefix
(the engine refuses a scope outside the roots right after). Results whose file is gone are left out.
"""

from __future__ import annotations

import logging
from pathlib import Path

from engine.datadir import KEYWORDS_FILE
from engine.paths import normalize
from engine.retrieval.results import SearchResult
from engine.searching import bounded_limit

log = logging.getLogger(__name__)


class _NoVectors:
    """The vector store, not opened: it holds no chunk texts (the keyword arm returns its own)."""

    def texts(self, keys: object) -> dict[tuple[str, int], str]:
        return {}


class _NoModel:
    """No query model: a keyword answer embeds nothing."""

    name = ""
    dim = 0


def keyword_answer(home: Path, query: str, scope: str | None = None, limit: int = 10) -> list[SearchResult]:
    """The keyword arm's best files for `query` from the index in `home`; [] when there is none to
    read or it cannot be read now (the engine's answer follows either way)."""
    path = Path(home) / KEYWORDS_FILE
    if not query.strip() or not path.exists():
        return []
    from engine.retrieval.hybrid import HybridSearch
    from engine.retrieval.keyword.index import KeywordIndex
    from engine.retrieval.terms import shared_matcher

    try:
        index = KeywordIndex(path)
    except Exception as exc:  # damaged, locked, another format: the engine opens (and heals) it next
        log.info("no keyword peek: %s", exc)
        return []
    try:
        search = HybridSearch(index, _NoVectors(), _NoModel(), floor=0)  # type: ignore[arg-type]
        with shared_matcher().borrowing(index.stemming_connection()):  # the snippets' stems: no 2nd LOAD
            return search.search_keyword(query, normalize(scope) if scope else None, bounded_limit(limit))
    except Exception as exc:  # a provisional answer never fails the command: the engine's answer follows
        log.info("no keyword peek: %s", exc)
        return []
    finally:
        index.close()
