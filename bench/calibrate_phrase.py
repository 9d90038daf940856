"""Choose hybrid.PHRASE_WEIGHT (the typed-words signal, engine/retrieval/keyword/phrase.py) on three kinds
of data together, and print the calibration.

For each weight of WEIGHTS, measured through the product's search with its relevance floor:

* personal folders (bench/personal_folder, the calibration seeds): every kind's figure
  (search_meaning.run: keyword top-1, known-item top-10, topic top-1, meaning top-3, nonsense "No matches");
* real documents of this machine (bench/real_known_item.py): known-item top-10, beside Recoll's;
* SciFact train (claims; its embeddings cached by bench/quality.py): hybrid nDCG@10 with the floor and
  without it.

The rule: among the weights that keep SciFact (nDCG@10 with the floor within SCIFACT_SLACK of the weight
0's without it, and at least SCIFACT_FLOOR) and the personal nonsense (at least NONSENSE "No matches", or
weight 0's share where the floor alone is below it: this rule must not let more nonsense through),
the one with the best mean of the personal kinds' figures and the real known-item top-10; ties go to the
smaller weight (the smaller change). `--write` writes it into hybrid.py. Held-out seeds are measured by
bench/search_meaning.py and bench/recoll_known_item.py afterwards.

    python bench/calibrate_phrase.py --seeds 0 1 2 --real 300 --keep-in /tmp/personal [--write]
    add --skip-scifact when SciFact's embeddings are not cached (bench/quality.py caches them)

Whatever the weight, it also prints how far the rule can reach on SciFact train at all, without a model:
the queries for which some chunk of the whole corpus holds every word of the query (only their ranking
can change: for the others no candidate has a strength), and for how many of them that chunk's document
is a relevant one.
"""

from __future__ import annotations

import argparse
import os
import re
import statistics
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
sys.path.insert(0, str(HERE))

WEIGHTS = (0.0, 0.25, 0.5, 0.75, 1.0)
SCIFACT_SLACK, SCIFACT_FLOOR, NONSENSE = 0.005, 0.718, 0.95
PERSONAL = (("keyword", "top1"), ("known_item", "top10"), ("topic", "top1"), ("meaning", "top3"))


def personal_figures(indexed: list, weight: float) -> dict[str, float]:
    """The personal seeds' figures at `weight` (search_meaning.run over every kept index)."""
    import search_meaning

    seen = []
    for one in indexed:
        one.engine.parts.search.phrase_weight = weight
        seen += search_meaning.run(one, evidence=False)
    figures: dict[str, float] = {}
    for kind, figure in (*PERSONAL, ("nonsense", "empty")):
        rows = [s for s in seen if s.kind == kind]
        key = {"top1": "right", "top3": "top3", "top10": "top10"}.get(figure)
        values = [not s.shown for s in rows] if key is None else [getattr(s, key) for s in rows]
        figures[f"{kind} {figure}"] = statistics.fmean(values) if values else 0.0
    return figures


def real_figure(engine, root: Path, queries, weight: float) -> float:
    """Known-item top-10 on the real documents at `weight`."""
    engine.parts.search.phrase_weight = weight
    found = 0
    for text, relevant in queries:
        shown = [os.path.relpath(r.path, root) for r in engine.parts.search.search(text, limit=10)]
        found += any(p in relevant for p in shown)
    return found / max(len(queries), 1)


def scifact_figures(collection, weight: float) -> tuple[float, float]:
    """SciFact train nDCG@10 (floor on, floor off) at `weight`."""
    import floor_report

    from engine.retrieval import relevance

    beir, search, qvecs, embed = collection
    search.phrase_weight = weight
    on, off, _, _ = floor_report.figures(search, beir, qvecs, embed, relevance.RELEVANCE)
    return on, off


def scifact_reach(data: Path) -> None:
    """Print the SciFact queries the rule can change at all (the module docstring)."""
    import quality
    from _common import load_beir

    from engine.retrieval.keyword import phrase

    beir = load_beir(data, "train")
    files, _ = quality.build_chunks(beir, 1200, 150, True)
    texts = {(path, i): text for path, parts in files for i, text in enumerate(parts)}
    reached = relevant = in_order = 0
    for qid, query in beir.queries.items():
        found = phrase.strengths(query, texts)
        if found:
            reached += 1
            in_order += any(v == phrase.PHRASE for v in found.values())
            relevant += bool({path.rsplit("/", 1)[-1] for path, _ in found} & set(beir.qrels.get(qid, {})))
    print(
        f"  SciFact train: {reached} of {len(beir.queries)} queries have a chunk holding all their words "
        f"({in_order} in order); for {relevant} of them it is a relevant document's. No other query's "
        f"ranking or floor can change: nDCG@10 moves by at most {reached / len(beir.queries):.4f}",
        flush=True,
    )


