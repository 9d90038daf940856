"""The two write paths of the keyword index (bulk SQL, and point writes planned in Python) leave the same
index: the same chunks, document frequencies, postings and, after a refresh, the same weights and results."""

from __future__ import annotations

import random

import duckdb
import numpy as np
import pytest

from engine.retrieval.keyword import index as bm25
from engine.retrieval.keyword import tokenize, writes, writing
from engine.retrieval.keyword.index import KeywordIndex
from engine.retrieval.keyword.point_tokens import Stems, term_counts
from engine.retrieval.keyword.writes import split_sql, term_counts_sql

WORDS = (
    "budget review running runners runs café zürich naïve the and of a i x T-cell vitamin K g-csf 2024 "
    "ref00042q invoice can't o'clock e-mail self-test analysis analyses analysed über straße ΔG"
).split()
QUERIES = ["budget review", "running", "cafe zurich", "vitamin k", "2024 invoice", "analysis", "uber"]


def corpus(files: int, seed: int = 7) -> dict[str, list[str]]:
    """Files of 1–4 chunks of random words and separators (ASCII and not), some empty."""
    rng = random.Random(seed)
    out: dict[str, list[str]] = {}
    for n in range(files):
        chunks = []
        for _ in range(rng.randint(1, 4)):
            words = [rng.choice(WORDS) for _ in range(rng.randint(0, 30))]
            chunks.append("".join(w + rng.choice([" ", ", ", ".\n", "\t", " - ", "/"]) for w in words))
        out[f"/r/d{n % 7}/f{n:04d}.txt"] = chunks
    return out


def snapshot(index: KeywordIndex) -> dict[str, object]:
    """Everything a write path decides, keyed by path and term (ids differ between builds)."""
    cur = index._reader()
    chunks = sorted(cur.execute("SELECT path, chunk_index, len, text FROM chunks").fetchall())
    postings = cur.execute("""
        SELECT c.path, c.chunk_index, t.term, p.tf, p.w FROM postings p
        JOIN chunks c ON c.id = p.chunk_id JOIN terms t USING (tid)""").fetchall()
    terms = {term: df for term, df in index.document_frequencies().items() if df > 0}
    return {
        "chunks": chunks,
        "tf": sorted((p, i, term, tf) for p, i, term, tf, _ in postings),
        "w": {(p, i, term): w for p, i, term, _, w in postings},
        "df": terms,
        "stats": index.stats()["chunks"],
    }


def recounted_df(index: KeywordIndex) -> dict[str, int]:
    """Document frequencies counted from the live postings (what refresh_weights would set)."""
    return dict(
        index._reader()
        .execute("""
        SELECT t.term, count(*) FROM postings p JOIN chunks c ON c.id = p.chunk_id
        JOIN terms t USING (tid) GROUP BY t.term""")
        .fetchall()
    )


def assert_refreshed_equals(index: KeywordIndex, rebuilt: KeywordIndex, queries: list[str]) -> None:
    """After refresh_weights, `index` holds the weights of `rebuilt` and finds every hit with its score
    (ties order by chunk id, which differ between builds, so hits are compared as sets with scores)."""
    index.refresh_weights()
    assert snapshot(index)["w"] == pytest.approx(snapshot(rebuilt)["w"], rel=1e-6)
    for query in queries:
        got = {h.key: h.score for h in index.search(query, 10_000)}
        assert got == pytest.approx({h.key: h.score for h in rebuilt.search(query, 10_000)}), query


def bulk_build(path, files: dict[str, list[str]], monkeypatch) -> KeywordIndex:
    """Every file in one batch through the bulk SQL path (POINT_ROWS 0 sends any batch there)."""
    index = KeywordIndex(path)
    with monkeypatch.context() as patch:
        patch.setattr(bm25, "POINT_ROWS", 0)
        index.upsert_many(files.items())
    return index


def test_bulk_and_point_writes_give_identical_postings(tmp_path, monkeypatch):
    files = corpus(120)
    bulk = bulk_build(tmp_path / "bulk.duckdb", files, monkeypatch)
    point = KeywordIndex(tmp_path / "point.duckdb")
    try:
        for path, chunks in files.items():
            point.upsert(path, chunks)
        a, b = snapshot(bulk), snapshot(point)
        assert a["chunks"] == b["chunks"] and a["tf"] == b["tf"] and a["df"] == b["df"]
        assert b["df"] == recounted_df(point)  # the df the point writes kept is the true one
        bulk.refresh_weights()
        point.refresh_weights()
        a, b = snapshot(bulk), snapshot(point)
        assert a["w"] == b["w"]
        for query in QUERIES:
            assert [(h.path, h.chunk_index, h.score) for h in bulk.search(query, 20)] == [
                (h.path, h.chunk_index, h.score) for h in point.search(query, 20)
            ]
    finally:
        bulk.close()
        point.close()


