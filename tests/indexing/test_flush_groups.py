"""How long the keyword phase reads files before writing them: FLUSH_S while writes are quick, longer when
each write's fixed cost grows (a loaded machine), so writing stays a bounded share of the phase."""

from __future__ import annotations

from engine.indexing.indexer import FLUSH_MAX_S, FLUSH_S, WRITE_RATIO, flush_after


def test_quick_writes_keep_the_quarter_second_groups():
    assert flush_after(0.0) == FLUSH_S
    assert flush_after(FLUSH_S / WRITE_RATIO) == FLUSH_S


def test_a_slow_write_makes_the_next_group_read_longer_so_writing_stays_a_fifth_of_the_time():
    write = 0.15
    group = flush_after(write)
    assert group == WRITE_RATIO * write
    assert write / (group + write) <= 1 / (WRITE_RATIO + 1) + 1e-9


def test_a_group_never_holds_the_indexer_lock_past_a_second():
    assert flush_after(5.0) == FLUSH_MAX_S <= 1.0
