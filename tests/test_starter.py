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


def test_a_starter_told_not_to_start_builds_nothing_until_started_and_then_once():
    builds = []
    started = threading.Event()

    class Ready:
        def app_version(self):
            return "1.0"

        def close(self):
            builds.append("closed")

    def build(events):
        builds.append("built")
        started.set()
        return Ready()

    starter = EngineStarter(build, start=False)
    assert not started.wait(0.2) and builds == []  # the window has not asked yet
    starter.start()
    starter.start()  # the window shown again (from the tray): still one build
    assert started.wait(10)
    assert starter.app_version() == "1.0"
    starter.close()
    assert builds == ["built", "closed"]


def test_a_call_before_the_window_asked_starts_the_build_itself():
    class Ready:
        def get_roots(self):
            return ["/x"]

        def close(self):
            pass

    starter = EngineStarter(lambda events: Ready(), start=False)
    assert starter.get_roots() == [
        "/x"
    ]  # no start() came: the call starts the build instead of waiting 300 s
    starter.close()


def test_closing_a_starter_that_never_started_builds_nothing_and_returns_at_once():
    built = []
    starter = EngineStarter(lambda events: built.append("built"), start=False)
    closed = threading.Thread(target=starter.close)
    closed.start()
    closed.join(5)
    assert not closed.is_alive() and built == []