def choose(rows: dict[float, dict[str, float]]) -> float:
    """The module docstring's rule."""
    off = rows.get(0.0, {}).get("scifact off", 1.0)
    nonsense = min(NONSENSE, rows.get(0.0, {}).get("nonsense empty", NONSENSE))  # the floor's own, if lower

    def kept(figures: dict[str, float]) -> bool:
        on = figures.get("scifact on", 1.0)
        return on >= off - SCIFACT_SLACK and on >= SCIFACT_FLOOR and figures["nonsense empty"] >= nonsense

    def merit(figures: dict[str, float]) -> float:
        return statistics.fmean(
            [figures[f"{k} {f}"] for k, f in PERSONAL] + [figures["real known_item top10"]]
        )

    allowed = [w for w in sorted(rows) if kept(rows[w])] or [0.0]
    return max(allowed, key=lambda w: (round(merit(rows[w]), 6), -w))


def write(weight: float) -> None:
    path = HERE.parent / "engine" / "retrieval" / "hybrid.py"
    text = path.read_text(encoding="utf-8")
    path.write_text(re.sub(r"(?m)^PHRASE_WEIGHT = .*$", f"PHRASE_WEIGHT = {weight}", text), encoding="utf-8")
    print(f"wrote PHRASE_WEIGHT = {weight} into {path}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, nargs="+", default=[0, 1, 2])
    parser.add_argument("--size", choices=("full", "small"), default="small")
    parser.add_argument("--real", type=int, default=300, help="real documents (bench/real_known_item.py)")
    parser.add_argument("--real-seed", type=int, default=0)
    parser.add_argument("--real-in", type=Path, default=None, help="keep-in of the real documents")
    parser.add_argument(
        "--keep-in", type=Path, required=True, help="build or reuse the folders and indexes here"
    )
    parser.add_argument("--data", type=Path, default=HERE.parents[2] / "shared" / "data" / "scifact")
    parser.add_argument("--skip-scifact", action="store_true")
    parser.add_argument("--weights", type=float, nargs="+", default=list(WEIGHTS))
    parser.add_argument("--write", action="store_true", help="write the chosen weight into hybrid.py")
    args = parser.parse_args()
    import real_known_item
    import search_meaning

    scifact_reach(args.data)
    indexed = [search_meaning.index(seed, args.size, args.keep_in) for seed in args.seeds]
    base = (args.real_in or args.keep_in) / f"real{args.real}-{args.real_seed}"
    root, queries = real_known_item.build(base, args.real, args.real_seed)
    real_engine = real_known_item.engine_over(root, base.with_name(base.name + "-home"))
    with tempfile.TemporaryDirectory() as tmp:
        collection = None
        if not args.skip_scifact:
            import calibrate_floor

            collection = calibrate_floor.scifact(args.data, Path(tmp))
        rows: dict[float, dict[str, float]] = {}
        for weight in args.weights:
            rows[weight] = personal_figures(indexed, weight)
            rows[weight]["real known_item top10"] = real_figure(real_engine, root, queries, weight)
            if collection is not None:
                rows[weight]["scifact on"], rows[weight]["scifact off"] = scifact_figures(collection, weight)
            print(
                f"  weight {weight:<4} " + ", ".join(f"{k} {v:.4g}" for k, v in rows[weight].items()),
                flush=True,
            )
        if collection is not None:
            collection[1].keywords.close()
    for one in [*indexed]:
        one.engine.running.close()
    real_engine.running.close()
    chosen = choose(rows)
    print(
        f"SUMMARY phrase weight {chosen} (seeds {args.seeds} {args.size}, {args.real} real documents"
        f"{'' if args.skip_scifact else ', SciFact train'}): {rows[chosen]}"
    )
    if args.write:
        write(chosen)


if __name__ == "__main__":
    main()
