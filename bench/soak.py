"""Soak the index against unclean exits: index → kill -9 at a random moment → restart → edit/delete → search.

Each cycle adds and rewrites files in a generated folder, starts a separate process that opens the
Engine and indexes the changes, and kills it with SIGKILL at a random moment: one cycle in five while
the Engine opens (imports, DuckDB's WAL replay and checkpoint, start-up repair), one in five when it has
indexed everything but not closed (every write still in DuckDB's WAL), the others while it indexes
(within 1.5× the length of a clean indexing run, so mid-batch and just-finished kills both happen).
In half the cycles the Engine is then opened and closed once with nothing to do (a person who starts
the app and quits: the start that turned a WAL into a stale DuckDB ART before issue 11). The
bench process then restarts the Engine on the same data folder and times the **self-heal**: open
(DuckDB WAL replay and checkpoint, start-up repair, a damaged store set aside) + a rescan + draining the
queue, until the three stores agree. Then it edits and deletes files, lets the index catch up, and checks:

- catalog, keyword and vector chunk counts agree for every file, and the catalog holds exactly the
  files on disk;
- each edited file is the top keyword hit and the top hybrid hit for a word only it now contains;
- no keyword hit remains for a word that was only in a deleted file.

A cycle fails on any failed check or any exception; the target is 0 failures. The Engine runs on the
hashing embedder (what is soaked is the stores, not the model), so cycles take seconds.

    python bench/soak.py [--cycles 30] [--files 60] [--seed 7]
    python bench/soak.py --store-fuzz    (damage every file of the data folder instead: bench/store_fuzz.py)
"""

from __future__ import annotations

import argparse
import gc
import os
import random
import signal
import statistics
import subprocess
import sys
import tempfile
import textwrap
import time
from dataclasses import dataclass, field
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from _common import TOPIC_WORDS  # noqa: E402

from engine.embed import HashingEmbedder  # noqa: E402
from engine.engine import Engine  # noqa: E402

CHILD = """
import sys, time
from engine.engine import Engine
from engine.embed import HashingEmbedder
home, root = sys.argv[1], sys.argv[2]
engine = Engine(home, embedder=HashingEmbedder())
engine.add_indexed_folder(root)
engine.parts.index.worker.request_scan(root)  # an already indexed root: pick up what changed on disk
print("open", flush=True)
started = time.monotonic()
engine.parts.index.drain()
print(f"drained {time.monotonic() - started:.3f}", flush=True)
if len(sys.argv) > 3:  # "hold": wait to be killed with everything written and nothing closed
    sys.stdin.read()
engine.running.close()
"""


def word(rng: random.Random) -> str:
    """A letters-only pseudo-word no other file contains (digits are not searchable words)."""
    return "zq" + "".join(rng.choice("bcdfghjklmnpqrstvwxz") + rng.choice("aeiou") for _ in range(5))


@dataclass
class Folder:
    root: Path
    rng: random.Random
    words: dict[str, str] = field(default_factory=dict)  # file name -> its unique word
    made: int = 0

    def write(self, name: str) -> str:
        unique = word(self.rng)
        topic = self.rng.choice(TOPIC_WORDS)
        body = " ".join(self.rng.choice(TOPIC_WORDS) for _ in range(self.rng.randint(40, 400)))
        (self.root / name).write_text(f"{topic} {unique}\n\n{body}\n", encoding="utf-8")
        self.words[name] = unique
        return unique

    def add(self, count: int) -> None:
        for _ in range(count):
            self.made += 1
            self.write(f"doc{self.made:05d}.txt")

    def rewrite(self, count: int) -> list[str]:
        names = self.rng.sample(sorted(self.words), min(count, len(self.words)))
        for name in names:
            self.write(name)
        return names

    def delete(self, count: int, keep: list[str]) -> dict[str, str]:
        candidates = sorted(set(self.words) - set(keep))
        names = self.rng.sample(candidates, min(count, max(0, len(candidates) - 5)))
        gone = {}
        for name in names:
            (self.root / name).unlink()
            gone[name] = self.words.pop(name)
        return gone


