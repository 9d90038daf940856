"""Peak memory of every extractor on a large or hostile file of its format, beside a tiny one.

    python bench/extractor_memory.py

Builds the inputs of tests/indexing/large_inputs.py in a temporary folder, measures each `extract()` in a
process forked for it from one warm process (tests/indexing/extractor_memory.py: growth of peak RSS over
the fork's start), and prints one row per format: the file's size, the growth for the large and the tiny
file, their difference (what tests/indexing/test_extractor_memory.py bounds) and the time taken.
"""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tests.indexing.extractor_memory import measured  # noqa: E402
from tests.indexing.large_inputs import BUILDERS  # noqa: E402


def main() -> int:
    with tempfile.TemporaryDirectory() as folder:
        pairs = {
            extension: (large(Path(folder) / f"large.{extension}"), tiny(Path(folder) / f"tiny.{extension}"))
            for extension, (large, tiny) in BUILDERS.items()
        }
        reports = measured([path for pair in pairs.values() for path in pair])
        print(f"{'format':7} {'file MB':>8} {'large MB':>9} {'tiny MB':>8} {'diff MB':>8} {'large s':>8}")
        for extension, (large, tiny) in pairs.items():
            big, small = reports[str(large)], reports[str(tiny)]
            size = large.stat().st_size / 1e6
            grew, base = big["grew_mb"], small["grew_mb"]
            print(f"{extension:7} {size:8.1f} {grew:9.1f} {base:8.1f} {grew - base:8.1f} {big['s']:8.2f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
