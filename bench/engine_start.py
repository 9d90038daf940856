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
engine.close()
loaded = sorted({name.split(".")[0] for name in sys.modules} & set(json.loads(sys.argv[2])))
print(json.dumps({"import_s": imported - started, "build_s": built - imported,
                  "import_cpu_s": cpu_imported - cpu_started, "build_cpu_s": cpu_built - cpu_imported,
                  "loaded": loaded}))
"""


def one_start(tree: Path, work: Path) -> dict[str, object]:
    home = Path(tempfile.mkdtemp(dir=work))
    done = subprocess.run(
        [sys.executable, "-c", PROBE, str(home), json.dumps(DEFERRED)],
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
    with tempfile.TemporaryDirectory(prefix="sensetree-engine-start-") as tmp:
        for _ in range(args.runs):  # interleaved: every tree sees the same load
            for name, tree in trees:
                runs[name].append(one_start(tree, Path(tmp)))
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
    print("load average at end: " + ", ".join(f"{x:.2f}" for x in os.getloadavg()))
    return 0


if __name__ == "__main__":
    sys.exit(main())
