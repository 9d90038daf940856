"""How many of the machine's cores other processes leave free now, for work that can spread over several.

Beside one busy process on two cores, the bulk keyword build on two DuckDB threads and two numpy slices
took 6.2-6.8 CPU-s and 5.5-5.7 s, on one thread 4.5-5.1 CPU-s and 4.7-5.2 s (bench/keyword_real_build.py
beside a busy loop, alternating; docs/keyword-writes.md, Session 9): the second thread found no free core
and paid its hand-offs for nothing. On a quiet machine two threads finish sooner. So such work asks how
many cores are free, as the embedding does (one torch thread per process on two busy cores, issue 30).

Free cores are the cores this process may run on, less those other processes kept busy: the machine's
busy time in /proc/stat less this process's own CPU time, over the time since the previous ask when that
was between MIN_WINDOW_S and MAX_AGE_S ago (the bulk writes of one build ask a few seconds apart), else
over a fresh MIN_WINDOW_S. Another process that got only part of a core beside this one's threads still
counts as wanting it: from half a core busy on, one core fewer. At least one. Where /proc/stat cannot be
read (macOS, Windows) every usable core counts as free.
"""

from __future__ import annotations

import os
import threading
import time
from collections.abc import Callable

MIN_WINDOW_S = 0.05
MAX_AGE_S = 30.0
STAT = "/proc/stat"

Sample = tuple[float, float, float]  # (monotonic time, the machine's busy CPU seconds, this process's)


def usable_cores() -> int:
    """The cores this process may run on (its affinity), not the machine's count."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except (AttributeError, OSError):  # macOS and Windows have no affinity call
        return os.cpu_count() or 1


def machine_busy_seconds(path: str = STAT) -> float | None:
    """CPU seconds every core of the machine spent on anything but idling since boot; None where unknown.
    /proc/stat's first line counts user, nice, system, idle, iowait, irq, softirq and steal time in clock
    ticks (guest time is inside user); idle and iowait are the free part."""
    try:
        with open(path, encoding="ascii") as stat:
            fields = stat.readline().split()
        ticks = [int(value) for value in fields[1:9]]
    except (OSError, ValueError, IndexError):
        return None
    if fields[0] != "cpu" or len(ticks) < 8:
        return None
    busy = sum(ticks) - ticks[3] - ticks[4]
    return busy / os.sysconf("SC_CLK_TCK")


class FreeCores:
    """`free_cores()` with its previous sample (module docstring); its sources can be given (tests)."""

    def __init__(
        self,
        busy: Callable[[], float | None] = machine_busy_seconds,
        own: Callable[[], float] = time.process_time,
        clock: Callable[[], float] = time.monotonic,
        sleep: Callable[[float], None] = time.sleep,
        cores: Callable[[], int] = usable_cores,
    ) -> None:
        self._busy, self._own, self._clock, self._sleep, self._cores = busy, own, clock, sleep, cores
        self._last: Sample | None = None
        self._lock = threading.Lock()

    def __call__(self) -> int:
        cores = self._cores()
        with self._lock:
            now = self._sample()
            if now is None:
                return cores
            last = self._last
            if last is None or not MIN_WINDOW_S <= now[0] - last[0] <= MAX_AGE_S:
                self._sleep(MIN_WINDOW_S)
                last, now = now, self._sample()
                if now is None:
                    return cores
            self._last = now
        elapsed = now[0] - last[0]
        others = ((now[1] - last[1]) - (now[2] - last[2])) / elapsed if elapsed > 0 else 0.0
        return max(1, min(cores, cores - int(max(others, 0.0) + 0.5)))

    def _sample(self) -> Sample | None:
        busy = self._busy()
        return None if busy is None else (self._clock(), busy, self._own())


free_cores = FreeCores()
