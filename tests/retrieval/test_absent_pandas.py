"""Where pandas is not installed, DuckDB statements with parameters must not search sys.path for it each
time (engine/retrieval/absent_pandas.py): ~0.35 ms per statement, ten of them per one-file update."""

from __future__ import annotations

import importlib.util
import sys

import pytest

from engine.retrieval.absent_pandas import AbsentPandas
from engine.retrieval.bm25 import KeywordIndex


class CountingFinder:
    """A meta-path finder that finds nothing and counts the lookups of pandas."""

    def __init__(self) -> None:
        self.pandas = 0

    def find_spec(self, name, path=None, target=None):
        if name == "pandas":
            self.pandas += 1
        return None


@pytest.mark.skipif(
    "pandas" not in sys.modules and importlib.util.find_spec("pandas") is not None,
    reason="pandas is installed here: the client finds it and nothing is looked up again",
)
def test_keyword_writes_and_searches_do_not_look_for_pandas_on_every_statement(tmp_path):
    index = KeywordIndex(tmp_path / "k.duckdb")
    finder = CountingFinder()
    at = next(i for i, f in enumerate(sys.meta_path) if not isinstance(f, AbsentPandas))
    sys.meta_path.insert(at, finder)  # behind the AbsentPandas finder: it sees what gets past it
    try:
        for i in range(5):
            index.upsert(f"/r/{i}.txt", [f"zebra apple note {i}"])
            index.search("zebra", k=5)
        index.delete("/r/0.txt")
    finally:
        sys.meta_path.remove(finder)
        index.close()
    assert finder.pandas == 0


def test_pandas_is_still_reported_missing_the_way_python_reports_it(tmp_path):
    KeywordIndex(tmp_path / "k.duckdb").close()
    if importlib.util.find_spec("pyarrow") is not None:
        import pyarrow as pa

        with pytest.raises(ImportError):
            pa.table({"a": [1]}).to_pandas()
    with pytest.raises(ModuleNotFoundError) as raised:
        import pandas  # noqa: F401
    assert raised.value.name == "pandas"
