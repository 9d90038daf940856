"""`sensetree search QUERY` with no SenseTree running: seconds to its keyword hits, quiet and beside one
busy loop (issue 30's target: keyword hits within 1 s; the fused list follows once the model loads).

A keyword index of real text (bench/real_text.py: the standard library, man pages, /usr/share/doc) is
built once into a throw-away home; each run copies it into a fresh home (the engine that opens after the
peek must not change the next run's index), starts `app.py search` on a real query and stops it at its
first line, the keyword hits' header. Printed per mode: the median wall seconds to that line, the child's
own CPU seconds when its peek returned (what a quiet machine's wall time would be near; read from /proc
after the line arrived, it also counted the engine's imports that follow on a loaded machine), and the
heavy modules the peek imported (none of torch, transformers, lancedb, pydantic may be among them).

Python writes no bytecode when PYTHONDONTWRITEBYTECODE is set (this project's shells set it): the child
runs without it, after one untimed run that compiles, as an installed app runs from its .pyc files.

    python bench/cold_search.py [--rows 20000] [--runs 5]
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from real_text import real_batches, real_queries

from engine.retrieval.keyword.index import KeywordIndex

REPO = Path(__file__).resolve().parents[1]
TARGET_S = 1.0
HEAVY = ("torch", "transformers", "lancedb", "pydantic", "pandas", "sentence_transformers")
# the command, run with its peek wrapped to say which heavy modules were loaded when it answered
_WRAPPED = f"""
import sys, time
import app
real = app.peek_keywords
def peek(*args):
    hits = real(*args)
    heavy = sorted({{m.split(".")[0] for m in sys.modules}} & set({HEAVY!r}))
    print(f"HEAVY {{time.process_time()}} " + ",".join(heavy), file=sys.stderr, flush=True)
    return hits
app.peek_keywords = peek
sys.exit(app.main(sys.argv[1:]))
"""


def build_home(rows: int, home: Path) -> list[str]:
    """A keyword index of `rows` chunks of real text in `home`; returns queries drawn from its text."""
    keywords = KeywordIndex(home / "keywords.duckdb")
    rng = np.random.default_rng(30)
    sample: list[str] = []
    for count, texts, _vectors, spans in real_batches(rows, rng):
        keywords.upsert_many((path, texts[a:b]) for path, a, b in spans)
        sample += texts[:: max(1, count // 200)]
    keywords.refresh_weights()
    keywords.close()
    return [q for q, _ in real_queries(sample, np.zeros((len(sample), 384), np.float32), 50, rng)]


def cold_run(built: Path, work: Path, query: str) -> tuple[float, float, str]:
    """(seconds to the first line, CPU seconds by then, heavy modules loaded) of one cold search."""
    home = work / "home"
    shutil.rmtree(home, ignore_errors=True)
    home.mkdir()
    shutil.copy(built / "keywords.duckdb", home / "keywords.duckdb")
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    env["SENSETREE_HOME"] = str(home)
    began = time.perf_counter()
    child = subprocess.Popen(
        [sys.executable, "-c", _WRAPPED, "search", query],
        cwd=REPO,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    assert child.stdout is not None and child.stderr is not None
    first = child.stdout.readline()
    seconds = time.perf_counter() - began
    child.kill()
    said = next((line.split()[1:] for line in child.stderr if line.startswith("HEAVY")), ["nan", "?"])
    child.wait()
    cpu, heavy = float(said[0]), ",".join(said[1:])
    if not first.startswith("Keyword matches"):
        heavy = f"(no keyword hits: {first.strip()[:60]!r})"
    return seconds, cpu, heavy


def timed(built: Path, work: Path, queries: list[str], runs: int) -> tuple[float, float, str]:
    results = [cold_run(built, work, queries[n % len(queries)]) for n in range(runs)]
    heavy = {r[2] for r in results}
    return (
        statistics.median(r[0] for r in results),
        statistics.median(r[1] for r in results),
        " / ".join(sorted(heavy)) or "none",
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, default=20_000)
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        built, work = Path(tmp) / "built", Path(tmp)
        built.mkdir()
        queries = build_home(args.rows, built)
        cold_run(built, work, queries[0])  # compiles the bytecode; untimed
        lines = []
        for mode in ("quiet", "one busy loop"):
            busy = subprocess.Popen([sys.executable, "-c", "while True: pass"]) if mode != "quiet" else None
            try:
                seconds, cpu, heavy = timed(built, work, queries, args.runs)
            finally:
                if busy is not None:
                    busy.kill()
                    busy.wait()
            load = os.getloadavg()[0]
            lines.append(
                f"cold `sensetree search`, {mode}: keyword hits at {seconds:.2f} s "
                f"(target <= {TARGET_S:.0f} s {'met' if seconds <= TARGET_S else 'MISSED'}), "
                f"{cpu:.2f} CPU-s; heavy modules before "
                f"them: {heavy or 'none'}; load {load:.1f}, {args.runs} runs, {args.rows:,} chunks"
            )
            print(lines[-1], flush=True)
    for line in lines:
        print("SUMMARY " + line, flush=True)


if __name__ == "__main__":
    main()
