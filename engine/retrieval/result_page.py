"""The results step of a search: a ranked list of chunks becomes the page a person sees.

One result per file (its best-ranked chunk), only files that still exist, at most `limit` of them, each
with a snippet and whether its meaning is indexed yet. It is all the work a search does after its arms
and fusion (issue 30 item 3: ≤ 1.5 ms at 100k chunks), so it does that work for the shown page only:
the existence checks stop at the `limit`-th file, the text of chunks the arms did not return is read in
one batch for the shown ones, the shown texts' snippet words are stemmed in one statement, and a
snippet already made for the same text and terms is reused (snippet.py).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

from engine.paths import display_name
from engine.retrieval.copies import no_copies, one_per_content
from engine.retrieval.fusion import ChunkKey, Hit
from engine.retrieval.results import SearchResult
from engine.retrieval.snippet import make_snippets
from engine.retrieval.terms import shared_matcher

Ranked = list[tuple[ChunkKey, float]]


def best_per_file(ranked: Ranked, limit: int, exists: Callable[[str], bool]) -> dict[str, tuple[int, float]]:
    """path -> (chunk index, score) of each file's best chunk, best first, for the first `limit` files
    that exist (a file is checked once, and none past the `limit`-th). Search itself also collapses
    identical copies into one row (copies.one_per_content); this is that step with no catalog."""
    return one_per_content(ranked, limit, exists, no_copies)[0]


def result_page(
    query: str,
    best: dict[str, tuple[int, float]],
    texts: dict[ChunkKey, str],
    read_texts: Callable[[Iterable[ChunkKey]], dict[ChunkKey, str]],
    pending: set[str],
    terms: frozenset[str] | None = None,
    keyword_only: bool = False,
) -> list[SearchResult]:
    """The shown page of `best`, snippets included. `texts` holds what the arms read (the rest is read by
    `read_texts`, once); `terms` are the query's stemmed terms when the keyword arm has them. `semantic`
    says, per file, whether its vectors are in ("done"), still to come ("pending": `pending` holds it), or
    whether this search could not ask the vectors at all ("keyword-only")."""
    shown = [(path, index) for path, (index, _) in best.items()]
    missing = [key for key in shown if key not in texts]
    found = read_texts(missing) if missing else {}
    page = [(texts.get(key, found.get(key, "")), key[1] == 0) for key in shown]
    matcher = shared_matcher()
    if terms is None:
        terms = matcher.query_terms(query) if best else frozenset()
    snippets = make_snippets(page, terms, matcher)
    results = []
    for (path, index), snippet in zip(shown, snippets, strict=True):
        score = best[path][1]
        results.append(
            SearchResult(
                path,
                display_name(path),
                round(min(max(score, 0.0), 1.0), 6),
                snippet.text,
                index,
                snippet.highlights,
                "pending" if path in pending else "keyword-only" if keyword_only else "done",
            )
        )
    return results


def snippets_ahead(hits: list[Hit], texts: dict[ChunkKey, str], shown: int, terms: frozenset[str]) -> None:
    """Make the snippets of the best chunk of each of the first `shown` files among one arm's `hits`, and
    keep them (snippet.py) for the results step: the keyword arm does this while the vector search runs,
    so the work after the arms is left with the files only the vector arm found."""
    best: dict[str, ChunkKey] = {}
    for hit in hits:
        best.setdefault(hit.key[0], hit.key)
        if len(best) >= shown:
            break
    make_snippets([(texts.get(key, ""), key[1] == 0) for key in best.values()], terms, shared_matcher())
