"""How long the everyday commands take from the shell, against bare Python in the same run (issue 12).

Wall time, median of N runs, of `python -c pass`, `sensetree --help`, `status`, `config get`,
`search` with no SenseTree running (it opens the stores and loads the query model itself) and with
one running (`sensetree serve` in the background: the CLI asks it over the single-instance socket),
and `serve` until it prints its URL. The data dir is a fresh temporary one with a small folder
indexed by the model in the settings (`--hashing` uses the hashing embedder instead: no model load,
so `search` without an instance then shows the store and import cost only).

Targets: help/status ≤ 0.6 s over bare Python; search with an instance running ≤ 0.5 s; serve to
URL ≤ 1 s over bare Python.

    python bench/startup.py [--runs 5] [--hashing]
"""

from __future__ import annotations

import argparse
import json
import os
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
APP = [sys.executable, str(REPO / "app.py")]
TARGETS = {  # seconds; "over bare" or absolute
    "--help": ("over bare", 0.6),
    "status": ("over bare", 0.6),
    "search, instance running": ("absolute", 0.5),
    "serve to URL": ("over bare", 1.0),
}


def timed(command: list[str], env: dict[str, str]) -> float:
    start = time.perf_counter()
    subprocess.run(
        command, env=env, cwd=REPO, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True
    )
    return time.perf_counter() - start


def serve_to_url(env: dict[str, str]) -> float:
    """Seconds from launch until `serve` printed its URL; the server is then stopped and waited for."""
    start = time.perf_counter()
    with subprocess.Popen(
        [*APP, "serve"], env=env, cwd=REPO, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True
    ) as proc:
        assert proc.stdout is not None
        line = proc.stdout.readline()
        elapsed = time.perf_counter() - start
        proc.send_signal(signal.SIGTERM)
        proc.wait(timeout=300)
    if not line.startswith("SenseTree UI:"):
        raise SystemExit(f"serve did not print its URL first: {line!r}")
    return elapsed


def median_of(runs: int, measure: Callable[[], float]) -> float:
    measure()  # one warm-up run: the page cache, not the code, is what a first run measures
    return statistics.median(measure() for _ in range(runs))


def prepare(home: Path, hashing: bool) -> dict[str, str]:
    docs = home.parent / "Docs"
    docs.mkdir()
    for i in range(40):
        (docs / f"note{i:02}.txt").write_text(
            f"Minutes of meeting {i}: the orchard budget, the new greenhouse and the lease renewal.\n" * 5,
            encoding="utf-8",
        )
    if hashing:
        (home / "settings.json").write_text(
            json.dumps({"embedding": {"model": "hashing-384"}}), encoding="utf-8"
        )
    env = {**os.environ, "PYTHONPATH": str(REPO), "SENSETREE_HOME": str(home)}
    subprocess.run(
        [*APP, "index", "--quiet", str(docs)], env=env, cwd=REPO, check=True, stdout=subprocess.DEVNULL
    )
    return env


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--hashing", action="store_true", help="the hashing embedder: no model load")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        home = Path(tmp) / "home"
        home.mkdir()
        env = prepare(home, args.hashing)
        search = [*APP, "search", "orchard budget", "--limit", "3"]
        figures: dict[str, float] = {}
        figures["python -c pass"] = median_of(args.runs, lambda: timed([sys.executable, "-c", "pass"], env))
        figures["--help"] = median_of(args.runs, lambda: timed([*APP, "--help"], env))
        figures["status"] = median_of(args.runs, lambda: timed([*APP, "status"], env))
        figures["config get"] = median_of(args.runs, lambda: timed([*APP, "config", "get", "embedding"], env))
        figures["search, none running"] = median_of(args.runs, lambda: timed(search, env))
        figures["serve to URL"] = median_of(args.runs, lambda: serve_to_url(env))
        with subprocess.Popen(
            [*APP, "serve"], env=env, cwd=REPO, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True
        ) as server:
            try:
                assert server.stdout is not None
                server.stdout.readline()  # the URL: the instance socket is recorded right after it
                deadline = time.monotonic() + 300
                while not (home / "instance.json").exists() and time.monotonic() < deadline:
                    time.sleep(0.05)
                subprocess.run(
                    search, env=env, cwd=REPO, capture_output=True, check=True
                )  # waits for its engine
                figures["search, instance running"] = median_of(args.runs, lambda: timed(search, env))
                figures["status, instance running"] = median_of(
                    args.runs, lambda: timed([*APP, "status"], env)
                )
            finally:
                server.send_signal(signal.SIGTERM)
                server.wait(timeout=300)
    report(figures, args.runs, args.hashing)


def report(figures: dict[str, float], runs: int, hashing: bool) -> None:
    bare = figures["python -c pass"]
    model = "hashing embedder" if hashing else "the settings' model"
    print(f"Startup, wall time, median of {runs} runs ({model}; {os.cpu_count()} CPUs)")
    print(f"{'command':<28}{'median s':>10}{'over bare s':>13}  target")
    for name, seconds in figures.items():
        target = ""
        if name in TARGETS:
            kind, limit = TARGETS[name]
            value = seconds - bare if kind == "over bare" else seconds
            target = f"≤ {limit:.1f} s {kind}: {'met' if value <= limit else 'NOT met'}"
        print(f"{name:<28}{seconds:>10.3f}{seconds - bare:>13.3f}  {target}")


if __name__ == "__main__":
    main()