def test_one_file_update_leaves_the_same_index_as_a_full_rebuild(tmp_path, monkeypatch):
    files = corpus(150)
    updated = bulk_build(tmp_path / "updated.duckdb", files, monkeypatch)
    try:
        changed = dict(files)
        changed["/r/d1/f0001.txt"] = ["budget review of the new café in Zürich", "vitamin K, T-cell counts"]
        updated.upsert("/r/d1/f0001.txt", changed["/r/d1/f0001.txt"])  # a point write
        del changed["/r/d2/f0002.txt"]
        updated.delete("/r/d2/f0002.txt")
        changed["/r/new/brand-new.txt"] = ["xylophone quokka budget"]  # terms nobody had before
        updated.upsert("/r/new/brand-new.txt", changed["/r/new/brand-new.txt"])
        before_refresh = snapshot(updated)
        assert before_refresh["df"] == recounted_df(updated)
        rebuilt = bulk_build(tmp_path / "rebuilt.duckdb", changed, monkeypatch)
        try:
            fresh = snapshot(rebuilt)
            assert before_refresh["chunks"] == fresh["chunks"] and before_refresh["tf"] == fresh["tf"]
            assert before_refresh["df"] == fresh["df"]
            assert updated.stats()["total_len"] == rebuilt.stats()["total_len"]
            assert_refreshed_equals(updated, rebuilt, [*QUERIES, "xylophone", "quokka budget"])
        finally:
            rebuilt.close()
    finally:
        updated.close()


def test_point_writes_of_quotes_and_nuls_in_path_and_text_leave_what_a_rebuild_holds(tmp_path, monkeypatch):
    # a one-file update writes the path into its DELETE as a SQL literal, not a bound parameter
    quoted = "/r/d0/O'Brien's ''notes''.txt"
    files = {**corpus(20), quoted: ["budget review", "vitamin k"], "/r/d0/O.txt": ["budget"]}
    updated = bulk_build(tmp_path / "updated.duckdb", files, monkeypatch)
    try:
        # the new chunks' text goes into the INSERT as literals too (quotes; a NUL keeps them on Arrow)
        changed = {**files, quoted: ["running analysis of the 'quoted' 2024 invoice", "it''s 'notes'"]}
        changed["/r/d0/nul.txt"] = ["budget\x00review", "vitamin"]
        updated.upsert("/r/d0/nul.txt", changed["/r/d0/nul.txt"])
        updated.upsert(quoted, changed[quoted])  # a point write
        rebuilt = bulk_build(tmp_path / "rebuilt.duckdb", changed, monkeypatch)
        try:
            got, fresh = snapshot(updated), snapshot(rebuilt)
            assert got["chunks"] == fresh["chunks"] and got["tf"] == fresh["tf"] and got["df"] == fresh["df"]
            assert_refreshed_equals(updated, rebuilt, [*QUERIES, "notes", "budget\x00review", "vitamin"])
        finally:
            rebuilt.close()
    finally:
        updated.close()


def test_a_point_write_stores_its_postings_sorted_by_term_then_chunk(tmp_path):
    index = KeywordIndex(tmp_path / "k.duckdb")
    try:
        index.upsert("/r/a.txt", ["zebra apple mango", "apple zebra kiwi", "kiwi apple"])
        rows = index._reader().execute("SELECT tid, chunk_id FROM postings").fetchall()
        assert len(rows) == 8 and rows == sorted(rows)
    finally:
        index.close()


def test_a_point_write_after_a_bulk_one_sees_the_terms_the_bulk_one_added(tmp_path, monkeypatch):
    index = KeywordIndex(tmp_path / "k.duckdb")
    try:
        index.upsert("/r/first.txt", ["apple"])  # a point write: the term dictionary is loaded now
        with monkeypatch.context() as patch:
            patch.setattr(bm25, "POINT_ROWS", 0)
            index.upsert_many([("/r/a.txt", ["zebra apple"])])  # bulk SQL adds "zebra"
        index.upsert("/r/b.txt", ["zebra"])  # must reuse the bulk write's id for "zebra", not add another
        assert dict(index._reader().execute("SELECT term, count(*) FROM terms GROUP BY term").fetchall()) == {
            "zebra": 1,
            "appl": 1,
        }
        assert recounted_df(index) == {"zebra": 2, "appl": 2}
        assert {h.path for h in index.search("zebra")} == {"/r/a.txt", "/r/b.txt"}
    finally:
        index.close()


