"""How far the packaged model alone can take paraphrase queries: the dense arm's own ranking, no floor.

Issue 28 asks that a paraphrase (a query sharing no content word with its file) find its file in the top 3
for 90 % of queries, with the relevance floor in force. The product ranks by fused evidence (keyword, name,
folder, the typed words) and hides what no arm has evidence for; for a paraphrase, though, only the dense
arm can know the answer. This bench asks the dense arm alone, on the same indexed folders as
bench/search_meaning.py, and prints per seed and size:

* the right file's rank among the dense arm's files (each file by its best chunk): top-1 / top-3 / top-10;
* the cosine the best 95 % of the seed's nonsense stays under (the noise a floor must keep out), and the
  share of paraphrases whose right file is above it AND in the dense top 3: what a floor drawn on the
  dense arm's cosine could show at issue 28's nonsense target, with the ranking left to the model.

Neither figure uses a constant of the product's. When the dense top 3 is below 90 % the target cannot be met
by fusion or by any floor over this model's cosines; only a better model (or a reranker) can lift it.

    python bench/meaning_ceiling.py --keep-in /tmp/keep --seeds 0 1 2 3 4 --sizes small full
"""

from __future__ import annotations

import argparse
import math
import os
import statistics
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
sys.path.insert(0, str(HERE))

import search_meaning  # noqa: E402

DEPTH = 400  # dense hits asked for: every chunk of a full seed's folder, so every file has a rank
NOISE_SHARE = 0.95  # issue 28: nonsense finds "No matches" at least this often


def dense_files(search, query: str) -> list[tuple[str, float]]:
    """The dense arm's files for `query`, best first, each at its best chunk's cosine."""
    hits, _ = search.vectors.search_with_text(search.embed_query(query), DEPTH, None)
    best: dict[str, float] = {}
    for hit in hits:
        best.setdefault(hit.path, hit.score)
    return list(best.items())


def measure(indexed) -> dict[str, float]:
    """One indexed seed's dense-alone figures for its paraphrase queries (module docstring)."""
    search = indexed.engine.parts.search
    root = str(indexed.folder.root)
    noise = sorted(
        (dense_files(search, q.text) or [("", 0.0)])[0][1]
        for q in indexed.folder.queries
        if q.kind == "nonsense"
    )
    level = noise[max(math.ceil(NOISE_SHARE * len(noise)) - 1, 0)] if noise else 0.0
    ranks, above = [], []
    for q in indexed.folder.queries:
        if q.kind != "meaning":
            continue
        right = {os.path.join(root, p) for p in q.relevant}
        files = dense_files(search, q.text)
        rank = next((i + 1 for i, (path, _) in enumerate(files) if path in right), math.inf)
        cosine = max((score for path, score in files if path in right), default=0.0)
        ranks.append(rank)
        above.append(rank <= 3 and cosine > level)
    return {
        "queries": len(ranks),
        "top1": statistics.fmean(r <= 1 for r in ranks),
        "top3": statistics.fmean(r <= 3 for r in ranks),
        "top10": statistics.fmean(r <= 10 for r in ranks),
        "noise": level,
        "shown_top3": statistics.fmean(above),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, nargs="+", default=[3, 4])
    parser.add_argument("--sizes", choices=("small", "full"), nargs="+", default=["full"])
    parser.add_argument(
        "--keep-in", type=Path, required=True, help="indexes kept in DIR/<size> (bench/search_meaning.py)"
    )
    args = parser.parse_args()
    print(
        f"  {'size':<5} {'seed':>4} {'queries':>7} {'top-1':>6} {'top-3':>6} {'top-10':>6} {'noise 95%':>9} "
        f"{'top-3 above it':>14}"
    )
    for size in args.sizes:
        for seed in args.seeds:
            indexed = search_meaning.index(seed, size, args.keep_in / size)
            f = measure(indexed)
            indexed.engine.running.close()
            print(
                f"  {size:<5} {seed:>4} {f['queries']:>7} {f['top1']:>6.1%} {f['top3']:>6.1%} "
                f"{f['top10']:>6.1%} {f['noise']:>9.3f} {f['shown_top3']:>14.1%}",
                flush=True,
            )


if __name__ == "__main__":
    main()
