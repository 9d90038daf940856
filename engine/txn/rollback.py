"""Rollback, its write-back to SQLite, crash recovery and the retry of an incomplete rollback.

A rollback walks semantics → index → disk backwards and makes no SQLite write while it works (the
disk phase notes its marks in the journal file, engine/txn/journal_file.py). Its outcome is then
written to SQLite in one transaction (`settle`); when SQLite refuses — the data folder is full — the
outcome waits in memory (`overlay` shows it in the History list) and in the journal file, and is
written back by the next command, or by `recover()` at the next start.

`recover()` rolls back what a crash interrupted: every transaction SQLite calls active, and every
journal file SQLite knows nothing of (the database was lost or rebuilt). A plan whose rollback stayed
incomplete gets a start-up notice, and `retry()` (undo_transaction on it) walks its journal again.
"""

from __future__ import annotations

import logging
import sqlite3
from collections.abc import Callable
from contextlib import AbstractContextManager
from typing import Any

from engine.db import Database
from engine.txn import trash
from engine.txn.executor import DiskPhase, Writeback, rollback_entry
from engine.txn.model import Step
from engine.txn.results import ApplyResult, Recovered, RollbackStep, Transaction
from engine.txn.states import Phase, TxnStatus
from engine.txn.store import TxnRecord, TxnStore
from engine.txn.sync import IndexSync, enqueue_tree, index_backward, senses_backward

log = logging.getLogger(__name__)

Report = list[RollbackStep]


