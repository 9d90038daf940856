"""A point write weights its postings in numpy (keyword_writes.impacts); the bulk paths and refresh_weights
in SQL (weight_sql). Both must give the same float32 bits, or a posting's score would depend on which path
wrote it."""

from __future__ import annotations

import duckdb
import numpy as np
import pyarrow as pa
import pytest

from engine.retrieval.keyword.writes import impacts, weight_sql


@pytest.mark.parametrize("seed", range(6))
def test_numpy_impacts_equal_weight_sql_bit_for_bit(seed):
    rng = np.random.default_rng(seed)
    n = float(rng.integers(1, 3_000_000)) if seed else 1.0
    avgdl = float(rng.uniform(0.5, 400)) if seed else 1e-9  # the empty corpus's average length
    rows = 100_000
    tf = rng.integers(1, 20_000 if seed % 2 else 8, rows).astype(np.int32)
    length = rng.integers(0, 100_000, rows).astype(np.int32)
    df = rng.integers(0, int(n) + 1, rows).astype(np.int64)
    values = pa.table({"tf": pa.array(tf), "len": pa.array(length), "df": pa.array(df)})
    with duckdb.connect() as con:
        con.register("vals", values)
        sql = f"SELECT {weight_sql('tf', 'len', 'df', n, avgdl)} AS w FROM vals"
        want = con.execute(sql).fetchnumpy()["w"]
    got = impacts(tf, length, df, n, avgdl)
    assert got.dtype == np.float32
    assert np.array_equal(got.view(np.int32), np.asarray(want, np.float32).view(np.int32))
