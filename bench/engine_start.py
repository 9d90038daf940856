"""What building the Engine costs the window's first bridge answer (issue 15), and what it imports.

Each run is a fresh `python` that times `import engine.engine` and then `Engine(home)` on a new data dir
(background threads off, so only the start itself is timed), and lists which of the packages the engine
defers to first use it imported anyway. `--tree PATH` times another checkout's code the same way (e.g.
`--tree /work/main` for the code before a change), interleaved with this one in the same run, so the
two share the machine's load; the load average is printed next to the figures.

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
started = time.perf_counter()
import engine.engine
imported = time.perf_counter()
engine = engine.engine.Engine(sys.argv[1], background=False)
built = time.perf_counter()
engine.close()
loaded = sorted({name.split(".")[0] for name in sys.modules} & set(json.loads(sys.argv[2])))
print(json.dumps({"import_s": imported - started, "build_s": built - imported, "loaded": loaded}))
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
        imports = statistics.median(float(r["import_s"]) for r in results)  # type: ignore[arg-type]
        builds = statistics.median(float(r["build_s"]) for r in results)  # type: ignore[arg-type]
        loaded = results[-1]["loaded"]
        print(
            f"{name}: import engine.engine {imports:.2f} s, Engine() {builds:.2f} s "
            f"(median of {args.runs}); deferred packages imported anyway: {loaded or 'none'}"
        )
    print("load average at end: " + ", ".join(f"{x:.2f}" for x in os.getloadavg()))
    return 0


if __name__ == "__main__":
    sys.exit(main())