class Rollbacks:
    """Owned by TxnService, which holds its lock around every call."""

    def __init__(
        self,
        db: Database,
        store: TxnStore,
        disk: DiskPhase,
        index: IndexSync,
        quiesce: Callable[[], AbstractContextManager[Any]],
        done_steps: Callable[[str], list[Step]],
    ):
        self.db, self.store, self.disk, self.index = db, store, disk, index
        self.quiesce, self.done_steps = quiesce, done_steps
        self._unsettled: dict[
            str, tuple[TxnStatus, str, Writeback]
        ] = {}  # outcomes SQLite could not take yet

    def rollback(self, txn_id: str) -> tuple[Report, TxnStatus, bool]:
        """Semantics, then index, then disk, each backwards; the transaction ends rolled_back (or
        rollback_incomplete). Returns the report, the status, and whether SQLite took the outcome."""
        record = self.store.get(txn_id)  # None when only the journal file survived a lost database
        report: Report = []
        requeue: list[str] = []
        try:
            if record is not None and record.phase in (Phase.SEMANTICS, Phase.DONE):
                for path in senses_backward(self.index, record.senses):
                    report.append(rollback_entry(f"restore the description of {path}", True))
            if record is not None and record.phase in (Phase.INDEX, Phase.SEMANTICS, Phase.DONE):
                requeue = index_backward(self.index, self.done_steps(txn_id))
                report.append(rollback_entry("move the index entries back", True))
        except Exception as exc:  # noqa: BLE001 - report it and still put the disk back
            log.error("index rollback of %s failed: %s", txn_id, exc)
            report.append(rollback_entry("restore the index", False, f"{exc}; run a re-index of the folder"))
        disk_report, owed = self.disk.rollback(txn_id)
        report.extend(disk_report)
        for path in requeue:
            try:
                enqueue_tree(self.index, path)
            except Exception as exc:  # noqa: BLE001 - the files are back; the index catches up on a re-scan
                log.error("could not queue %s for indexing after a rollback: %s", path, exc)
        status = (
            TxnStatus.ROLLED_BACK if all(step["ok"] for step in report) else TxnStatus.ROLLBACK_INCOMPLETE
        )
        return report, status, self.settle(txn_id, status, outcome(report), owed)

    def settle(self, txn_id: str, status: TxnStatus, message: str, owed: Writeback) -> bool:
        """Write a rollback's outcome to SQLite; False (and kept for later) when SQLite refuses."""
        self.disk.journal.end(txn_id, status, message)
        try:
            with self.db.atomic():
                owed.apply(self.store, txn_id)
                self.store.update(txn_id, status=status, phase=Phase.NONE, message=message)
        except sqlite3.Error as exc:
            log.error("could not record the rollback of %s (%s); it is kept in its journal file", txn_id, exc)
            self._unsettled[txn_id] = (status, message, owed)
            return False
        self._unsettled.pop(txn_id, None)
        self.disk.journal.remove(txn_id)
        return True

    def settle_pending(self) -> None:
        for txn_id, (status, message, owed) in list(self._unsettled.items()):
            self.settle(txn_id, status, message, owed)

    def overlay(self, listing: list[Transaction]) -> list[Transaction]:
        """The History list with the outcomes SQLite has not taken yet (never a stale `applying`)."""
        return [
            item.model_copy(update={"status": self._unsettled[item.transaction_id][0]})
            if item.transaction_id in self._unsettled
            else item
            for item in listing
        ]

    # start-up -----------------------------------------------------------------------------------
    def recover(self) -> list[Recovered]:
        """Roll back every transaction a crash interrupted, from SQLite or from its journal file alone;
        then re-list trash items whose rows a lost database took along."""
        reports = []
        handled = set()
        for record in self.store.active():
            handled.add(record.id)
            reports.append(self._recovered(record.id, record.summary))
        for txn_id in self.disk.journal.pending():
            if txn_id not in handled:
                report = self._recover_file(txn_id)
                if report is not None:
                    reports.append(report)
        trash.adopt_manifests(self.store, self.disk.trash_dir)
        return reports

    def _recovered(self, txn_id: str, summary: str) -> Recovered:
        with self.quiesce():
            steps, status, settled = self.rollback(txn_id)
        log.warning("recovered interrupted transaction %s: %s", txn_id, status)
        return Recovered(
            transaction_id=txn_id,
            summary=summary,
            status=status,
            message=f"SenseTree stopped while applying “{summary}”; {outcome(steps)}{unsaved(settled)}",
            rollback=steps,
        )

    def _recover_file(self, txn_id: str) -> Recovered | None:
        """A journal file with no active SQLite row: the outcome is in SQLite already (a commit or a
        rollback whose file was not removed yet), or in the file (`end`), or the database was lost
        mid-apply and the file alone says what to roll back."""
        journal = self.disk.journal.read(txn_id)
        if journal is None:
            return None
        if self.store.get(txn_id) is not None or journal.end is not None:
            self.disk.journal.remove(txn_id)
            return None
        return self._recovered(txn_id, journal.summary or txn_id)

    def retry(self, record: TxnRecord) -> ApplyResult:
        """undo_transaction on a rollback_incomplete plan: walk what is left of its journal again."""
        with self.quiesce():
            report, status, settled = self.rollback(record.id)
        if status == TxnStatus.ROLLED_BACK:
            message = (
                f"The rollback of “{record.summary}” is complete: "
                "your files are as they were before the plan."
            )
        else:
            message = f"The rollback of “{record.summary}” is still incomplete. {outcome(report)}"
        return ApplyResult(applied=0, message=message + unsaved(settled), rollback=report)

    def startup_notices(self, recovered: list[Recovered]) -> list[str]:
        """A notice for every plan whose rollback is incomplete (not those this start just reported)."""
        skip = {item["transaction_id"] for item in recovered}
        rows = self.db.query(
            "SELECT id, summary, message FROM txn_transactions WHERE status = 'rollback_incomplete'"
            " ORDER BY created_at"
        )
        return [
            f"The plan “{row['summary']}” could not be fully undone: {row['message']} "
            "Choose Retry rollback in History once that is fixed."
            for row in rows
            if row["id"] not in skip
        ]


def outcome(report: Report) -> str:
    """What a rollback left where, in the person's words."""
    failed = [step for step in report if not step["ok"]]
    if not failed:
        return "Everything done so far was undone; your files are as they were."
    return (
        f"{len(failed)} step(s) could not be undone, so check these by hand: "
        + "; ".join(f"{step.get('where') or step['step']} ({step.get('error', 'failed')})" for step in failed)
        + ". Everything else was put back."
    )


def unsaved(settled: bool) -> str:
    return (
        ""
        if settled
        else (
            " SenseTree could not record this in its history yet (the data folder is full); "
            "it will as soon as there is room, at the latest at the next start."
        )
    )
