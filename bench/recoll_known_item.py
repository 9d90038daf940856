"""Known-item search against Recoll on the same folder: how often each finds the document in its top 10.

Issue 28's acceptance: known-item queries (3-5 words copied from one document, bench/personal_folder)
find their document in the top 10 at least as often as Recoll does on the same folder. Each seed's
folder is built and indexed by the real Engine (search_meaning.index, the product's floor in force),
and by `recollindex` in a configuration folder of its own (RECOLL_CONFDIR, nothing of the person's own
Recoll touched); every known-item query runs through the product's search and through `recollq` in its
ALL TERMS mode (what Recoll's simple search does: every word must be in the document), first 10.

`--real N` measures the same on a second kind of data: N real documents of this machine (man pages,
/usr/share/doc, licences, the Python standard library: bench/real_text.py's sources), each written as a
text file at its own relative path, with known-item queries drawn from them by the personal folder's
rule (3-5 consecutive words of one line that no other document holds).

    python bench/recoll_known_item.py --seeds 3 4
    python bench/recoll_known_item.py --seeds 3 4 --size full --keep-in /tmp/personal
    python bench/recoll_known_item.py --seeds --real 300 --real-seed 1 --keep-in /tmp/personal
    python bench/recoll_known_item.py --code /tmp/main ...     # the same on another checkout's engine

Without `recollindex` and `recollq` on PATH (Debian: `apt-get install recoll`) it says so and exits 0.
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path
from urllib.parse import unquote

HERE = Path(__file__).resolve().parent
TOP = 10
TIMEOUT_S = 600  # recollindex over a few hundred files; a query far less


def recoll_config(conf: Path, root: Path) -> None:
    """A Recoll configuration that indexes `root` alone, its database inside `conf`."""
    conf.mkdir(parents=True, exist_ok=True)
    (conf / "recoll.conf").write_text(
        f"topdirs = {root}\ndbdir = {conf / 'xapiandb'}\nskippedNames = \nloglevel = 1\n", encoding="utf-8"
    )


def recoll_index(conf: Path) -> None:
    env = {**os.environ, "RECOLL_CONFDIR": str(conf)}
    subprocess.run(
        ["recollindex", "-c", str(conf), "-z"], env=env, check=True, capture_output=True, timeout=TIMEOUT_S
    )


def recoll_top(conf: Path, query: str, root: Path) -> list[str]:
    """The relative paths of Recoll's first TOP results for `query` in ALL TERMS mode."""
    env = {**os.environ, "RECOLL_CONFDIR": str(conf)}
    done = subprocess.run(
        ["recollq", "-c", str(conf), "-a", "-b", "-n", str(TOP), query],
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    out = []
    for line in done.stdout.splitlines():
        if line.startswith("file://"):
            path = unquote(line[len("file://") :]).split("|", 1)[0]  # an archive member: its archive
            out.append(os.path.relpath(path, root))
    return out


def measure(
    engine, root: Path, queries: list[tuple[str, frozenset[str]]], conf: Path
) -> tuple[int, int, int]:
    """(known-item queries, found in our top 10, found in Recoll's top 10) over one indexed folder."""
    from search_meaning import row_paths  # a row is right when its file or an identical copy it names is

    recoll_config(conf, root)
    recoll_index(conf)
    ours = theirs = 0
    for text, relevant in queries:
        rows = [row_paths(r, str(root)) for r in engine.parts.search.search(text, limit=TOP)]
        ours += any(row & relevant for row in rows)
        theirs += any(p in relevant for p in recoll_top(conf, text, root))
    engine.running.close()
    return len(queries), ours, theirs


def personal(seed: int, size: str, where: Path, scratch: Path) -> tuple[int, int, int]:
    """`measure` on one seed's personal folder (bench/personal_folder), indexed by search_meaning.index."""
    import search_meaning

    indexed = search_meaning.index(seed, size, where)
    folder = indexed.folder  # type: ignore[attr-defined]
    queries = [(q.text, q.relevant) for q in folder.queries if q.kind == "known_item"]
    return measure(indexed.engine, Path(folder.root), queries, scratch / f"recoll{seed}")


def real(files: int, where: Path, scratch: Path, seed: int = 0) -> tuple[int, int, int]:
    """`measure` on `files` real documents (the module docstring), indexed by the Engine."""
    import real_known_item

    root, queries = real_known_item.build(where / f"real{files}-{seed}", files, seed)
    engine = real_known_item.engine_over(root, where / f"real{files}-{seed}-home")
    return measure(engine, root, queries, scratch / f"recoll-real{files}-{seed}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, nargs="*", default=[3, 4])
    parser.add_argument("--real", type=int, default=0, help="also N real documents of this machine")
    parser.add_argument("--real-seed", type=int, default=0, help="which N (bench/real_known_item.py)")
    parser.add_argument("--size", choices=("full", "small"), default="small")
    parser.add_argument("--code", type=Path, default=None, help="import the engine from this checkout")
    parser.add_argument(
        "--keep-in", type=Path, default=None, help="build or reuse the folders and indexes here"
    )
    args = parser.parse_args()
    missing = [tool for tool in ("recollindex", "recollq") if shutil.which(tool) is None]
    if missing:
        print(f"skipped: {', '.join(missing)} not on PATH (Debian: apt-get install recoll)")
        return
    sys.path.insert(0, str(HERE.parent))
    sys.path.insert(0, str(HERE))
    if args.code is not None:  # another checkout's engine (main's: the figures before a change)
        sys.path.insert(0, str(args.code))
    with tempfile.TemporaryDirectory() as tmp:
        # resolved: the Engine stores real paths, and a link in `where` made every relative path miss
        where = Path(os.path.realpath(args.keep_in if args.keep_in is not None else tmp))
        totals = [0, 0, 0]
        for seed in args.seeds:
            counts = personal(seed, args.size, where, Path(tmp))
            total, ours, theirs = counts
            print(f"seed {seed}: {total} known-item queries; top {TOP}: SenseTree {ours}, Recoll {theirs}")
            totals = [a + b for a, b in zip(totals, counts, strict=True)]
        if args.seeds:
            summary(f"seeds {args.seeds} ({args.size})", *totals)
        if args.real:
            counts = real(args.real, where, Path(tmp), args.real_seed)
            summary(f"{args.real} real documents (seed {args.real_seed})", *counts)


def summary(label: str, total: int, ours: int, theirs: int) -> None:
    print(
        f"SUMMARY {label}: known-item in the top {TOP}: SenseTree {ours}/{total} "
        f"({ours / max(total, 1):.1%}), Recoll {theirs}/{total} ({theirs / max(total, 1):.1%}); "
        f"{'met' if ours >= theirs else 'MISSED'} (at least as often as Recoll)",
        flush=True,
    )


if __name__ == "__main__":
    main()
