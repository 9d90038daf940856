"""One handle per live thread: a thread's handle is pooled or closed when the thread ends (issue 30)."""

from __future__ import annotations

import threading

from engine.db import Database
from engine.per_thread import PerThread


class Handles:
    """Handles that record being opened, reset and closed."""

    def __init__(self) -> None:
        self.opened: list[int] = []
        self.closed: list[int] = []
        self.reset: list[int] = []

    def open(self) -> int:
        self.opened.append(len(self.opened))
        return self.opened[-1]

    def per_thread(self, idle: int) -> PerThread[int]:
        return PerThread(self.open, self.closed.append, idle=idle, reset=self.reset.append)


def run_in_threads(count: int, work) -> list:
    """Run `work` on `count` threads one after another, each ended (joined) before the next starts."""
    seen = []
    for _ in range(count):
        thread = threading.Thread(target=lambda: seen.append(work()))
        thread.start()
        thread.join(10)
        assert not thread.is_alive()
    return seen


def test_threads_that_come_and_go_reuse_one_handle_instead_of_opening_one_each():
    handles = Handles()
    per_thread = handles.per_thread(idle=2)
    seen = run_in_threads(50, per_thread.get)
    assert handles.opened == [0] and seen == [0] * 50
    assert handles.reset == [0] * 50 and per_thread.open_count() == 1


def test_threads_alive_together_get_their_own_handles_and_the_pool_keeps_only_its_bound():
    handles = Handles()
    per_thread = handles.per_thread(idle=2)
    started, release = threading.Barrier(6), threading.Event()
    seen: list[int] = []

    def hold() -> None:
        seen.append(per_thread.get())
        started.wait(10)
        release.wait(10)

    threads = [threading.Thread(target=hold) for _ in range(5)]
    for thread in threads:
        thread.start()
    started.wait(10)
    assert sorted(seen) == [0, 1, 2, 3, 4] and per_thread.open_count() == 5
    release.set()
    for thread in threads:
        thread.join(10)
    assert len(handles.closed) == 3 and per_thread.open_count() == 2


def test_close_closes_live_threads_handles_and_a_later_call_gets_a_fresh_one():
    handles = Handles()
    per_thread = handles.per_thread(idle=2)
    mine = per_thread.get()
    run_in_threads(1, per_thread.get)
    per_thread.close()
    assert sorted(handles.closed) == [0, 1] and per_thread.open_count() == 0
    assert per_thread.get() != mine


def test_a_thread_that_ends_inside_a_transaction_leaves_nothing_open_for_the_next(tmp_path):
    db = Database(tmp_path / "t.db")
    db.execute("CREATE TABLE t (x INTEGER)")

    def begin_and_end() -> None:
        db.execute("BEGIN IMMEDIATE")
        db.execute("INSERT INTO t VALUES (1)")

    run_in_threads(1, begin_and_end)
    run_in_threads(1, lambda: db.execute("INSERT INTO t VALUES (2)"))
    assert [r["x"] for r in db.query("SELECT x FROM t")] == [2]
    db.close()


def test_a_database_keeps_open_only_the_live_threads_connections_and_a_few_idle(tmp_path):
    db = Database(tmp_path / "t.db", idle=3)
    run_in_threads(200, lambda: db.scalar("SELECT count(*) FROM _migrations"))
    assert db.open_connections() == 2  # the main thread's and one pooled
    db.close()
    assert db.open_connections() == 0
    assert db.scalar("SELECT 1") == 1  # a late call opens a fresh connection, not a closed one
