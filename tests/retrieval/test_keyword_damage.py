"""Which DuckDB errors count as a damaged keyword file (set aside and rebuilt) and which do not."""

from __future__ import annotations

import os

import duckdb
import pytest

from engine.errors import StoreDamaged
from engine.retrieval.keyword.damage import is_damage
from engine.retrieval.keyword.index import KeywordIndex


@pytest.mark.parametrize(
    "error",
    [
        duckdb.FatalException(
            "FATAL Error: Failed to delete all rows from index. Only deleted 0 out of 1 rows."
        ),
        duckdb.InternalException("INTERNAL Error: Corrupted ART index"),
        duckdb.IOException(
            "IO Error: Corrupt database file: computed checksum 1 does not match stored checksum 2"
        ),
        duckdb.IOException(
            'IO Error: Could not read enough bytes from file "k.duckdb": attempted to read 262144'
        ),
    ],
)
def test_fatal_internal_and_corruption_errors_are_damage(error):
    assert is_damage(error)


@pytest.mark.parametrize(
    "error",
    [
        duckdb.IOException('IO Error: Could not set lock on file "k.duckdb": Conflicting lock is held'),
        duckdb.IOException("IO Error: No space left on device"),
        duckdb.CatalogException("Catalog Error: Table with name nothing does not exist!"),
    ],
)
def test_a_lock_a_full_disk_or_a_bad_query_is_not_damage(error):
    assert not is_damage(error)


def test_opening_a_garbage_file_raises_store_damaged(tmp_path):
    path = tmp_path / "keywords.duckdb"
    path.write_bytes(os.urandom(32 * 1024))
    with pytest.raises(StoreDamaged):
        KeywordIndex(path)
