"""Typed results reach the page as the same JSON the dicts they replaced did (same keys, same types)."""

from __future__ import annotations

import json

import pytest
from pydantic import ValidationError

from bridge.api import ok, to_jsonable
from engine.results import Result
from engine.txn.results import ApplyResult, TrashItem

STEP = {"step": "move /d/b.txt back to /d/a.txt", "ok": True}


def test_a_committed_apply_serialises_without_a_rollback_key():
    result = ApplyResult(applied=3, message="Done: 3 operations.")
    assert to_jsonable(result) == {"applied": 3, "message": "Done: 3 operations."}


def test_a_rolled_back_apply_serialises_with_its_rollback_report():
    result = ApplyResult(applied=0, message="Nothing was changed.", rollback=[STEP])
    old = {"applied": 0, "message": "Nothing was changed.", "rollback": [STEP]}
    assert json.dumps(ok(result)) == json.dumps(ok(old))


def test_an_empty_rollback_report_is_kept_not_dropped():
    assert to_jsonable(ApplyResult(applied=0, message="m", rollback=[])) == {
        "applied": 0,
        "message": "m",
        "rollback": [],
    }


def test_a_required_field_that_is_none_is_sent_as_null():
    class Trashed(Result):
        item_id: str
        transaction_id: str | None
        restored_at: str | None = None

    assert to_jsonable(Trashed(item_id="a", transaction_id=None)) == {"item_id": "a", "transaction_id": None}


def test_results_refuse_unknown_fields_and_do_not_change():
    class Counted(Result):
        count: int
        note: str | None = None

    counted = Counted(count=1)
    assert to_jsonable(counted) == {"count": 1}
    with pytest.raises(ValidationError):
        Counted(count=1, extra=2)  # type: ignore[call-arg]
    with pytest.raises(ValidationError):
        counted.count = 2  # type: ignore[misc]


def test_a_trash_item_serialises_as_the_listing_row_did():
    item = TrashItem(
        item_id="u1", original_path="/d/a.txt", trashed_at="2026-12-01T10:00:00Z", transaction_id="t1"
    )
    old = {
        "item_id": "u1",
        "original_path": "/d/a.txt",
        "trashed_at": "2026-12-01T10:00:00Z",
        "transaction_id": "t1",
    }
    assert json.dumps(ok([item])) == json.dumps(ok([old]))