def test_python_term_counts_equal_the_sql_pipeline_on_awkward_text():
    texts = [
        "Hello, WORLD! it's 2024-01-05 — the café's ref00042q.",
        "tab\tseparated\vvertical\x0cform\x1cfile-sep\rreturn\nnew line",
        'a I x T-cell vitamin K: G-CSF/N-terminal (plan B) ~tilde~ back\\slash pipe|quote"`tick`',
        "",
        "   ",
        "Straße über naïve ΔG façade",  # not ASCII: lower-cased and accent-stripped by DuckDB itself
        "İstanbul ΣΊΣΥΦΟΣ ǅungla ﬁne café́ été nbsp joined thin space",
        "emoji 🧪 mixed—dash «quotes» β-blocker TNF-α IL-1β 10µm Ω-3 ½ ² Ⅻ",
        "Ǆ ǆ ß ẞ ﬀ ﬃ Ⓐ ＡＢＣ fullwidth ｄｉｇｉｔ ١٢٣ arabic-indic",
        "running runners runs ran analyses analysed; e-mail e_mail e.mail",
    ]
    con = duckdb.connect()
    tokenize.install(con)
    import pyarrow as pa

    con.register("t", pa.table({"id": list(range(len(texts))), "text": texts}))
    expected: list[dict[str, int]] = [{} for _ in texts]
    for i, term, tf in con.execute(term_counts_sql("t")).fetchall():
        expected[i][term] = tf
    stems = Stems()
    assert [dict(c) for c in term_counts(con, texts, stems)] == expected
    assert [dict(c) for c in term_counts(con, texts, stems)] == expected  # warm: stems remembered
    con.close()


def test_the_one_pass_split_gives_the_tokens_of_the_extension_pipeline():
    texts = [
        "tab\tsep\vvertical\x0cform\x1cfs\rcr\nnl  two  spaces",
        "a-b_c.d,e;f:g!h?i'j\"k`l~m/n\\o|p[q]r{s}t(u)v<w>x=y+z*1&2^3%4$5#6@7",
        "Café ÉLAN naïve — “quoted” ΔG 2024-01-05",
        "",
        " \t\n ",
        "İstanbul ΣΊΣΥΦΟΣ ǅungla ﬁne café́ été nbsp joined thin space",
        "emoji 🧪 mixed—dash «quotes» β-blocker TNF-α IL-1β 10µm Ω-3 ½ ² Ⅻ",
        "Ǆ ǆ ß ẞ ﬀ ﬃ Ⓐ ＡＢＣ fullwidth ｄｉｇｉｔ ١٢٣ arabic-indic",
        "''quoted'' ,,, ... -- __ ||| \\\\ runs--of--separators",
    ]
    con = duckdb.connect()
    con.execute("CREATE TABLE t (i INTEGER, text VARCHAR)")
    con.executemany("INSERT INTO t VALUES (?, ?)", list(enumerate(texts)))
    for i, _ in enumerate(texts):
        ours, theirs = con.execute(
            f"SELECT list_filter({split_sql('text')}, x -> len(x) > 0), "
            f"list_filter({tokenize.tokenize_sql('text')}, x -> len(x) > 0) FROM t WHERE i = ?",
            [i],
        ).fetchone()
        assert ours == theirs, texts[i]
    con.close()


def test_a_write_that_changes_more_terms_than_the_bound_makes_the_postings_cache_forget_every_term(
    tmp_path, monkeypatch
):
    monkeypatch.setattr(writing, "FORGET_ALL_TERMS", 2)
    index = KeywordIndex(tmp_path / "k.duckdb")
    index.upsert("/r/a.txt", ["walrus"])
    index.upsert("/r/b.txt", ["otter"])
    index.search("walrus")  # cached now
    (walrus,) = index.query_terms("walrus").tids
    assert walrus in index._postings.get_many([walrus])
    index.upsert("/r/b.txt", ["otter seal"])  # two terms: told one by one, the walrus stays
    assert walrus in index._postings.get_many([walrus])
    index.upsert("/r/c.txt", ["heron egret ibis"])  # three: every term is forgotten
    assert index._postings.get_many([walrus]) == {}
    assert [h.path for h in index.search("walrus")] == ["/r/a.txt"]
    index.close()


