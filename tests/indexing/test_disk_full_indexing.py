"""A full disk pauses indexing with one notice and resumes by itself (issue 31, N7: 4,948 "disk is full"
tracebacks in 90 s and no notice)."""

from __future__ import annotations

import logging
import sqlite3
import threading

from engine.events import NOTICE
from engine.indexing import worker as worker_mod
from tests.indexing.helpers import make_engine

WAIT_S = 20.0


def test_a_full_disk_pauses_indexing_with_one_notice_and_it_resumes_when_space_returns(
    sensetree_home, monkeypatch, caplog
):
    engine = make_engine(sensetree_home)
    worker = engine.parts.index.worker
    notices: list[str] = []
    engine.events.subscribe(lambda _topic, payload: notices.append(payload["message"]), NOTICE)
    monkeypatch.setattr(worker_mod, "DISK_FULL_RETRY_S", 0.01)
    tries, resumed = [], threading.Event()
    real = worker.run_pending

    def full_five_times(should_stop):
        tries.append(1)
        if len(tries) <= 5:
            raise sqlite3.OperationalError("database or disk is full")
        resumed.set()
        return real(should_stop)

    monkeypatch.setattr(worker, "run_pending", full_five_times)
    try:
        with caplog.at_level(logging.INFO, logger="engine.indexing.worker"):
            worker.start()
            assert resumed.wait(WAIT_S)
            worker.stop()
    finally:
        engine.running.close()
    assert [n.split(":")[0] for n in notices] == ["Indexing is paused", "Indexing resumed"]
    assert not [r for r in caplog.records if r.exc_info]  # no traceback per try
    assert len([r for r in caplog.records if "disk is full" in r.getMessage()]) == 1
