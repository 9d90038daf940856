"""A full disk is `no_space` with a sentence, not `internal` (issue 31, N11)."""

from __future__ import annotations

import errno
import sqlite3

import pytest

from bridge import Api
from engine.errors import is_disk_full
from tests.indexing.helpers import indexed_sample


def test_approving_a_plan_on_a_full_data_folder_says_the_disk_is_full_and_changes_nothing(
    tmp_path, sensetree_home, monkeypatch
):
    root, engine = indexed_sample(tmp_path, sensetree_home)
    target = root / "notes" / "travel.txt"
    try:
        plan = engine.parts.txn.propose_plan("Clean up", [{"kind": "delete", "old_path": str(target)}])

        def full(*_args, **_kwargs):
            raise sqlite3.OperationalError("database or disk is full")

        monkeypatch.setattr(engine.parts.txn.store, "claim", full)
        envelope = Api(engine).apply_action_plan(plan["transaction_id"])
    finally:
        engine.running.close()
    assert envelope["ok"] is False and envelope["error"]["code"] == "no_space"
    assert "disk that holds SenseTree's data folder is full" in envelope["error"]["message"]
    assert target.exists()


@pytest.mark.parametrize(
    "exc",
    [OSError(errno.ENOSPC, "No space left on device"), sqlite3.OperationalError("database or disk is full")],
)
def test_an_os_or_sqlite_disk_full_error_is_recognised(exc):
    assert is_disk_full(exc)
    assert not is_disk_full(OSError(errno.EACCES, "Permission denied"))
