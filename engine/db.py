"""SQLite for durable state (catalog, queue, drafts, journal, memory).

One `connect()` (WAL, foreign keys, FULL sync so the action journal survives power loss), one
connection per thread (pywebview calls arrive on arbitrary threads), one `atomic()` that nests with
savepoints, and named migrations applied together with their bookkeeping row in one transaction.
Each module that owns tables declares its own `MIGRATIONS = [(name, sql), ...]`.

Threads come and go (the HTTP server starts one per connection, pywebview one per call), so a thread's
connection goes back to a small idle pool when the thread ends (per_thread.py): open connections are
bounded by the threads alive plus `IDLE_CONNECTIONS`, never by the requests served.
"""

from __future__ import annotations

import contextlib
import sqlite3
from collections.abc import Iterator, Mapping, Sequence
from functools import partial
from pathlib import Path
from typing import Any

from engine.per_thread import PerThread

Migration = tuple[str, str]

IDLE_CONNECTIONS = 4  # kept open for the next threads: the HTTP server answers a few requests at once


def connect(path: Path | str) -> sqlite3.Connection:
    conn = sqlite3.connect(str(path), timeout=30, isolation_level=None, check_same_thread=False)
    conn.row_factory = sqlite3.Row
    conn.execute("PRAGMA journal_mode=WAL")
    conn.execute("PRAGMA synchronous=FULL")
    conn.execute("PRAGMA foreign_keys=ON")
    conn.execute("PRAGMA busy_timeout=30000")
    return conn


class Database:
    """A SQLite file shared by the engine's modules; every live thread has its own connection."""

    def __init__(self, path: Path | str, idle: int = IDLE_CONNECTIONS):
        self.path = Path(path)
        self._conns = PerThread(
            partial(connect, self.path), sqlite3.Connection.close, idle=idle, reset=_rollback
        )
        self.execute("CREATE TABLE IF NOT EXISTS _migrations (name TEXT PRIMARY KEY, applied_at REAL)")

    @property
    def conn(self) -> sqlite3.Connection:
        return self._conns.get()

    def open_connections(self) -> int:
        """Connections open now, live threads' and idle (what the leak test and bench watch)."""
        return self._conns.open_count()

    def execute(self, sql: str, params: Sequence[Any] | Mapping[str, object] = ()) -> sqlite3.Cursor:
        return self.conn.execute(sql, params)

    def executemany(self, sql: str, rows: Sequence[Sequence[Any]]) -> sqlite3.Cursor:
        return self.conn.executemany(sql, rows)

    def query(self, sql: str, params: Sequence[Any] | Mapping[str, object] = ()) -> list[sqlite3.Row]:
        return self.conn.execute(sql, params).fetchall()

    def one(self, sql: str, params: Sequence[Any] | Mapping[str, object] = ()) -> sqlite3.Row | None:
        row: sqlite3.Row | None = self.conn.execute(sql, params).fetchone()
        return row

    def scalar(self, sql: str, params: Sequence[Any] | Mapping[str, object] = ()) -> Any:
        """The first column of an aggregate query's one row (`count(*)`, `sum(...)` always return a row)."""
        row = self.conn.execute(sql, params).fetchone()
        if row is None:
            raise LookupError(f"query returned no row: {sql}")
        return row[0]

    @contextlib.contextmanager
    def atomic(self) -> Iterator[sqlite3.Connection]:
        """A transaction; nested calls become savepoints, so an inner failure undoes only its part."""
        lease = self._conns.lease()
        conn = self.conn
        depth = lease.depth
        name = f"sp{depth}"
        conn.execute("BEGIN IMMEDIATE" if depth == 0 else f"SAVEPOINT {name}")
        lease.depth = depth + 1
        try:
            yield conn
        except BaseException:
            lease.depth = depth
            if depth == 0:
                conn.execute("ROLLBACK")
            else:
                conn.execute(f"ROLLBACK TO {name}")
                conn.execute(f"RELEASE {name}")
            raise
        lease.depth = depth
        conn.execute("COMMIT" if depth == 0 else f"RELEASE {name}")

    def migrate(self, migrations: Sequence[Migration]) -> list[str]:
        """Apply the migrations not yet applied, each with its bookkeeping row in one transaction."""
        applied = {r["name"] for r in self.query("SELECT name FROM _migrations")}
        done = []
        for name, sql in migrations:
            if name in applied:
                continue
            with self.atomic() as conn:
                for statement in _statements(sql):
                    conn.execute(statement)
                conn.execute(
                    "INSERT INTO _migrations(name, applied_at) VALUES (?, julianday('now'))", (name,)
                )
            done.append(name)
        return done

    def close(self) -> None:
        self._conns.close()


def _rollback(conn: sqlite3.Connection) -> None:
    """Ready a dead thread's connection for the next: a transaction it left open is rolled back."""
    if conn.in_transaction:
        conn.execute("ROLLBACK")


def _statements(sql: str) -> list[str]:
    """Split a migration script into statements (executescript would commit our transaction)."""
    parts, buf = [], ""
    for line in sql.splitlines(keepends=True):
        buf += line
        if sqlite3.complete_statement(buf):
            parts.append(buf.strip())
            buf = ""
    if buf.strip():
        parts.append(buf.strip())
    return [p for p in parts if p]
