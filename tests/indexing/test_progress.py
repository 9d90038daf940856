"""The one progress model: per-phase counts, rates and ETA from a clock, sequence numbers, throttling."""

from __future__ import annotations

from collections.abc import Callable

from engine.indexing.progress import ProgressPublisher, ProgressTracker, RateMeter, RootProgress
from tests.indexing.helpers import SAMPLE, make_engine, write_docs


class FakeClock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def test_rate_is_files_per_second_over_the_last_minute_and_none_before_any_file():
    clock = FakeClock()
    meter = RateMeter(clock)
    assert meter.rate() is None
    meter.start()
    clock.now += 10
    meter.add(20)
    assert meter.rate() == 2.0
    clock.now += 120  # two quiet minutes: nothing in the window any more
    assert meter.rate() is None


def test_eta_comes_from_the_rate_and_the_files_left():
    clock = FakeClock()
    tracker = ProgressTracker(clock)
    tracker.working("keyword", "/d/a.txt")
    clock.now += 4
    tracker.finished("keyword", 8)
    phase = tracker.phase("keyword", done=8, total=20)
    assert (phase.rate, phase.eta_s, phase.current) == (2.0, 6.0, "/d/a.txt")
    assert tracker.phase("semantic", done=0, total=20).eta_s is None  # nothing measured yet
    assert tracker.phase("semantic", done=20, total=20).eta_s == 0.0


def test_sequence_numbers_only_grow():
    tracker = ProgressTracker(FakeClock())
    seqs = [tracker.next_seq() for _ in range(5)]
    assert seqs == sorted(set(seqs)) and seqs[0] >= 1


def test_publisher_sends_at_most_four_a_second_and_always_the_last_state():
    clock = FakeClock()
    state = {"n": 0}
    sent: list[int] = []
    timers: list[tuple[float, Callable[[], None]]] = []
    publisher = ProgressPublisher(
        lambda: state["n"], sent.append, clock, lambda delay, fn: timers.append((delay, fn))
    )
    for n in range(1, 11):  # ten changes within 0.1 s
        state["n"] = n
        publisher.publish()
        clock.now += 0.01
    assert sent == [1] and len(timers) == 1 and 0 < timers[0][0] <= 0.25
    clock.now += timers[0][0]
    timers[0][1]()  # the trailing send carries the newest state
    assert sent == [1, 10]
    state["n"] = 11
    publisher.publish()  # inside the interval again: deferred, not dropped
    assert sent == [1, 10] and len(timers) == 2


def test_indexing_stats_has_both_phases_per_root_counts_and_the_old_keys(tmp_path, sensetree_home):
    root = write_docs(tmp_path / "Docs", SAMPLE)
    engine = make_engine(sensetree_home)
    try:
        engine.add_indexed_folder(str(root))
        before = engine.indexing_stats()
        engine.parts.index.drain()
        stats = engine.indexing_stats()
        assert {"files", "chunks", "queued", "done", "failed", "skipped", "paused"} <= set(stats.to_dict())
        assert stats.seq > before.seq
        assert stats.keyword.done == stats.keyword.total == len(SAMPLE)
        assert stats.semantic.done == stats.semantic.total == len(SAMPLE)
        assert stats.roots == [
            RootProgress(
                path=str(root),
                files=len(SAMPLE),
                searchable=len(SAMPLE),
                semantic_done=len(SAMPLE),
                queued=0,
                failed=0,
            )
        ]
    finally:
        engine.running.close()


def test_a_closed_publisher_sends_nothing_not_even_its_trailing_state():
    clock = FakeClock()
    sent: list[int] = []
    timers: list[Callable[[], None]] = []
    publisher = ProgressPublisher(lambda: 1, sent.append, clock, lambda _delay, fn: timers.append(fn))
    publisher.publish()
    publisher.publish()  # deferred
    publisher.close()
    timers[0]()
    publisher.publish()
    assert sent == [1]
