"""Phase 1 of a transaction: the disk, journaled step by step, and its rollback.

Each primitive step is written to the journal — its own file first (engine/txn/journal_file.py), then
SQLite — *before* the disk is touched, then marked done (with its trash-manifest change in the same
SQLite transaction; a trash item's manifest file is written before it moves). Rollback makes no SQLite
write while it works: its marks go to the journal file and into a `Writeback` that the caller commits
at the end, or later when a full disk refuses it. Rollback walks the
journal backwards and, for every step that may have happened, looks at the disk to see what is
actually there (the process may have died between the journal write and the disk step, or between
the disk step and the done mark), then undoes exactly that. Crash recovery is the same walk.

The only test seam is `fault`, called at every point where a crash or an error could strike; it is
a real hook in the product path (it does nothing unless given), and `SENSETREE_TXN_CRASH_AT=k`
turns it into an `os._exit(137)` at the k-th point when `SENSETREE_TESTING=1` is also set.
"""

from __future__ import annotations

import errno
import itertools
import logging
import os
import uuid
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

from engine import privacy
from engine.db import Database
from engine.errors import Conflict
from engine.txn import fsops, trash
from engine.txn.journal_file import JournalFiles, merge
from engine.txn.model import Operation, Step
from engine.txn.results import RollbackStep
from engine.txn.states import StepState
from engine.txn.store import JournalEntry, TxnStore

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class FaultPoint:
    """Where a transaction stands: phase disk|index|semantics, stage within a disk step, step number."""

    transaction_id: str
    phase: str
    stage: str
    seq: int
    step: Step | None = None


Fault = Callable[[FaultPoint], None]


def env_fault() -> Fault | None:
    """`SENSETREE_TXN_CRASH_AT=k` kills the process at the k-th fault point (tests only)."""
    spec = os.environ.get("SENSETREE_TXN_CRASH_AT", "")
    if os.environ.get("SENSETREE_TESTING") != "1" or not spec.strip():
        return None
    target, counter = int(spec), itertools.count(1)

    def crash(point: FaultPoint) -> None:
        if next(counter) == target:
            log.warning("crashing on purpose at %s (SENSETREE_TXN_CRASH_AT=%d)", point, target)
            os._exit(137)

    return crash


def rollback_entry(description: str, ok: bool, detail: str = "") -> RollbackStep:
    """One line of a rollback or recovery report."""
    entry = RollbackStep(step=description, ok=ok)
    if detail and ok:
        entry["detail"] = detail
    elif detail:
        entry["error"] = detail
    return entry


@dataclass
class Writeback:
    """The SQLite writes a rollback owes, made together at its end (or once a full disk allows)."""

    marks: list[tuple[int, StepState]] = field(default_factory=list)
    forget: list[str] = field(default_factory=list)  # trash rows whose item left the trash again
    unrestore: list[str] = field(default_factory=list)  # trash rows whose item went back into the trash

    def apply(self, store: TxnStore, txn_id: str) -> None:
        for seq, state in self.marks:
            store.journal_mark(txn_id, seq, state)
        for item in self.forget:
            store.trash_forget(item)
        for item in self.unrestore:
            store.trash_mark_restored(item, None)


