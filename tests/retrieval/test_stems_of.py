"""Stems.of gives DuckDB's own stem of every word whether the words go into its statement as a literal
(a few: a search's snippets, a small write) or as an Arrow table (many), awkward characters included."""

from __future__ import annotations

import duckdb
import pytest

from engine.resources import fts_extension_path
from engine.retrieval.keyword import point_tokens, tokenize
from engine.retrieval.keyword.point_tokens import Stems

AWKWARD = ["it's", "o''neil", "café", "naïve", "über", "a\\b", "50%", "x_y", "relational", "hopping", "ſt"]
WORDS = AWKWARD + [
    f"{base}{ending}" for base in ("condit", "valen", "formal") for ending in ("ion", "ing", "s")
]


@pytest.fixture
def cur():
    con = duckdb.connect()
    con.execute(f"LOAD '{fts_extension_path()}'")
    yield con
    con.close()


def one_by_one(cur, words):
    return {w: cur.execute(f"SELECT stem(?, '{tokenize.STEMMER}')", [w]).fetchone()[0] for w in words}


@pytest.mark.parametrize("literal_words", [point_tokens.LITERAL_WORDS, 0])
def test_stems_of_equals_duckdbs_stem_word_by_word(cur, monkeypatch, literal_words):
    monkeypatch.setattr(point_tokens, "LITERAL_WORDS", literal_words)  # 0: every word goes as Arrow
    stems = Stems()
    assert stems.of(cur, set(WORDS)) == one_by_one(cur, WORDS)
    assert stems.known(WORDS) == one_by_one(cur, WORDS)  # and remembered
