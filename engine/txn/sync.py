"""Phases 2 and 3 of a transaction: bring the index and the senses in line with the disk, and back.

Phase 2 replays the journaled disk steps on the index: a move renames catalog, keyword and vector
rows (never embeds), a trash forgets them, a restore from the trash queues the file for indexing.
Phase 3 rewrites senses atomically: inside one SQLite transaction, and if any rewrite fails the
earlier ones are put back. Both know their inverse, used by rollback, crash recovery and undo.
"""

from __future__ import annotations

import logging
import os
from collections.abc import Callable
from dataclasses import dataclass
from typing import Protocol

from engine import paths
from engine.db import Database
from engine.txn.model import Step

log = logging.getLogger(__name__)

PRIORITY_MANUAL = 9  # requalify and restores: just below the watcher, above deletions and the crawl

FaultHook = Callable[
    [str, str, str, int], None
]  # the fault-injection seam: (transaction, phase, stage, seq) → may raise or crash


class IndexSync(Protocol):
    """What the indexer offers the action system (implemented by engine.indexing.indexer.Indexer).
    `moved` and `deleted` must be no-ops for paths that have no rows."""

    def moved(self, old: str, new: str) -> None: ...

    def deleted(self, path: str) -> None: ...

    def sense_of(self, path: str) -> tuple[str | None, bool] | None: ...

    def pin_sense(self, path: str, sense: str) -> None: ...

    def restore_sense(self, path: str, sense: str | None, pinned: bool) -> None: ...

    def enqueue(self, path: str, priority: int) -> None: ...


def enqueue_tree(index: IndexSync, path: str) -> None:
    """Queue a file, or every file beneath a folder, for (re-)indexing."""
    if os.path.isdir(path) and not os.path.islink(path):
        for dirpath, _dirs, files in os.walk(path):
            for name in sorted(files):
                index.enqueue(os.path.join(dirpath, name), PRIORITY_MANUAL)
    elif os.path.lexists(path):
        index.enqueue(path, PRIORITY_MANUAL)


def index_forward(index: IndexSync, txn_id: str, steps: list[Step], at_fault_point: FaultHook) -> None:
    """Phase 2; raises on the first failure (the caller then reverses everything). Files restored from
    the trash are queued once every move ran, at the place where the plan finally left them.
    Consecutive moves that do not touch each other's paths reach the index as one batch (a 1,000-file
    plan is then a handful of store updates, not a thousand)."""
    restored: list[str] = []
    batch = _MoveBatch(index)
    for seq, step in enumerate(steps, start=1):
        try:
            at_fault_point(txn_id, "index", "before_call", seq)
        except BaseException:
            batch.flush()  # what was announced before the failure is applied, as unbatched calls would be
            raise
        if step.kind == "move":
            batch.add(step.src, step.dst)
            from_restored = any(_within(step.src, r) for r in restored)
            restored = [paths.rebase(p, step.src, step.dst) if _within(p, step.src) else p for p in restored]
            if from_restored and not any(_within(step.dst, r) for r in restored):
                restored.append(step.dst)  # it left a restored folder: it still needs indexing where it went
            continue
        batch.flush()
        if step.kind == "trash":
            index.deleted(step.src)
            restored = [p for p in restored if not _within(p, step.src)]
        elif step.kind == "untrash":
            restored.append(step.dst)
    batch.flush()
    for path in restored:
        enqueue_tree(index, path)


class _MoveBatch:
    """Moves collected for one `moved_many` call; a move that touches a collected path (the same path,
    an ancestor or a descendant) flushes first, so the batch means the same as its moves one by one."""

    def __init__(self, index: IndexSync):
        self.index = index
        self.pairs: list[tuple[str, str]] = []
        self.ends: set[str] = set()  # every src and dst in the batch
        self.above: set[str] = set()  # every folder above one of them

    def add(self, src: str, dst: str) -> None:
        if any(self._touches(p) for p in (src, dst)):
            self.flush()
        self.pairs.append((src, dst))
        for p in (src, dst):
            self.ends.add(p)
            self.above.update(_ancestors(p))

    def _touches(self, path: str) -> bool:
        return path in self.ends or path in self.above or any(a in self.ends for a in _ancestors(path))

    def flush(self) -> None:
        pairs, self.pairs = self.pairs, []
        self.ends, self.above = set(), set()
        if not pairs:
            return
        many = getattr(self.index, "moved_many", None)
        if many is not None and len(pairs) > 1:
            many(pairs)
        else:
            for src, dst in pairs:
                self.index.moved(src, dst)


def _ancestors(path: str) -> list[str]:
    out = []
    parent = os.path.dirname(path)
    while parent and parent != path:
        out.append(parent)
        path, parent = parent, os.path.dirname(parent)
    return out


def _within(path: str, top: str) -> bool:
    return paths.is_within(path, top, fold_case=False)


def index_backward(index: IndexSync, steps: list[Step]) -> list[str]:
    """Undo phase 2 for `steps` (newest first); returns the paths to re-queue once the disk is back."""
    requeue = []
    for step in reversed(steps):
        if step.kind == "move":
            index.moved(step.dst, step.src)
        elif step.kind == "untrash":
            index.deleted(step.dst)
        elif step.kind == "trash":
            requeue.append(step.src)
    return requeue


@dataclass
class SenseChange:
    """One sense rewrite: `pin` says the forward direction pins a correction (requalify)."""

    path: str
    before_sense: str | None
    before_pinned: bool
    after_sense: str | None
    after_pinned: bool
    pin: bool
    reason: str = ""

    def reversed_at(self, path: str) -> SenseChange:
        """The change that undoes this one, for the same file now found at `path`."""
        return SenseChange(
            path, self.after_sense, self.after_pinned, self.before_sense, self.before_pinned, False
        )


def current(index: IndexSync, path: str) -> tuple[str | None, bool]:
    found = index.sense_of(path)
    return (None, False) if found is None else (found[0], bool(found[1]))


def senses_forward(
    db: Database, index: IndexSync, txn_id: str, changes: list[SenseChange], at_fault_point: FaultHook
) -> None:
    """Phase 3, all or nothing: one SQLite transaction, and the done rewrites restored on failure."""
    done: list[SenseChange] = []
    try:
        with db.atomic():
            for seq, change in enumerate(changes, start=1):
                at_fault_point(txn_id, "semantics", "before_call", seq)
                if change.pin:
                    assert change.after_sense is not None
                    index.pin_sense(change.path, change.after_sense)
                else:
                    index.restore_sense(change.path, change.after_sense, change.after_pinned)
                done.append(change)
    except BaseException:
        senses_backward(index, done)
        raise


def senses_backward(index: IndexSync, changes: list[SenseChange]) -> list[str]:
    """Put back the senses `changes` replaced, newest first; returns a line per file it rewrote."""
    restored = []
    for change in reversed(changes):
        if current(index, change.path) != (change.before_sense, change.before_pinned):
            index.restore_sense(change.path, change.before_sense, change.before_pinned)
            restored.append(change.path)
    return restored
