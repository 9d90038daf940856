"""One start-up (engine/startup.py): waits get what it built, a failed start is reported on every wait,
not hidden, and nothing is built before it is asked for, or after a quit."""

from __future__ import annotations

import threading

import pytest

from engine.errors import EngineError, StoreError
from engine.startup import Startup

BOUND_S = 10.0


def test_a_wait_gets_what_the_start_up_built_once_it_is_built():
    release = threading.Event()

    def build(stopping: threading.Event) -> str:
        assert release.wait(BOUND_S)
        return "parts"

    startup = Startup(build)
    startup.start()
    waited: list[str] = []
    waiter = threading.Thread(target=lambda: waited.append(startup.wait()))
    waiter.start()
    waiter.join(0.2)
    assert waiter.is_alive() and waited == []  # bounded: the wait is waiting, not answering without
    release.set()
    waiter.join(BOUND_S)
    assert waited == ["parts"]


def test_a_start_that_failed_reports_its_error_on_every_wait():
    def build(stopping: threading.Event) -> str:
        raise StoreError("The keyword index is locked by another SenseTree.")

    startup = Startup(build)
    startup.start()
    for _ in range(2):
        with pytest.raises(EngineError, match="locked by another SenseTree"):
            startup.wait()


def test_an_unexpected_start_failure_becomes_a_readable_engine_error():
    startup: Startup[float] = Startup(lambda stopping: 1 / 0)
    with pytest.raises(EngineError, match="could not start"):
        startup.wait()


def test_a_start_up_not_yet_started_builds_nothing_until_started_and_then_once():
    builds: list[str] = []
    started = threading.Event()

    def build(stopping: threading.Event) -> str:
        builds.append("built")
        started.set()
        return "parts"

    startup = Startup(build)
    assert not started.wait(0.2) and builds == []  # the window has not asked yet
    startup.start()
    startup.start()  # the window shown again (from the tray): still one build
    assert started.wait(BOUND_S)
    assert startup.wait() == "parts"
    assert builds == ["built"]


def test_a_wait_before_anyone_started_the_start_up_starts_it_itself():
    startup = Startup(lambda stopping: ["/x"])
    assert startup.wait(BOUND_S) == ["/x"]  # no start() came: the wait starts the build instead of waiting


def test_stopping_a_start_up_that_never_started_builds_nothing_and_returns_at_once():
    built: list[str] = []
    startup = Startup(lambda stopping: built.append("built"))
    stopped = threading.Thread(target=startup.stop)
    stopped.start()
    stopped.join(5)
    assert not stopped.is_alive() and built == []
    startup.start()  # a late `shown` after the quit starts nothing
    with pytest.raises(EngineError):
        startup.wait(BOUND_S)
    assert built == []


def test_stopping_a_running_start_up_tells_the_build_and_waits_for_it_to_end():
    reached, seen = threading.Event(), []

    def build(stopping: threading.Event) -> str:
        reached.set()
        assert stopping.wait(BOUND_S)  # the build reads the request between its steps
        seen.append("stopping seen")
        return "parts"

    startup = Startup(build)
    startup.start()
    assert reached.wait(BOUND_S)
    assert startup.stop(BOUND_S) is True
    assert seen == ["stopping seen"]  # stop returned only after the build ended


def test_a_quit_during_a_synchronous_start_unwinds_as_the_quit_it_is_not_as_a_failure():
    def build(stopping: threading.Event) -> str:
        raise KeyboardInterrupt  # what the quit signal's handler raises on the main thread

    with pytest.raises(KeyboardInterrupt):
        Startup(build).run()
