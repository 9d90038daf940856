"""Store fuzz: every file of an indexed data folder truncated, garbled, zeroed or deleted, then a start and
a search (issue 31, N1). Target: 0 dead starts, 0 failed searches.

The data folder (tests/store_damage.py builds it: SAMPLE indexed, one file re-indexed, the path B-tree,
an item in SenseTree's trash) is damaged one case at a time, on a fresh copy each time; a case is one file
× one kind of damage. Each start runs in a child process that takes cases one after the other, so a
start that kills the process (an abort, a segfault in a native library) or hangs past `--timeout` counts
as a dead start and the next case gets a new child. A case passes when the engine starts, its first
search finds the expected file at once (from whatever store is whole; not required when the catalog
itself was damaged), and after draining the queue and a maintenance run the search still finds it.

    python bench/store_fuzz.py [--seed 0] [--limit N] [--timeout 120]
    python bench/soak.py --store-fuzz      (the same, from the soak bench)
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
import threading
import time
from collections import Counter
from dataclasses import asdict
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from tests.store_damage import Case, all_cases, build_home, run_case  # noqa: E402


def child(pristine: Path, root: Path, work: Path) -> None:
    """Run the cases read from stdin (one JSON object a line); print one JSON result a line."""
    for line in sys.stdin:
        case = Case(**json.loads(line))
        started = time.monotonic()
        problem = run_case(pristine, work, root, case)
        print(json.dumps({"problem": problem, "s": round(time.monotonic() - started, 2)}), flush=True)


class Runner:
    """A child process that runs cases; replaced when one kills it or hangs."""

    def __init__(self, pristine: Path, root: Path, work: Path, timeout: float):
        self._args = [sys.executable, __file__, "--child", str(pristine), str(root), str(work)]
        self._timeout = timeout
        self._proc: subprocess.Popen[str] | None = None

    def run(self, case: Case) -> tuple[str | None, float]:
        proc = self._proc = self._proc or subprocess.Popen(
            self._args, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True
        )
        assert proc.stdin is not None and proc.stdout is not None
        started = time.monotonic()
        proc.stdin.write(json.dumps(asdict(case)) + "\n")
        proc.stdin.flush()
        line = _read_line(proc, self._timeout)
        if line:
            answer = json.loads(line)
            return answer["problem"], answer["s"]
        proc.kill()
        code = proc.wait()
        self._proc = None
        return f"dead start: the process ended (code {code}) or hung", time.monotonic() - started

    def close(self) -> None:
        if self._proc is not None:
            self._proc.kill()
            self._proc.wait()


def _read_line(proc: subprocess.Popen[str], timeout: float) -> str:
    """The child's next line, or "" when it died or passed `timeout` (a reader thread bounds the wait)."""
    got: list[str] = []
    stdout = proc.stdout
    assert stdout is not None
    reader = threading.Thread(target=lambda: got.append(stdout.readline()), daemon=True)
    reader.start()
    reader.join(timeout)
    return got[0] if got else ""


def fuzz(seed: int = 0, limit: int | None = None, timeout: float = 120.0) -> int:
    """Run every case (or `limit` of them); print each failure and the totals; return the failures."""
    with tempfile.TemporaryDirectory(prefix="sensetree-store-fuzz-") as tmp:
        base = Path(tmp)
        pristine, root = build_home(base / "pristine")
        cases = all_cases(pristine, seed)[:limit]
        runner = Runner(pristine, root, base / "work", timeout)
        outcomes: Counter[str] = Counter()
        times: list[float] = []
        try:
            for case in cases:
                problem, seconds = runner.run(case)
                times.append(seconds)
                outcomes[_kind(problem)] += 1
                if problem:
                    print(f"FAIL {case}: {problem}", flush=True)
        finally:
            runner.close()
    failed = len(cases) - outcomes["ok"]
    times.sort()
    print(
        f"store fuzz: {len(cases)} damage cases ({len({c.file for c in cases})} files × truncate, garble, "
        f"zero, delete), seed {seed}: {outcomes['ok']} ok, {outcomes['dead start']} dead starts, "
        f"{outcomes['search']} failed searches, {outcomes['other']} other; "
        f"per case p50 {times[len(times) // 2]:.2f} s, max {times[-1]:.2f} s"
    )
    return failed


def _kind(problem: str | None) -> str:
    if problem is None:
        return "ok"
    if problem.startswith("dead start"):
        return "dead start"
    return "search" if problem.startswith("search") else "other"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--limit", type=int, default=None, help="run only the first N cases")
    parser.add_argument("--timeout", type=float, default=120.0, help="seconds a case may take")
    parser.add_argument("--child", nargs=3, metavar=("PRISTINE", "ROOT", "WORK"), help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.child:
        child(*(Path(p) for p in args.child))
        return 0
    return 1 if fuzz(args.seed, args.limit, args.timeout) else 0


if __name__ == "__main__":
    raise SystemExit(main())
