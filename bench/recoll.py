"""Keyword time-to-searchable against Recoll, on the same generated folder of mixed documents.

Recoll (Xapian) is what a Linux user picks for desktop search; its whole job is the keyword index, so
this is its own ground. Both start from nothing on the same folder (bench/mixed_folder.py: real text,
txt/md/html/docx/pdf, ≥ 2,000 files by default) and the clock runs from the start of the indexing
process until a query for the word only the *last* generated file holds returns that file:

- Recoll: `recollindex` with its defaults and a throw-away RECOLL_CONFDIR, while a fresh `recollq`
  asks for the word every POLL_S (Xapian answers readers while it writes);
- SenseTree: a fresh process on a data folder whose settings name the folder (as recoll.conf's
  `topdirs` does) that builds the engine as `sensetree serve` does (app.build_engine, background: the
  stores open on their thread, the roots are scanned, the query model loads once the keyword phase
  is idle) and asks the keyword arm (`keyword_search`, the IPC the page calls first) every POLL_S.

Prints both times, Recoll's whole indexing run, and the ratio against the target (≤ 1.0×); for SenseTree
also the CPU of its process and of its reading process (engine/indexing/extract_process.py) apart. This
bench installs nothing: without `recollindex` on PATH it says so and times SenseTree alone, as it does
with `--no-recoll` (to compare two trees of SenseTree: run it from each, alternated).

    python bench/recoll.py [--files 2000] [--repeats 1] [--no-recoll]
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

REPO = Path(__file__).resolve().parents[1]
POLL_S = 0.2
BOUND_S = 900.0
TARGET = 1.0


@dataclass
class Race:
    found_s: float  # from the indexer's start until the last file is found
    cpu_s: float  # the indexing process's CPU time (with the filters it ran), for a loaded machine
    whole_s: float = 0.0  # the whole indexing run (Recoll)
    note: str = ""  # what the side said (SenseTree's progress; Recoll's missing helpers)
    missing: list[str] = field(default_factory=list)


def _cpu_of(process: subprocess.Popen) -> float:
    """The finished process's user + system CPU seconds, its waited-for children included (wait4)."""
    _, _, usage = os.wait4(process.pid, 0)
    process.returncode = 0
    return usage.ru_utime + usage.ru_stime


def recoll_run(folder: Path, word: str, last: Path, work: Path) -> Race:
    """`recollindex` from nothing, `recollq` asking for `word` meanwhile (its CPU is not counted)."""
    conf = work / "recoll-conf"
    conf.mkdir()
    (conf / "recoll.conf").write_text(f"topdirs = {folder}\n", encoding="utf-8")
    env = {**os.environ, "RECOLL_CONFDIR": str(conf)}
    query = ["recollq", "-c", str(conf), "-b", word]
    start = time.perf_counter()
    indexer = subprocess.Popen(
        ["recollindex", "-c", str(conf)], env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
    )
    found = None
    while found is None and time.perf_counter() - start < BOUND_S:
        answer = subprocess.run(query, env=env, capture_output=True, text=True, check=False)
        if str(last) in answer.stdout:
            found = time.perf_counter() - start
        else:
            time.sleep(POLL_S)
    cpu = _cpu_of(indexer)
    whole = time.perf_counter() - start
    missing = conf / "missing"
    helpers = missing.read_text(encoding="utf-8").split() if missing.exists() else []
    return Race(found if found is not None else float("inf"), cpu, whole, missing=helpers)


def sensetree_run(folder: Path, word: str, last: Path, work: Path) -> Race:
    """A fresh SenseTree process until its keyword search finds `last` by `word` (its polls counted)."""
    home = work / "sensetree-home"
    home.mkdir()
    (home / "settings.json").write_text(json.dumps({"roots": [str(folder)]}), encoding="utf-8")
    env = {**os.environ, "SENSETREE_HOME": str(home), "PYTHONPATH": str(REPO)}
    start = time.perf_counter()
    child = subprocess.Popen(
        [sys.executable, __file__, "--child", str(folder), word, str(last)],
        env=env,
        stdout=subprocess.PIPE,
        stderr=(work / "sensetree.log").open("w"),
        text=True,
    )
    assert child.stdout is not None
    line = child.stdout.readline().strip()
    elapsed = time.perf_counter() - start
    split = child.stdout.readline().strip()  # its CPU: its own, its reading process's
    cpu = _cpu_of(child)  # the child leaves as soon as it has printed
    if not line.startswith("found"):
        return Race(float("inf"), cpu, note=line or "the child printed nothing")
    return Race(elapsed, cpu, note="; ".join(filter(None, [line.partition(" ")[2], split])))


