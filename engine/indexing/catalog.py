"""The catalog: one SQLite row per known file — what we indexed (hash), what it means (sense, doc type,
pinned), and how indexing went (status, error). It is the source of truth the repair pass checks the
keyword and vector stores against.

Paths go in and come out exactly as the OS spells them; SQLite holds `pathtext.to_store(path)`, so a
name that is not valid UTF-8 is kept without loss instead of failing its insert."""

from __future__ import annotations

import os
import sqlite3
import time
from collections.abc import Iterable
from dataclasses import dataclass
from enum import StrEnum

from engine.db import Database, Migration
from engine.indexing.pathtext import from_store, to_store
from engine.paths import subtree_range

MIGRATIONS: list[Migration] = [
    (
        "0001_catalog",
        """
        CREATE TABLE files (
            path TEXT PRIMARY KEY,
            root TEXT NOT NULL,
            name TEXT NOT NULL,
            size INTEGER,
            mtime REAL,
            hash TEXT,
            sense TEXT,
            pinned INTEGER NOT NULL DEFAULT 0,
            doc_type TEXT,
            status TEXT NOT NULL DEFAULT 'queued',
            error TEXT,
            note TEXT,
            chunks INTEGER NOT NULL DEFAULT 0,
            indexed_at REAL,
            embed_model TEXT
        );
        CREATE INDEX files_root ON files(root);
        CREATE INDEX files_status ON files(status);
    """,
    ),
    # keyword-first indexing: a file is searchable by keyword before its vectors land ('pending')
    ("0004_semantic_phase", "ALTER TABLE files ADD COLUMN semantic TEXT NOT NULL DEFAULT 'done';"),
    # search collapses identical copies into one result (engine/retrieval/copies.py): a page's files find
    # theirs by content in one indexed join, not a scan of every row
    ("0005_files_by_content", "CREATE INDEX files_content ON files(hash, size);"),
]

COPIES_LISTED = 100  # the most copies one file's search result names (a LICENSE can sit in every project)

PENDING, SEMANTIC_DONE = "pending", "done"


class FileStatus(StrEnum):
    """A file's `status` column: how indexing went. Members are their stored strings (StrEnum), so rows,
    IPC results and the CLI read the same text as before."""

    QUEUED = "queued"  # known, not read yet (or re-queued)
    DONE = "done"  # read, chunked and keyword-indexed
    FAILED = "failed"  # reading failed for good (the reason is in `error`)
    SKIPPED = "skipped"  # no extractable text: catalogued and searchable by name only


STATUSES = tuple(FileStatus)
# The statuses whose rows search may return: the one definition of "searchable".
SEARCHABLE: tuple[FileStatus, ...] = (FileStatus.DONE, FileStatus.SKIPPED)


def sql_in(statuses: Iterable[FileStatus]) -> str:
    """`statuses` as an SQL list literal, `('done', 'skipped')`: members are fixed words, never input."""
    return "(" + ", ".join(f"'{s.value}'" for s in statuses) + ")"


SEARCHABLE_SQL = sql_in(SEARCHABLE)


@dataclass(frozen=True)
class FileRecord:
    path: str
    root: str
    name: str
    size: int | None
    mtime: float | None
    hash: str | None
    sense: str | None
    pinned: bool
    doc_type: str | None
    status: FileStatus
    error: str | None
    note: str | None
    chunks: int
    semantic: str = SEMANTIC_DONE  # "pending" until the file's vectors are written

    def to_dict(self) -> dict[str, object]:
        return {k: getattr(self, k) for k in self.__dataclass_fields__}


def _record(row: sqlite3.Row) -> FileRecord:
    return FileRecord(
        from_store(row["path"]),
        from_store(row["root"]),
        from_store(row["name"]),
        row["size"],
        row["mtime"],
        row["hash"],
        row["sense"],
        bool(row["pinned"]),
        row["doc_type"],
        FileStatus(row["status"]),
        row["error"],
        row["note"],
        row["chunks"],
        row["semantic"],
    )


def under_clause(column: str = "path") -> str:
    """SQL matching a path and everything beneath it on segment boundaries, as a range the primary-key
    index answers (three `?` parameters, from `under_params`)."""
    return f"({column} = ? OR ({column} >= ? AND {column} < ?))"


def under_params(path: str) -> tuple[str, str, str]:
    """The parameters of `under_clause` for `path` as the OS spells it (stored spelling inside)."""
    stored = to_store(path)
    return (stored, *subtree_range(stored))


