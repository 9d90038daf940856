"""A quit signal at any point of start-up ends `sensetree serve` cleanly (issue 31, N8: signals in the
first second aborted with SIGABRT, and a quit during the query model's warm-up printed "cannot schedule
new futures after interpreter shutdown").

Each case starts a real `sensetree -v serve` on the settings' own model (its warm-up loads torch and the
weights, the slow native work a quit used to cut into) and sends SIGTERM or SIGINT as soon as start-up
logs the phase under test (engine/assembly.py logs each one), so the signal lands in that phase or
just after it, deterministically ordered with start-up. The process must end by itself with 0, or 130
when the signal came before serving had a quit action (app.main: "Interrupted."), never killed by a
signal or aborted, and without a traceback or a fatal error on its stderr."""

from __future__ import annotations

import json
import os
import queue
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from tests.indexing.helpers import write_docs

REPO = Path(__file__).resolve().parents[1]
BOUND_S = 180.0
PHASES = (
    "opening the catalog",
    "opening the stores",
    "repairing the index",
    "recovering interrupted plans",
    "starting the background work",
    "ready",
)
CLEAN_EXITS = (0, 130)
DOCS = {f"note{i}.txt": f"Minutes of meeting {i}: the orchard budget and the greenhouse." for i in range(6)}

pytestmark = pytest.mark.model


def _lines(stream: object, into: queue.Queue[str | None]) -> None:
    for line in stream:  # type: ignore[attr-defined]
        into.put(line)
    into.put(None)


def _signal_at(
    phase: str, signum: int, proc: subprocess.Popen[str], lines: queue.Queue[str | None], seen: list[str]
) -> None:
    deadline = time.monotonic() + BOUND_S
    while True:
        line = lines.get(timeout=max(0.0, deadline - time.monotonic()))
        if line is None:
            raise AssertionError(f"serve ended before start-up reached {phase!r}: {''.join(seen)}")
        seen.append(line)
        if f"start-up: {phase}" in line:
            proc.send_signal(signum)
            return


def _quit_at(phase: str, signum: int, home: Path, docs: Path) -> tuple[int, str]:
    """Start serving, send `signum` once start-up logs `phase`; the exit status and the whole stderr."""
    (home / "settings.json").write_text(json.dumps({"roots": [str(docs)]}), encoding="utf-8")
    env = {**os.environ, "PYTHONPATH": str(REPO), "SENSETREE_HOME": str(home)}
    with subprocess.Popen(
        [sys.executable, str(REPO / "app.py"), "-v", "serve"],
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    ) as proc:
        lines: queue.Queue[str | None] = queue.Queue()
        reader = threading.Thread(target=_lines, args=(proc.stderr, lines), daemon=True)
        reader.start()
        seen: list[str] = []
        try:
            _signal_at(phase, signum, proc, lines, seen)
            code = proc.wait(timeout=BOUND_S)
            reader.join(BOUND_S)
        finally:
            if proc.poll() is None:
                proc.kill()
                proc.wait(timeout=30)
    while not lines.empty() and (line := lines.get_nowait()) is not None:
        seen.append(line)
    return code, "".join(seen)


@pytest.mark.parametrize("phase", PHASES)
def test_a_quit_signal_in_any_phase_of_start_up_ends_serve_cleanly(tmp_path, sensetree_home, phase):
    docs = write_docs(tmp_path / "Docs", DOCS)
    signum = signal.SIGTERM if PHASES.index(phase) % 2 == 0 else signal.SIGINT
    code, stderr = _quit_at(phase, signum, sensetree_home, docs)
    assert code in CLEAN_EXITS, f"exit status {code} after {signum.name} at {phase!r}:\n{stderr}"
    assert "Traceback" not in stderr and "Fatal Python error" not in stderr, stderr
    assert "cannot schedule new futures" not in stderr, stderr
