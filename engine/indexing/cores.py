"""How many torch threads the embedding model gets: the cores other processes left free, at least one.

Measured (issue 30): on a 2-core machine one torch thread embeds 1.15-1.37x faster than two as soon as
anything else runs, because an OpenMP team waits at every barrier for its slowest thread, and a thread
that shares its core with another process is slow; with the cores idle, two threads are faster. Torch's
default is one thread per core whatever runs, so indexing under load ran at 0.66 of the raw forward.

`CoreMeter.free()` reads the machine's busy time from /proc/stat and this process's own CPU time since
its previous call (one embedding batch ago: the window the next batch will most likely see), and counts
a core free when other processes did not use it. Where /proc/stat is missing (macOS, Windows) every
usable core counts as free, which is torch's default.
"""

from __future__ import annotations

import os
import sys
import threading
import time
from pathlib import Path

_STAT = Path("/proc/stat")
_TICKS = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100


def usable_cores() -> int:
    try:
        return len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        return os.cpu_count() or 1


def _busy_seconds() -> float | None:
    """CPU seconds all cores spent busy since boot (user, nice, system, irq, softirq, steal)."""
    try:
        fields = _STAT.read_text().split("\n", 1)[0].split()[1:]
    except OSError:
        return None
    ticks = [int(f) for f in fields]
    idle = ticks[3] + (ticks[4] if len(ticks) > 4 else 0)  # idle and iowait
    guest = sum(ticks[8:10]) if len(ticks) > 9 else 0  # already counted in user and nice
    return (sum(ticks) - idle - guest) / _TICKS


def _own_seconds() -> float:
    times = os.times()
    return times.user + times.system


def free_threads(cores: int, others_busy: float) -> int:
    """Cores minus the cores other processes kept busy (rounded), between one and `cores`."""
    return max(1, min(cores, cores - round(others_busy)))


class CoreMeter:
    """Free cores over the window since the previous call; see the module docstring."""

    def __init__(self) -> None:
        self.cores = usable_cores()
        self._last = (time.monotonic(), _busy_seconds(), _own_seconds())

    def free(self) -> int:
        now = (time.monotonic(), _busy_seconds(), _own_seconds())
        (then, busy_then, own_then), self._last = self._last, now
        wall = now[0] - then
        if now[1] is None or busy_then is None or wall <= 0.05:
            return self.cores
        others = (now[1] - busy_then - (now[2] - own_then)) / wall
        return free_threads(self.cores, max(0.0, others))


class TorchThreads:
    """Sets this thread's torch thread count to the free cores before each model slice (only when torch
    is loaded: the hashing and endpoint embedders never import it), and only when the count changes.
    The count is per OS thread under OpenMP, so what was set is remembered per thread."""

    def __init__(self, meter: CoreMeter | None = None) -> None:
        self.meter = meter or CoreMeter()
        self._set = threading.local()

    def fit(self) -> int | None:
        torch = sys.modules.get("torch")
        if torch is None:
            return None
        wanted = self.meter.free()
        if wanted != getattr(self._set, "threads", None):
            torch.set_num_threads(wanted)
            self._set.threads = wanted
        return wanted
