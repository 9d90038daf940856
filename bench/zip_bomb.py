"""What a DOCX zip bomb costs: peak-RSS growth and time of `extract()` (which checks the zip directory
first), and with `--unguarded` of python-docx parsing the same file directly (what extract did before).

Each measurement runs in its own process (peak RSS is per process), after the parsers are imported.

    python bench/zip_bomb.py [--inflated-mb 200] [--unguarded]
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tests.indexing.bombs import docx_bomb

REPO = Path(__file__).resolve().parents[1]

MEASURE = """
import json, resource, sys, time
from engine.errors import ExtractionError
from engine.indexing.extract import extract
from engine.indexing.extractors.base import TextBudget
from engine.indexing.extractors.office import read_docx
before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
start = time.perf_counter()
try:
    if sys.argv[2] == "guarded":
        outcome = f"{len(extract(sys.argv[1]).text):,} characters"
    else:
        budget = TextBudget(1_000_000)
        read_docx(sys.argv[1], budget)
        outcome = f"{len(budget.text()):,} characters"
except ExtractionError as exc:
    outcome = "refused: " + exc.reason
seconds = time.perf_counter() - start
grew = (resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - before) / 1024
print(json.dumps({"outcome": outcome, "seconds": seconds, "grew_mb": grew}))
"""


def measure(path: Path, mode: str) -> dict:
    done = subprocess.run(
        [sys.executable, "-c", MEASURE, str(path), mode], cwd=REPO, capture_output=True, text=True, check=True
    )
    return json.loads(done.stdout.strip().splitlines()[-1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--inflated-mb", type=int, default=200)
    parser.add_argument(
        "--unguarded", action="store_true", help="also let python-docx parse it (needs ~2 GB)"
    )
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        bomb = docx_bomb(Path(tmp) / "bomb.docx", args.inflated_mb)
        print(
            f"bomb: {bomb.stat().st_size / 1e6:.2f} MB on disk, "
            f"word/document.xml inflates to ~{args.inflated_mb} MB"
        )
        for mode in ("guarded", "unguarded") if args.unguarded else ("guarded",):
            m = measure(bomb, mode)
            print(
                f"{mode:>9}: peak RSS +{m['grew_mb']:,.1f} MB, {m['seconds'] * 1000:,.1f} ms — "
                f"{m['outcome'][:110]}"
            )


if __name__ == "__main__":
    main()