@dataclass(frozen=True)
class Kill:
    while_opening: bool
    after_s: float
    before_close: bool = False


def run_child(home: Path, root: Path, kill: Kill | None) -> tuple[str, float, float]:
    """Index in a separate process and SIGKILL it as `kill` says (None: let it finish). Returns what
    happened, the seconds it took to open the Engine and the seconds it spent indexing."""
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    started = time.monotonic()
    errors = home.parent / "child.stderr"
    hold = ["hold"] if kill is not None and kill.before_close else []
    with (
        errors.open("w") as stderr,
        subprocess.Popen(
            [sys.executable, "-c", textwrap.dedent(CHILD), str(home), str(root), *hold],
            env=env,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=stderr,
            text=True,
        ) as proc,
    ):
        assert proc.stdout is not None
        if kill is not None and kill.while_opening:
            try:
                proc.wait(kill.after_s)
            except subprocess.TimeoutExpired:
                proc.send_signal(signal.SIGKILL)
                proc.wait(60)
                return f"killed {kill.after_s:.2f} s after start", 0.0, 0.0
        if proc.stdout.readline().strip() != "open":
            proc.wait(60)
            last = (errors.read_text(errors="replace").strip().splitlines() or ["no error output"])[-1]
            return f"ended before opening (status {proc.returncode}: {last})", 0.0, 0.0
        opened = time.monotonic()
        if hold:
            proc.stdout.readline()  # "drained": all written, nothing closed
            proc.send_signal(signal.SIGKILL)
            proc.wait(60)
            return "killed after indexing, before closing", opened - started, 0.0
        if kill is None:
            line = proc.stdout.readline()
            proc.wait(600)
            return "finished", opened - started, float(line.split()[1]) if line.startswith("drained") else 0.0
        try:
            proc.wait(kill.after_s)
            return "finished before the kill", opened - started, 0.0
        except subprocess.TimeoutExpired:
            proc.send_signal(signal.SIGKILL)
            proc.wait(60)
            return f"killed {kill.after_s:.2f} s into indexing", opened - started, 0.0


def restart(home: Path, root: Path) -> Engine:
    engine = Engine(home, embedder=HashingEmbedder())
    engine.parts.index.worker.request_scan(str(root))  # what start_background does: changes made while closed
    engine.parts.index.drain()
    return engine


def check(engine: Engine, folder: Folder, edited: list[str], gone: dict[str, str]) -> list[str]:
    problems: list[str] = []
    catalog = engine.parts.index.catalog.done_chunk_counts()
    keywords, vectors = engine.parts.keywords.chunk_counts(), engine.parts.vectors.chunk_counts()
    on_disk = {str(folder.root / name) for name in folder.words}
    if set(catalog) != on_disk:
        problems.append(
            f"catalog has {len(catalog)} files, disk {len(on_disk)} "
            f"({len(set(catalog) - on_disk)} extra, {len(on_disk - set(catalog))} missing)"
        )
    for store, counts in (("keyword", keywords), ("vector", vectors)):
        wrong = [p for p in set(catalog) | set(counts) if catalog.get(p) != counts.get(p)]
        if wrong:
            problems.append(
                f"{len(wrong)} file(s) whose {store} chunks disagree with the catalog, e.g. {wrong[0]}"
            )
    for name in edited:
        path, unique = str(folder.root / name), folder.words[name]
        hits = engine.parts.keywords.search(unique, 5)
        if not hits or hits[0].path != path:
            problems.append(f"keyword search for {unique} did not find {name}")
        results = engine.semantic_search(unique, limit=3)
        if not results or results[0].path != path:
            problems.append(f"hybrid search for {unique} did not rank {name} first")
    for name, unique in gone.items():
        if engine.parts.keywords.search(unique, 5):
            problems.append(f"deleted {name} is still found by {unique}")
    return problems