class DiskPhase:
    """Performs and reverses journaled disk steps for one transaction at a time."""

    def __init__(
        self,
        db: Database,
        store: TxnStore,
        trash_dir: Path,
        fault: Fault | None,
        journal: JournalFiles | None = None,
    ):
        self.db, self.store, self.trash_dir, self.fault = db, store, trash_dir, fault
        self.journal = journal or JournalFiles(Path(trash_dir).parent / "journal")

    def at_fault_point(self, txn_id: str, phase: str, stage: str, seq: int, step: Step | None = None) -> None:
        if self.fault is not None:
            self.fault(FaultPoint(txn_id, phase, stage, seq, step))

    # planning steps -----------------------------------------------------------------------------
    def steps_for(self, op: Operation, index: int) -> Iterator[Step]:
        """The primitive steps of one operation, computed against the disk as it is now."""
        if op.kind == "requalify":
            return
        if op.kind == "delete":
            assert op.old_path
            item = uuid.uuid4().hex
            name = os.path.basename(op.old_path)
            yield Step(
                "trash",
                src=op.old_path,
                dst=str(self.trash_dir / f"{item}__{name}"),
                item_id=item,
                op_index=index,
            )
            return
        target = op.new_path
        assert target
        yield from self.parents_for(target if op.kind == "mkdir" else os.path.dirname(target), index)
        if op.kind != "mkdir":
            assert op.old_path
            yield Step("move", src=op.old_path, dst=target, op_index=index)

    @staticmethod
    def parents_for(directory: str, index: int) -> Iterator[Step]:
        """A mkdir step for every missing folder down to `directory`, outermost first."""
        missing = []
        probe = directory
        while not os.path.lexists(probe):
            missing.append(probe)
            probe = os.path.dirname(probe)
        for folder in reversed(missing):
            yield Step("mkdir", dst=folder, op_index=index)

    # forward ------------------------------------------------------------------------------------
    def perform(self, txn_id: str, seq: int, step: Step) -> None:
        """Journal the intent, touch the disk, mark it done; exceptions leave the intent for rollback."""
        self.at_fault_point(txn_id, "disk", "before_intent", seq, step)
        self.journal.intent(txn_id, seq, step)
        if step.kind == "trash":
            trash.write_manifest(self.trash_dir, step.item_id, step.src, step.dst, txn_id)
        with self.db.atomic():
            self.store.journal_intent(txn_id, seq, step)
        self.at_fault_point(txn_id, "disk", "before_disk", seq, step)
        self._do(txn_id, seq, step)
        self.at_fault_point(txn_id, "disk", "before_done", seq, step)
        self.journal.mark(txn_id, seq, StepState.DONE, sync=False)  # SQLite's commit below is the durable one
        with self.db.atomic():
            self.store.journal_mark(txn_id, seq, StepState.DONE)
            if step.kind == "trash":
                self.store.trash_add(step.item_id, step.src, step.dst, txn_id)
            elif step.kind == "untrash":
                self.store.trash_mark_restored(step.item_id, step.dst)
        if step.kind == "untrash":
            trash.remove_manifest(self.trash_dir, step.item_id)

    def _do(self, txn_id: str, seq: int, step: Step) -> None:
        token = f"{txn_id[:8]}-{seq}"
        if step.kind == "mkdir":
            privacy.mkdir_for_user(step.dst)  # the person's folder, not the data folder's 0700
        elif step.kind == "rmdir":
            try:
                os.rmdir(step.dst)
            except OSError as exc:
                if exc.errno in (errno.ENOTEMPTY, errno.EEXIST):
                    raise Conflict(
                        f"The folder {step.dst} is not empty any more; move out what was added "
                        "to it, then try again"
                    ) from exc
                raise
        else:
            if step.kind == "trash":
                self.trash_dir.mkdir(parents=True, exist_ok=True)
            if os.path.lexists(step.dst):
                raise Conflict(f"{step.dst} already exists; SenseTree never overwrites, so nothing was moved")
            if not os.path.lexists(step.src):
                raise Conflict(f"{step.src} is not there any more; it was moved or deleted outside SenseTree")

            def copied() -> None:
                self._mark(txn_id, seq, StepState.COPIED)
                self.at_fault_point(txn_id, "disk", "after_copy", seq, step)

            fsops.move_path(
                step.src,
                step.dst,
                token,
                on_copied=copied,
                on_placed=lambda: self.at_fault_point(txn_id, "disk", "after_place", seq, step),
            )

    def _mark(self, txn_id: str, seq: int, state: StepState) -> None:
        self.journal.mark(txn_id, seq, state)
        with self.db.atomic():
            self.store.journal_mark(txn_id, seq, state)

    # backward -----------------------------------------------------------------------------------
    def entries(self, txn_id: str) -> list[JournalEntry]:
        """The journal as SQLite and the journal file together know it (either may be behind)."""
        return merge(self.store.journal(txn_id), self.journal.read(txn_id))

    def rollback(self, txn_id: str) -> tuple[list[RollbackStep], Writeback]:
        """Undo, newest first, every journaled step that may have touched the disk; no SQLite writes."""
        report: list[RollbackStep] = []
        owed = Writeback()
        for entry in reversed(self.entries(txn_id)):
            if entry.state == StepState.UNDONE:
                continue
            description = entry.step.inverse().describe()
            try:
                detail = self._undo(txn_id, entry, owed)
            except (OSError, Conflict) as exc:
                log.error("rollback of %s failed: %s", entry.step.describe(), exc)
                failed = rollback_entry(description, False, str(exc))
                failed["where"] = where_now(entry.step)
                report.append(failed)
                continue
            if detail:
                report.append(rollback_entry(description, True, detail))
        return report, owed

    def _undo(self, txn_id: str, entry: JournalEntry, owed: Writeback) -> str:
        step, seq = entry.step, entry.seq
        happened = entry.state != StepState.INTENT
        if happened and entry.state != StepState.UNDOING:
            self.journal.mark_soon(txn_id, seq, StepState.UNDOING)
            owed.marks.append((seq, StepState.UNDOING))
        if step.kind in ("mkdir", "rmdir"):
            detail = _undo_folder(step)
        elif not happened and not os.path.lexists(step.src) and not os.path.lexists(step.dst):
            fsops.remove_tree(fsops.sidecar(step.dst, "partial", f"{txn_id[:8]}-{seq}"))
            detail = ""  # refused before the disk was touched (the source had vanished)
        else:
            ours = entry.state in (StepState.COPIED, StepState.DONE, StepState.UNDOING)
            detail = fsops.undo_move(step.src, step.dst, f"{txn_id[:8]}-{seq}", dst_is_ours=ours)
            if not happened and detail.endswith("is in place"):
                detail = ""  # the step never reached the disk: nothing to report
        self.journal.mark_soon(txn_id, seq, StepState.UNDONE)
        owed.marks.append((seq, StepState.UNDONE))
        if step.kind == "trash":
            trash.remove_manifest(self.trash_dir, step.item_id)
            owed.forget.append(step.item_id)
        elif step.kind == "untrash":
            self._manifest_again(step)
            owed.unrestore.append(step.item_id)
        return detail

    def _manifest_again(self, step: Step) -> None:
        """An item a rollback put back into the trash gets its manifest file back."""
        row = self.store.trash_item(step.item_id)
        original = row["original_path"] if row else step.dst
        try:
            trash.write_manifest(
                self.trash_dir,
                step.item_id,
                original,
                step.src,
                row["transaction_id"] if row else None,
                row["trashed_at"] if row else None,
            )
        except OSError as exc:
            log.warning("could not write the trash manifest of %s again: %s", step.src, exc)