class Catalog:
    def __init__(self, db: Database):
        self.db = db

    def get(self, path: str) -> FileRecord | None:
        row = self.db.one("SELECT * FROM files WHERE path = ?", (to_store(path),))
        return _record(row) if row else None

    def under(self, path: str, limit: int | None = None) -> list[FileRecord]:
        sql = f"SELECT * FROM files WHERE {under_clause()} ORDER BY path"
        if limit is not None:
            sql += f" LIMIT {int(limit)}"
        return [_record(r) for r in self.db.query(sql, under_params(path))]

    def stat_map(self, root: str) -> dict[str, tuple[int | None, float | None, str]]:
        """path → (size, mtime, status) for every file under `root` (the fast re-scan compares these)."""
        rows = self.db.query(
            f"SELECT path, size, mtime, status FROM files WHERE {under_clause()}", under_params(root)
        )
        return {from_store(r["path"]): (r["size"], r["mtime"], r["status"]) for r in rows}

    def ensure(self, path: str, root: str) -> None:
        self.db.execute(
            "INSERT INTO files(path, root, name) VALUES (?, ?, ?) ON CONFLICT(path) DO NOTHING",
            (to_store(path), to_store(root), to_store(os.path.basename(path))),
        )

    def record_indexed(
        self,
        path: str,
        root: str,
        *,
        size: int,
        mtime: float,
        hash: str,
        sense: str | None,
        doc_type: str,
        chunks: int,
        status: FileStatus,
        note: str | None,
        model: str | None,
        semantic: str = SEMANTIC_DONE,
    ) -> None:
        self.db.execute(
            """INSERT INTO files(path, root, name, size, mtime, hash, sense, doc_type, status, error, note,
                                 chunks, indexed_at, embed_model, semantic)
               VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, NULL, ?, ?, ?, ?, ?)
               ON CONFLICT(path) DO UPDATE SET root=excluded.root, name=excluded.name, size=excluded.size,
                 mtime=excluded.mtime, hash=excluded.hash,
                 sense=CASE WHEN files.pinned THEN files.sense ELSE excluded.sense END,
                 doc_type=excluded.doc_type, status=excluded.status, error=NULL, note=excluded.note,
                 chunks=excluded.chunks, indexed_at=excluded.indexed_at, embed_model=excluded.embed_model,
                 semantic=excluded.semantic""",
            (
                to_store(path),
                to_store(root),
                to_store(os.path.basename(path)),
                size,
                mtime,
                hash,
                sense,
                doc_type,
                status,
                note,
                chunks,
                time.time(),
                model,
                semantic,
            ),
        )

    def touch(self, path: str, size: int, mtime: float) -> None:
        self.db.execute("UPDATE files SET size = ?, mtime = ? WHERE path = ?", (size, mtime, to_store(path)))

    def record_failure(
        self,
        path: str,
        root: str,
        reason: str,
        *,
        final: bool,
        size: int | None = None,
        mtime: float | None = None,
    ) -> None:
        """Keep the reason; with the file's size and mtime, a re-scan leaves the unchanged file alone
        (a permanent failure waits for the person's Retry or for the file to change)."""
        self.ensure(path, root)
        self.db.execute(
            "UPDATE files SET status = ?, error = ?, size = coalesce(?, size), mtime = coalesce(?, mtime) "
            "WHERE path = ?",
            (FileStatus.FAILED if final else FileStatus.QUEUED, reason, size, mtime, to_store(path)),
        )

    def set_sense(self, path: str, sense: str | None, *, pinned: bool) -> None:
        self.db.execute(
            "UPDATE files SET sense = ?, pinned = ? WHERE path = ?", (sense, int(pinned), to_store(path))
        )

    def forget_stat(self, path: str) -> None:
        """Make the next visit re-read the file (the hash still spares an embedding if nothing changed)."""
        self.db.execute("UPDATE files SET mtime = NULL WHERE path = ?", (to_store(path),))

    def set_note(self, path: str, note: str | None) -> None:
        self.db.execute("UPDATE files SET note = ? WHERE path = ?", (note, to_store(path)))

    def forget_hash(self, path: str) -> None:
        self.db.execute("UPDATE files SET hash = NULL WHERE path = ?", (to_store(path),))

    def rename(self, old: str, new: str, new_root: str) -> int:
        """Move `old` and everything beneath it to `new` (paths only)."""
        cur = self.db.execute(
            f"""UPDATE OR REPLACE files SET path = ? || substr(path, length(?) + 1), root = ?,
                   name = CASE WHEN path = ? THEN ? ELSE name END
                WHERE {under_clause()}""",
            (
                to_store(new),
                to_store(old),
                to_store(new_root),
                to_store(old),
                to_store(os.path.basename(new)),
                *under_params(old),
            ),
        )
        return cur.rowcount

    def delete(self, path: str) -> int:
        return self.db.execute(f"DELETE FROM files WHERE {under_clause()}", under_params(path)).rowcount

    # ---- the semantic phase --------------------------------------------------------------------
    def semantic_pending(self, limit: int) -> list[FileRecord]:
        """Searchable files still waiting for vectors, oldest first; a file queued for re-reading waits
        for that (its chunks are about to change)."""
        rows = self.db.query(
            f"""SELECT * FROM files f WHERE f.semantic = 'pending' AND f.status IN {SEARCHABLE_SQL}
               AND NOT EXISTS (SELECT 1 FROM queue q WHERE q.path = f.path AND q.state = 'queued')
               ORDER BY f.indexed_at, f.path LIMIT ?""",
            (limit,),
        )
        return [_record(r) for r in rows]

    def mark_semantic_done(self, path: str, model: str) -> None:
        self.db.execute(
            "UPDATE files SET semantic = 'done', embed_model = ? WHERE path = ?", (model, to_store(path))
        )

    def mark_semantic_pending(self, path: str) -> None:
        """The file's keyword rows stand; its vectors are to be written again (start-up repair)."""
        self.db.execute("UPDATE files SET semantic = 'pending' WHERE path = ?", (to_store(path),))

    def pending_among(self, paths: list[str]) -> set[str]:
        """Which of `paths` (stored spelling) are searchable by keyword but not yet by meaning."""
        if not paths:
            return set()
        marks = ", ".join("?" for _ in paths)
        rows = self.db.query(
            f"SELECT path FROM files WHERE semantic = 'pending' AND path IN ({marks})", tuple(paths)
        )
        return {r["path"] for r in rows}

    def identical_copies(self, paths: list[str]) -> dict[str, list[str]]:
        """For each of `paths` (stored spelling) that has identical copies, those copies' paths, sorted (at
        most `COPIES_LISTED`). Identical is the Gardener's notion (engine/gardener/duplicates.py): the same
        content hash and size among searchable files; a file with no hash yet, or an empty one, has no
        copies. One query for the whole page."""
        if not paths:
            return {}
        marks = ", ".join("?" for _ in paths)
        rows = self.db.query(
            f"""SELECT f.path AS path, g.path AS copy FROM files f
                JOIN files g ON g.hash = f.hash AND g.size = f.size AND g.path <> f.path
                WHERE f.path IN ({marks}) AND f.hash <> '' AND f.size > 0
                  AND f.status IN {SEARCHABLE_SQL} AND g.status IN {SEARCHABLE_SQL}
                ORDER BY f.path, g.path""",
            tuple(paths),
        )
        copies: dict[str, list[str]] = {}
        for row in rows:
            listed = copies.setdefault(row["path"], [])
            if len(listed) < COPIES_LISTED:
                listed.append(row["copy"])
        return copies

    def semantic_chunk_counts(self) -> dict[str, int]:
        """Files whose vectors the catalog vouches for (`done_chunk_counts` vouches for keyword rows)."""
        rows = self.db.query(
            f"SELECT path, chunks FROM files WHERE status IN {SEARCHABLE_SQL} AND semantic = 'done'"
        )
        return {from_store(r["path"]): r["chunks"] for r in rows}

    def root_counts(self) -> dict[str, dict[str, int]]:
        """Per root: files, searchable, semantic_done, failed (one grouped read)."""
        rows = self.db.query(
            f"""SELECT root, count(*) AS files,
                      sum(status IN {SEARCHABLE_SQL}) AS searchable,
                      sum(status IN {SEARCHABLE_SQL} AND semantic = 'done') AS semantic_done,
                      sum(status = '{FileStatus.FAILED.value}') AS failed
               FROM files GROUP BY root"""
        )
        return {
            from_store(r["root"]): {
                "files": r["files"],
                "searchable": r["searchable"] or 0,
                "semantic_done": r["semantic_done"] or 0,
                "failed": r["failed"] or 0,
            }
            for r in rows
        }

    def done_chunk_counts(self) -> dict[str, int]:
        rows = self.db.query(f"SELECT path, chunks FROM files WHERE status IN {SEARCHABLE_SQL}")
        return {from_store(r["path"]): r["chunks"] for r in rows}

    def empty(self) -> bool:
        """No file catalogued yet: a first index (or a lost catalog), where every file will be read."""
        return self.db.one("SELECT 1 FROM files LIMIT 1") is None

    def all_paths(self) -> set[str]:
        return {from_store(r["path"]) for r in self.db.query("SELECT path FROM files")}

    def counts(self) -> dict[str, int]:
        out: dict[str, int] = {status.value: 0 for status in STATUSES}
        for row in self.db.query("SELECT status, count(*) AS n FROM files GROUP BY status"):
            out[row["status"]] = row["n"]
        out["chunks"] = int(self.db.scalar("SELECT coalesce(sum(chunks), 0) FROM files"))
        out["semantic_pending"] = int(
            self.db.scalar(
                f"SELECT count(*) FROM files WHERE semantic = 'pending' AND status IN {SEARCHABLE_SQL}"
            )
        )
        return out
