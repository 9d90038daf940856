"""What applying, undoing or retrying a plan returns (DESIGN §6 `apply_action_plan`, `undo_transaction`)."""

from __future__ import annotations

from typing import Any

from engine.results import Result


class ApplyResult(Result):
    """`applied` operations (0 when the plan was rolled back), a sentence for the person, and on a
    failure the rollback report: one `{step, ok, error?}` per step undone, in the order undone."""

    applied: int
    message: str
    rollback: list[dict[str, Any]] | None = None


class TrashItem(Result):
    """One entry of `trash_list`: what SenseTree's trash holds and where it came from
    (`transaction_id` is null for an item whose plan row a lost database took along)."""

    item_id: str
    original_path: str
    trashed_at: str
    transaction_id: str | None
