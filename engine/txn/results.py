"""What applying, undoing or retrying a plan returns (DESIGN §6 `apply_action_plan`, `undo_transaction`)."""

from __future__ import annotations

from typing import NotRequired

from typing_extensions import TypedDict  # pydantic reads TypedDicts from typing_extensions before 3.12

from engine.results import Result
from engine.txn.model import OperationJson
from engine.txn.states import TxnStatus


class RollbackStep(TypedDict):
    """One line of a rollback or recovery report: the step undone, whether that worked, and either its
    `detail` (ok) or its `error` and `where` the failure left things (not ok)."""

    step: str
    ok: bool
    detail: NotRequired[str]
    error: NotRequired[str]
    where: NotRequired[str]


class Recovered(TypedDict):
    """What start-up's `recover()` says of one transaction a crash interrupted."""

    transaction_id: str
    summary: str
    status: TxnStatus
    message: str
    rollback: list[RollbackStep]


class ApplyResult(Result):
    """`applied` operations (0 when the plan was rolled back), a sentence for the person, and on a
    failure the rollback report: one `{step, ok, error?}` per step undone, in the order undone."""

    applied: int
    message: str
    rollback: list[RollbackStep] | None = None


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
    operations: list[OperationJson] | None = None
    refused: bool | None = None


class Restored(Result):
    """Where `trash_restore` put the item back."""

    path: str
