"""The durable records of the action system, all in the engine's one SQLite file.

- `txn_transactions`: one row per plan (draft → applying → committed | rolled_back, or discarded;
  a committed plan becomes `undone` when its undo commits; a draft nobody decided on within 30 days
  becomes `expired`, never applied) and one per undo. A draft whose approval was refused (a source
  changed, the plan no longer validates) stays a draft, with the refusal in `message`, so History
  can mark it and the person can still review it. It keeps the plan, the
  source fingerprints taken at proposal, the fingerprints of what the apply left (checked by undo),
  and the senses requalify replaced (restored on rollback or undo).
- `txn_journal`: the intent of every disk step, written and committed *before* the disk is touched,
  then marked `copied` / `done` / `undoing` / `undone`. With `synchronous=FULL` (engine/db.py) a row
  that was committed survives a crash, which is what lets `recover()` find an interrupted apply.
- `txn_trash`: the manifest of what `delete` moved into `<data dir>/trash`.

Durable state that cannot be rebuilt does not live only here: each trash item also has a manifest
file next to it (engine/txn/trash.py) and an in-flight transaction its own journal file
(engine/txn/journal_file.py), so a lost or damaged database loses neither.
"""

from __future__ import annotations

import json
import logging
import sqlite3
import time
from dataclasses import dataclass
from typing import Any, overload

from engine.db import Database
from engine.txn.fsops import Fingerprint
from engine.txn.model import ActionPlan, Step
from engine.txn.results import Transaction, TrashItem
from engine.txn.states import ACTIVE, Phase, StepState, TxnStatus
from engine.txn.sync import SenseChange

log = logging.getLogger(__name__)

MIGRATIONS = [
    (
        "txn_0001_tables",
        """
        CREATE TABLE txn_transactions (
            id TEXT PRIMARY KEY,
            kind TEXT NOT NULL DEFAULT 'plan',
            status TEXT NOT NULL,
            phase TEXT NOT NULL DEFAULT '',
            summary TEXT NOT NULL DEFAULT '',
            plan TEXT NOT NULL,
            fingerprints TEXT NOT NULL DEFAULT '{}',
            after TEXT NOT NULL DEFAULT '{}',
            senses TEXT NOT NULL DEFAULT '[]',
            undo_of TEXT,
            message TEXT NOT NULL DEFAULT '',
            created_at REAL NOT NULL,
            committed_at REAL
        );
        CREATE INDEX txn_transactions_status ON txn_transactions(status);
        CREATE TABLE txn_journal (
            transaction_id TEXT NOT NULL REFERENCES txn_transactions(id),
            seq INTEGER NOT NULL,
            step TEXT NOT NULL,
            state TEXT NOT NULL,
            PRIMARY KEY (transaction_id, seq)
        );
        CREATE TABLE txn_trash (
            item_id TEXT PRIMARY KEY,
            original_path TEXT NOT NULL,
            trash_path TEXT NOT NULL,
            transaction_id TEXT,
            trashed_at REAL NOT NULL,
            restored_at REAL,
            restored_to TEXT
        );
        """,
    ),
]

_SHOWS_MESSAGE = (TxnStatus.DRAFT, TxnStatus.EXPIRED, TxnStatus.ROLLED_BACK, TxnStatus.ROLLBACK_INCOMPLETE)
DRAFT_TTL_S = 30 * 24 * 3600  # a plan waiting longer than this is stale: the disk has moved on
EXPIRED_MESSAGE = "Not approved within 30 days, so it expired; nothing was applied. Ask for a new plan."


@dataclass
class TxnRecord:
    id: str
    kind: str
    status: TxnStatus
    phase: Phase
    summary: str
    plan: ActionPlan
    fingerprints: dict[str, Fingerprint | None]  # JSON columns, as written
    after: dict[str, Fingerprint | None]
    senses: list[SenseChange]
    undo_of: str | None
    created_at: float
    committed_at: float | None


@dataclass(frozen=True)
class JournalEntry:
    seq: int
    step: Step
    state: StepState


@overload
def iso(ts: float) -> str: ...
@overload
def iso(ts: None) -> None: ...
def iso(ts: float | None) -> str | None:
    """UTC ISO-8601 with a Z, the time format of every IPC result."""
    if ts is None:
        return None
    return time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(ts))


