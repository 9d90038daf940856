"""When the keyword index's bulk writes checkpoint: at the end of a run of them, not at each commit.

DuckDB checkpoints at a commit that leaves more than `checkpoint_threshold` (16 MB) of WAL, so each bulk
batch's commit wrote its rows into the file, and the next batch's checkpoint wrote again the row groups
the first one left part-filled. A weight refresh then replaces the whole postings table, so the batches'
postings were compressed and written once only to be dropped. Without that, a build of 100k real chunks
(two batches and a refresh) took 0.1-0.4 CPU-s less of its ~6 and its file 208 MB, not 220
(bench/keyword_real_build.py, alternating; docs/keyword-writes.md, Session 9): the build's ratio to SQLite
FTS5 beside a busy loop sits near its 0.5 line, so it counts.

So a bulk write commits with the automatic checkpoint off (the setting is the database's: it is raised
for the bulk write's own commit, under the write lock, and put back right after), and owes one; the
weight refresh, which ends a run of bulk writes (the indexer's maintenance, the bench), commits the
same way and then checkpoints once what the run wrote, the first postings no longer among it. Owing is
bounded: once the deferred writes pass `OWED_ROWS` chunks, the bulk write checkpoints after its commit,
so the WAL a crash leaves to replay and what the open file holds outside its blocks stay bounded too.
A point write's commit keeps DuckDB's own rule (it checkpoints once the WAL passed 16 MB).

A crash before the checkpoint leaves the deferred commits in the WAL, durable like any commit: the next
open replays them and checkpoints at once with a client (base.py; index.py says why).
"""

from __future__ import annotations

import contextlib
import logging
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import duckdb

from engine.retrieval.keyword.damage import store_error

log = logging.getLogger(__name__)

# Chunks that bulk commits may leave uncheckpointed before one checkpoints again (a 50k-chunk batch of real
# text is ~52 MB of text and ~3M postings).
OWED_ROWS = 250_000
SETTING = "checkpoint_threshold"  # the WAL size at which a commit checkpoints (DuckDB's default 16 MB)
DEFERRED = "1TB"


class BulkCheckpoints:
    """What bulk writes have left uncheckpointed (module docstring). Used under the index's write lock."""

    def __init__(self, db_path: Path) -> None:
        self.db_path = db_path
        self.owed_rows = 0

    @contextmanager
    def deferred(self, cur: duckdb.DuckDBPyConnection, rows: int) -> Iterator[None]:
        """Around a bulk write of `rows` chunks, outside its transaction: its commit does not checkpoint,
        unless the writes owed passed OWED_ROWS with it (then one checkpoint right after it)."""
        with self._automatic_off(cur):
            yield
        self.owed_rows += rows
        if self.owed_rows > OWED_ROWS:
            self._checkpoint(cur)

    @contextmanager
    def settled(self, cur: duckdb.DuckDBPyConnection) -> Iterator[None]:
        """Around a write that ends a run of bulk writes (the weight refresh): it commits without the
        automatic checkpoint, then one checkpoint writes what the run left."""
        with self._automatic_off(cur):
            yield
        self._checkpoint(cur)

    def _checkpoint(self, cur: duckdb.DuckDBPyConnection) -> None:
        try:
            cur.execute("CHECKPOINT")
        except (
            duckdb.Error
        ) as exc:  # the writes committed (their WAL is durable): the next bulk write retries
            log.warning("keyword index %s: no checkpoint after a bulk write: %s", self.db_path, exc)
            return
        self.owed_rows = 0

    @contextmanager
    def _automatic_off(self, cur: duckdb.DuckDBPyConnection) -> Iterator[None]:
        """DuckDB's automatic checkpoint off around the block, back on after it, whatever happens."""
        try:
            row = cur.execute(f"SELECT current_setting('{SETTING}')").fetchone()
            cur.execute(f"SET {SETTING} = '{DEFERRED}'")
        except duckdb.Error as exc:
            raise store_error(f"set the keyword index's checkpoints ({self.db_path})", exc) from exc
        restore = f"SET {SETTING} = '{row[0]}'" if row else f"RESET {SETTING}"
        try:
            yield
        except BaseException:
            with contextlib.suppress(duckdb.Error):  # the block's own error is the one to tell
                cur.execute(restore)
            raise
        try:
            cur.execute(restore)
        except duckdb.Error as exc:
            raise store_error(f"set the keyword index's checkpoints ({self.db_path})", exc) from exc
