"""The incremental BM25 index: equal to a fresh build, equal to DuckDB's own match_bm25, segment-exact
paths."""

from __future__ import annotations

import threading

import duckdb
import pytest

from engine.resources import fts_extension_path
from engine.retrieval.keyword import tokenize
from engine.retrieval.keyword.index import KeywordIndex

CORPUS = {
    "/r/Docs/budget.txt": [
        "The quarterly budget review for the marketing team, with budget cuts.",
        "Travel costs rose; the budget was revised twice.",
    ],
    "/r/Docs/notes.md": ["Meeting notes: hiring plan, office move, café opening in Zürich."],
    "/r/DocsEvil/secret.txt": ["A budget spreadsheet that must never match a Docs scope."],
    "/r/Other/recipe.txt": [
        "Bake the bread for forty minutes; running late is fine.",
        "Runners and runs: the stemmer should fold these together.",
    ],
    "/r/Other/empty.txt": [""],
}
QUERIES = ["budget", "budget review", "running", "cafe zurich", "the and of", "bread travel notes", "xyzzy"]


def build(path, corpus):
    """A fresh build: every file in one batch, so every weight sees the final statistics."""
    index = KeywordIndex(path)
    index.upsert_many(corpus.items())
    return index


def scores(index, query, k=50, scope=None):
    return {(h.path, h.chunk_index): h.score for h in index.search(query, k, scope)}


def static_bm25(corpus, query):
    """DuckDB's static FTS index over the same chunks: the reference our scores must equal."""
    con = duckdb.connect()
    tokenize.install(con)  # the extension, and our stop list as a table it can use
    con.execute("CREATE TABLE docs (key VARCHAR, body VARCHAR)")
    rows = [(f"{path}#{i}", text) for path, chunks in corpus.items() for i, text in enumerate(chunks)]
    con.executemany("INSERT INTO docs VALUES (?, ?)", rows)
    ignore = tokenize.IGNORE_PATTERN.replace("'", "''")
    con.execute(
        "PRAGMA create_fts_index('docs', 'key', 'body', stemmer='porter', stopwords='stopwords', "
        f"ignore='{ignore}', strip_accents=1, lower=1)"
    )
    found = con.execute(
        "SELECT key, fts_main_docs.match_bm25(key, ?) AS s FROM docs WHERE s IS NOT NULL", [query]
    ).fetchall()
    con.close()
    return {(key.rsplit("#", 1)[0], int(key.rsplit("#", 1)[1])): s for key, s in found}


def test_scores_equal_duckdb_static_match_bm25_on_the_same_corpus(tmp_path):
    index = build(tmp_path / "k.duckdb", CORPUS)
    for query in QUERIES:
        ours, reference = scores(index, query), static_bm25(CORPUS, query)
        assert ours.keys() == reference.keys(), query
        for key in ours:
            assert ours[key] == pytest.approx(reference[key], rel=1e-5), (query, key)
    index.close()


def _extension_tokens(sample: str, **options: str) -> tuple[list[str], set[str]]:
    con = duckdb.connect()
    con.execute(f"LOAD '{fts_extension_path()}'")
    con.execute("CREATE TABLE docs (id INTEGER, body VARCHAR)")
    con.execute("INSERT INTO docs VALUES (1, 'x')")
    extra = "".join(f", {k}='{v.replace(chr(39), chr(39) * 2)}'" for k, v in options.items())
    con.execute(f"PRAGMA create_fts_index('docs', 'id', 'body'{extra})")
    stopwords = {row[0] for row in con.execute("SELECT sw FROM fts_main_docs.stopwords").fetchall()}
    tokens = con.execute("SELECT fts_main_docs.tokenize(?)", [sample]).fetchone()[0]
    con.close()
    return tokens, stopwords


SAMPLE = "Ünïcode CAFÉ's [brackets] 3.14 e-mail foo_bar α-β “quotes” tab\there invoice 1042 ref00005q"


def _our_tokens(sample: str, ignore: str = tokenize.IGNORE_PATTERN) -> list[str]:
    con = duckdb.connect()
    tokens = con.execute(f"SELECT {tokenize.tokenize_sql('?', ignore)}", [sample]).fetchone()[0]
    con.close()
    return tokens


