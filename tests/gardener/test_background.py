"""The background pass stays out of the way: it counts the engine busy while indexing has work queued or
the index lock is held (a batch being written, a plan being applied), and an engine started in the
background runs its thread and stops it on close."""

from __future__ import annotations

import threading

from engine.assembly import gardener_busy
from engine.embed import HashingEmbedder
from engine.engine import Engine
from tests.held_lock import held_elsewhere


def test_the_pass_waits_while_the_index_lock_is_held_or_work_is_queued(engine, tmp_path):
    assert gardener_busy(engine.parts.index) is False
    with held_elsewhere(engine.parts.indexer.lock):
        assert gardener_busy(engine.parts.index) is True
    assert gardener_busy(engine.parts.index) is False
    engine.parts.index.queue.push(str(tmp_path / "new.txt"), 5)
    assert gardener_busy(engine.parts.index) is True


def test_a_background_engine_starts_the_gardener_thread_and_close_stops_it(tmp_path):
    engine = Engine(tmp_path / "home", embedder=HashingEmbedder(), background=True)
    try:
        assert any(t.name == "sensetree-gardener" for t in threading.enumerate())
    finally:
        engine.running.close()
    assert not any(t.name == "sensetree-gardener" for t in threading.enumerate())
