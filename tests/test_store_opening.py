"""An engine that opens its stores in the background (`defer_stores`, what the window and the server
build) answers the commands that need no store at once, makes the others wait for the opening, repairs a
damaged store as a synchronous start does, and writes nothing before start-up's journal recovery.

The opening is held back in these tests by gating one real step of it (the vector store's open, the
journal recovery) on an event the test sets; what runs is the product's own code, in its own order."""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from engine import stores
from engine.config import load_settings
from engine.errors import EngineError
from engine.txn.service import TxnService
from tests.indexing.helpers import SAMPLE, indexed_sample, make_engine

BOUND_S = 60.0  # every wait in these tests is bounded; a hang fails instead of blocking the suite
TRAVEL = "notes/travel.txt"


class Gate:
    """Holds a wrapped step of the opening until `release`; says when the opening has reached it."""

    def __init__(self) -> None:
        self.reached = threading.Event()
        self.released = threading.Event()
        self.released_by_test = False

    def wrap(self, step: Callable[..., Any]) -> Callable[..., Any]:
        def gated(*args: Any, **kwargs: Any) -> Any:
            self.reached.set()
            self.released.wait(BOUND_S)
            return step(*args, **kwargs)

        return gated

    def release(self) -> None:
        self.released_by_test = True
        self.released.set()


@pytest.fixture
def vectors_gate(monkeypatch: pytest.MonkeyPatch) -> Iterator[Gate]:
    gate = Gate()
    monkeypatch.setattr(stores, "open_vectors", gate.wrap(stores.open_vectors))
    yield gate
    gate.released.set()  # never leave an opening thread parked after the test


def _in_thread(call: Callable[[], Any]) -> tuple[threading.Event, dict[str, Any]]:
    done, outcome = threading.Event(), {}

    def run() -> None:
        try:
            outcome["value"] = call()
        except BaseException as exc:
            outcome["error"] = exc
        finally:
            done.set()

    threading.Thread(target=run, daemon=True).start()
    return done, outcome


def test_a_store_free_command_answers_while_the_stores_are_still_opening(
    sensetree_home: Path, vectors_gate: Gate
) -> None:
    engine = make_engine(sensetree_home, defer_stores=True)
    try:
        assert vectors_gate.reached.wait(BOUND_S)  # the opening is under way, held at the vector store
        assert not vectors_gate.released_by_test  # the constructor returned without waiting for it
        assert engine.app_version()
        assert engine.get_default_prompts().doc_qualify
        assert engine.running.settings.roots == []
        assert not vectors_gate.released.is_set()  # all of that answered while the stores were not open
    finally:
        vectors_gate.release()
        engine.running.close()