def test_tokenizer_constants_are_the_fts_extension_defaults():
    theirs, stopwords = _extension_tokens(SAMPLE)  # all defaults
    assert stopwords == tokenize.SMART_STOPWORDS
    assert _our_tokens(SAMPLE, tokenize.DUCKDB_DEFAULT_IGNORE) == theirs


def test_our_tokenizer_equals_the_extension_configured_to_keep_digits():
    theirs, _ = _extension_tokens(SAMPLE, ignore=tokenize.IGNORE_PATTERN)
    ours = _our_tokens(SAMPLE)
    assert ours == theirs
    assert "1042" in ours and "ref00005q" in ours


def test_invoice_numbers_and_reference_codes_are_keyword_searchable(tmp_path):
    index = KeywordIndex(tmp_path / "k.duckdb")
    index.upsert("/r/Docs/a.txt", ["Invoice 1042 from ACME, reference ref00005q."])
    index.upsert("/r/Docs/b.txt", ["Invoice 2077 from Globex."])
    assert [h.path for h in index.search("1042", 5, None)] == ["/r/Docs/a.txt"]
    assert [h.path for h in index.search("ref00005q", 5, None)] == ["/r/Docs/a.txt"]
    index.close()


def test_an_index_of_an_older_format_is_emptied_at_open_for_the_repair_to_refill(tmp_path):
    path = tmp_path / "k.duckdb"
    index = KeywordIndex(path)
    index.upsert("/r/Docs/a.txt", ["Invoice 1042 from ACME."])
    index.close()
    con = duckdb.connect(str(path))
    con.execute("UPDATE meta SET value = 1.0 WHERE key = 'format'")
    con.close()
    reopened = KeywordIndex(path)
    assert reopened.chunk_counts() == {}
    reopened.close()


def test_an_index_written_before_chunk_text_was_kept_is_rebuilt_with_the_new_tables(tmp_path):
    path = tmp_path / "k.duckdb"
    con = duckdb.connect(str(path))  # the format-2 layout: no text column, no indexes
    con.execute("CREATE TABLE chunks (id BIGINT, path VARCHAR, chunk_index INTEGER, len INTEGER)")
    con.execute("CREATE TABLE meta (key VARCHAR, value DOUBLE)")
    con.execute("INSERT INTO chunks VALUES (1, '/r/old.txt', 0, 3)")
    con.execute("INSERT INTO meta VALUES ('format', 2.0)")
    con.close()
    index = KeywordIndex(path)
    assert index.chunk_counts() == {}
    index.upsert("/r/Docs/a.txt", ["Invoice 1042 from ACME."])
    hits, texts = index.search_with_text("invoice acme", 5)
    assert [h.path for h in hits] == ["/r/Docs/a.txt"] and texts[hits[0].key] == "Invoice 1042 from ACME."
    index.close()


def test_search_returns_the_text_of_each_hit_with_it(tmp_path):
    index = build(tmp_path / "k.duckdb", CORPUS)
    hits, texts = index.search_with_text("budget", 10)
    assert hits and set(texts) == {h.key for h in hits}
    for hit in hits:
        assert texts[hit.key] == CORPUS[hit.path][hit.chunk_index]
    assert index.search_with_text("zzzunknownword", 10) == ([], {})
    index.close()


def test_incremental_changes_then_refresh_equal_a_fresh_build_of_the_final_corpus(tmp_path):
    index = build(tmp_path / "inc.duckdb", CORPUS)
    index.upsert("/r/Docs/budget.txt", ["A rewritten budget file about bread."])
    index.delete("/r/Other/recipe.txt")
    index.upsert("/r/New/added.txt", ["Fresh notes on the marketing budget.", "Second chunk, running."])
    index.rename("/r/Docs", "/r/Archive")
    assert index.stale_ratio() > 0
    index.refresh_weights()
    assert index.stale_ratio() == 0

    final = {
        "/r/Archive/budget.txt": ["A rewritten budget file about bread."],
        "/r/Archive/notes.md": CORPUS["/r/Docs/notes.md"],
        "/r/DocsEvil/secret.txt": CORPUS["/r/DocsEvil/secret.txt"],
        "/r/Other/empty.txt": [""],
        "/r/New/added.txt": ["Fresh notes on the marketing budget.", "Second chunk, running."],
    }
    fresh = build(tmp_path / "fresh.duckdb", final)
    for query in QUERIES:
        incremental, rebuilt = scores(index, query), scores(fresh, query)
        assert incremental.keys() == rebuilt.keys(), query
        for key in rebuilt:
            assert incremental[key] == pytest.approx(rebuilt[key], rel=1e-5), (query, key)
    assert index.chunk_counts() == fresh.chunk_counts()
    index.close()
    fresh.close()