def child(folder: str, word: str, last: str) -> None:
    """The SenseTree side, in its own process: built as `sensetree serve` builds it."""
    from app import build_engine

    engine = build_engine(background=True)  # the settings name the folder, as recoll.conf's topdirs
    start = time.perf_counter()
    while time.perf_counter() - start < BOUND_S:
        if any(hit.path == last for hit in engine.keyword_search(query=word, limit=5)):
            keyword = engine.indexing_stats().keyword
            print(f"found; keyword phase {keyword.done}/{keyword.total} files", flush=True)
            # the parent has its time; closing the stores is not part of it, but the CPU of the reading
            # process (PDF, DOCX, HTML: engine/indexing/extract_process.py) is ours: waited for, it counts
            engine.parts.index.indexer.extraction.stop()
            own, reading = (
                resource.getrusage(who) for who in (resource.RUSAGE_SELF, resource.RUSAGE_CHILDREN)
            )
            own_s, reading_s = own.ru_utime + own.ru_stime, reading.ru_utime + reading.ru_stime
            print(f"this process {own_s:.2f} s, its reading process {reading_s:.2f} s", flush=True)
            os._exit(0)
        time.sleep(POLL_S)
    print("not found", flush=True)
    os._exit(1)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--files", type=int, default=2000)
    parser.add_argument("--repeats", type=int, default=1)
    parser.add_argument(
        "--no-recoll", action="store_true", help="time SenseTree alone (to compare two trees)"
    )
    parser.add_argument("--child", nargs=3, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        child(*args.child)
        return
    import mixed_folder  # here, not at the top: the SenseTree child's clock runs while it imports

    recoll = shutil.which("recollindex") is not None and shutil.which("recollq") is not None
    if args.no_recoll:
        recoll = False
    elif not recoll:
        print("recollindex/recollq not on PATH (Debian: apt-get install recollcmd): timing SenseTree alone")
    ours: list[Race] = []
    theirs: list[Race] = []
    with tempfile.TemporaryDirectory() as tmp:
        tmp = os.path.realpath(tmp)  # the engine keeps folders with symlinks resolved
        folder = Path(tmp) / "Documents"
        paths = mixed_folder.write(folder, args.files)
        word, last = mixed_folder.marker(len(paths) - 1), paths[-1]
        counts = {fmt: sum(p.suffix == f".{fmt}" for p in paths) for fmt in mixed_folder.FORMATS}
        print(f"{len(paths)} documents ({', '.join(f'{n} {f}' for f, n in counts.items())}), real text")
        for r in range(args.repeats):
            run = Path(tmp) / f"run{r}"
            run.mkdir()
            sides = [("SenseTree", sensetree_run, ours)]
            sides += [("Recoll", recoll_run, theirs)] if recoll else []
            for name, race, kept in sides if r % 2 == 0 else sides[::-1]:  # who goes first alternates
                kept.append(race(folder, word, last, run))
                _print_race(name, kept[-1])
    _summary(ours, theirs)


def _print_race(name: str, race: Race) -> None:
    said = [race.note] if race.note else []
    said += [f"recollindex ran {race.whole_s:.2f} s"] if race.whole_s else []
    said += [f"missing helpers: {' '.join(race.missing)}"] if race.missing else []
    print(
        f"  {name:9} keyword-searchable {race.found_s:6.2f} s, CPU {race.cpu_s:6.2f} s ({'; '.join(said)})",
        flush=True,
    )


def _summary(ours: list[Race], theirs: list[Race]) -> None:
    mine = statistics.median(r.found_s for r in ours)
    if not theirs:
        print(f"SUMMARY SenseTree keyword time-to-searchable {mine:.2f} s; Recoll not installed, no ratio")
        return
    other = statistics.median(r.found_s for r in theirs)
    cpu = statistics.median(r.cpu_s for r in ours) / statistics.median(r.cpu_s for r in theirs)
    ratio = mine / other
    print(
        f"SUMMARY keyword time-to-searchable: SenseTree {mine:.2f} s, Recoll {other:.2f} s: ×{ratio:.2f} "
        f"(target ≤ {TARGET:.1f}× {'met' if ratio <= TARGET else 'MISSED'}); CPU ×{cpu:.2f}; "
        f"load average {os.getloadavg()[0]:.1f}",
        flush=True,
    )


if __name__ == "__main__":
    main()