class TxnStore:
    """Rows of the three tables, read and written in the caller's `db.atomic()` where it matters."""

    def __init__(self, db: Database):
        self.db = db

    # transactions -------------------------------------------------------------------------------
    def create(
        self,
        plan: ActionPlan,
        fingerprints: dict[str, Fingerprint | None],
        *,
        kind: str = "plan",
        status: TxnStatus = TxnStatus.DRAFT,
        undo_of: str | None = None,
    ) -> None:
        self.db.execute(
            "INSERT INTO txn_transactions(id, kind, status, summary, plan, fingerprints, undo_of, created_at)"
            " VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
            (
                plan.transaction_id,
                kind,
                status,
                plan.summary,
                plan.model_dump_json(),
                json.dumps(fingerprints),
                undo_of,
                time.time(),
            ),
        )

    def get(self, txn_id: str) -> TxnRecord | None:
        row = self.db.one("SELECT * FROM txn_transactions WHERE id = ?", (txn_id,))
        return None if row is None else _record(row)

    def claim(self, txn_id: str, expected: TxnStatus, new_status: TxnStatus) -> bool:
        """Move a transaction from `expected` to `new_status`; False when another caller got there first."""
        cur = self.db.execute(
            "UPDATE txn_transactions SET status = ? WHERE id = ? AND status = ?",
            (new_status, txn_id, expected),
        )
        return cur.rowcount == 1

    def update(self, txn_id: str, **fields: Any) -> None:
        encoded = {
            k: json.dumps(v) if k in ("after", "senses", "fingerprints") else v for k, v in fields.items()
        }
        if "plan" in encoded:
            encoded["plan"] = fields["plan"].model_dump_json()
        sets = ", ".join(f"{name} = ?" for name in encoded)
        self.db.execute(f"UPDATE txn_transactions SET {sets} WHERE id = ?", (*encoded.values(), txn_id))

    def expire_drafts(self, now: float | None = None) -> int:
        """Mark drafts older than 30 days `expired`; returns how many. Best effort: where SQLite cannot
        write now (a full disk, a read-only file) the drafts stay as they are until the next call, and
        the command that asked (listing History, a rollback's report) still answers."""
        cutoff = (time.time() if now is None else now) - DRAFT_TTL_S
        try:
            cur = self.db.execute(
                "UPDATE txn_transactions SET status = ?, message = ? WHERE status = ? AND created_at < ?",
                (TxnStatus.EXPIRED, EXPIRED_MESSAGE, TxnStatus.DRAFT, cutoff),
            )
        except sqlite3.OperationalError as exc:
            log.warning("could not mark old drafts expired now (%s); trying again next time", exc)
            return 0
        return cur.rowcount

    def active(self) -> list[TxnRecord]:
        rows = self.db.query(
            "SELECT * FROM txn_transactions WHERE status IN (?, ?) ORDER BY created_at", ACTIVE
        )
        return [_record(r) for r in rows]

    def listing(self) -> list[Transaction]:
        rows = self.db.query("SELECT * FROM txn_transactions ORDER BY created_at DESC, rowid DESC")
        return [_transaction(row) for row in rows]

    # journal ------------------------------------------------------------------------------------
    def journal_intent(self, txn_id: str, seq: int, step: Step) -> None:
        self.db.execute(
            "INSERT INTO txn_journal(transaction_id, seq, step, state) VALUES (?, ?, ?, ?)",
            (txn_id, seq, step.to_json(), StepState.INTENT),
        )

    def journal_mark(self, txn_id: str, seq: int, state: StepState) -> None:
        self.db.execute(
            "UPDATE txn_journal SET state = ? WHERE transaction_id = ? AND seq = ?", (state, txn_id, seq)
        )

    def journal(self, txn_id: str) -> list[JournalEntry]:
        rows = self.db.query("SELECT * FROM txn_journal WHERE transaction_id = ? ORDER BY seq", (txn_id,))
        return [JournalEntry(r["seq"], Step.from_json(r["step"]), StepState(r["state"])) for r in rows]

    # trash manifest -----------------------------------------------------------------------------
    def trash_add(
        self,
        item_id: str,
        original: str,
        trash_path: str,
        txn_id: str | None,
        trashed_at: float | None = None,
    ) -> None:
        self.db.execute(
            "INSERT INTO txn_trash(item_id, original_path, trash_path, transaction_id, trashed_at)"
            " VALUES (?, ?, ?, ?, ?)",
            (item_id, original, trash_path, txn_id, trashed_at or time.time()),
        )

    def trash_forget(self, item_id: str) -> None:
        self.db.execute("DELETE FROM txn_trash WHERE item_id = ?", (item_id,))

    def trash_mark_restored(self, item_id: str, target: str | None) -> None:
        restored_at = None if target is None else time.time()
        self.db.execute(
            "UPDATE txn_trash SET restored_at = ?, restored_to = ? WHERE item_id = ?",
            (restored_at, target, item_id),
        )

    def trash_item(self, item_id: str) -> sqlite3.Row | None:
        return self.db.one("SELECT * FROM txn_trash WHERE item_id = ?", (item_id,))

    def trash_items(self) -> list[TrashItem]:
        rows = self.db.query("SELECT * FROM txn_trash WHERE restored_at IS NULL ORDER BY trashed_at DESC")
        return [
            TrashItem(
                item_id=r["item_id"],
                original_path=r["original_path"],
                trashed_at=iso(r["trashed_at"]),
                transaction_id=r["transaction_id"],
            )
            for r in rows
        ]


def _record(row: Any) -> TxnRecord:
    return TxnRecord(
        id=row["id"],
        kind=row["kind"],
        status=TxnStatus(row["status"]),
        phase=Phase(row["phase"]),
        summary=row["summary"],
        plan=ActionPlan.model_validate_json(row["plan"]),
        fingerprints=json.loads(row["fingerprints"]),
        after=json.loads(row["after"]),
        senses=[SenseChange(**c) for c in json.loads(row["senses"])],
        undo_of=row["undo_of"],
        created_at=row["created_at"],
        committed_at=row["committed_at"],
    )


def _transaction(row: Any) -> Transaction:
    """A History row: the optional keys only where they say something."""
    draft = row["status"] == TxnStatus.DRAFT
    # what History's Review shows for a draft: the plan card, as proposed
    shown = ActionPlan.model_validate_json(row["plan"]).to_json_dict()["operations"] if draft else None
    return Transaction(
        transaction_id=row["id"],
        status=row["status"],
        summary=row["summary"],
        created_at=iso(row["created_at"]),
        committed_at=iso(row["committed_at"]),
        undo_of=row["undo_of"] if row["kind"] == "undo" else None,
        message=row["message"] if row["message"] and row["status"] in _SHOWS_MESSAGE else None,
        operations=shown,
        refused=True if draft and row["message"] else None,
    )
