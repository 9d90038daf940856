"""What building the Engine costs the window's first bridge answer (issue 15), and what it imports.

Each run is a fresh `python` that imports the engine the way `app.build_engine` does (`app.engine_class()`,
which imports LanceDB's namespace client without building its pydantic schemas; a tree without it:
`import engine.engine`) and then builds `Engine(home)` on a new data dir (background threads off, so only
the start itself is timed), and lists which of the packages the engine defers to first use it imported
anyway. Wall-clock seconds and CPU seconds of the process are both printed: on this shared machine the
wall clock mostly measures the load, the CPU time what the start costs. `--tree PATH` times another
checkout's code the same way (e.g. `--tree /work/main` for the code before a change), interleaved with
this one in the same run, so the two share the machine's load; the load average is printed next to the
figures.

A second fresh `python` per run builds the engine as the window and the server do (`defer_stores=True`,
stores opened on their own thread; a tree without it builds synchronously) and times its first answer
(`app_version`, the page's first call that bench/package.py waits for) and the moment its stores are open
(its start-up notices returned): what the window's first bridge answer still waits for, and what it no
longer does.

    python bench/engine_start.py [--runs 3] [--tree OTHER_CHECKOUT]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
DEFERRED = ("openai", "mcp", "pypdf", "docx", "openpyxl", "pptx", "odf", "bs4", "ebooklib", "torch")
PROBE = """
import json, sys, time
started, cpu_started = time.perf_counter(), time.process_time()
import app
if hasattr(app, "engine_class"):
    Engine = app.engine_class()
else:
    from engine.engine import Engine
imported, cpu_imported = time.perf_counter(), time.process_time()
engine = Engine(sys.argv[1], background=False)
built, cpu_built = time.perf_counter(), time.process_time()
getattr(engine, "running", engine).close()  # a tree before engine/running.py closes the Engine itself
loaded = sorted({name.split(".")[0] for name in sys.modules} & set(json.loads(sys.argv[2])))
print(json.dumps({"import_s": imported - started, "build_s": built - imported,
                  "import_cpu_s": cpu_imported - cpu_started, "build_cpu_s": cpu_built - cpu_imported,
                  "loaded": loaded}))
"""

FIRST_ANSWER = """
import inspect, json, sys, time
started, cpu_started = time.perf_counter(), time.process_time()
import app
Engine = app.engine_class() if hasattr(app, "engine_class") else __import__("engine.engine").engine.Engine
running = sys.modules.get("engine.running")  # the start options' home since engine/running.py
deferred = "defer_stores" in inspect.signature(getattr(running, "Running", Engine)).parameters
engine = Engine(sys.argv[1], background=False, **({"defer_stores": True} if deferred else {}))
engine.app_version()
answered, cpu_answered = time.perf_counter(), time.process_time()
(engine.running.notices if hasattr(engine, "running") else engine.startup_notices)()
opened, cpu_opened = time.perf_counter(), time.process_time()
getattr(engine, "running", engine).close()
print(json.dumps({"answer_s": answered - started, "answer_cpu_s": cpu_answered - cpu_started,
                  "open_s": opened - started, "open_cpu_s": cpu_opened - cpu_started, "deferred": deferred}))
"""


def one_start(tree: Path, work: Path, probe: str = PROBE) -> dict[str, object]:
    home = Path(tempfile.mkdtemp(dir=work))
    done = subprocess.run(
        [sys.executable, "-c", probe, str(home), json.dumps(DEFERRED)],
        cwd=tree,
        env={"PYTHONPATH": str(tree), "HOME": str(work), "PATH": os.environ.get("PATH", "/usr/bin:/bin")},
        capture_output=True,
        text=True,
        timeout=600,
        check=True,
    )
    result: dict[str, object] = json.loads(done.stdout.splitlines()[-1])
    return result


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--tree", type=Path, default=None, help="another checkout, timed in the same run")
    args = parser.parse_args()
    trees = [("this tree", REPO)] + ([("--tree " + str(args.tree), args.tree.resolve())] if args.tree else [])
    print("load average at start: " + ", ".join(f"{x:.2f}" for x in os.getloadavg()))
    runs: dict[str, list[dict[str, object]]] = {name: [] for name, _ in trees}
    answers: dict[str, list[dict[str, object]]] = {name: [] for name, _ in trees}
    with tempfile.TemporaryDirectory(prefix="sensetree-engine-start-") as tmp:
        for _ in range(args.runs):  # interleaved: every tree sees the same load
            for name, tree in trees:
                runs[name].append(one_start(tree, Path(tmp)))
                answers[name].append(one_start(tree, Path(tmp), FIRST_ANSWER))
    for name, results in runs.items():
        med = {
            key: statistics.median(float(r[key]) for r in results)  # type: ignore[arg-type]
            for key in ("import_s", "build_s", "import_cpu_s", "build_cpu_s")
        }
        loaded = results[-1]["loaded"]
        print(
            f"{name}: import the engine {med['import_s']:.2f} s (CPU {med['import_cpu_s']:.2f} s), "
            f"Engine() {med['build_s']:.2f} s (CPU {med['build_cpu_s']:.2f} s) "
            f"(median of {args.runs}); deferred packages imported anyway: {loaded or 'none'}"
        )
        first = {
            key: statistics.median(float(r[key]) for r in answers[name])  # type: ignore[arg-type]
            for key in ("answer_s", "answer_cpu_s", "open_s", "open_cpu_s")
        }
        how = "stores opened in the background" if answers[name][-1]["deferred"] else "stores opened first"
        print(
            f"{name}: first answer (app_version) {first['answer_s']:.2f} s "
            f"(CPU {first['answer_cpu_s']:.2f} s), stores open {first['open_s']:.2f} s "
            f"(CPU {first['open_cpu_s']:.2f} s) ({how}; median of {args.runs})"
        )
    print("load average at end: " + ", ".join(f"{x:.2f}" for x in os.getloadavg()))
    return 0


if __name__ == "__main__":
    sys.exit(main())