def test_a_changed_file_is_searchable_as_soon_as_upsert_returns(tmp_path):
    index = build(tmp_path / "k.duckdb", CORPUS)
    assert index.search("zeppelin") == []
    index.upsert("/r/Other/recipe.txt", ["Now about a zeppelin."])
    assert [h.path for h in index.search("zeppelin")] == ["/r/Other/recipe.txt"]
    assert index.search("bread") == []  # the old text is gone
    index.close()


def test_scope_is_segment_exact_so_docs_never_matches_docsevil(tmp_path):
    index = build(tmp_path / "k.duckdb", CORPUS)
    paths = {h.path for h in index.search("budget", scope="/r/Docs")}
    assert paths == {"/r/Docs/budget.txt"}
    assert {h.path for h in index.search("budget", scope="/r/DocsEvil")} == {"/r/DocsEvil/secret.txt"}
    assert {h.path for h in index.search("budget", scope="/r/Docs/budget.txt")} == {"/r/Docs/budget.txt"}
    index.close()


def test_delete_of_a_folder_removes_everything_beneath_it_and_nothing_beside_it(tmp_path):
    index = build(tmp_path / "k.duckdb", CORPUS)
    index.delete("/r/Docs")
    assert set(index.chunk_counts()) == {
        "/r/DocsEvil/secret.txt",
        "/r/Other/recipe.txt",
        "/r/Other/empty.txt",
    }
    assert [h.path for h in index.search("budget")] == ["/r/DocsEvil/secret.txt"]
    index.close()


def test_rename_of_a_folder_moves_its_files_and_leaves_a_sibling_with_the_same_prefix(tmp_path):
    index = build(tmp_path / "k.duckdb", CORPUS)
    index.rename("/r/Docs", "/r/Papers")
    counts = index.chunk_counts()
    assert counts["/r/Papers/budget.txt"] == 2 and counts["/r/Papers/notes.md"] == 1
    assert "/r/DocsEvil/secret.txt" in counts and "/r/Docs/budget.txt" not in counts
    index.close()


def test_paths_with_quotes_and_percent_signs_are_plain_data(tmp_path):
    index = KeywordIndex(tmp_path / "k.duckdb")
    odd = "/r/it's 100%_done/file'; DROP TABLE chunks;--.txt"
    index.upsert(odd, ["walrus"])
    index.upsert("/r/it's 100X_done/other.txt", ["walrus"])
    assert [h.path for h in index.search("walrus", scope="/r/it's 100%_done")] == [odd]
    index.rename(odd, odd + ".bak")
    index.delete("/r/it's 100%_done")
    assert list(index.chunk_counts()) == ["/r/it's 100X_done/other.txt"]
    index.close()


def test_the_index_survives_reopening(tmp_path):
    build(tmp_path / "k.duckdb", CORPUS).close()
    reopened = KeywordIndex(tmp_path / "k.duckdb")
    assert reopened.search("budget review")[0].path == "/r/Docs/budget.txt"
    reopened.close()


def test_searches_from_several_threads_run_while_files_are_written(tmp_path):
    index = build(tmp_path / "k.duckdb", CORPUS)
    errors: list[BaseException] = []
    done = threading.Event()

    def reader():
        try:
            while not done.is_set():
                index.search("budget")
        except BaseException as exc:  # noqa: BLE001 - reported below
            errors.append(exc)

    threads = [threading.Thread(target=reader) for _ in range(3)]
    for thread in threads:
        thread.start()
    for i in range(20):
        index.upsert(f"/r/Bulk/{i}.txt", [f"budget line {i}"])
    done.set()
    for thread in threads:
        thread.join(timeout=30)
    assert not errors
    assert len(index.search("budget", k=100)) == 23
    index.close()
