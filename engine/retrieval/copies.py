"""Identical copies collapse into one search result (issue 28).

A person who keeps a recipe in Recipes/ and the same file in Downloads/ (bibimbap.md, byte for byte) does
not want the same content twice among the first results: each copy would take a row the next answer
needs. So one result stands for one content: the best-ranked copy is the row, and it names the other
copies (`SearchResult.copies`), which the page, the CLI and the agent show ("also in Downloads/…"), so
every copy stays reachable. Recoll's "collapse duplicates" does the same by MD5.

Identical means what the Gardener's duplicate finder means (engine/gardener/duplicates.py): the same
content hash and size in the catalog (`Catalog.identical_copies`). A file with no hash yet or an empty
file never collapses, and neither does a copy edited by a line (a near-duplicate: another content). The
catalog is asked once per page, only for the files that fill it; a second round is needed only when two
copies were both among the first `limit` files, to fill the rows they freed. `limit` counts rows after
collapsing. Identical content scores the same unless a name or a folder lifts one copy; on such a tie the
order says nothing, so the copy a person filed is the row (not the one in Downloads/, not the "(1)"), by
the rule the Gardener keeps copies by (engine/filing.py).
"""

from __future__ import annotations

import dataclasses
import os
from collections.abc import Callable, Iterator

from engine.filing import copy_marked, transient_folder
from engine.retrieval.fusion import ChunkKey
from engine.retrieval.results import SearchResult

# paths (stored spelling) -> each one's identical copies; a path with none may be left out
CopiesOf = Callable[[list[str]], dict[str, list[str]]]
Best = dict[str, tuple[int, float]]  # path -> (its best chunk's index, score), best first
# Scores closer than this tie: the precision a result's score is given at (result_page rounds to 6
# places). The same text embedded in another batch differs by ~1e-7 (bibimbap.md and its download).
TIE = 1e-6


def no_copies(paths: list[str]) -> dict[str, list[str]]:
    """No catalog to ask (a bare keyword index, a benchmark of the stores): every file is its own row."""
    return {}


def one_per_content(
    ranked: list[tuple[ChunkKey, float]], limit: int, exists: Callable[[str], bool], copies_of: CopiesOf
) -> tuple[Best, dict[str, list[str]]]:
    """The first `limit` rows of `ranked`: one per existing file, and one per content among identical
    copies (the best-ranked copy), with the copies each row stands for. A file is checked for existence
    once, none past the `limit`-th row; copies are listed from the catalog, not checked."""
    best: Best = {}
    copies: dict[str, list[str]] = {}
    folded: set[str] = set()  # copies of a chosen row: they never take a row of their own
    candidates = _files(ranked, exists, folded)
    while len(best) < limit:
        fresh = [next_file for _, next_file in zip(range(limit - len(best)), candidates, strict=False)]
        if not fresh:
            break
        found = copies_of([path for path, _ in fresh])
        for path, chosen in fresh:
            if path in folded:  # a copy of a row chosen earlier in this round
                continue
            best[path] = chosen
            copies[path] = found.get(path, [])
            folded.update(copies[path])
    if not any(copies.values()):
        return best, copies
    return _filed_first(best, copies, ranked, exists)


def _filed_first(
    best: Best,
    copies: dict[str, list[str]],
    ranked: list[tuple[ChunkKey, float]],
    exists: Callable[[str], bool],
) -> tuple[Best, dict[str, list[str]]]:
    """`best` with each row whose copy ties its score stood for by the filed copy (see the docstring)."""
    first: Best = {}
    for (path, chunk_index), score in ranked:
        first.setdefault(path, (chunk_index, score))
    rows: Best = {}
    named: dict[str, list[str]] = {}
    for path, chosen in best.items():
        listed = copies[path]
        tied = [c for c in listed if c in first and first[c][1] >= chosen[1] - TIE]
        members = [path, *listed]
        base = os.path.commonpath([os.path.dirname(m) for m in members]) if tied else ""
        row = min(
            [path, *tied],
            key=lambda p: (transient_folder(p, base) is not None, copy_marked(os.path.basename(p))),
        )
        if row != path and not exists(row):
            row = path
        rows[row] = chosen if row == path else first[row]
        named[row] = sorted(m for m in members if m != row)
    return rows, named


def _files(
    ranked: list[tuple[ChunkKey, float]], exists: Callable[[str], bool], folded: set[str]
) -> Iterator[tuple[str, tuple[int, float]]]:
    """Each file's best chunk, in rank order, once per file, skipping copies of rows already chosen and
    files that are gone."""
    seen: set[str] = set()
    for (path, chunk_index), score in ranked:
        if path in seen or path in folded:
            continue
        seen.add(path)
        if exists(path):
            yield path, (chunk_index, score)


def with_copies(results: list[SearchResult], copies: dict[str, list[str]]) -> list[SearchResult]:
    """`results` with each row's identical copies named (rows without any are returned as they are)."""
    return [
        dataclasses.replace(result, copies=copies[result.path]) if copies.get(result.path) else result
        for result in results
    ]
