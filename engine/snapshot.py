"""The index as its database records it, read without opening the search stores.

`sensetree status` with no SenseTree running answers from this: only SQLite and the settings file
are read, so LanceDB, DuckDB, torch and the model never load and the answer takes a fraction of a
second instead of the seconds an `Engine` start costs. It offers the three Engine commands status
needs (`get_roots`, `indexing_stats`, `indexing_queue`) with the same results. Nothing is repaired,
recovered or re-scanned here (that is the next engine start's job); a database SQLite calls damaged
raises `StoreError`, and the caller opens a full Engine, which sets it aside and says so.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import TYPE_CHECKING

from engine.config import Settings, load_settings
from engine.db import Database
from engine.errors import StoreError
from engine.indexing import catalog as catalog_mod
from engine.indexing import queue as queue_mod
from engine.stores import known_roots

if TYPE_CHECKING:
    from engine.indexing.progress import IndexingProgress
    from engine.indexing.results import QueueRow

DATABASE = "sensetree.db"


class IndexSnapshot:
    def __init__(self, home: Path) -> None:
        self.home = home
        self.settings: Settings = load_settings(home)
        path = home / DATABASE
        self._db: Database | None = None
        if path.exists():
            try:
                self._db = Database(path)
                self._db.migrate(catalog_mod.MIGRATIONS + queue_mod.MIGRATIONS)  # as an Engine start would
                self._catalog = catalog_mod.Catalog(self._db)
                self._queue = queue_mod.WorkQueue(self._db)
                self._roots = known_roots(self._db) if self.settings.roots_defaulted else None
            except sqlite3.DatabaseError as exc:
                self.close()
                raise StoreError(f"SenseTree's database {path} could not be read: {exc}") from exc

    def startup_notices(self) -> list[str]:
        return [self.settings.load_warning] if self.settings.load_warning else []

    def get_roots(self) -> list[str]:
        if self._db is not None and self._roots is not None:
            return self._roots  # settings that lost the roots: the engine keeps the catalog's
        return list(self.settings.roots)

    def indexing_stats(self) -> IndexingProgress:
        """The progress model IndexService.indexing_stats gives, from the same catalog and queue tables
        (idle: no file is current and no rate has been measured in this process)."""
        from engine.indexing.progress import ProgressTracker, measure

        paused = self.settings.indexing.paused
        if self._db is None:
            return _nothing_yet(self.get_roots(), paused)
        return measure(self._catalog, self._queue, self.get_roots(), ProgressTracker(), paused=paused)

    def indexing_queue(self, limit: int = 100) -> list[QueueRow]:
        if self._db is None:
            return []
        return self._queue.listing(max(1, min(int(limit), 1000)))

    def close(self) -> None:
        if self._db is not None:
            self._db.close()
            self._db = None


def _nothing_yet(roots: list[str], paused: bool) -> IndexingProgress:
    """The progress model's zero for a data folder with no database yet: nothing indexed, nothing
    queued, nothing left to do (an `eta_s` of 0, as `measure` says when no file remains)."""
    from engine.indexing.progress import IndexingProgress, PhaseProgress, RootProgress

    return IndexingProgress(
        seq=1,
        keyword=PhaseProgress(eta_s=0.0),
        semantic=PhaseProgress(eta_s=0.0),
        roots=[RootProgress(path=root) for root in roots],
        files=0,
        chunks=0,
        queued=0,
        done=0,
        failed=0,
        skipped=0,
        paused=paused,
    )
