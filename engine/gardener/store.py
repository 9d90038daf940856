"""The background pass's cache: the latest report of each root, as JSON in SQLite, with a digest of its
findings so a pass that found the same things does not announce a change."""

from __future__ import annotations

import hashlib
import json

from engine.db import Database, Migration
from engine.gardener.model import FolderReport
from engine.indexing.pathtext import from_store, to_store

MIGRATIONS: list[Migration] = [
    (
        "0004_gardener",
        """
        CREATE TABLE gardener_reports (
            root TEXT PRIMARY KEY,
            report TEXT NOT NULL,
            digest TEXT NOT NULL,
            scanned_at REAL NOT NULL
        );
    """,
    ),
]


def digest(report: FolderReport) -> str:
    """What the report says, without when it was made: equal digests mean nothing changed."""
    body = json.dumps([f for f in report.to_dict()["findings"]], sort_keys=True, default=str)
    return hashlib.blake2b(body.encode(), digest_size=16).hexdigest()


class ReportCache:
    def __init__(self, db: Database):
        self.db = db

    def save(self, report: FolderReport) -> bool:
        """Store `report` for its root; True when its findings differ from the cached ones."""
        new = digest(report)
        row = self.db.one("SELECT digest FROM gardener_reports WHERE root = ?", (to_store(report.path),))
        self.db.execute(
            """INSERT INTO gardener_reports(root, report, digest, scanned_at) VALUES (?, ?, ?, ?)
               ON CONFLICT(root) DO UPDATE SET report = excluded.report, digest = excluded.digest,
                 scanned_at = excluded.scanned_at""",
            (to_store(report.path), json.dumps(report.to_dict()), new, report.scanned_at),
        )
        return row is None or row["digest"] != new

    def get(self, root: str) -> FolderReport | None:
        row = self.db.one("SELECT report FROM gardener_reports WHERE root = ?", (to_store(root),))
        return FolderReport.from_dict(json.loads(row["report"])) if row else None

    def roots(self) -> list[str]:
        return [from_store(r["root"]) for r in self.db.query("SELECT root FROM gardener_reports")]

    def forget(self, root: str) -> None:
        self.db.execute("DELETE FROM gardener_reports WHERE root = ?", (to_store(root),))