def where_now(step: Step) -> str:
    """Where a step whose undo failed left things, in the person's words."""
    if step.kind == "mkdir":
        return f"the folder {step.dst} that the plan created is still there"
    if step.kind == "rmdir":
        return f"the folder {step.dst} is missing (it was there before)"
    src, dst = os.path.lexists(step.src), os.path.lexists(step.dst)
    belongs = "in the SenseTree trash" if step.kind == "untrash" else f"at {step.src}"
    if dst and not src:
        return f"{step.dst} is still there; before the plan it was {belongs}"
    if dst and src:
        return f"both {step.src} and {step.dst} exist; {step.src} is the original"
    if src:
        return f"{step.src} is in place"
    return f"neither {step.src} nor {step.dst} exists; look for a hidden .sensetree-* file next to them"


def _undo_folder(step: Step) -> str:
    if step.kind == "rmdir":
        if os.path.isdir(step.dst):
            return ""
        privacy.mkdir_for_user(step.dst)
        return f"created {step.dst} again"
    if not os.path.lexists(step.dst):
        return ""
    if os.path.isdir(step.dst) and not os.path.islink(step.dst):
        try:
            os.rmdir(step.dst)
        except OSError as exc:
            if exc.errno in (errno.ENOTEMPTY, errno.EEXIST):
                raise Conflict(
                    f"{step.dst} was created by this plan but now holds other files; it was left in place"
                ) from exc
            raise
        return f"removed {step.dst}"
    return ""
