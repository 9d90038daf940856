"""The postings a point write inserts, read by SQL through a view registered once on the writer cursor.

`from_arrow(table).insert_into("postings")` built a relation for every write: 0.51 ms of CPU for 400
postings, where an `INSERT … SELECT` from a view registered once reads the same Arrow table in 0.41
(docs/keyword-writes.md, Session 7). A view over an Arrow table is fixed to that table, and registering
one per write is a catalog change inside the transaction (~4 ms on a loaded machine, point.py's
docstring), so the view is registered once over this holder, which hands DuckDB whichever table the
write put in it (the Arrow PyCapsule stream protocol, read when the statement runs).

Registered outside any transaction (the writer's transactions call `register` first): a registration
inside one would be undone by its rollback. pyarrow is imported by the first write, as before, not at
open (a keyword peek loads none, issue 30).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import duckdb

if TYPE_CHECKING:
    import pyarrow as pa

VIEW = "point_postings"
INSERT = f"INSERT INTO postings SELECT tid, chunk_id, tf, w FROM {VIEW}"


class PointRows:
    """Holds the postings of the write in progress for the `point_postings` view (module docstring). Used
    under the index's write lock."""

    def __init__(self) -> None:
        self._table: pa.Table | None = None
        self._empty: pa.Table | None = None

    def register(self, cur: duckdb.DuckDBPyConnection) -> None:
        """Register the view on the writer cursor `cur`, once, outside a transaction."""
        if self._empty is not None:
            return
        import pyarrow as pa  # the writes' own import (module docstring)

        empty = pa.table(
            {
                "tid": pa.array([], pa.int32()),
                "chunk_id": pa.array([], pa.int64()),
                "tf": pa.array([], pa.int32()),
                "w": pa.array([], pa.float32()),
            }
        )
        self._table = empty
        cur.register(VIEW, self)
        self._empty = empty

    def insert(self, cur: duckdb.DuckDBPyConnection, postings: pa.Table, before: str = "") -> None:
        """Insert `postings` (tid int32, chunk_id int64, tf int32, w float32) in the caller's transaction,
        after the statement `before` if one is given, in the same call."""
        self._table = postings
        try:
            cur.execute(f"{before}; {INSERT}" if before else INSERT)
        finally:
            self._table = self._empty  # the write's table is not kept alive

    def __arrow_c_stream__(self, requested_schema: object = None) -> object:
        assert self._table is not None
        return self._table.__arrow_c_stream__(requested_schema)
