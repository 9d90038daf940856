"""Build the labelled personal folder for a few seeds and print what it holds, per label and query kind.

    .venv/bin/python bench/personal_folder_check.py                 # seeds 0 1 2, full size
    .venv/bin/python bench/personal_folder_check.py --size small --dense

It re-checks, from the written files, that every meaning query shares no content word with any of
its right answers (the build already refuses otherwise), and that exact duplicates are identical
bytes. With --dense it embeds each file's text with the product's model and prints how often plain
cosine puts a right answer first / in the top 3 for meaning queries: a check that the paraphrases are
answerable at all (the labels' quality), not a measure of the product's search.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

import personal_folder  # noqa: E402
from personal_folder.queries import shared  # noqa: E402


def counts(folder: personal_folder.PersonalFolder) -> dict[str, int]:
    g = folder.garden
    return {
        "files": len(folder.files),
        "exact groups": len(g.exact_duplicates),
        "near groups": len(g.near_duplicates),
        "version groups": len(g.versions),
        "series groups": len(g.series),
        "series files": sum(len(s.paths) for s in g.series),
        "unhelpful names": len(g.unhelpful_names),
        "conventional names": len(g.conventional_names),
        "misplaced": len(g.misplaced),
    }


def verify(folder: personal_folder.PersonalFolder, built: personal_folder.Plan) -> list[str]:
    """Problems found in the written folder: shared words, copies that differ, missing files."""
    problems = []
    for q in folder.queries:
        for path in q.relevant:
            if not (folder.root / path).is_file():
                problems.append(f"{q.kind} {q.text!r}: {path} missing")
            if q.kind == "meaning" and shared(q.text, built.entries[path]):
                common = sorted(shared(q.text, built.entries[path]))
                problems.append(f"meaning {q.text!r} shares {common} with {path}")
    for group in folder.garden.exact_duplicates:
        if len({(folder.root / p).read_bytes() for p in group.paths}) != 1:
            problems.append(f"exact group {group.paths} differs")
    return problems


def dense(folder: personal_folder.PersonalFolder, built: personal_folder.Plan, misses: bool = False) -> str:
    """Plain cosine over each file's text (its path where it has none): meaning top-1 and top-3."""
    import numpy as np

    from engine.embed import TransformerEmbedder

    embedder = TransformerEmbedder()
    paths = list(folder.files)
    docs = embedder.embed([f"{p}\n{built.entries[p].text or ''}"[:2000] for p in paths])
    meaning = [q for q in folder.queries if q.kind == "meaning"]
    asked = embedder.embed([q.text for q in meaning])
    top1 = top3 = 0
    for q, vec in zip(meaning, asked, strict=True):
        ranked = [paths[i] for i in np.argsort(-(docs @ vec))[:3]]
        top1 += ranked[0] in q.relevant
        top3 += any(p in q.relevant for p in ranked)
        if misses and not any(p in q.relevant for p in ranked):
            print(f"    miss: {q.text!r} -> {ranked} (want {sorted(q.relevant)[:2]})")
    return f"dense cosine, meaning queries: top-1 {top1}/{len(meaning)}, top-3 {top3}/{len(meaning)}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, nargs="+", default=[0, 1, 2])
    parser.add_argument("--size", choices=("full", "small"), default="full")
    parser.add_argument("--dense", action="store_true", help="also embed with the real model (slower)")
    parser.add_argument("--misses", action="store_true", help="with --dense: list the meaning queries missed")
    args = parser.parse_args()
    failed = False
    for seed in args.seeds:
        with tempfile.TemporaryDirectory() as tmp:
            start = time.perf_counter()
            folder = personal_folder.build(Path(tmp), seed, args.size)
            took = time.perf_counter() - start
            built, person = personal_folder.plan(seed, args.size)
            print(f"seed {seed} ({args.size}): {person.name}, {person.city}; built in {took:.1f} s")
            print("  labels:  " + ", ".join(f"{k} {v}" for k, v in counts(folder).items()))
            kinds = Counter(q.kind for q in folder.queries)
            print("  queries: " + ", ".join(f"{k} {kinds[k]}" for k in personal_folder.KINDS))
            problems = verify(folder, built)
            failed |= bool(problems)
            fine = "meaning queries share no content word; exact copies identical"
            print("  checks:  " + ("\n    ".join(["FAILED", *problems]) if problems else fine))
            if args.dense:
                print("  " + dense(folder, built, args.misses))
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
