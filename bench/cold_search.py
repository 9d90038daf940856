"""`sensetree search QUERY` with no SenseTree running: seconds to its keyword hits, quiet and beside one
busy loop (issue 30's target: keyword hits within 1 s; the fused list follows once the model loads).

A keyword index of real text (bench/real_text.py: the standard library, man pages, /usr/share/doc) is
built once into a throw-away home; each run copies it into a fresh home (the engine that opens after the
peek must not change the next run's index), starts `app.py search` on a real query and stops it at its
first line, the keyword hits' header. Printed per mode: the median wall seconds to that line, the child's
own CPU seconds when its peek returned (what a quiet machine's wall time would be near), the heavy modules
the peek imported (none of torch, transformers, lancedb, pydantic, pyarrow may be among them), that CPU
stage by stage (_WRAPPED says which), and in the same run `python -c pass` and `python -c "import numpy,
duckdb"` (the interpreter and the imports a keyword answer cannot do without), so the ratios stay
readable when other processes share the two cores.

Python writes no bytecode when PYTHONDONTWRITEBYTECODE is set (this project's shells set it): the child
runs without it, after one untimed run that compiles, as an installed app runs from its .pyc files.

    python bench/cold_search.py [--rows 20000] [--runs 5] [--keep DIR]  (DIR: the built index, reused)
"""

from __future__ import annotations

import argparse
import os
import resource
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
HEAVY = ("torch", "transformers", "lancedb", "pydantic", "pandas", "sentence_transformers", "pyarrow")
# the command, run with its peek wrapped to say which heavy modules were loaded when it answered and where
# its CPU went: the interpreter's start (before this code runs), `import app`, the command line up to the
# peek (arguments, looking for a running instance), the peek's imports (numpy, DuckDB), the index's opening
# (DuckDB's file, the FTS extension's LOAD, the tables), the query with its snippets, the close
_WRAPPED = f"""
import sys, time
began = time.process_time()
import app
imported = time.process_time()
real = app.peek_keywords
def peek(*args):
    entered = time.process_time()
    import engine.keyword_peek, engine.retrieval.hybrid, engine.retrieval.keyword.index as kx
    start = time.process_time()
    spent = {{"open": 0.0, "query": 0.0, "close": 0.0}}
    def timed(name, fn):
        def run(*a, **k):
            t = time.process_time()
            try:
                return fn(*a, **k)
            finally:
                spent[name] += time.process_time() - t
        return run
    kx.KeywordIndex.__init__ = timed("open", kx.KeywordIndex.__init__)
    kx.KeywordIndex.close = timed("close", kx.KeywordIndex.close)
    hs = engine.retrieval.hybrid.HybridSearch
    hs.search_keyword = timed("query", hs.search_keyword)
    hits = real(*args)
    now = time.process_time()
    heavy = sorted({{m.split(".")[0] for m in sys.modules}} & set({HEAVY!r}))
    stages = dict(interpreter=began, app=imported - began, cli=entered - imported, imports=start - entered)
    stages.update(spent)
    stages["other"] = now - start - sum(spent.values())
    print(f"HEAVY {{now}} " + ",".join(heavy), file=sys.stderr, flush=True)
    print("STAGES " + " ".join(f"{{k}}={{v:.4f}}" for k, v in stages.items()), file=sys.stderr, flush=True)
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


def cold_run(built: Path, work: Path, query: str) -> tuple[float, float, str, dict[str, float]]:
    """(seconds to the first line, CPU seconds by then, heavy modules loaded, CPU seconds per stage) of one
    cold search."""
    home = work / "home"
    shutil.rmtree(home, ignore_errors=True)
    home.mkdir()
    shutil.copy(built / "keywords.duckdb", home / "keywords.duckdb")
    env = _compiled_env()
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
    said, stages = ["nan", "?"], {}
    for line in child.stderr:
        if line.startswith("HEAVY"):
            said = line.split()[1:]
        elif line.startswith("STAGES"):
            stages = {k: float(v) for k, v in (part.split("=") for part in line.split()[1:])}
    child.wait()
    cpu, heavy = float(said[0]), ",".join(said[1:])
    if not first.startswith("Keyword matches"):
        heavy = f"(no keyword hits: {first.strip()[:60]!r})"
    return seconds, cpu, heavy, stages


def _compiled_env() -> dict[str, str]:
    """This environment, with bytecode written and read (the module docstring)."""
    return {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}


def timed(
    built: Path, work: Path, queries: list[str], runs: int
) -> tuple[float, float, str, dict[str, float]]:
    results = [cold_run(built, work, queries[n % len(queries)]) for n in range(runs)]
    heavy = {r[2] for r in results}
    stages = {k: statistics.median(r[3].get(k, float("nan")) for r in results) for k in results[0][3]}
    return (
        statistics.median(r[0] for r in results),
        statistics.median(r[1] for r in results),
        " / ".join(sorted(heavy)) or "none",
        stages,
    )


def baseline(code: str, runs: int) -> tuple[float, float]:
    """Median wall and CPU seconds of `python -c code` now: the same-run floor a cold command cannot go
    under (`pass`: the interpreter; the imports no keyword answer can do without: numpy and DuckDB)."""
    walls, cpus = [], []
    for _ in range(runs):
        began, before = time.perf_counter(), resource.getrusage(resource.RUSAGE_CHILDREN)
        subprocess.run([sys.executable, "-c", code], env=_compiled_env(), check=True)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        walls.append(time.perf_counter() - began)
        cpus.append(after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime)
    return statistics.median(walls), statistics.median(cpus)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, default=20_000)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--keep", type=Path, help="build the index here once and reuse it (same --rows)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        built, work = args.keep or Path(tmp) / "built", Path(tmp)
        built.mkdir(exist_ok=True)
        kept = built / "queries.txt"
        if kept.exists() and (built / "keywords.duckdb").exists():
            queries = kept.read_text(encoding="utf-8").splitlines()
        else:
            queries = build_home(args.rows, built)
            kept.write_text("\n".join(queries), encoding="utf-8")
        cold_run(built, work, queries[0])  # compiles the bytecode; untimed
        lines = []
        for mode in ("quiet", "one busy loop"):
            busy = subprocess.Popen([sys.executable, "-c", "while True: pass"]) if mode != "quiet" else None
            try:
                seconds, cpu, heavy, stages = timed(built, work, queries, args.runs)
                floors = [baseline(code, args.runs) for code in ("pass", "import numpy, duckdb")]
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
            print("  CPU ms by stage: " + ", ".join(f"{k} {1000 * v:.0f}" for k, v in stages.items()))
            (pass_wall, pass_cpu), (imports_wall, imports_cpu) = floors
            print(
                f"  same run: `python -c pass` {pass_wall:.2f} s wall / {pass_cpu:.2f} CPU-s, `import numpy, "
                f"duckdb` {imports_wall:.2f} s / {imports_cpu:.2f} CPU-s; keyword hits at "
                f"{seconds / max(pass_wall, 1e-9):.1f}x `pass`'s wall, {cpu / max(imports_cpu, 1e-9):.1f}x "
                f"the imports' CPU (wall / CPU of `pass`: {pass_wall / max(pass_cpu, 1e-9):.1f}, the load's "
                f"stretch)",
                flush=True,
            )
    for line in lines:
        print("SUMMARY " + line, flush=True)


if __name__ == "__main__":
    main()