def cycle(
    home: Path, folder: Folder, rng: random.Random, open_s: float, index_s: float
) -> tuple[list[str], float, str]:
    folder.add(rng.randint(10, 40))
    folder.rewrite(rng.randint(3, 10))
    roll = rng.random()
    opening = roll < 0.2
    kill = Kill(opening, rng.uniform(0.0, open_s if opening else 1.5 * index_s), before_close=roll > 0.8)
    fate, _, _ = run_child(home, folder.root, kill)
    if (home / "keywords.duckdb.wal").exists():
        fate += " (keyword WAL left)"
    if rng.random() < 0.5:
        Engine(home, embedder=HashingEmbedder()).running.close()
        fate += ", then a start that only opened and quit"
    started = time.monotonic()
    engine = restart(home, folder.root)
    healed = time.monotonic() - started
    try:
        report = engine.parts.repair_report
        notes = [f"{len(report.requeued)} re-queued, {len(report.keywords_refilled)} keyword rows refilled"]
        edited = folder.rewrite(3)
        gone = folder.delete(2, keep=edited)
        engine.parts.index.worker.request_scan(str(folder.root))  # what the watcher does
        engine.parts.index.drain()
        problems = check(engine, folder, edited, gone)
    finally:
        engine.running.close()
    return problems, healed, f"{fate}; {'; '.join(notes)}"


def store_fuzz() -> None:
    """`--store-fuzz`: every file of an indexed data folder truncated, garbled, zeroed or deleted, then a
    start and a search, each in a child process (bench/store_fuzz.py; issue 31: target 0 dead starts)."""
    from bench.store_fuzz import fuzz

    raise SystemExit(1 if fuzz() else 0)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cycles", type=int, default=30)
    parser.add_argument("--files", type=int, default=60, help="files in the folder before the first cycle")
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--store-fuzz", action="store_true", help="damage the data folder (store_fuzz.py)")
    args = parser.parse_args()
    if args.store_fuzz:
        store_fuzz()
        return
    rng = random.Random(args.seed)
    with tempfile.TemporaryDirectory(prefix="sensetree-soak-") as tmp:
        home, root = Path(tmp) / "home", Path(tmp) / "Docs"
        root.mkdir()
        folder = Folder(root, rng)
        folder.add(args.files)
        fate, open_s, index_s = run_child(home, root, None)  # a clean run sets the kill windows
        print(
            f"first index of {args.files} files: {fate}; Engine opened in {open_s:.2f} s, "
            f"indexed in {index_s:.2f} s"
        )
        index_s = max(index_s, 0.2)
        failures, heal_times = 0, []
        for n in range(1, args.cycles + 1):
            try:
                problems, healed, note = cycle(home, folder, rng, open_s, index_s)
            except Exception as exc:  # a cycle that raises is a failure; the soak carries on
                text = " ".join(str(exc).split())[:300]
                problems, healed, note = [f"{type(exc).__name__}: {text}"], float("nan"), "raised"
                gc.collect()  # an Engine that failed half-built still holds its DuckDB lock until collected
            if healed == healed:
                heal_times.append(healed)
            failures += bool(problems)
            status = "ok" if not problems else "FAIL " + " | ".join(problems)
            print(f"cycle {n:3d}: {note}; self-heal {healed:.2f} s; {status}", flush=True)
        quarantined = sorted(p.name for p in home.glob("*.corrupt-*"))
        print(
            f"\n{args.cycles} cycles, {len(folder.words)} files at the end: failures {failures} (target 0); "
            f"time to self-heal median {statistics.median(heal_times):.2f} s, max {max(heal_times):.2f} s; "
            f"damaged stores set aside: {len(quarantined)} {quarantined}"
        )


if __name__ == "__main__":
    main()
