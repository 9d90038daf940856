"""The embedding model gets the cores other processes left free, at least one (issue 30 item 5)."""

from __future__ import annotations

import threading

from engine.indexing import cores
from engine.indexing.cores import CoreMeter, TorchThreads, free_threads


def test_a_core_another_process_keeps_busy_is_not_given_to_torch():
    assert free_threads(2, 1.0) == 1
    assert free_threads(2, 0.3) == 2
    assert free_threads(2, 2.0) == 1  # never fewer than one
    assert free_threads(16, 3.2) == 13


def test_the_meter_counts_what_other_processes_used_since_its_last_look(monkeypatch):
    clock, busy, own = iter([10.0, 11.0]), iter([100.0, 101.6]), iter([5.0, 5.6])
    monkeypatch.setattr(cores.time, "monotonic", lambda: next(clock))
    monkeypatch.setattr(cores, "_busy_seconds", lambda: next(busy))
    monkeypatch.setattr(cores, "_own_seconds", lambda: next(own))
    monkeypatch.setattr(cores, "usable_cores", lambda: 2)
    # over one second the machine was busy 1.6 core-seconds, 0.6 of them ours: another process held a core
    assert CoreMeter().free() == 1


def test_the_worker_threads_torch_setting_follows_the_meter():
    import torch

    class Meter:
        cores, answers = 2, iter([1, 2])

        def free(self) -> int:
            return next(self.answers)

    seen: list[int] = []

    def worker() -> None:
        threads = TorchThreads(Meter())  # type: ignore[arg-type]
        for _ in range(2):
            threads.fit()
            seen.append(torch.get_num_threads())

    thread = threading.Thread(target=worker)
    thread.start()
    thread.join(30)
    assert seen == [1, 2]
