"""SQLite for durable state (catalog, queue, drafts, journal, memory).

One `connect()` (WAL, foreign keys, FULL sync so the action journal survives power loss), one
connection per thread (pywebview calls arrive on arbitrary threads), one `atomic()` that nests with
savepoints, and named migrations applied together with their bookkeeping row in one transaction.
Each module that owns tables declares its own `MIGRATIONS = [(name, sql), ...]`.
"""

from __future__ import annotations

import contextlib
import sqlite3
import threading
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

Migration = tuple[str, str]


def connect(path: Path | str) -> sqlite3.Connection:
    conn = sqlite3.connect(str(path), timeout=30, isolation_level=None, check_same_thread=False)
    conn.row_factory = sqlite3.Row
    conn.execute("PRAGMA journal_mode=WAL")
    conn.execute("PRAGMA synchronous=FULL")
    conn.execute("PRAGMA foreign_keys=ON")
    conn.execute("PRAGMA busy_timeout=30000")
    return conn


class Database:
    """A SQLite file shared by the engine's modules; every thread gets its own connection."""

    def __init__(self, path: Path | str):
        self.path = Path(path)
        self._local = threading.local()
        self._all: list[sqlite3.Connection] = []
        self._lock = threading.Lock()
        self.execute("CREATE TABLE IF NOT EXISTS _migrations (name TEXT PRIMARY KEY, applied_at REAL)")

    @property
    def conn(self) -> sqlite3.Connection:
        conn = getattr(self._local, "conn", None)
        if conn is None:
            conn = connect(self.path)
            self._local.conn = conn
            self._local.depth = 0
            with self._lock:
                self._all.append(conn)
        return conn

    def execute(self, sql: str, params: Sequence[Any] | dict[str, Any] = ()) -> sqlite3.Cursor:
        return self.conn.execute(sql, params)

    def executemany(self, sql: str, rows: Sequence[Sequence[Any]]) -> sqlite3.Cursor:
        return self.conn.executemany(sql, rows)

    def query(self, sql: str, params: Sequence[Any] | dict[str, Any] = ()) -> list[sqlite3.Row]:
        return self.conn.execute(sql, params).fetchall()

    def one(self, sql: str, params: Sequence[Any] | dict[str, Any] = ()) -> sqlite3.Row | None:
        return self.conn.execute(sql, params).fetchone()

    def scalar(self, sql: str, params: Sequence[Any] | dict[str, Any] = ()) -> Any:
        """The first column of an aggregate query's one row (`count(*)`, `sum(...)` always return a row)."""
        row = self.conn.execute(sql, params).fetchone()
        if row is None:
            raise LookupError(f"query returned no row: {sql}")
        return row[0]

    @contextlib.contextmanager
    def atomic(self) -> Iterator[sqlite3.Connection]:
        """A transaction; nested calls become savepoints, so an inner failure undoes only its part."""
        conn = self.conn
        depth = self._local.depth
        name = f"sp{depth}"
        conn.execute("BEGIN IMMEDIATE" if depth == 0 else f"SAVEPOINT {name}")
        self._local.depth = depth + 1
        try:
            yield conn
        except BaseException:
            self._local.depth = depth
            if depth == 0:
                conn.execute("ROLLBACK")
            else:
                conn.execute(f"ROLLBACK TO {name}")
                conn.execute(f"RELEASE {name}")
            raise
        self._local.depth = depth
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
        with self._lock:
            for conn in self._all:
                with contextlib.suppress(sqlite3.Error):
                    conn.close()
            self._all.clear()
        self._local = threading.local()


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
