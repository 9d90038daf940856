"""Peak memory of `extract()` per file, each measured in a process forked for it from one warm process
that has every parser loaded: the growth of that fork's peak RSS (ru_maxrss) over its RSS when it began.
The test compares a large file's growth with a tiny file's of the same format, measured the same way, so
import costs and allocator noise fall out."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]

CHILD = """
import json, os, resource, sys, time
from engine.errors import ExtractionError
from engine.indexing.extract import extract
from engine.indexing.extractors import markup, office, opendocument, pdf, slides, spreadsheet
import ebooklib.epub, striprtf.striprtf  # every parser loaded before any fork

def measure(path):
    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:
        os.close(read)
        resource.setrlimit(resource.RLIMIT_CPU, (120, 120))  # never outlives a test that gave up on it
        before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
        start = time.perf_counter()
        try:
            reason, chars = None, len(extract(path).text)
        except ExtractionError as exc:
            reason, chars = exc.reason, 0
        grew = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - before
        report = {"grew_mb": grew / 1024, "chars": chars, "reason": reason, "s": time.perf_counter() - start}
        os.write(write, json.dumps(report).encode())
        os._exit(0)
    os.close(write)
    with os.fdopen(read) as answer:
        report = json.loads(answer.read())
    os.waitpid(pid, 0)
    return report

print(json.dumps({path: measure(path) for path in sys.argv[1:]}))
"""


def measured(paths: list[Path]) -> dict[str, dict]:
    """For each path: {grew_mb, chars, reason, s} of `extract()` in a fork of one warm process."""
    return run_child(CHILD, [str(path) for path in paths])


def run_child(script: str, args: list[str]) -> dict:
    """Run `script` in a fresh Python with the repository importable; the JSON of its last line."""
    done = subprocess.run(
        [sys.executable, "-c", script, *args],
        cwd=REPO,
        capture_output=True,
        text=True,
        env={**os.environ, "PYTHONPATH": str(REPO)},
        timeout=300,
        check=True,
    )
    return json.loads(done.stdout.strip().splitlines()[-1])
