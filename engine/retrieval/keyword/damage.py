"""Which DuckDB errors mean the keyword index's file is damaged, as opposed to a lock held by another
process, a full disk or a query DuckDB refused. Damage is answered by setting the file aside and
rebuilding it (`keyword_store`); anything else is an ordinary `StoreError` for the person.
"""

from __future__ import annotations

import duckdb

from engine.errors import StoreDamaged, StoreError

_DAMAGE_WORDS = (
    "not a valid duckdb database",
    "corrupt",
    "checksum",
    "could not read enough bytes",
    "invalidated",
    "replaying wal",
    "failed to delete all rows from index",
    "serializ",
)


def is_damage(exc: BaseException) -> bool:
    """True for an error that means the index file is damaged or its indexes are inconsistent."""
    if isinstance(exc, (duckdb.FatalException, duckdb.InternalException, duckdb.SerializationException)):
        return True
    return isinstance(exc, duckdb.Error) and any(word in str(exc).lower() for word in _DAMAGE_WORDS)


def store_error(what: str, exc: duckdb.Error) -> StoreError:
    """The engine's error for a failed DuckDB call: `StoreDamaged` when the file is at fault."""
    if is_damage(exc):
        return StoreDamaged(f"The keyword index is damaged (could not {what}): {exc}")
    return StoreError(f"Could not {what}: {exc}")
