"""Peak memory of `sensetree index` over a folder of many tiny files (issue 30: 50,000 peaked at 1.9 GB).

Writes `--files` small text files (a few lines each, in sub-folders of 1,000), runs the real CLI
(`app.py index --quiet FOLDER`, no instance running, so the stores are opened in that process) on a
throw-away data folder, samples the process's RSS from /proc while it runs and prints the trajectory
and the peak (the kernel's high-water mark, VmHWM). Target: peak < 600 MB at 50,000 files.

The index is built with the hashing embedder by default (what grows with the file count is the queue,
the catalog, the keyword index and the progress bookkeeping, not the model; `--model` gives a real one,
whose weights then add their fixed few hundred MB).

    python bench/index_memory.py [--files 50000] [--model hashing-384]
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _common import REPO, TOPIC_WORDS, memory_kb  # noqa: E402

TARGET_MB = 600.0


def write_folder(root: Path, files: int) -> None:
    for n in range(files):
        sub = root / f"part{n // 1000:03d}"
        if n % 1000 == 0:
            sub.mkdir(parents=True)
        words = " ".join(TOPIC_WORDS[(n * 3 + k) % len(TOPIC_WORDS)] for k in range(12))
        (sub / f"note{n:06d}.txt").write_text(f"note {n}\n{words}\n", "utf-8")


def run_index(home: Path, root: Path, every_s: float) -> tuple[float, float, list[tuple[float, float]]]:
    """Seconds, peak MB and (seconds, RSS MB) samples of one `app.py index` run."""
    env = {**os.environ, "SENSETREE_HOME": str(home), "PYTHONPATH": str(REPO)}
    began = time.monotonic()
    proc = subprocess.Popen(
        [sys.executable, str(REPO / "app.py"), "index", "--quiet", str(root)],
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    )
    samples, peak_kb = [], 0
    while True:
        try:
            proc.wait(every_s)
            break
        except subprocess.TimeoutExpired:
            rss, hwm = memory_kb(proc.pid)
            peak_kb = max(peak_kb, hwm)
            samples.append((time.monotonic() - began, rss / 1024))
    if proc.returncode != 0:
        assert proc.stderr is not None
        raise RuntimeError(f"index failed ({proc.returncode}): {proc.stderr.read()[-2000:]}")
    return time.monotonic() - began, peak_kb / 1024, samples


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--files", type=int, default=50_000)
    parser.add_argument("--model", default="hashing-384", help="embedding model (hashing-384: no model)")
    parser.add_argument("--every", type=float, default=1.0, help="seconds between RSS samples")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="sensetree-index-memory-") as tmp:
        home, root = Path(tmp) / "home", Path(tmp) / "Docs"
        home.mkdir()
        (home / "settings.json").write_text(json.dumps({"embedding": {"model": args.model}}), "utf-8")
        write_folder(root, args.files)
        seconds, peak, samples = run_index(home, root, args.every)
    trail = " ".join(f"{rss:.0f}" for _, rss in samples[:: max(1, len(samples) // 15)])
    print(f"indexed {args.files} tiny files through `app.py index` in {seconds:.0f} s ({args.model})")
    print(f"  RSS along the way (MB, every {args.every:g} s, thinned): {trail}")
    verdict = "met" if peak < TARGET_MB else "MISSED"
    print(f"SUMMARY index memory: peak {peak:.0f} MB at {args.files} files (< {TARGET_MB:.0f} MB {verdict})")


if __name__ == "__main__":
    main()
