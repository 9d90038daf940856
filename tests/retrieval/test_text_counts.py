"""An edit's removed text is counted from the memo of texts written lately (text_counts.py), never wrongly."""

from __future__ import annotations

import random
from collections import Counter

import duckdb

from engine.retrieval.keyword import tokenize
from engine.retrieval.keyword.index import KeywordIndex
from engine.retrieval.keyword.point_tokens import Stems
from engine.retrieval.keyword.text_counts import Counted, TextCounts
from tests.retrieval.test_keyword_writes import QUERIES, assert_refreshed_equals, bulk_build, corpus, snapshot


def test_an_edit_does_not_tokenise_again_the_text_the_previous_write_wrote(tmp_path, monkeypatch):
    index = KeywordIndex(tmp_path / "k.duckdb")
    try:
        index.upsert("/r/notes.txt", ["budget review for march", "the harbour meeting", "orchard travel"])
        split: list[str] = []
        ascii_words = tokenize.ascii_words
        monkeypatch.setattr(tokenize, "ascii_words", lambda text: split.append(text) or ascii_words(text))
        index.upsert("/r/notes.txt", ["budget review for march", "the harbour meeting moved", "orchard"])
        assert split == ["the harbour meeting moved", "orchard"]  # the new texts only
    finally:
        index.close()


def test_texts_that_move_between_files_and_come_back_leave_what_a_fresh_build_holds(tmp_path, monkeypatch):
    """The same texts written at other paths and places, edits undone, a file emptied and refilled: the
    memo is keyed by text, so whatever was written where, each removal lowers exactly its text's terms."""
    rng = random.Random(5)
    pool = [chunk for chunks in corpus(30, seed=9).values() for chunk in chunks]
    live: dict[str, list[str]] = {}
    index = KeywordIndex(tmp_path / "live.duckdb")
    try:
        for step in range(80):
            path = f"/r/f{rng.randrange(6)}.txt"
            if step % 9 == 8 and path in live:
                index.delete(path)
                del live[path]
                continue
            chunks = live.get(path, [])[:]
            if chunks and rng.random() < 0.5:
                chunks[rng.randrange(len(chunks))] = rng.choice(pool)  # one chunk edited
            else:
                chunks = rng.sample(pool[:12], rng.randint(0, 4))  # a few texts, often seen before
            index.upsert(path, chunks)
            live[path] = chunks
        rebuilt = bulk_build(tmp_path / "rebuilt.duckdb", live, monkeypatch)
        try:
            a, b = snapshot(index), snapshot(rebuilt)
            assert a["chunks"] == b["chunks"] and a["tf"] == b["tf"]
            assert a["df"] == b["df"] and a["stats"] == b["stats"]
            assert_refreshed_equals(index, rebuilt, QUERIES)
        finally:
            rebuilt.close()
    finally:
        index.close()


def test_written_texts_past_the_limit_are_forgotten_oldest_first():
    memo = TextCounts(kept=2)
    remembered = Counted.of(Counter({"remembered": 1}))  # not what counting gives: shows where it came from
    memo.keep(["alpha", "beta", "gamma"], [remembered] * 3)
    got = memo.of(duckdb.connect(), ["alpha", "beta", "gamma"], Stems())
    assert [text.counts for text in got] == [Counter({"alpha": 1}), remembered.counts, remembered.counts]


def test_a_text_written_again_after_a_refresh_dropped_its_term_gets_the_term_s_new_id(tmp_path, monkeypatch):
    """The refresh drops a term no live chunk holds; written again, the term gets a new id. The memo kept
    the text's ids from before the refresh: they belong to an older dictionary and must not be used."""
    index = KeywordIndex(tmp_path / "k.duckdb")
    try:
        index.upsert("/r/a.txt", ["zebra crossing budget"])
        index.upsert("/r/a.txt", ["budget only"])  # zebra and crossing: df 0
        index.refresh_weights()  # ... and gone from `terms`
        index.upsert("/r/b.txt", ["zebra crossing budget"])  # remembered, with the ids from before
        assert [hit.key for hit in index.search("zebra", 10)] == [("/r/b.txt", 0)]
        live = {"/r/a.txt": ["budget only"], "/r/b.txt": ["zebra crossing budget"]}
        rebuilt = bulk_build(tmp_path / "rebuilt.duckdb", live, monkeypatch)
        try:
            a, b = snapshot(index), snapshot(rebuilt)
            assert a["tf"] == b["tf"] and a["df"] == b["df"]
        finally:
            rebuilt.close()
    finally:
        index.close()
