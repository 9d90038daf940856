"""The work queue: durable, prioritised, retried. Priorities say whose wait a person notices most:
a file they just saved (watcher, 10) beats a file they asked about (manual / requalify, 9), which beats
cleaning up deletions (8), which beats the initial crawl (5). A file fails permanently after
`max_attempts`, keeping a human-readable reason."""

from __future__ import annotations

import time
from dataclasses import dataclass

from engine.db import Database, Migration
from engine.indexing.catalog import under_clause, under_params

WATCHER, MANUAL, DELETION, CRAWL = 10, 9, 8, 5

MIGRATIONS: list[Migration] = [
    ("0002_queue", """
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
    """),
]


@dataclass(frozen=True)
class Job:
    path: str
    priority: int
    action: str  # "index" | "delete"
    attempts: int


class WorkQueue:
    def __init__(self, db: Database, max_attempts: int = 3):
        self.db = db
        self.max_attempts = max_attempts

    def push(self, path: str, priority: int, action: str = "index") -> None:
        """Queue `path`; an existing entry keeps the higher priority, takes the newer action and is
        given a fresh start (a person asking again deserves another try)."""
        self.db.execute(
            """INSERT INTO queue(path, priority, action, enqueued_at) VALUES (?, ?, ?, ?)
               ON CONFLICT(path) DO UPDATE SET priority = max(queue.priority, excluded.priority),
                 action = excluded.action, state = 'queued', attempts = 0, error = NULL, not_before = 0""",
            (path, priority, action, time.time()))

    def push_many(self, paths: list[str], priority: int, action: str = "index") -> None:
        with self.db.atomic():
            for path in paths:
                self.push(path, priority, action)

    def next(self, now: float | None = None) -> Job | None:
        jobs = self.next_batch(1, now)
        return jobs[0] if jobs else None

    def next_batch(self, limit: int, now: float | None = None) -> list[Job]:
        """The highest-priority jobs that are due, at most `limit` of them."""
        rows = self.db.query(
            """SELECT path, priority, action, attempts FROM queue
               WHERE state = 'queued' AND not_before <= ? ORDER BY priority DESC, enqueued_at LIMIT ?""",
            (time.time() if now is None else now, limit))
        return [Job(r["path"], r["priority"], r["action"], r["attempts"]) for r in rows]

    def earliest_retry(self) -> float | None:
        row = self.db.one("SELECT min(not_before) AS t FROM queue WHERE state = 'queued'")
        return row["t"] if row and row["t"] is not None else None

    def done(self, path: str) -> None:
        self.db.execute("DELETE FROM queue WHERE path = ?", (path,))

    def failed(self, path: str, reason: str, *, permanent: bool = False) -> bool:
        """Record a failure; returns True when it is now permanent (no more automatic retries)."""
        row = self.db.one("SELECT attempts FROM queue WHERE path = ?", (path,))
        attempts = (row["attempts"] if row else 0) + 1
        final = permanent or attempts >= self.max_attempts
        backoff = min(300.0, 2.0 ** attempts)
        self.db.execute(
            "UPDATE queue SET attempts = ?, error = ?, state = ?, not_before = ? WHERE path = ?",
            (attempts, reason, "failed" if final else "queued", time.time() + backoff, path))
        return final

    def retry(self, path: str | None = None) -> int:
        sql = "UPDATE queue SET state = 'queued', attempts = 0, not_before = 0, error = NULL WHERE state = 'failed'"
        if path is None:
            return self.db.execute(sql).rowcount
        return self.db.execute(sql + f" AND {under_clause()}", under_params(path)).rowcount

    def rename(self, old: str, new: str) -> None:
        self.db.execute(f"UPDATE OR REPLACE queue SET path = ? || substr(path, length(?) + 1) WHERE {under_clause()}",
                        (new, old, *under_params(old)))

    def drop_under(self, path: str) -> None:
        self.db.execute(f"DELETE FROM queue WHERE {under_clause()}", under_params(path))

    def pending(self) -> int:
        return self.db.one("SELECT count(*) AS n FROM queue WHERE state = 'queued'")["n"]

    def listing(self, limit: int = 100) -> list[dict[str, object]]:
        rows = self.db.query(
            """SELECT path, priority, action, state, attempts, error FROM queue
               ORDER BY state = 'failed', priority DESC, enqueued_at LIMIT ?""", (limit,))
        return [{"path": r["path"], "priority": r["priority"], "action": r["action"],
                 "status": "failed" if r["state"] == "failed" else "queued",
                 "attempts": r["attempts"], "error": r["error"]} for r in rows]
