from __future__ import annotations

import pytest

from engine.agent.memory import MIGRATIONS, Memory
from engine.db import Database
from engine.errors import NotFound


def make_memory(tmp_path) -> Memory:
    db = Database(tmp_path / "m.db")
    db.migrate(MIGRATIONS)
    return Memory(db)


def test_remember_trims_and_ignores_empty_notes(tmp_path):
    memory = make_memory(tmp_path)
    assert memory.remember("   \n ") is None
    saved = memory.remember("  Invoices go to   Finance  ")
    assert saved is not None and saved["note"] == "Invoices go to Finance"
    assert [n.note for n in memory.entries()] == ["Invoices go to Finance"]


def test_duplicates_ignoring_case_and_whitespace_are_saved_once(tmp_path):
    memory = make_memory(tmp_path)
    memory.remember("My accountant is Jane")
    again = memory.remember("my  ACCOUNTANT is jane")
    assert again is not None and again["duplicate"] is True
    assert len(memory.entries()) == 1


def test_prompt_notes_are_the_fifty_newest_oldest_first(tmp_path):
    memory = make_memory(tmp_path)
    for i in range(60):
        memory.remember(f"note {i}")
    notes = memory.prompt_notes()
    assert len(notes) == 50
    assert notes[0] == "note 10" and notes[-1] == "note 59"


def test_delete_and_clear(tmp_path):
    memory = make_memory(tmp_path)
    first = memory.remember("a")
    memory.remember("b")
    assert first is not None
    memory.delete(first["id"])
    assert [n.note for n in memory.entries()] == ["b"]
    with pytest.raises(NotFound, match="no memory note with id"):
        memory.delete(first["id"])
    memory.clear()
    assert memory.entries() == []
