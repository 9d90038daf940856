"""The work queue: durable, prioritised, retried. Priorities say whose wait a person notices most:
a file they just saved (watcher, 10) beats a file they asked about (manual / requalify, 9), which beats
cleaning up deletions (8), which beats the initial crawl (5). A file fails permanently after
`max_attempts`, keeping a human-readable reason.

An attempt is counted when the worker *claims* a job, before the file is read, and the claim is
released when the job ends. A claim still held at the next start means the process died on that job
(a parser ran out of memory, the OS killed us): the count stands, such jobs are then run one at a time
so the culprit is the only one charged, and once it has been claimed `max_attempts` times without
finishing it is failed instead of killing the process again.

Paths are stored as `pathtext.to_store(path)` (lossless for names that are not valid UTF-8), and one
row the database refuses never rolls back the rest of a batch.
"""

from __future__ import annotations

import logging
import sqlite3
import time
from dataclasses import dataclass

from engine.db import Database, Migration
from engine.indexing.catalog import SEARCHABLE_SQL, under_clause, under_params
from engine.indexing.pathtext import from_store, printable, to_store
from engine.indexing.results import QueueRow

log = logging.getLogger(__name__)

WATCHER, MANUAL, DELETION, CRAWL = 10, 9, 8, 5
INTERRUPTED = (
    "SenseTree stopped while reading this file {n} times (it may be too large or damaged to read "
    "with this computer's memory), so it is no longer tried; use Retry once it has changed"
)

MIGRATIONS: list[Migration] = [
    (
        "0002_queue",
        """
        CREATE TABLE queue (
            path TEXT PRIMARY KEY,
            priority INTEGER NOT NULL,
            action TEXT NOT NULL DEFAULT 'index',
            attempts INTEGER NOT NULL DEFAULT 0,
            state TEXT NOT NULL DEFAULT 'queued',
            error TEXT,
            not_before REAL NOT NULL DEFAULT 0,
            enqueued_at REAL NOT NULL
        );
        CREATE INDEX queue_pick ON queue(state, priority DESC, enqueued_at);
    """,
    ),
    ("0003_queue_claims", "ALTER TABLE queue ADD COLUMN claimed INTEGER NOT NULL DEFAULT 0;"),
]

_PUSH = """INSERT INTO queue(path, priority, action, enqueued_at) VALUES (?, ?, ?, ?)
           ON CONFLICT(path) DO UPDATE SET priority = max(queue.priority, excluded.priority),
             action = excluded.action, state = 'queued', not_before = 0, {reset}"""
_FRESH = "attempts = 0, error = NULL, claimed = 0"
# a re-scan finding the file again must not wipe the count of a job whose attempts killed the process
_KEEP = (
    "attempts = CASE WHEN queue.state = 'failed' THEN 0 ELSE queue.attempts END, "
    "error = CASE WHEN queue.state = 'failed' THEN NULL ELSE queue.error END"
)


@dataclass(frozen=True)
class Job:
    path: str
    priority: int
    action: str  # "index" | "delete"
    attempts: int
    interrupted: bool = False  # claimed before and never finished: the process died on it


