"""The journal of an in-flight transaction in its own file, beside the SQLite copy.

`<data dir>/journal/<transaction id>.jsonl`, one JSON object a line, each appended *before* the SQLite
row it mirrors: `begin` (summary, kind), `intent` (seq, step), `mark` (seq, state)
and `end` (the status a rollback reached, when SQLite could not take it). It exists so that

- rollback needs no new SQLite writes: when the data folder is full (`database or disk is full`) the
  marks go to this file and in memory, and are written back to SQLite once that works again;
- start-up recovery works when `sensetree.db` is lost or damaged: the file alone says which steps may
  have touched the disk.

What recovery from the file alone depends on is fsynced before the disk is touched: the intent of a step
and the `copied` mark of a cross-device copy (without it a complete copy would be left as a duplicate).
`done` and the rollback's own marks are written without an fsync (survive a crash of the process, and
rollback looks at the disk anyway): an fsync per step more than that doubled the disk phase of
`bench/apply.py`. The file is removed once SQLite holds the outcome (commit, or a rollback written
back). A torn last line (power loss mid-append) is ignored: the step it describes was not started.

JSON edge: the journal file's lines, one JSON object each, written and read here.
"""

from __future__ import annotations

import contextlib
import json
import logging
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from engine import privacy
from engine.txn.model import Step
from engine.txn.states import STATE_ORDER, StepState, TxnStatus
from engine.txn.store import JournalEntry

log = logging.getLogger(__name__)


@dataclass
class FileJournal:
    """What one journal file says."""

    transaction_id: str
    summary: str = ""
    kind: str = "plan"
    entries: dict[int, JournalEntry] = field(default_factory=dict)
    end: dict[str, Any] | None = None


class JournalFiles:
    """The folder of journal files; every write is appended (and fsynced where recovery depends on it)."""

    def __init__(self, folder: Path):
        self.folder = Path(folder)

    def path(self, txn_id: str) -> Path:
        return self.folder / f"{txn_id}.jsonl"

    def begin(self, txn_id: str, summary: str, kind: str) -> None:
        self.folder.mkdir(mode=privacy.DIR_MODE, parents=True, exist_ok=True)
        self._append(txn_id, {"type": "begin", "summary": summary, "kind": kind})

    def intent(self, txn_id: str, seq: int, step: Step) -> None:
        self._append(txn_id, {"type": "intent", "seq": seq, "step": step.to_json()})

    def mark(self, txn_id: str, seq: int, state: StepState, sync: bool = True) -> None:
        self._append(txn_id, {"type": "mark", "seq": seq, "state": state}, sync)

    def mark_soon(self, txn_id: str, seq: int, state: StepState) -> None:
        """A mark during rollback: best effort (a full disk must not stop the rollback)."""
        try:
            self.mark(txn_id, seq, state, sync=False)
        except OSError as exc:
            log.warning("could not note %s of step %d of %s in its journal file: %s", state, seq, txn_id, exc)

    def end(self, txn_id: str, status: TxnStatus, message: str) -> None:
        try:
            self._append(txn_id, {"type": "end", "status": status, "message": message})
        except OSError as exc:
            log.warning("could not note the end of %s in its journal file: %s", txn_id, exc)

    def remove(self, txn_id: str) -> None:
        with contextlib.suppress(FileNotFoundError):
            self.path(txn_id).unlink()

    def pending(self) -> list[str]:
        """Transactions that still have a journal file (interrupted, or waiting for a write-back)."""
        if not self.folder.is_dir():
            return []
        return sorted(p.stem for p in self.folder.glob("*.jsonl"))

    def read(self, txn_id: str) -> FileJournal | None:
        try:
            lines = self.path(txn_id).read_text(encoding="utf-8").splitlines()
        except FileNotFoundError:
            return None
        journal = FileJournal(txn_id)
        for line in lines:
            try:
                record = json.loads(line)
                _apply(journal, record)
            except (ValueError, KeyError, TypeError):
                log.warning("ignored a torn line in the journal file of %s", txn_id)
        return journal

    def _append(self, txn_id: str, record: dict[str, Any], sync: bool = True) -> None:
        data = (json.dumps(record, ensure_ascii=False) + "\n").encode("utf-8")
        fd = os.open(self.path(txn_id), os.O_WRONLY | os.O_CREAT | os.O_APPEND, privacy.FILE_MODE)
        try:
            os.write(fd, data)
            if sync:
                os.fsync(fd)
        finally:
            os.close(fd)


def _apply(journal: FileJournal, record: dict[str, Any]) -> None:
    kind = record["type"]
    if kind == "begin":
        journal.summary, journal.kind = record.get("summary", ""), record.get("kind", "plan")
    elif kind == "intent":
        seq = int(record["seq"])
        journal.entries[seq] = JournalEntry(seq, Step.from_json(record["step"]), StepState.INTENT)
    elif kind == "mark":
        seq = int(record["seq"])
        entry = journal.entries[seq]
        journal.entries[seq] = JournalEntry(seq, entry.step, StepState(record["state"]))
    elif kind == "end":
        journal.end = {"status": record["status"], "message": record.get("message", "")}


def merge(stored: list[JournalEntry], from_file: FileJournal | None) -> list[JournalEntry]:
    """SQLite's journal and the file's, each step at the furthest state either recorded, by seq."""
    merged = {e.seq: e for e in stored}
    for seq, entry in (from_file.entries if from_file else {}).items():
        known = merged.get(seq)
        if known is None or STATE_ORDER.get(entry.state, 0) > STATE_ORDER.get(known.state, 0):
            merged[seq] = entry
    return [merged[seq] for seq in sorted(merged)]
