"""Why a meaning query misses: each missed paraphrase, its right file, and where each arm puts it.

For every labelled query of the chosen kinds whose right file is not in the top 3 shown (topic: not
top-1 from the right folder), it prints the query, the right file, its rank with the floor on (shown)
and off (fused), its best rank in the dense arm alone (files by their best chunk) and in the keyword
arm, its evidence, and the three files shown above it with theirs, so a miss can be told apart:
hidden by the floor, outranked by a partial keyword match, or weak in the dense arm.

    python bench/meaning_misses.py --keep-in /tmp/keep --seeds 3 4 [--size full] [--kinds meaning topic]
"""

from __future__ import annotations

import argparse
import os
import tempfile
from pathlib import Path

import search_meaning


def _files(ranked) -> list[str]:
    """The distinct files of a best-first (key, score) ranking, in order."""
    out: list[str] = []
    for (path, _), _ in ranked:
        if path not in out:
            out.append(path)
    return out


def _rank(files: list[str], right: set[str]) -> str:
    return next((str(i + 1) for i, p in enumerate(files) if p in right), "-")


def explain(indexed, kinds: tuple[str, ...]) -> int:
    """Print every miss of `kinds` in one indexed seed; return how many."""
    search = indexed.engine.parts.search
    root = str(indexed.folder.root)
    misses = 0
    for q in indexed.folder.queries:
        if q.kind not in kinds:
            continue
        shown = [os.path.relpath(r.path, root) for r in search.search(q.text, limit=10)]
        folder = q.folder.rstrip("/") + "/" if q.kind == "topic" else None
        if (folder is None and any(p in q.relevant for p in shown[:3])) or (
            folder is not None and shown and (shown[0] + "/").startswith(folder)
        ):
            continue
        misses += 1
        right = {os.path.join(root, p) for p in q.relevant}
        fused, evidence = search.evidenced(q.text, None, 50)
        vector = search.embed_query(q.text)
        dense, _ = search.vectors.search_with_text(vector, 50, None)
        dense_files = _files([(h.key, h.score) for h in dense])
        keyword = search.keywords.answer(q.text, 50, None)
        keyword_files = _files([(h.key, h.score) for h in keyword.hits])
        best_cos = max((h.score for h in dense if h.path in right), default=0.0)
        print(f"[{indexed.seed}] {q.kind}: {q.text!r} -> {sorted(q.relevant)[:2]} {folder or ''}")
        print(
            f"    rank shown {_rank([os.path.join(root, p) for p in shown], right)}, fused "
            f"{_rank(_files(fused), right)}, dense {_rank(dense_files, right)} (cos {best_cos:.3f}), "
            f"keyword {_rank(keyword_files, right)}; terms {sorted(keyword.terms.terms)}"
        )
        for path in shown[:3]:
            key = next(k for k, _ in fused if k[0] == os.path.join(root, path))
            print(f"      shown {path}: {evidence(key)}")
    return misses


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, nargs="+", default=[3, 4])
    parser.add_argument("--size", choices=("full", "small"), default="small")
    parser.add_argument("--keep-in", type=Path, default=None)
    parser.add_argument("--kinds", nargs="+", default=["meaning"])
    args = parser.parse_args()
    search_meaning._paths(None)
    with tempfile.TemporaryDirectory() as tmp:
        total = 0
        for seed in args.seeds:
            indexed = search_meaning.index(seed, args.size, args.keep_in or Path(tmp))
            total += explain(indexed, tuple(args.kinds))
            indexed.engine.running.close()
        print(f"{total} misses")


if __name__ == "__main__":
    main()
