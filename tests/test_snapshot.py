"""`sensetree status` without a running SenseTree reads engine/snapshot.py; a data folder with no
database yet answers the progress model's zero, the same numbers an empty database gives."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from engine.config import Settings, save_settings
from engine.db import Database
from engine.indexing import catalog as catalog_mod
from engine.indexing import queue as queue_mod
from engine.indexing.progress import RootProgress
from engine.snapshot import DATABASE, IndexSnapshot


def _home(path: Path, root: Path, *, with_database: bool) -> Path:
    path.mkdir(parents=True)
    save_settings(Settings(roots=[str(root)]), path)
    if with_database:
        db = Database(path / DATABASE)
        db.migrate(catalog_mod.MIGRATIONS + queue_mod.MIGRATIONS)
        db.close()
    return path


def test_no_database_yet_reads_as_an_empty_database_does(tmp_path):
    root = tmp_path / "Docs"
    root.mkdir()
    fresh = IndexSnapshot(_home(tmp_path / "fresh", root, with_database=False))
    empty = IndexSnapshot(_home(tmp_path / "empty", root, with_database=True))
    try:
        nothing, measured = fresh.indexing_stats(), empty.indexing_stats()
        assert not (tmp_path / "fresh" / DATABASE).exists()
        assert replace(nothing, seq=0) == replace(measured, seq=0)
        assert nothing.roots == [
            RootProgress(path=str(root), files=0, searchable=0, semantic_done=0, queued=0, failed=0)
        ]
        assert fresh.indexing_queue() == [] == empty.indexing_queue()
    finally:
        fresh.close()
        empty.close()
