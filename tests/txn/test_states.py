"""Transaction, phase and journal-step states are enums whose stored strings never change."""

from __future__ import annotations

from engine.txn.journal_file import FileJournal, merge
from engine.txn.model import Step
from engine.txn.states import STATE_ORDER, Phase, StepState, TxnStatus
from engine.txn.store import JournalEntry


def test_the_stored_strings_are_the_ones_old_databases_and_journal_files_hold():
    assert [s.value for s in TxnStatus] == [
        "draft", "discarded", "expired", "applying", "undoing", "committed", "undone", "rolled_back",
        "rollback_incomplete",
    ]  # fmt: skip
    assert [s.value for s in StepState] == ["intent", "copied", "done", "undoing", "undone"]
    assert [p.value for p in Phase] == ["", "disk", "index", "semantics", "done"]


def test_step_order_is_found_for_the_plain_strings_a_journal_file_holds():
    # A journal file holds plain strings; a StrEnum member hashes like its value, so members find them too.
    assert STATE_ORDER["intent"] < STATE_ORDER["copied"] < STATE_ORDER["done"] < STATE_ORDER["undone"]


def test_merge_keeps_the_furthest_state_of_sqlite_and_the_journal_file():
    step = Step("move", src="/r/a", dst="/r/b")
    stored = [JournalEntry(1, step, StepState("intent")), JournalEntry(2, step, StepState("undone"))]
    from_file = FileJournal("t", entries={1: JournalEntry(1, step, StepState("done")), 2: stored[0]})
    merged = merge(stored, from_file)
    assert [e.state for e in merged] == ["done", "undone"]
