"""Plans waiting for a decision are never orphaned: History can review every draft, a refused approval
is recorded on the draft, and a draft nobody decided on within 30 days expires, never applied."""

from __future__ import annotations

import time

import pytest

from engine.errors import Conflict, PlanInvalid
from engine.txn.store import DRAFT_TTL_S
from tests.txn.txn_support import snapshot


def _rename(world, name="notes.md", to="shopping.md"):
    r = str(world.root)
    return [{"kind": "rename", "old_path": f"{r}/{name}", "new_path": f"{r}/{to}", "reason": "clearer"}]


def _age(world, txn_id: str, seconds: float) -> None:
    world.db.execute(
        "UPDATE txn_transactions SET created_at = ? WHERE id = ?", (time.time() - seconds, txn_id)
    )


def test_a_draft_is_listed_with_its_operations_so_history_can_review_it(world):
    service = world.service()
    plan = service.propose_plan("Rename notes", _rename(world))
    [listed] = [t.model_dump() for t in service.list_transactions()]  # the JSON History reads
    assert listed["status"] == "draft" and listed["operations"] == plan["operations"]
    assert "refused" not in listed and "message" not in listed


def test_an_approval_refused_because_a_target_appeared_marks_the_draft_refused(world):
    service = world.service()
    plan = service.propose_plan("Rename notes", _rename(world))
    (world.root / "shopping.md").write_text("appeared meanwhile")
    before = snapshot(world.root)
    with pytest.raises(PlanInvalid, match="shopping.md already exists"):
        service.apply_action_plan(plan["transaction_id"])
    assert snapshot(world.root) == before
    [listed] = [t.model_dump() for t in service.list_transactions()]  # the JSON History reads
    assert listed["status"] == "draft" and listed["refused"] is True
    assert "shopping.md already exists" in listed["message"]


def test_an_approval_refused_because_a_source_changed_marks_the_draft_refused(world):
    service = world.service()
    plan = service.propose_plan("Rename notes", _rename(world))
    (world.root / "notes.md").write_text("# Notes\nbuy milk and bread, edited after the proposal")
    with pytest.raises(Conflict, match="was modified since the plan was proposed"):
        service.apply_action_plan(plan["transaction_id"])
    [listed] = [t.model_dump() for t in service.list_transactions()]  # the JSON History reads
    assert listed["refused"] is True and "was modified" in listed["message"]


def test_drafts_older_than_30_days_are_listed_expired_and_can_never_be_applied(world):
    service = world.service()
    old = service.propose_plan("Old plan", _rename(world))
    fresh = service.propose_plan("Fresh plan", _rename(world, "invoice-acme.txt", "acme.txt"))
    _age(world, old["transaction_id"], DRAFT_TTL_S + 60)
    _age(world, fresh["transaction_id"], DRAFT_TTL_S - 3600)
    before = snapshot(world.root)
    statuses = {t.summary: t.model_dump() for t in service.list_transactions()}
    assert statuses["Old plan"]["status"] == "expired" and "operations" not in statuses["Old plan"]
    assert "expired" in statuses["Old plan"]["message"] and statuses["Fresh plan"]["status"] == "draft"
    with pytest.raises(Conflict, match="is expired"):
        service.apply_action_plan(old["transaction_id"])
    with pytest.raises(Conflict, match="is expired"):
        service.discard_action_plan(old["transaction_id"])
    assert snapshot(world.root) == before


def test_an_expired_draft_is_refused_even_when_approved_before_anything_listed_it(world):
    service = world.service()
    plan = service.propose_plan("Old plan", _rename(world))
    _age(world, plan["transaction_id"], DRAFT_TTL_S + 1)
    with pytest.raises(Conflict, match="is expired"):
        service.apply_action_plan(plan["transaction_id"])
    assert (world.root / "notes.md").exists() and not (world.root / "shopping.md").exists()


def test_start_up_recovery_expires_old_drafts(world):
    service = world.service()
    plan = service.propose_plan("Old plan", _rename(world))
    _age(world, plan["transaction_id"], DRAFT_TTL_S + 1)
    world.service().recover()
    assert world.service().store.get(plan["transaction_id"]).status == "expired"
