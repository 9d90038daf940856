"""`TxnService`: the IPC commands of the action system (DESIGN §3 and §6) over drafts, journal, trash.

A plan is validated and stored as a draft (`propose_plan`, `plan_reorganization`); approval checks the
selection against the draft field by field and the sources against their fingerprints (approval.py),
then runs disk → index → semantics. Any failure rolls everything back and reports each undo step; a
crash is rolled back by `recover()` at the next start — from SQLite, or from the transaction's own
journal file when the database was lost. A rollback writes nothing to SQLite until it is over; when
SQLite then refuses (a full disk), the outcome waits in memory and in the journal file and is written
back at the next command or start. Committed plans can be undone, a `rollback_incomplete` one retried by
`undo_transaction`, and what `delete` put in the trash can be restored.

An approval the draft no longer supports (a source changed, a target appeared) is refused before
anything moves; the refusal is recorded on the draft so History shows it. Drafts older than 30 days
expire (checked whenever drafts are listed or acted on, and at start-up).
"""

from __future__ import annotations

import contextlib
import logging
import os
import threading
import time
import uuid
from collections.abc import Callable, Sequence
from contextlib import AbstractContextManager
from dataclasses import asdict
from pathlib import Path
from typing import Any

from engine import paths
from engine.db import Database
from engine.errors import Conflict, EngineError, NotFound, PlanInvalid
from engine.results import Done
from engine.roots import Roots
from engine.txn import fsops, trash
from engine.txn.approval import check_fingerprints, check_undo, selected
from engine.txn.executor import DiskPhase, Fault, env_fault
from engine.txn.model import ActionPlan, PlanJson, Step
from engine.txn.planner import Planner, plan_request
from engine.txn.results import ApplyResult, Recovered, Restored, Transaction, TrashItem
from engine.txn.rollback import Rollbacks, outcome, unsaved
from engine.txn.states import Phase, StepState, TxnStatus
from engine.txn.store import TxnRecord, TxnStore
from engine.txn.sync import (
    IndexSync,
    SenseChange,
    current,
    index_forward,
    senses_forward,
)
from engine.txn.validate import Validated, validate

log = logging.getLogger(__name__)