class WorkQueue:
    def __init__(self, db: Database, max_attempts: int = 3):
        self.db = db
        self.max_attempts = max_attempts

    def push(self, path: str, priority: int, action: str = "index", *, fresh: bool = True) -> None:
        """Queue `path`; an existing entry keeps the higher priority and takes the newer action. `fresh`
        (a person asking, the watcher seeing a change) gives it a new start; a crawl (`fresh=False`)
        keeps the attempts of a job still pending and only restarts one that had failed."""
        self.db.execute(
            _PUSH.format(reset=_FRESH if fresh else _KEEP), (to_store(path), priority, action, time.time())
        )

    def push_many(
        self, paths: list[str], priority: int, action: str = "index", *, fresh: bool = True
    ) -> list[tuple[str, str]]:
        """Queue every path in one transaction; if the database refuses one row, the others are queued
        one by one. Returns the refused (path, reason) pairs (normally none)."""
        try:
            with self.db.atomic():
                for path in paths:
                    self.push(path, priority, action, fresh=fresh)
            return []
        except (sqlite3.Error, ValueError) as exc:  # ValueError covers UnicodeEncodeError
            log.warning("queueing %d path(s) at once failed (%s); queueing them one by one", len(paths), exc)
        refused: list[tuple[str, str]] = []
        for path in paths:
            try:
                self.push(path, priority, action, fresh=fresh)
            except (sqlite3.Error, ValueError) as exc:
                log.warning("could not queue %s: %s", printable(path), exc)
                refused.append((path, f"{type(exc).__name__}: {exc}"))
        return refused

    def refuse(self, path: str, priority: int, reason: str) -> None:
        """Record `path` as failed for good without running it (the OS cannot even name it)."""
        self.db.execute(
            """INSERT INTO queue(path, priority, attempts, state, error, enqueued_at)
               VALUES (?, ?, ?, 'failed', ?, ?)
               ON CONFLICT(path) DO UPDATE SET state = 'failed', error = excluded.error, claimed = 0""",
            (to_store(path), priority, self.max_attempts, reason, time.time()),
        )

    def next(self, now: float | None = None) -> Job | None:
        jobs = self.next_batch(1, now)
        return jobs[0] if jobs else None

    def next_batch(self, limit: int, now: float | None = None) -> list[Job]:
        """The highest-priority jobs that are due, at most `limit` of them (nothing is claimed)."""
        rows = self.db.query(
            """SELECT path, priority, action, attempts, claimed FROM queue
               WHERE state = 'queued' AND not_before <= ? ORDER BY priority DESC, enqueued_at LIMIT ?""",
            (time.time() if now is None else now, limit),
        )
        return [
            Job(from_store(r["path"]), r["priority"], r["action"], r["attempts"], bool(r["claimed"]))
            for r in rows
        ]

    def claim_batch(self, limit: int, now: float | None = None) -> list[Job]:
        """Claim the next jobs, counting an attempt for each before any file is read. Jobs left claimed
        by a process that died come back one at a time (highest priority first)."""
        due = time.time() if now is None else now
        with self.db.atomic():
            rows = self.db.query(
                """SELECT path, priority, action, attempts, claimed FROM queue
                   WHERE state = 'queued' AND claimed = 1 ORDER BY priority DESC, enqueued_at LIMIT 1"""
            )
            if not rows:
                rows = self.db.query(
                    """SELECT path, priority, action, attempts, claimed FROM queue WHERE state = 'queued'
                       AND not_before <= ? ORDER BY priority DESC, enqueued_at LIMIT ?""",
                    (due, limit),
                )
            self.db.executemany(
                "UPDATE queue SET attempts = attempts + 1, claimed = 1 WHERE path = ?",
                [(r["path"],) for r in rows],
            )
        return [
            Job(from_store(r["path"]), r["priority"], r["action"], r["attempts"] + 1, bool(r["claimed"]))
            for r in rows
        ]

    def exhausted(self, job: Job) -> bool:
        """True when `job` was claimed more than `max_attempts` times without ever finishing."""
        return job.interrupted and job.attempts > self.max_attempts

    def release(self, paths: list[str]) -> None:
        """End the claims of jobs that are still queued (their attempt stays counted)."""
        with self.db.atomic():  # one transaction, not one commit per row
            self.db.executemany(
                "UPDATE queue SET claimed = 0 WHERE path = ? AND claimed = 1", [(to_store(p),) for p in paths]
            )

    def give_back(self, paths: list[str]) -> None:
        """Un-count the attempt of claimed jobs a stopped batch never read (Pause, Remove, Quit)."""
        if not paths:
            return
        with self.db.atomic():
            self.db.executemany(
                "UPDATE queue SET attempts = max(attempts - 1, 0), claimed = 0 "
                "WHERE path = ? AND claimed = 1",
                [(to_store(p),) for p in paths],
            )

    def earliest_retry(self) -> float | None:
        row = self.db.one("SELECT min(not_before) AS t FROM queue WHERE state = 'queued'")
        return row["t"] if row and row["t"] is not None else None

    def done(self, path: str) -> None:
        self.db.execute("DELETE FROM queue WHERE path = ?", (to_store(path),))

    def failed(self, path: str, reason: str, *, permanent: bool = False) -> bool:
        """Record a failure; returns True when it is now permanent (no more automatic retries). A claimed
        job's attempt was counted by its claim; an unclaimed one (a direct call) counts one now."""
        stored = to_store(path)
        row = self.db.one("SELECT attempts, claimed FROM queue WHERE path = ?", (stored,))
        attempts = (row["attempts"] if row else 0) + (0 if row and row["claimed"] else 1)
        final = permanent or attempts >= self.max_attempts
        backoff = min(300.0, 2.0**attempts)
        self.db.execute(
            "UPDATE queue SET attempts = ?, error = ?, state = ?, not_before = ?, claimed = 0 WHERE path = ?",
            (attempts, reason, "failed" if final else "queued", time.time() + backoff, stored),
        )
        return final

    def retry(self, path: str | None = None) -> int:
        sql = (
            "UPDATE queue SET state = 'queued', attempts = 0, not_before = 0, error = NULL, claimed = 0 "
            "WHERE state = 'failed'"
        )
        if path is None:
            return self.db.execute(sql).rowcount
        return self.db.execute(sql + f" AND {under_clause()}", under_params(path)).rowcount

    def rename(self, old: str, new: str) -> None:
        self.db.execute(
            f"UPDATE OR REPLACE queue SET path = ? || substr(path, length(?) + 1) WHERE {under_clause()}",
            (to_store(new), to_store(old), *under_params(old)),
        )

    def drop_under(self, path: str) -> None:
        self.db.execute(f"DELETE FROM queue WHERE {under_clause()}", under_params(path))

    def drop_deletions_under(self, path: str) -> None:
        """Forget deletion jobs at `path` and beneath: a move just put files there, so a deletion seen
        earlier (a move the watcher reported as one, then undone) would forget a file that is present."""
        self.db.execute(f"DELETE FROM queue WHERE action = 'delete' AND {under_clause()}", under_params(path))

    def pending(self) -> int:
        return int(self.db.scalar("SELECT count(*) FROM queue WHERE state = 'queued'"))

    def pending_under(self, root: str) -> int:
        return int(
            self.db.scalar(
                f"SELECT count(*) FROM queue WHERE state = 'queued' AND {under_clause()}", under_params(root)
            )
        )

    def pending_new(self) -> int:
        """Queued index jobs for files not yet searchable (what the keyword phase has still to add)."""
        return int(
            self.db.scalar(
                f"""SELECT count(*) FROM queue q WHERE q.state = 'queued' AND q.action = 'index'
                   AND NOT EXISTS (SELECT 1 FROM files f
                                   WHERE f.path = q.path AND f.status IN {SEARCHABLE_SQL})"""
            )
        )

    def listing(self, limit: int = 100) -> list[QueueRow]:
        rows = self.db.query(
            """SELECT path, priority, action, state, attempts, error FROM queue
               ORDER BY state = 'failed', priority DESC, enqueued_at LIMIT ?""",
            (limit,),
        )
        return [
            QueueRow(
                path=from_store(r["path"]),
                priority=r["priority"],
                action=r["action"],
                status="failed" if r["state"] == "failed" else "queued",
                attempts=r["attempts"],
                error=r["error"],
            )
            for r in rows
        ]
