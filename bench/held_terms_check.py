"""Does the keyword arm's count of the query terms each hit holds (KeywordAnswer.held, counted in the
postings it summed) give the share coordination used to read in the hit's text (coordination.share_held,
the index's stemmer over the text)? Checked on three kinds of data, since the rule it feeds was
calibrated on more than one: SciFact (abstracts, its train claims as queries), the generated personal
folders (each file read by the product's extractor and chunker, every labelled query) and the real
text of bench/real_text.py (code, man pages, docs; typed-word queries).

For each query of several terms it compares every hit's two shares, and the coordinated order of the hits
both ways (coordination.coordinated at its calibrated power, with and without the counts). Keyword index
only: no model, no embedding; a few minutes on two cores.

    python bench/held_terms_check.py [--data ../shared/data/scifact] [--seeds 0 1 2] [--real-rows 20000]
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from collections.abc import Iterable
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from _common import DEFAULT_SCIFACT, load_beir
from real_text import real_batches, real_queries

from engine.indexing.chunk import DEFAULT_MAX_CHARS, DEFAULT_OVERLAP, chunk_text
from engine.indexing.extract import extract
from engine.retrieval.coordination import COORDINATION, coordinated, share_held
from engine.retrieval.keyword.index import KeywordIndex
from engine.retrieval.terms import shared_matcher

CANDIDATES = 50  # the hybrid's depth per arm


def compare(name: str, files: Iterable[tuple[str, list[str]]], queries: list[str], work: Path) -> bool:
    """Index `files` ({path: chunks}) in a fresh keyword index and compare both shares for `queries`;
    prints one line and returns whether every share and every coordinated order agreed."""
    keywords = KeywordIndex(work / f"{name}.duckdb")
    keywords.upsert_many(files)
    keywords.refresh_weights()
    matcher = shared_matcher()
    asked = hits = differ = reordered = 0
    try:
        for query in queries:
            answer = keywords.answer(query, CANDIDATES)
            terms = answer.terms.terms
            if len(terms) < 2 or not answer.hits:
                continue
            asked += 1
            for hit in answer.hits:
                hits += 1
                counted = answer.held.get(hit.key, -1) / len(terms)
                if counted != share_held(answer.texts[hit.key], terms, matcher):
                    differ += 1
                    if differ <= 5:
                        print(f"  {name}: {query!r} {hit.key} counted {counted:.3f}", flush=True)
            both = [
                coordinated(answer.hits, answer.texts, terms, COORDINATION, matcher, held=held)
                for held in (answer.held, None)
            ]
            reordered += both[0] != both[1]
    finally:
        keywords.close()
    print(
        f"{name:<16} {asked:5} queries of several terms, {hits:7,} hits: shares differing {differ}; "
        f"coordinated orders differing {reordered} of {asked}",
        flush=True,
    )
    return differ == 0 and reordered == 0


def scifact(data: Path) -> tuple[list[tuple[str, list[str]]], list[str]]:
    """SciFact's documents as bench/quality.py chunks them, and its train claims."""
    import quality

    beir = load_beir(data, "train")
    files, _ = quality.build_chunks(beir, DEFAULT_MAX_CHARS, DEFAULT_OVERLAP, True)
    return files, list(beir.queries.values())


def personal(seed: int, root: Path) -> tuple[list[tuple[str, list[str]]], list[str]]:
    import personal_folder

    folder = personal_folder.build(root / f"person{seed}", seed, "full")
    files = []
    for relative in folder.files:
        path = folder.root / relative
        text = extract(str(path)).text
        if text.strip():
            files.append((str(path), chunk_text(text)))
    return files, [q.text for q in folder.queries]


def real(rows: int) -> tuple[list[tuple[str, list[str]]], list[str]]:
    rng = np.random.default_rng(2024)
    files, texts, vectors = [], [], []
    for _count, chunk_texts, matrix, spans in real_batches(rows, rng):
        files += [(path, chunk_texts[a:b]) for path, a, b in spans]
        texts += chunk_texts[::50]
        vectors.append(matrix[::50])
    queries = real_queries(texts, np.concatenate(vectors), 400, np.random.default_rng(5))
    return files, [q for q, _ in queries]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, default=DEFAULT_SCIFACT)
    parser.add_argument("--seeds", type=int, nargs="*", default=[0, 1, 2])
    parser.add_argument("--real-rows", type=int, default=20_000)
    args = parser.parse_args()
    agreed = True
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        if (args.data / "corpus.jsonl").exists():
            agreed &= compare("SciFact train", *scifact(args.data), work)
        else:
            print(f"SciFact not found at {args.data}: skipped", flush=True)
        for seed in args.seeds:
            agreed &= compare(f"personal seed {seed}", *personal(seed, work), work)
        agreed &= compare("real text", *real(args.real_rows), work)
    print("SUMMARY " + ("every share and order agreed" if agreed else "DIFFERENCES: see above"), flush=True)


if __name__ == "__main__":
    main()