class TxnService:
    """Dry-Run plans applied transactionally; one transaction runs at a time."""

    def __init__(
        self,
        db: Database,
        data_dir: Path,
        roots: Roots,
        index: IndexSync,
        planner: Planner | None = None,
        *,
        reorganize_prompt: Callable[[], str] | None = None,
        fault: Fault | None = None,
        quiesce: Callable[[], AbstractContextManager[Any]] | None = None,
    ):
        self.db, self.roots, self.index, self.planner = db, roots, index, planner
        self.quiesce = quiesce or contextlib.nullcontext  # e.g. hold the index worker while files move
        self.reorganize_prompt = reorganize_prompt
        self.store = TxnStore(db)
        self.trash_dir = Path(data_dir) / "trash"
        self.disk = DiskPhase(db, self.store, self.trash_dir, fault or env_fault())
        self._lock = threading.RLock()
        self.rollbacks = Rollbacks(db, self.store, self.disk, index, self.quiesce, self._done_steps)

    # proposals ----------------------------------------------------------------------------------
    def propose_plan(self, summary: str, operations: Sequence[Any]) -> PlanJson:
        """`draft`, as the JSON the agent's `propose_actions` and the Gardener hand on."""
        return self.draft(summary, operations).to_json_dict()

    def draft(self, summary: str, operations: Sequence[Any]) -> ActionPlan:
        """Validate on a virtual tree and store a draft with source fingerprints; executes nothing."""
        validated = validate(list(operations or []), self.roots)
        plan = ActionPlan(
            transaction_id=uuid.uuid4().hex,
            summary=(summary or "").strip() or "Reorganise files",
            operations=validated.operations,
        )
        prints = {path: fsops.fingerprint(path) for path in validated.fingerprint_paths}
        with self.db.atomic():
            self.store.create(plan, prints)
        return plan

    def plan_reorganization(self, instruction: str, scope: str) -> ActionPlan:
        """Ask the reasoning model for a plan over `scope`'s direct children, validate it, store a draft."""
        folder = self._bounded_folder(scope)
        summary, operations = plan_request(
            self.planner, self._prompt(), instruction, folder, self.index, self.roots
        )
        return self.draft(summary, operations)

    def discard_action_plan(self, transaction_id: str) -> Done:
        self.store.expire_drafts()
        record = self._record(transaction_id)
        if not self.store.claim(record.id, TxnStatus.DRAFT, TxnStatus.DISCARDED):
            raise Conflict(f"The plan {record.id} is {record.status}; only a draft can be discarded")
        return Done()

    def list_transactions(self) -> list[Transaction]:
        with self._lock:
            self.rollbacks.settle_pending()
            self.store.expire_drafts()
            return self.rollbacks.overlay(self.store.listing())

    # apply / undo -------------------------------------------------------------------------------
    def apply_action_plan(self, transaction_id: str, operations: Sequence[Any] | None = None) -> ApplyResult:
        """Approve a draft (or the person's selection from it) and run it; failures roll back."""
        with self._lock:
            self.rollbacks.settle_pending()
            self.store.expire_drafts()
            record = self._record(transaction_id)
            if record.status != TxnStatus.DRAFT:
                raise Conflict(
                    f"The plan {record.id} is {record.status}, not a draft awaiting approval; "
                    "ask for a new plan"
                )
            chosen = selected(record, operations)
            try:
                check_fingerprints(record, chosen)
                validated = validate(chosen, self.roots)
            except (Conflict, PlanInvalid) as refused:
                with self.db.atomic():
                    self.store.update(record.id, message=refused.message)
                raise
            trash.check_room(
                [op.old_path for op in validated.operations if op.kind == "delete" and op.old_path],
                self.trash_dir,
            )
            if not self.store.claim(record.id, TxnStatus.DRAFT, TxnStatus.APPLYING):
                raise Conflict(
                    f"The plan {record.id} was approved or discarded meanwhile; nothing was done twice"
                )
            with self.db.atomic():
                self.store.update(
                    record.id, phase=Phase.DISK, plan=record.plan.model_copy(update={"operations": chosen})
                )
            return self._run(
                record.id,
                len(chosen),
                lambda: self._plan_disk(record.id, validated),
                lambda steps: self._requalify_changes(validated),
            )

    def undo_transaction(self, transaction_id: str) -> ApplyResult:
        """Apply the inverse of a committed plan under the same rules, including its index sync; for a
        plan whose rollback was incomplete, retry that rollback."""
        with self._lock:
            self.rollbacks.settle_pending()
            record = self._record(transaction_id)
            if record.status == TxnStatus.ROLLBACK_INCOMPLETE:
                return self.rollbacks.retry(record)
            if record.kind != "plan" or record.status != TxnStatus.COMMITTED:
                raise Conflict(
                    f"The transaction {record.id} is {record.status}; only a committed plan can be undone"
                )
            steps = [e.step for e in self.store.journal(record.id) if e.state == StepState.DONE]
            check_undo(self.store, record, steps)
            undo = ActionPlan(transaction_id=uuid.uuid4().hex, summary=f"Undo: {record.summary}")
            with self.db.atomic():
                self.store.create(undo, {}, kind="undo", status=TxnStatus.UNDOING, undo_of=record.id)
                self.store.update(undo.transaction_id, phase=Phase.DISK)
            inverse = [s.inverse() for s in reversed(steps)]
            changes = [c.reversed_at(_trace_back(c.path, steps)) for c in reversed(record.senses)]
            return self._run(
                undo.transaction_id,
                len(record.plan.operations),
                lambda: self._steps_disk(undo.transaction_id, inverse),
                lambda s: changes,
            )

    def recover(self) -> list[Recovered]:
        """Roll back every transaction a crash interrupted (engine/txn/rollback.py); one report each."""
        with self._lock:
            self.store.expire_drafts()
            return self.rollbacks.recover()

    def startup_notices(self, recovered: list[Recovered]) -> list[str]:
        return self.rollbacks.startup_notices(recovered)

    # trash --------------------------------------------------------------------------------------
    def trash_list(self) -> list[TrashItem]:
        return self.store.trash_items()

    def trash_restore(self, item_id: str, target_path: str | None = None) -> Restored:
        """Put a trashed item back at its original place (or `target_path`), never over anything."""
        with self._lock:
            self.rollbacks.settle_pending()
            item = self.store.trash_item(item_id)
            if item is None or item["restored_at"] is not None:
                raise NotFound(f"Nothing with id {item_id} is in the SenseTree trash; refresh the trash list")
            target = self.roots.require(target_path or item["original_path"], keep_link=True)
            if os.path.lexists(target):
                raise Conflict(
                    f"{target} already exists; SenseTree never overwrites, so choose another place"
                )
            plan = ActionPlan(transaction_id=uuid.uuid4().hex, summary=f"Restore {target} from the trash")
            with self.db.atomic():
                self.store.create(plan, {}, kind="restore", status=TxnStatus.APPLYING)
                self.store.update(plan.transaction_id, phase=Phase.DISK)
            steps = [
                *self.disk.parents_for(os.path.dirname(target), 0),
                Step("untrash", src=item["trash_path"], dst=target, item_id=item_id, op_index=0),
            ]
            result = self._run(
                plan.transaction_id, 1, lambda: self._steps_disk(plan.transaction_id, steps), lambda s: []
            )
            if result.rollback is not None:
                raise Conflict(result.message)
            return Restored(path=target)

    # the three phases ---------------------------------------------------------------------------
    def _run(
        self,
        txn_id: str,
        count: int,
        disk: Callable[[], None],
        changes_for: Callable[[list[Step]], list[SenseChange]],
    ) -> ApplyResult:
        with self.quiesce():
            return self._phases(txn_id, count, disk, changes_for)

    def _phases(
        self,
        txn_id: str,
        count: int,
        disk: Callable[[], None],
        changes_for: Callable[[list[Step]], list[SenseChange]],
    ) -> ApplyResult:
        try:
            record = self._record(txn_id)
            self.disk.journal.begin(txn_id, record.summary, record.kind)
            disk()
            steps = self._done_steps(txn_id)
            self._phase(txn_id, Phase.INDEX)
            index_forward(self.index, txn_id, steps, self._at_fault_point)
            changes = changes_for(steps)
            self._phase(txn_id, Phase.SEMANTICS, senses=[asdict(c) for c in changes])
            senses_forward(self.db, self.index, txn_id, changes, self._at_fault_point)
            self._commit(txn_id, steps)
        except Exception as exc:  # noqa: BLE001 - every failure, ours or the OS's, ends in a full rollback
            log.warning("transaction %s failed, rolling back: %s", txn_id, exc)
            report, status, settled = self.rollbacks.rollback(txn_id)
            reason = exc.message if isinstance(exc, EngineError) else f"{type(exc).__name__}: {exc}"
            if status == TxnStatus.ROLLED_BACK:
                message = f"Nothing was changed: {reason}. {outcome(report)}"
            else:
                message = (
                    f"The plan failed ({reason}) and could not be fully undone. {outcome(report)} "
                    "Choose Retry rollback in History once that is fixed."
                )
            return ApplyResult(applied=0, message=message + unsaved(settled), rollback=report)
        return ApplyResult(applied=count, message=_done_message(count, txn_id, self.store))

    def _plan_disk(self, txn_id: str, validated: Validated) -> None:
        seq = 0
        for index, op in enumerate(validated.operations):
            for step in self.disk.steps_for(op, index):
                seq += 1
                self.disk.perform(txn_id, seq, step)

    def _steps_disk(self, txn_id: str, steps: list[Step]) -> None:
        for seq, step in enumerate(steps, start=1):
            self.disk.perform(txn_id, seq, step)

    def _requalify_changes(self, validated: Validated) -> list[SenseChange]:
        changes = []
        for index, path in sorted(validated.requalify_final.items()):
            sense, pinned = current(self.index, path)
            new = (validated.operations[index].new_summary or "").strip()
            changes.append(SenseChange(path, sense, pinned, new, True, pin=True))
        return changes

    def _commit(self, txn_id: str, steps: list[Step]) -> None:
        after = {path: fsops.fingerprint(path) for path in _final_positions(steps)}
        record = self._record(txn_id)
        with self.db.atomic():
            self.store.update(
                txn_id, status=TxnStatus.COMMITTED, phase=Phase.DONE, after=after, committed_at=time.time()
            )
            if record.kind == "undo" and record.undo_of:
                self.store.update(record.undo_of, status=TxnStatus.UNDONE)
        self.disk.journal.remove(txn_id)  # SQLite holds the outcome now

    # checks -------------------------------------------------------------------------------------
    def _bounded_folder(self, scope: str) -> str:
        folder = self.roots.require(scope)
        if not os.path.isdir(folder):
            raise NotFound(f"{scope} is not a folder; choose a folder to reorganise")
        return folder

    # small helpers ------------------------------------------------------------------------------
    def _record(self, txn_id: str) -> TxnRecord:
        record = self.store.get(txn_id)
        if record is None:
            raise NotFound(f"No plan or transaction has the id {txn_id}; ask for a new plan")
        return record

    def _done_steps(self, txn_id: str) -> list[Step]:
        return [e.step for e in self.store.journal(txn_id) if e.state in (StepState.DONE, StepState.UNDOING)]

    def _phase(self, txn_id: str, phase: Phase, **fields: Any) -> None:
        with self.db.atomic():
            self.store.update(txn_id, phase=phase, **fields)

    def _at_fault_point(self, txn_id: str, phase: str, stage: str, seq: int) -> None:
        self.disk.at_fault_point(txn_id, phase, stage, seq)

    def _prompt(self) -> str:
        from engine.prompts import DEFAULTS

        return self.reorganize_prompt() if self.reorganize_prompt else DEFAULTS["reorganize"]


