"""How many chunks were added or removed since the last refresh_weights, counted from the tables.

`stale_ratio` used to read a counter in `meta` that every write raised by one `UPDATE meta`: ~1 ms of a
22 ms one-file update at 1M chunks (the statement and its share of the COMMIT). The count is already in
the tables: chunk ids only grow (one sequence), so the chunks added since the refresh are those with an id
above the highest id at that refresh (`MARK`), live in `chunks` or removed since into `dead`; the chunks
removed since are `dead` itself, which the refresh empties. So a write keeps no counter at all, and
`stale_ratio` counts (a range over the ids and the small `dead` table; it runs now and then, not per write).
"""

from __future__ import annotations

import duckdb

MARK = "refreshed_below"  # meta: the highest chunk id at the last refresh
# The indexing service refreshes the weights once `stale_ratio` passes this: until then the removed chunks
# are masked per query and wait in memory (bench/keyword_build.py times a write just below it).
REFRESH_STALE = 0.05


def changed_sql() -> str:
    """One row (chunks added or removed since the last refresh as the tables say, chunks now, the mark):
    removed ids a point write holds in memory (pending_writes.py) are the caller's to add."""
    mark = f"(SELECT coalesce(max(value), 0) FROM meta WHERE key = '{MARK}')"
    return f"""
        SELECT (SELECT count(*) FROM chunks WHERE id > {mark})
             + (SELECT count(*) FROM dead WHERE chunk_id > {mark})
             + (SELECT count(*) FROM dead),
               (SELECT count(*) FROM chunks), {mark}"""


def marked_now_sql() -> list[str]:
    """Statements that set the mark to the highest chunk id now (run by refresh_weights, after it emptied
    `dead`)."""
    return [
        f"DELETE FROM meta WHERE key = '{MARK}'",
        f"INSERT INTO meta SELECT '{MARK}', coalesce(max(id), 0) FROM chunks",
    ]


def ensure_mark(cur: duckdb.DuckDBPyConnection) -> None:
    """The mark, in an index written when writes kept a counter instead ('changed', chunks added or
    removed since the refresh): the id as many ids below the highest as the counter says were added
    (ids are drawn one by one), so the count goes on from the counter's figure; the counter is dropped."""
    if cur.execute(f"SELECT 1 FROM meta WHERE key = '{MARK}'").fetchone():
        return
    cur.execute(f"""
        INSERT INTO meta SELECT '{MARK}', greatest(coalesce(
            greatest((SELECT max(id) FROM chunks), (SELECT max(chunk_id) FROM dead)), 0)
            - greatest(coalesce((SELECT max(value) FROM meta WHERE key = 'changed'), 0)
                       - (SELECT count(*) FROM dead), 0), 0)""")
    cur.execute("DELETE FROM meta WHERE key = 'changed'")
