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


class Transaction(Result):
    """One row of `list_transactions` (History). `committed_at` once committed, `undo_of` on an undo,
    `message` on the outcomes that carry one (a rollback, a refusal); a draft carries its plan's
    `operations` as proposed (History's Review shows them) and `refused: true` when an approval of it
    was refused."""

    transaction_id: str
    status: str
    summary: str
    created_at: str
    committed_at: str | None = None
    undo_of: str | None = None
    message: str | None = None
    operations: list[dict[str, Any]] | None = None
    refused: bool | None = None


class Restored(Result):
    """Where `trash_restore` put the item back."""

    path: str