def test_a_store_command_issued_during_the_opening_waits_and_returns_the_right_result(
    tmp_path: Path, sensetree_home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    root, first = indexed_sample(tmp_path, sensetree_home)
    first.running.close()
    gate = Gate()
    monkeypatch.setattr(stores, "open_vectors", gate.wrap(stores.open_vectors))
    engine = make_engine(sensetree_home, defer_stores=True)
    try:
        assert gate.reached.wait(BOUND_S)
        done, outcome = _in_thread(lambda: engine.semantic_search("Lisbon Alfama"))
        assert not done.wait(0.3)  # bounded: the search is waiting for the stores, not answering without
        gate.release()
        assert done.wait(BOUND_S)
        assert "error" not in outcome, outcome
        assert outcome["value"][0].path == str(root / TRAVEL)
        assert engine.indexing_stats().done == len(SAMPLE)
    finally:
        gate.release()
        engine.running.close()


def test_a_damaged_keyword_store_is_rebuilt_by_the_background_opening_with_its_notice(
    tmp_path: Path, sensetree_home: Path
) -> None:
    root, first = indexed_sample(tmp_path, sensetree_home)
    first.running.close()
    (sensetree_home / "keywords.duckdb").write_bytes(b"not a database" * 512)
    engine = make_engine(sensetree_home, defer_stores=True)
    try:
        assert engine.app_version()
        notices = engine.running.notices()  # waits for the opening, which healed the store as ever
        assert any("keyword" in n.lower() for n in notices), notices
        engine.parts.index.drain()
        assert engine.semantic_search("Lisbon Alfama")[0].path == str(root / TRAVEL)
    finally:
        engine.running.close()


def test_an_opening_that_fails_is_a_clear_error_for_store_commands_and_not_for_the_others(
    sensetree_home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def unopenable(*_args: Any, **_kwargs: Any) -> Any:
        raise OSError("the disk went away")

    monkeypatch.setattr(stores, "open_vectors", unopenable)
    engine = make_engine(sensetree_home, defer_stores=True)
    try:
        assert engine.app_version()
        with pytest.raises(EngineError, match="could not open its index: the disk went away"):
            engine.semantic_search("anything")
        with pytest.raises(EngineError, match="could not open its index"):
            engine.set_indexing_paused(True)  # and no write happens without the stores
        assert not load_settings(sensetree_home).indexing.paused
        assert engine.app_version()  # still answering
    finally:
        engine.running.close()  # closes what the opening had opened, raises nothing


def test_a_synchronous_start_still_raises_what_the_opening_raised(
    sensetree_home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def unopenable(*_args: Any, **_kwargs: Any) -> Any:
        raise OSError("the disk went away")

    monkeypatch.setattr(stores, "open_vectors", unopenable)
    with pytest.raises(EngineError, match="the disk went away"):
        make_engine(sensetree_home)


def test_journal_recovery_runs_before_the_first_write_issued_during_the_opening(
    sensetree_home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    order: list[str] = []
    gate = Gate()
    real_recover = TxnService.recover

    def recover(self: TxnService) -> list[dict[str, Any]]:
        order.append("recovery")
        return real_recover(self)

    monkeypatch.setattr(TxnService, "recover", gate.wrap(recover))
    import engine.live_settings as settings_module

    save = settings_module.save_settings

    def recorded_save(*args: Any, **kwargs: Any) -> Any:
        order.append("settings written")
        return save(*args, **kwargs)

    monkeypatch.setattr(settings_module, "save_settings", recorded_save)
    engine = make_engine(sensetree_home, defer_stores=True)
    try:
        assert gate.reached.wait(BOUND_S)  # the opening is at the journal recovery, held there
        done, outcome = _in_thread(lambda: engine.set_indexing_paused(True))
        assert not done.wait(0.3)  # bounded: the write waits for the recovery
        assert order == []
        gate.release()
        assert done.wait(BOUND_S)
        assert "error" not in outcome, outcome
        assert order == ["recovery", "settings written"]
        assert engine.running.settings.indexing.paused
    finally:
        gate.release()
        engine.running.close()


def test_the_opened_parts_are_one_frozen_record_once_open(sensetree_home: Path) -> None:
    """Once open, the engine's parts are the fields of start-up's one frozen record (engine/assembly.py):
    nothing is patched on afterwards; an unknown name is an AttributeError at once, as on any object."""
    import dataclasses

    engine = make_engine(sensetree_home, defer_stores=True)
    try:
        engine.running.notices()
        assert engine.parts.index is engine.parts.index and engine.parts.keywords is engine.parts.keywords
        with pytest.raises(dataclasses.FrozenInstanceError):
            engine.parts.index = None  # type: ignore[misc]
        with pytest.raises(AttributeError):
            _ = engine.no_such_part  # type: ignore[attr-defined]
    finally:
        engine.running.close()


def test_an_opening_that_fails_after_starting_the_indexer_stops_it_on_close(
    sensetree_home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A background start that fails at its last step (asking for the query model's warm-up) leaves the
    indexer's thread started on the stores; closing stops it before the stores close under it."""
    from engine.indexing.worker import IndexWorker

    def when_keyword_idle(_self: IndexWorker, _callback: object) -> None:
        raise OSError("no model here")

    monkeypatch.setattr(IndexWorker, "when_keyword_idle", when_keyword_idle)
    engine = make_engine(sensetree_home, background=True, defer_stores=True)
    with pytest.raises(EngineError, match="no model here"):
        engine.running.wait()
    assert any(t.name == "sensetree-indexer" for t in threading.enumerate())
    engine.running.close()
    assert not any(t.name == "sensetree-indexer" for t in threading.enumerate())


def test_a_store_write_issued_while_the_recovery_runs_waits_for_it(
    sensetree_home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The index service exists before the journal recovery runs; a command must still not reach it
    (here a queue write) until the recovery is over: the opening publishes its parts when it ends."""
    gate = Gate()
    monkeypatch.setattr(TxnService, "recover", gate.wrap(TxnService.recover))
    engine = make_engine(sensetree_home, defer_stores=True)
    try:
        assert gate.reached.wait(BOUND_S)  # held at the recovery, with the index service already built
        done, outcome = _in_thread(lambda: engine.retry_indexing())
        assert not done.wait(0.3)  # bounded: the write waits for the recovery
        gate.release()
        assert done.wait(BOUND_S)
        assert "error" not in outcome, outcome
    finally:
        gate.release()
        engine.running.close()
