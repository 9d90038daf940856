"""Stems.of gives DuckDB's own stem of every word (the FTS extension's `stem`, which the bulk writes and
the non-ASCII lookups still use): awkward characters, every rewriting rule of the Porter stemmer, and
the words of real text (the standard library's sources), without asking DuckDB."""

from __future__ import annotations

import sysconfig
from itertools import islice
from pathlib import Path

import duckdb
import pyarrow as pa
import pytest

from engine.resources import fts_extension_path
from engine.retrieval.keyword import tokenize
from engine.retrieval.keyword.point_tokens import Stems
from tests.retrieval.test_stem_memo import BASES, SUFFIXES

AWKWARD = ["it's", "o''neil", "café", "naïve", "über", "a\\b", "50%", "x_y", "relational", "hopping", "ſt"]
ODD = ["", "a", "s", "ss", "sses", "y", "yy", "\x00", "a\x00b", "ing", "ed", "ΣΊΣΥΦΟΣ", "ﬁne", "x" * 300]
WORDS = AWKWARD + [
    f"{base}{ending}" for base in ("condit", "valen", "formal") for ending in ("ion", "ing", "s")
]
REAL_WORDS = 20_000  # distinct words of the standard library's sources, in its files' sorted order


@pytest.fixture
def cur():
    con = duckdb.connect()
    con.execute(f"LOAD '{fts_extension_path()}'")
    yield con
    con.close()


def duckdb_stems(cur, words):
    words_table = pa.table({"w": pa.array(list(words), pa.string())})  # noqa: F841 (read by name)
    return dict(cur.execute(f"SELECT w, stem(w, '{tokenize.STEMMER}') FROM words_table").fetchall())


def one_by_one(cur, words):
    return {w: cur.execute(f"SELECT stem(?, '{tokenize.STEMMER}')", [w]).fetchone()[0] for w in words}


def real_words(limit: int) -> set[str]:
    words: set[str] = set()
    files = sorted(Path(sysconfig.get_paths()["stdlib"]).rglob("*.py"))
    for path in islice((p for p in files if "site-packages" not in p.parts), 2000):
        words.update(tokenize.normalized_words(path.read_text("utf-8", "replace").lower()))
        if len(words) >= limit:
            break
    return words


def test_stems_of_equals_duckdbs_stem_word_by_word(cur):
    stems = Stems()
    assert stems.of(set(WORDS)) == one_by_one(cur, WORDS)
    assert stems.known(WORDS) == one_by_one(cur, WORDS)  # and remembered


def test_stems_of_equals_duckdbs_stem_on_odd_words(cur):
    assert Stems().of(set(ODD)) == duckdb_stems(cur, ODD)


def test_stems_of_equals_duckdbs_stem_on_every_porter_rule(cur):
    words = {base + suffix for base in BASES for suffix in SUFFIXES}
    assert Stems().of(words) == duckdb_stems(cur, words)


def test_stems_of_equals_duckdbs_stem_on_the_words_of_real_text(cur):
    words = real_words(REAL_WORDS)
    assert len(words) >= REAL_WORDS
    ours = Stems().of(words)
    theirs = duckdb_stems(cur, words)
    assert {w for w in words if ours[w] != theirs[w]} == set()