AWKWARD = [
    "Hello, WORLD! it's 2024-01-05 — the café's ref00042q.",
    "tab\tseparated\vvertical\x0cform\x1cfile-sep\rreturn\nnew line",
    'a I x T-cell vitamin K: G-CSF/N-terminal (plan B) ~tilde~ back\\slash pipe|quote"`tick`',
    "",
    "   ",
    "ends-with-a-word",
    "starts the next chunk",  # a word at a chunk's end and one at the next chunk's start stay two words
    "Straße über naïve ΔG façade",
    "İstanbul ΣΊΣΥΦΟΣ ǅungla ﬁne café́ été nbsp joined thin space Kelvin",
    "emoji 🧪 mixed—dash «quotes» β-blocker TNF-α IL-1β 10µm Ω-3 ½ ² Ⅻ",
    "Ǆ ǆ ß ẞ ﬀ ﬃ Ⓐ ＡＢＣ fullwidth ｄｉｇｉｔ ١٢３ arabic-indic",
    "nul\x00inside a\x00b and DEL\x7f too",
    "''quoted'' ,,, ... -- __ ||| \\\\ runs--of--separators",
    "running runners runs ran analyses analysed; e-mail e_mail e.mail",
    "x",
    "lone \u0301 marks \u0308\u0301 fold to nothing, e\u0301 to e",
]
# which texts of AWKWARD a batch holds: all (a NUL: the texts are folded whole before the split), none with
# a NUL (each word that is not ASCII folded alone), and those plus U+037E, which folds to ';' (whole again)
TEXT_SETS = {
    "all": AWKWARD,
    "no NUL": [t for t in AWKWARD if "\x00" not in t],
    "Greek question mark": [t for t in AWKWARD if "\x00" not in t] + ["why\u037eso é\u037e"],
}


@pytest.mark.parametrize("slice_rows", [4_096, 4])  # one slice; split in slices on several threads
@pytest.mark.parametrize("block_bytes", [1 << 20, 1, 40])  # one block; a chunk each; cut between chunks
@pytest.mark.parametrize("text_set", list(TEXT_SETS))
def test_a_staged_bulk_batch_counts_the_terms_the_sql_pipeline_counts_on_awkward_text(
    slice_rows, block_bytes, text_set, monkeypatch
):
    from collections import Counter

    import pyarrow as pa

    from engine.retrieval.keyword import batch as keyword_batch
    from engine.retrieval.keyword import batch_words

    monkeypatch.setattr(keyword_batch, "SLICE_ROWS", slice_rows)
    monkeypatch.setattr(batch_words, "BLOCK_BYTES", block_bytes)
    monkeypatch.setattr(keyword_batch, "SORT_ROWS", slice_rows)
    monkeypatch.setattr(keyword_batch.os, "cpu_count", lambda: 3)

    awkward = TEXT_SETS[text_set]
    texts = awkward + [t.upper() for t in awkward] + ["".join(awkward)]
    con = duckdb.connect()
    tokenize.install(con)
    con.register("t", pa.table({"id": list(range(len(texts))), "text": texts}))
    expected = sorted(con.execute(term_counts_sql("t")).fetchall())
    incoming = pa.table({"path": ["/p"] * len(texts), "chunk_index": list(range(len(texts))), "text": texts})
    batch = keyword_batch.stage(con, incoming)
    terms = [batch.terms[t] for t in batch.word_term.tolist()]
    counts = Counter(zip(batch.word_chunk.tolist(), terms, strict=True))
    assert sorted((c, term, tf) for (c, term), tf in counts.items()) == expected
    term_ids = np.arange(len(batch.terms)) * 3 + 1  # the ids a store would give them
    tid, chunk, tf = batch.postings(term_ids)
    pairs = list(zip(tid.tolist(), chunk.tolist(), strict=True))
    assert pairs == sorted(pairs)
    by_id = {int(i): batch.terms[n] for n, i in enumerate(term_ids.tolist())}
    postings = zip(chunk.tolist(), (by_id[t] for t in tid.tolist()), tf.tolist(), strict=True)
    assert sorted(postings) == expected
    lengths = dict(
        con.execute(f"SELECT chunk_id, sum(tf) FROM ({term_counts_sql('t')}) GROUP BY chunk_id").fetchall()
    )
    assert batch.lengths.tolist() == [lengths.get(i, 0) for i in range(len(texts))]
    con.close()


def test_a_bulk_batch_weights_every_posting_as_weight_sql_does(tmp_path, monkeypatch):
    files = corpus(150, seed=31)
    index = bulk_build(tmp_path / "k.duckdb", files, monkeypatch)
    try:
        n, avgdl = writes.corpus_stats(index._reader())
        differ = (
            index._reader()
            .execute(f"""
            SELECT count(*) FROM postings p JOIN chunks c ON c.id = p.chunk_id JOIN terms t USING (tid)
            WHERE p.w <> {writes.weight_sql("p.tf", "c.len", "t.df", n, avgdl)}""")
            .fetchone()
        )
        assert differ == (0,)
        assert index._reader().execute("SELECT count(*) FROM postings").fetchone()[0] > 1000
    finally:
        index.close()
