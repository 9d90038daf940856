"""The engine is built off the UI thread: calls wait for it, and a failed start is reported, not hidden."""

from __future__ import annotations

import threading

import pytest

from engine.errors import EngineError, StoreError
from engine.events import EventBus
from engine.starter import EngineStarter


def test_calls_wait_for_the_engine_and_events_work_before_it_exists():
    release = threading.Event()
    built = []

    class Ready:
        def app_version(self):
            return "1.0"

        def close(self):
            built.append("closed")

    def build(events):
        assert release.wait(10)
        return Ready()

    starter = EngineStarter(build)
    got = []
    starter.events.subscribe(lambda t, p: got.append(t))
    starter.events.publish("indexing-progress", {})  # the window subscribes before the engine is up
    release.set()
    assert starter.app_version() == "1.0"
    starter.close()
    assert got == ["indexing-progress"] and built == ["closed"]


def test_a_start_that_failed_reports_its_error_on_every_call():
    def build(events: EventBus):
        raise StoreError("The keyword index is locked by another SenseTree.")

    starter = EngineStarter(build)
    for _ in range(2):
        with pytest.raises(EngineError, match="locked by another SenseTree"):
            starter.indexing_stats()
    starter.close()


def test_an_unexpected_start_failure_becomes_a_readable_engine_error():
    starter = EngineStarter(lambda events: 1 / 0)
    with pytest.raises(EngineError, match="could not start"):
        starter.get_roots()
