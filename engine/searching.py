"""A search as a person or the agent asks it, and the meaning map drawn from one: the words and the
scope are checked (a scope must lie inside the roots) before the search runs."""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine.errors import InvalidInput
from engine.paths import normalize
from engine.roots import Roots

if TYPE_CHECKING:
    from engine.indexing.service import IndexService
    from engine.retrieval.hybrid import HybridSearch
    from engine.retrieval.results import SearchResult
    from engine.retrieval.semantic_tree import TreeNode

SEARCH_LIMIT = 100  # the most files one search returns


def bounded_limit(limit: int, most: int = SEARCH_LIMIT) -> int:
    """`limit` held between 1 and `most`: the page, the agent or a command line may ask for 0 or for
    thousands, and a search's cost grows with what it returns."""
    return max(1, min(int(limit), most))


def checked_search(
    search: HybridSearch,
    roots: Roots,
    query: str,
    scope: str | None = None,
    limit: int = 10,
    keyword_only: bool = False,
) -> list[SearchResult]:
    """A search as a person or the agent asks it: words required, the scope inside the roots. With
    `keyword_only`, the keyword arm alone: no model, so it answers at once while the query embeds or the
    model loads (the page's first list, the cold CLI's first answer); the fused list follows."""
    if not query or not query.strip():
        raise InvalidInput("Type a few words to search for.")
    scope_path = roots.require(scope) if scope else None
    run = search.search_keyword if keyword_only else search.search
    return run(query, scope=scope_path, limit=bounded_limit(limit))


def meaning_map(
    search: HybridSearch, index: IndexService, roots: Roots, query: str, scope: str | None, limit: int
) -> TreeNode | None:
    """The folder tree of the best `limit` files for `query`, shaded by score."""
    from engine.retrieval.semantic_tree import MAP_LIMIT, build_tree

    if not query or not query.strip():
        raise InvalidInput("Type a few words to map.")
    scope_path = roots.require(scope) if scope else None
    hits = search.search(query, scope=scope_path, limit=bounded_limit(limit, MAP_LIMIT))
    # a result's identical copies are where it lies too (one search row per content, copies.py)
    placed = [(path, h.score) for h in hits for path in (h.path, *h.copies)]
    sizes = {path: getattr(index.catalog.get(path), "size", None) for path, _ in placed}
    bases = [scope_path] if scope_path else [normalize(r) for r in index.roots()]
    return build_tree(placed, bases, sizes)
