"""The postings a point write inserts, read by SQL through a view registered once on the writer cursor.

`from_arrow(table).insert_into("postings")` built a relation for every write: 0.51 ms of CPU for 400
postings, where an `INSERT … SELECT` from a view registered once reads the same Arrow table in 0.41
(docs/keyword-writes.md, Session 7). A view over an Arrow table is fixed to that table, and registering
one per write is a catalog change inside the transaction (~4 ms on a loaded machine, point.py's
docstring), so the view is registered once, over one Arrow C stream that each write refills.

The view is over a bare PyCapsule holding an `ArrowArrayStream` (the Arrow C stream interface), not over an
object with `__arrow_c_stream__`: DuckDB's Python client reads a bare capsule's stream as it is, but feeds
any other Arrow object (a table, or session 7's holder) through `pyarrow.dataset`'s Scanner, whose set-up
and hand-off to Arrow's thread pool cost ~0.25 ms of the calling thread's CPU per insert and ~0.3 of the
process's, whatever the number of rows (docs/keyword-writes.md, Session 9). A capsule's stream is read once
(DuckDB takes it over, leaving `release` null), so each write moves a fresh stream of its table into the
same `ArrowArrayStream`, and any stream a failed statement did not take is released after the call. The
capsule is pyarrow's own (`__arrow_c_stream__` of an empty table), so its memory lives as long as the view
holds it, and pyarrow's destructor releases whatever stream it still holds.

Registered outside any transaction (the writer's transactions call `register` first): a registration
inside one would be undone by its rollback. pyarrow is imported by the first write, as before, not at
open (a keyword peek loads none, issue 30).
"""

from __future__ import annotations

import ctypes
from typing import TYPE_CHECKING

import duckdb

if TYPE_CHECKING:
    import pyarrow as pa

VIEW = "point_postings"
INSERT = f"INSERT INTO postings SELECT tid, chunk_id, tf, w FROM {VIEW}"

# struct ArrowArrayStream { get_schema, get_next, get_last_error, release, private_data }: five pointers
_POINTER = ctypes.sizeof(ctypes.c_void_p)
_STREAM_SIZE = 5 * _POINTER
_RELEASE_AT = 3 * _POINTER
_CAPSULE_NAME = b"arrow_array_stream"
_release_fn = ctypes.CFUNCTYPE(None, ctypes.c_void_p)
_capsule_pointer = ctypes.pythonapi.PyCapsule_GetPointer
_capsule_pointer.restype = ctypes.c_void_p
_capsule_pointer.argtypes = [ctypes.py_object, ctypes.c_char_p]


class PointRows:
    """The Arrow C stream behind the `point_postings` view (module docstring). Used under the index's write
    lock."""

    def __init__(self) -> None:
        self._capsule: object | None = None  # kept alive with the view; its stream is at _stream
        self._stream = 0

    def register(self, cur: duckdb.DuckDBPyConnection) -> None:
        """Register the view on the writer cursor `cur`, once, outside a transaction."""
        if self._capsule is not None:
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
        capsule = empty.__arrow_c_stream__()  # live: the registration reads its schema
        stream = _capsule_pointer(capsule, _CAPSULE_NAME)
        cur.register(VIEW, capsule)
        self._capsule, self._stream = capsule, stream

    def insert(self, cur: duckdb.DuckDBPyConnection, postings: pa.Table, before: str = "") -> None:
        """Insert `postings` (tid int32, chunk_id int64, tf int32, w float32) in the caller's transaction,
        after the statement `before` if one is given, in the same call."""
        assert self._capsule is not None, "register first"
        self._release()  # the registration's stream, or nothing
        _move(postings.__arrow_c_stream__(), self._stream)
        try:
            cur.execute(f"{before}; {INSERT}" if before else INSERT)
        finally:
            self._release()  # a stream the call did not read (a statement failed before it)

    def _release(self) -> None:
        """Release the stream the capsule holds, if DuckDB has not taken it over."""
        release = ctypes.c_void_p.from_address(self._stream + _RELEASE_AT).value
        if release:
            _release_fn(release)(self._stream)  # the producer's release nulls the field


def _move(capsule: object, stream: int) -> None:
    """Move the stream of `capsule` (a fresh one of pyarrow's) into the released `ArrowArrayStream` at
    `stream`: the C interface's move, a copy of the struct and a null `release` at the source."""
    source = _capsule_pointer(capsule, _CAPSULE_NAME)
    ctypes.memmove(stream, source, _STREAM_SIZE)
    ctypes.c_void_p.from_address(source + _RELEASE_AT).value = None
