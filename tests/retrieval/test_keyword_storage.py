"""How the keyword index stores its tables (keyword/base.py): chunk text without FSST, weights without ALP."""

from __future__ import annotations

from engine.retrieval.keyword.index import KeywordIndex


def test_chunk_text_is_stored_without_fsst_so_a_commit_does_not_decode_old_text(tmp_path):
    words = "budget review of the quarterly invoice numbers for the northern region office".split()
    texts = [" ".join(words[(i + j) % len(words)] for j in range(40)) + f" ref{i:05d}" for i in range(3000)]
    index = KeywordIndex(tmp_path / "k.duckdb")
    index.upsert_many((f"/r/f{i:04d}.txt", texts[i : i + 5]) for i in range(0, len(texts), 5))
    index.close()
    index = KeywordIndex(tmp_path / "k.duckdb")
    try:
        methods = (
            index._reader()
            .execute(
                "SELECT DISTINCT compression FROM pragma_storage_info('chunks') WHERE column_name = 'text'"
            )
            .fetchall()
        )
        assert methods and ("FSST",) not in methods
    finally:
        index.close()


def test_weights_are_stored_without_alp_so_a_bulk_commit_does_not_analyse_them(tmp_path):
    words = "budget review of the quarterly invoice numbers for the northern region office".split()
    texts = [" ".join(words[(i * j) % len(words)] for j in range(30)) + f" ref{i:05d}" for i in range(3000)]
    index = KeywordIndex(tmp_path / "k.duckdb")
    index.upsert_many((f"/r/f{i:04d}.txt", texts[i : i + 5]) for i in range(0, len(texts), 5))
    index.close()
    index = KeywordIndex(tmp_path / "k.duckdb")
    try:
        methods = {
            row[0]
            for row in index._reader()
            .execute("SELECT compression FROM pragma_storage_info('postings') WHERE column_name = 'w'")
            .fetchall()
        }
        assert methods and not methods & {"ALP", "ALPRD"}, methods
    finally:
        index.close()
