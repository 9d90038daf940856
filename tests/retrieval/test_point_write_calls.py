"""What a one-file update sends DuckDB: its calls on the writer cursor, counted through a recording cursor
(docs/keyword-writes.md, Session 9). Counting calls is deterministic where timing them is not."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import duckdb

from engine.retrieval.keyword.index import KeywordIndex
from engine.retrieval.keyword.point import LITERAL_TERMS
from engine.retrieval.keyword.point_tokens import FOLDED_LITERALS
from tests.retrieval.test_keyword_writes import bulk_build, corpus, snapshot


class RecordingCursor:
    """The writer cursor, with every `execute` recorded. A statement that reads a Python table by name (a
    replacement scan) finds nothing here: DuckDB looks the name up in the frame that called `execute`."""

    def __init__(self, cursor: duckdb.DuckDBPyConnection) -> None:
        self._cursor = cursor
        self.sql: list[str] = []

    def execute(self, sql: str, *args: Any) -> duckdb.DuckDBPyConnection:
        self.sql.append(sql)
        return self._cursor.execute(sql, *args)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._cursor, name)


def assert_same_as_rebuilt(
    index: KeywordIndex, files: dict[str, list[str]], path: Path, monkeypatch: Any
) -> None:
    """`index` holds the chunks, term counts and document frequencies of `files` built anew in bulk."""
    rebuilt = bulk_build(path, files, monkeypatch)
    try:
        got, fresh = snapshot(index), snapshot(rebuilt)
        assert got["chunks"] == fresh["chunks"] and got["tf"] == fresh["tf"] and got["df"] == fresh["df"]
    finally:
        rebuilt.close()


def _recording(index: KeywordIndex) -> RecordingCursor:
    recorder = RecordingCursor(index._writer)
    index._writer = recorder  # type: ignore[assignment]
    return recorder


def test_an_edit_of_a_remembered_file_takes_four_calls(tmp_path):
    """The bench's update (real_text.update_file): both versions' texts remembered, no new word."""
    index = KeywordIndex(tmp_path / "k.duckdb")
    try:
        before = ["budget review for the harbour", "orchard travel plans", "minutes of the meeting"]
        after = ["budget review for the harbour", "orchard travel plans, revised", "minutes of the meeting"]
        for version in (before, after, before):
            index.upsert("/r/a.txt", version)
        recorder = _recording(index)
        index.upsert("/r/a.txt", after)
        assert [sql.split()[0] for sql in recorder.sql] == ["BEGIN", "DELETE", "INSERT", "COMMIT"]
        assert recorder.sql[2].count("INSERT INTO") == 2  # the chunks' literal and the postings, one call
    finally:
        index.close()


def test_an_edit_bringing_a_new_word_in_text_that_is_not_ascii_reads_no_python_table_by_name(
    tmp_path, monkeypatch
):
    """DuckDB folds the new text (lower, strip_accents) from a literal and the new term goes in as a
    literal with the chunks: a replacement scan cost ~1.5 ms each (the client's look-up of the name in the
    caller's frames, then pyarrow.dataset's Scanner)."""
    files = corpus(12)
    index = KeywordIndex(tmp_path / "k.duckdb")
    try:
        index.upsert_many(files.items())
        index.upsert("/r/e.txt", ["budget review", "orchard travel"])
        recorder = _recording(index)
        files["/r/e.txt"] = ["budget review", "orchard travel with the Zürich café's naïve zqx42 plan"]
        index.upsert("/r/e.txt", files["/r/e.txt"])
        assert [sql.split()[0] for sql in recorder.sql] == ["BEGIN", "DELETE", "SELECT", "INSERT", "COMMIT"]
        assert "strip_accents('orchard travel with the Zürich café''s" in recorder.sql[2]
        assert recorder.sql[3].startswith("INSERT INTO terms (term, tid, df) VALUES (")
        assert_same_as_rebuilt(index, files, tmp_path / "rebuilt.duckdb", monkeypatch)
    finally:
        index.close()


def test_many_new_terms_many_texts_not_ascii_and_a_nul_still_go_through_arrow_alike(tmp_path, monkeypatch):
    """Past LITERAL_TERMS new terms and FOLDED_LITERALS texts to fold, or with a NUL, a point write reads
    them from Arrow (a VALUES list binds row by row); the index is the same either way."""
    files = corpus(12)
    index = KeywordIndex(tmp_path / "k.duckdb")
    try:
        index.upsert_many(files.items())
        words = [f"novel{n}word café" for n in range(LITERAL_TERMS + 10)]
        files["/r/many.txt"] = [" ".join(words[n :: FOLDED_LITERALS + 4]) for n in range(FOLDED_LITERALS + 4)]
        index.upsert("/r/many.txt", files["/r/many.txt"])
        files["/r/nul.txt"] = ["naïve\x00zürich café"]  # a NUL: not in a literal (DuckDB's parser)
        index.upsert("/r/nul.txt", files["/r/nul.txt"])
        assert_same_as_rebuilt(index, files, tmp_path / "rebuilt.duckdb", monkeypatch)
    finally:
        index.close()
