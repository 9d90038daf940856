"""The Gardener's figures (issue 16). Prints; never asserts.

python bench/gardener.py near        near-duplicate precision/recall per threshold on the labelled
                                     set (bench/gardener_set.py), indexed by the real Engine with the
                                     packaged MiniLM model, so chunk #0 is exactly what the product stores
python bench/gardener.py background  one background pass over a 50,000-file tree (files on disk, catalog
                                     rows and stored vectors written directly), timed, counting embeddings
python bench/gardener.py judge       precision/recall per finding kind and of each fix's ticked operations
                                     on the labelled personal folder (--seeds; the first --calibrate of
                                     them are the ones the rules were looked at on, the rest held out) and
                                     on the SciFact near-duplicate set (--scifact); bench/gardener_judge.py
python bench/gardener.py tree        the meaning map on SciFact train: the whole corpus (every train query's
                                     relevant abstracts among them; --docs N for a subset) laid into
                                     generated topic folders (two-level k-means of their embeddings); how
                                     often the folder holding a query's relevant abstract is among the map's
                                     top 3 branches
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from _common import DEFAULT_SCIFACT, load_beir  # noqa: E402
from gardener_set import write_set  # noqa: E402


def near(args: argparse.Namespace) -> None:
    from engine.engine import Engine
    from engine.gardener.similar import _exact

    beir = load_beir(args.data, "train")
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(os.path.realpath(tmp)) / "Set"
        labelled = write_set(folder, beir.corpus, args.bases, args.distractors)
        home = Path(tmp) / "home"
        home.mkdir()
        (home / "settings.json").write_text('{"indexing": {"qualify_with_model": false}}')
        engine = Engine(home)
        started = time.perf_counter()
        engine.add_indexed_folder(str(folder))
        engine.parts.index.drain()
        print(
            f"indexed {len(labelled.files)} files with {engine.parts.embedder.name} "
            f"in {time.perf_counter() - started:.0f} s"
        )
        paths, vectors = engine.parts.vectors.lead_vectors(str(folder))
        engine.running.close()
    vectors = vectors / np.linalg.norm(vectors, axis=1, keepdims=True)
    pairs = [(paths[i], paths[j], s) for i, j, s in _exact(vectors, np.arange(len(paths)), 0.8)]
    found = {(a, b) if a < b else (b, a): s for a, b, s in pairs}
    positives = labelled.positives
    print(
        f"{len(labelled.files)} files, {len(positives)} labelled near-duplicate pairs, "
        f"{len(paths) * (len(paths) - 1) // 2} pairs in all"
    )
    print(f"{'threshold':>9} {'precision':>9} {'recall':>7} {'flagged':>7}")
    for t in np.arange(0.86, 0.995, 0.01):
        flagged = {p for p, s in found.items() if s >= t}
        hits = len(flagged & positives)
        precision = hits / len(flagged) if flagged else 1.0
        print(f"{t:9.2f} {precision:9.3f} {hits / len(positives):7.3f} {len(flagged):7d}")
    by_kind: dict[str, list[float]] = {}
    for a, b in positives:
        kind = next((k for k in ("edited", "resaved", "(1)") if k in a + b), "?")
        by_kind.setdefault(kind, []).append(found.get((a, b), 0.0))
    for kind, scores in by_kind.items():
        print(f"  {kind:8} pairs: min cosine {min(scores):.3f}, median {float(np.median(scores)):.3f}")
    negatives = sorted((s for p, s in found.items() if p not in positives), reverse=True)[:3]
    print(f"  highest unrelated pairs: {', '.join(f'{s:.3f}' for s in negatives) or 'none ≥ 0.80'}")


def background(args: argparse.Namespace) -> None:
    from engine.config import GardenerSettings
    from engine.db import Database
    from engine.events import EventBus
    from engine.gardener.service import GardenerService
    from engine.indexing.catalog import MIGRATIONS, Catalog
    from engine.retrieval.vectors import VectorIndex
    from engine.roots import Roots

    rng = np.random.default_rng(0)
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(os.path.realpath(tmp)) / "Tree"
        tops, subs, per = 50, 20, args.files // 1000
        centroids = rng.standard_normal((tops * subs, 384)).astype(np.float32)
        db = Database(Path(tmp) / "g.db")
        db.migrate(MIGRATIONS)
        catalog, vectors = Catalog(db), VectorIndex(Path(tmp) / "vectors", 384)
        started = time.perf_counter()
        rows = []
        with db.atomic():
            for f in range(tops * subs):
                folder = root / f"topic-{f // subs:02d}" / f"sub-{f % subs:02d}"
                folder.mkdir(parents=True)
                block = centroids[f] + 0.6 * rng.standard_normal((per, 384)).astype(np.float32)
                for k in range(per):
                    path = folder / f"paper-{k:03d}.txt"
                    path.write_bytes(b"x")
                    catalog.record_indexed(
                        str(path),
                        str(root),
                        size=1,
                        mtime=time.time(),
                        hash=f"{f}-{k}",
                        sense="a paper",
                        doc_type="text",
                        chunks=1,
                        status="done",
                        note=None,
                        model="bench",
                    )
                    rows.append((str(path), ["a paper"], block[k : k + 1]))
        vectors.upsert_many(rows)
        print(f"wrote {len(rows):,} files, catalog rows and vectors in {time.perf_counter() - started:.0f} s")
        roots = Roots(lambda: [str(root)])
        service = GardenerService(
            db,
            catalog,
            lambda: vectors,
            roots,
            lambda: GardenerSettings(),
            EventBus(),
            lambda s, o: {},
            lambda: False,
        )
        print(f"load average {os.getloadavg()[0]:.1f} (1 min) on {os.cpu_count()} cores")
        for run, what in ((1, "first pass"), (2, "catalog unchanged")):
            started, cpu = time.perf_counter(), time.process_time()
            reports = _pass(service, args.profile if run == 1 else None)
            took, cpu = time.perf_counter() - started, time.process_time() - cpu
            print(
                f"pass {run} ({what}): {took:.2f} s wall, {cpu:.2f} s CPU over {reports[0].files:,} indexed "
                f"files ({len(reports[0].findings)} findings); no embedder is reachable from the pass"
            )
            steps = service.gardener.timings
            print(
                "  "
                + ", ".join(
                    f"{k} {v:.2f} s" if k != "reused" else "vector checks reused" for k, v in steps.items()
                )
            )
        vectors.close()
        db.close()


def _pass(service, profile: Path | None) -> list:
    """One background pass; under cProfile (stats to `profile`, the top 15 printed) when asked."""
    if profile is None:
        return service.background.run_once()
    import cProfile
    import pstats

    with cProfile.Profile() as prof:
        reports = service.background.run_once()
    prof.dump_stats(profile)
    pstats.Stats(prof).sort_stats("tottime").print_stats(15)
    return reports


def _kmeans(x: np.ndarray, k: int, rng: np.random.Generator, rounds: int = 25) -> np.ndarray:
    centres = x[rng.choice(len(x), k, replace=False)]
    labels = np.zeros(len(x), dtype=int)
    for _ in range(rounds):
        labels = np.argmax(x @ centres.T, axis=1)
        for c in range(k):
            members = x[labels == c]
            if len(members):
                mean = members.sum(axis=0)
                centres[c] = mean / max(float(np.linalg.norm(mean)), 1e-9)
    return labels


def tree(args: argparse.Namespace) -> None:
    from _common import embed_cached

    from engine.config import EmbeddingSettings
    from engine.embed import embedder_for
    from engine.retrieval.semantic_tree import build_tree

    beir = load_beir(args.data, "train")
    rng = np.random.default_rng(1)
    relevant = sorted({d for rel in beir.qrels.values() for d in rel if d in beir.corpus})
    others = sorted(set(beir.corpus) - set(relevant))
    extra = len(others) if args.docs <= 0 else max(0, min(len(others), args.docs - len(relevant)))
    ids = relevant + [str(d) for d in rng.choice(others, extra, replace=False)]
    embedder = embedder_for(EmbeddingSettings(), Path(tempfile.gettempdir()) / "dims.json")
    texts = [f"{beir.corpus[d][0]}\n\n{beir.corpus[d][1]}"[:1000] for d in ids]
    docs = embed_cached(embedder, texts, "gardener-scifact-docs")
    qids = sorted(beir.queries)
    queries = embed_cached(embedder, [beir.queries[q] for q in qids], "gardener-scifact-queries")
    docs = docs / np.linalg.norm(docs, axis=1, keepdims=True)
    queries = queries / np.linalg.norm(queries, axis=1, keepdims=True)
    top = _kmeans(docs, args.topics, rng)
    folder_of: dict[str, str] = {}
    for t in range(args.topics):
        members = np.flatnonzero(top == t)
        subs = _kmeans(docs[members], min(args.subtopics, len(members)), rng) if len(members) else []
        for m, s in zip(members, subs, strict=True):
            folder_of[ids[m]] = f"/scifact/topic-{t:02d}/sub-{s}"
    paths = [f"{folder_of[d]}/{d}.txt" for d in ids]
    top_ok = leaf_ok = 0
    for q, vector in zip(qids, queries, strict=True):
        scores = docs @ vector
        best = np.argsort(-scores)[: args.limit]
        mapped = build_tree(((paths[i], float(scores[i])) for i in best), ["/scifact"])
        wanted = [folder_of[d] for d in beir.qrels[q] if d in folder_of]
        if mapped is None or not wanted:
            continue
        branches = mapped.children[:3]
        top_ok += any(os.path.dirname(w) in {b.path for b in branches} for w in wanted)
        leaf_ok += any(w in {s.path for b in branches for s in b.children[:3]} for w in wanted)
    n = len(qids)
    print(
        f"{len(ids)} SciFact abstracts in {args.topics} topic folders × ≤{args.subtopics} subfolders, "
        f"{n} train queries, {args.limit} files per map, dense ranking by {embedder.name}"
    )
    print(f"relevant topic folder among the map's top 3 branches: {top_ok / n:.3f}")
    print(f"relevant subfolder among the top 3 sub-branches of the top 3 branches: {leaf_ok / n:.3f}")


def judge(args: argparse.Namespace) -> None:
    from gardener_judge import Scores, run_personal, run_scifact, table

    seeds = [int(x) for x in args.seeds.split(",") if x.strip()]
    per_seed = run_personal(seeds, args.size)
    calibration, held_out = Scores(), Scores()
    for n, seed in enumerate(seeds):
        table(f"personal folder, seed {seed} ({args.size})", per_seed[seed])
        (calibration if n < args.calibrate else held_out).merge(per_seed[seed])
    if seeds:
        table(f"calibration seeds {seeds[: args.calibrate]}", calibration, wrong=False)
        table(f"held-out seeds {seeds[args.calibrate :]}", held_out, wrong=False)
    if args.scifact:
        table(
            f"SciFact near-duplicate set ({args.bases} bases, {args.distractors} others)",
            run_scifact(args.data, args.bases, args.distractors),
        )


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("part", choices=["near", "background", "tree", "judge"])
    parser.add_argument("--seeds", default="0,1,2,3", help="judge: personal folder seeds")
    parser.add_argument("--calibrate", type=int, default=2, help="judge: how many of the seeds calibrate")
    parser.add_argument("--size", choices=["full", "small"], default="full")
    parser.add_argument("--scifact", action="store_true", help="judge: also the SciFact near-duplicate set")
    parser.add_argument("--data", type=Path, default=DEFAULT_SCIFACT)
    parser.add_argument("--bases", type=int, default=100)
    parser.add_argument("--distractors", type=int, default=300)
    parser.add_argument("--files", type=int, default=50_000)
    parser.add_argument(
        "--docs", type=int, default=0, help="tree: abstracts to lay out (0: the whole corpus)"
    )
    parser.add_argument("--topics", type=int, default=12)
    parser.add_argument("--subtopics", type=int, default=4)
    parser.add_argument("--limit", type=int, default=50)
    parser.add_argument("--profile", type=Path, help="background: cProfile the first pass into this file")
    args = parser.parse_args()
    {"near": near, "background": background, "tree": tree, "judge": judge}[args.part](args)


if __name__ == "__main__":
    main()
