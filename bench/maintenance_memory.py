"""Peak memory of the vector store's first maintenance alone (issue 30): the part of an indexing run that
sets its high-water mark (bench/index_memory.py runs the whole CLI; this runs only that step, in a minute).

Writes `--rows` one-chunk files into a fresh VectorIndex the way indexing does (64 files per write, so
~800 small fragments), then, in a fresh process with malloc limited to two arenas as `app.py` does,
opens it, runs one search and `VectorIndex.optimize()` (the path B-tree, the first HNSW-SQ build, the
compaction) and prints the RSS before it and the high-water mark during it (VmHWM, reset just before).
Run it from two checkouts (PYTHONPATH) to compare their maintenance.

    python bench/maintenance_memory.py [--rows 50000] [--repeat 2]
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _common import memory_kb  # noqa: E402

BATCH = 64  # files per write, as engine/indexing/semantic.py BATCH_FILES
DIM = 384


def write_table(directory: Path, rows: int) -> None:
    from engine.retrieval.vectors import VectorIndex

    index, rng = VectorIndex(directory, DIM), np.random.default_rng(0)
    for start in range(0, rows, BATCH):
        ids = range(start, min(rows, start + BATCH))
        block = rng.standard_normal((len(ids), DIM)).astype(np.float32)
        block /= np.linalg.norm(block, axis=1, keepdims=True)
        index.upsert_many(
            [
                (f"/r/Docs/part{i // 1000:03d}/note{i:06d}.txt", [f"note {i}"], block[n : n + 1])
                for n, i in enumerate(ids)
            ]
        )


def measure(directory: Path) -> None:
    from engine import native_memory

    native_memory.limit_arenas()  # as app.py does before any thread starts
    from engine.retrieval.vectors import VectorIndex

    index = VectorIndex(directory, DIM)
    index.search(np.full(DIM, DIM**-0.5, np.float32), 10)
    before = memory_kb(os.getpid())[0] // 1024
    Path("/proc/self/clear_refs").write_text("5")  # VmHWM := VmRSS
    began, cpu = time.monotonic(), time.process_time()
    index.optimize()
    peak = memory_kb(os.getpid())[1] // 1024
    print(
        f"maintenance: RSS {before} MB before, peak {peak} MB (+{peak - before}), "
        f"{time.monotonic() - began:.1f} s wall, {time.process_time() - cpu:.1f} s CPU, "
        f"ANN index {index.has_ann()}, load {os.getloadavg()[0]:.1f}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, default=50_000)
    parser.add_argument("--repeat", type=int, default=2)
    parser.add_argument("--measure", type=Path, help=argparse.SUPPRESS)  # the child's part
    args = parser.parse_args()
    if args.measure is not None:
        measure(args.measure)
        return
    with tempfile.TemporaryDirectory(prefix="sensetree-maintenance-memory-") as tmp:
        source = Path(tmp) / "source"
        write_table(source, args.rows)
        for n in range(args.repeat):
            copy = Path(tmp) / f"run{n}"
            subprocess.run(["cp", "-r", str(source), str(copy)], check=True)
            subprocess.run([sys.executable, __file__, "--measure", str(copy)], check=True)
    print(f"SUMMARY maintenance memory: {args.rows} rows written {BATCH} per write (peaks above)")


if __name__ == "__main__":
    main()