def _final_positions(steps: list[Step]) -> list[str]:
    """Where the things this transaction moved ended up (what undo must find unchanged)."""
    positions: list[str] = []
    for step in steps:
        if step.kind in ("move", "trash"):
            moved = [
                paths.rebase(p, step.src, step.dst) if paths.is_within(p, step.src, fold_case=False) else p
                for p in positions
            ]
            positions = [
                p for p in moved if step.kind == "move" or not paths.is_within(p, step.dst, fold_case=False)
            ]
        if step.kind == "rmdir":  # a folder an undo removed holds nothing the person must find again
            positions = [p for p in positions if not paths.is_within(p, step.dst, fold_case=False)]
        if step.kind in ("move", "untrash"):
            positions.append(step.dst)
    return positions


def _trace_back(path: str, steps: list[Step]) -> str:
    """Where `path` (a final position) was before the steps ran."""
    for step in reversed(steps):
        if step.kind == "move" and paths.is_within(path, step.dst, fold_case=False):
            path = paths.rebase(path, step.dst, step.src)
    return path


def _done_message(count: int, txn_id: str, store: TxnStore) -> str:
    record = store.get(txn_id)
    verb = "Undid" if record is not None and record.kind == "undo" else "Applied"
    return f"{verb} {count} operation{'s' if count != 1 else ''}; the index is up to date."
