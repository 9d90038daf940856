"""How many cores other processes leave free (engine/free_cores.py), from given clocks and CPU counters,
and the bulk keyword write using that many threads."""

from __future__ import annotations

from pathlib import Path

from engine import free_cores as free_cores_module
from engine.free_cores import MIN_WINDOW_S, FreeCores, machine_busy_seconds
from engine.retrieval.keyword import writes
from engine.retrieval.keyword.index import KeywordIndex


class Machine:
    """A machine of `cores` cores whose clock, busy time and this process's CPU time move when told."""

    def __init__(self, cores: int) -> None:
        self.cores = cores
        self.now = 100.0
        self.busy = 1_000.0
        self.own = 10.0
        self.others = 0.0  # cores other processes keep busy
        self.mine = 0.0  # cores this process keeps busy
        self.slept: list[float] = []

    def run(self, seconds: float) -> None:
        self.now += seconds
        self.busy += (self.others + self.mine) * seconds
        self.own += self.mine * seconds

    def sleep(self, seconds: float) -> None:
        self.slept.append(seconds)
        self.run(seconds)

    def free_cores(self) -> FreeCores:
        return FreeCores(
            busy=lambda: self.busy,
            own=lambda: self.own,
            clock=lambda: self.now,
            sleep=self.sleep,
            cores=lambda: self.cores,
        )


def test_a_quiet_machine_has_every_core_free_and_the_first_ask_samples_a_short_window():
    machine = Machine(cores=2)
    assert machine.free_cores()() == 2
    assert machine.slept == [MIN_WINDOW_S]


def test_a_busy_process_elsewhere_takes_one_core_and_this_process_s_own_work_takes_none():
    machine = Machine(cores=2)
    machine.others, machine.mine = 1.0, 1.0
    free = machine.free_cores()
    assert free() == 1
    machine.others = 0.0
    machine.mine = 2.0  # this process's own threads on both cores: still free for it
    machine.run(3.0)
    assert free() == 2
    assert machine.slept == [MIN_WINDOW_S]  # the second ask measured the 3 s since the first


def test_another_process_squeezed_to_part_of_a_core_still_counts_from_half_a_core():
    machine = Machine(cores=4)
    machine.others = 0.6
    assert machine.free_cores()() == 3
    machine = Machine(cores=4)
    machine.others = 0.4
    assert machine.free_cores()() == 4
    machine = Machine(cores=2)
    machine.others = 5.0  # more busy than there are cores: still one
    assert machine.free_cores()() == 1


def test_an_old_previous_ask_is_not_used_and_a_fresh_window_is_sampled():
    machine = Machine(cores=2)
    free = machine.free_cores()
    assert free() == 2
    machine.others = 1.0
    machine.run(120.0)  # long ago: the window would mostly say what the machine did then
    assert free() == 1
    assert machine.slept == [MIN_WINDOW_S, MIN_WINDOW_S]


def test_where_the_machine_s_busy_time_is_unknown_every_usable_core_counts(tmp_path: Path):
    assert machine_busy_seconds(str(tmp_path / "absent")) is None
    (tmp_path / "stat").write_text("intr 1 2 3\n")
    assert machine_busy_seconds(str(tmp_path / "stat")) is None
    free = FreeCores(busy=lambda: None, cores=lambda: 3, sleep=lambda _s: None)
    assert free() == 3
    (tmp_path / "stat").write_text("cpu  100 0 50 1000 20 0 10 5 0 0\ncpu0 1 2 3 4 5 6 7 8 0 0\n")
    busy = machine_busy_seconds(str(tmp_path / "stat"))
    assert busy is not None and busy > 0


def test_the_bulk_keyword_write_runs_on_the_free_cores(tmp_path, monkeypatch):
    """On a machine with one core free (another process busy) the bulk statements run on one thread."""
    seen: list[int] = []
    insert = writes.insert_rows

    def recording(cur, batch):  # type: ignore[no-untyped-def]
        row = cur.execute("SELECT current_setting('threads')").fetchone()
        seen.append(int(row[0]))
        return insert(cur, batch)

    monkeypatch.setattr("engine.retrieval.keyword.writing.insert_rows", recording)
    monkeypatch.setattr("engine.retrieval.keyword.writing.BULK_ROWS", 10)
    monkeypatch.setattr("engine.retrieval.keyword.writing.free_cores", lambda: 1)
    index = KeywordIndex(tmp_path / "k.duckdb")
    try:
        index.upsert_many([(f"/d/f{i}.txt", [f"alpha {i}", f"beta {i}"]) for i in range(10)])
        assert seen == [1]
        monkeypatch.setattr("engine.retrieval.keyword.writing.free_cores", lambda: 2)
        index.upsert_many([(f"/d/g{i}.txt", [f"alpha {i}", f"gamma {i}"]) for i in range(10)])
        assert seen == [1, 2]
        assert len(index.search("alpha", 50)) == 20
    finally:
        index.close()


def test_the_shared_asker_reads_this_machine():
    assert 1 <= free_cores_module.free_cores() <= free_cores_module.usable_cores()
