"""One word → stem memo serves the keyword arm's query words, the snippets and small writes, and a snippet
stems only the words that can be one of the query's terms."""

from __future__ import annotations

import pytest

from engine.retrieval import terms as terms_module
from engine.retrieval.keyword import tokenize
from engine.retrieval.keyword.index import KeywordIndex
from engine.retrieval.keyword.point_tokens import Stems, shared_stems
from engine.retrieval.keyword.query_words import TermLookup
from engine.retrieval.terms import TermMatcher

# Stems the Porter stemmer rewrites (not only cuts): -ational → -ate, -enci → -ence, -biliti → -ble,
# -y → -i, -at → -ate, ... on stems that end in the letters those rules look at.
BASES = [
    "relat",
    "condit",
    "valen",
    "hop",
    "fil",
    "sensib",
    "conflat",
    "general",
    "digit",
    "formal",
    "happ",
    "probab",
    "mobil",
    "control",
    "roll",
    "agree",
    "feed",
    "motor",
    "sky",
    "cr",
    "tr",
]
SUFFIXES = ["", "e", "s", "es", "ies", "sses", "y", "ly", "ed", "ing", "eed", "ational", "tional", "enci",
            "anci", "izer", "abli", "bli", "alli", "entli", "eli", "ousli", "ization", "ation", "ator",
            "alism", "iveness", "fulness", "ousness", "aliti", "iviti", "biliti", "logi", "icate", "ative",
            "alize", "iciti", "ical", "ful", "ness", "ement", "ment", "ent", "ism", "ate", "iti", "ous",
            "ive", "ize", "able", "ible", "ant", "ence", "ance", "er", "ic", "ion", "ll", "ated", "izing",
            "ably", "ities", "ieses", "ying"]  # fmt: skip


@pytest.fixture
def matcher():
    made = TermMatcher()
    yield made
    made.close()


def test_every_word_that_stems_to_a_term_is_a_candidate_of_that_term(matcher):
    words = [base + suffix for base in BASES for suffix in SUFFIXES]
    stems = {word: found.stem for word, found in matcher._lookup(words).items()}
    for term in set(stems.values()) - {""}:
        text = " ".join(w.upper() if i % 3 == 0 else w for i, w in enumerate(words))
        candidates = {m.group().lower() for m in terms_module._candidates(frozenset({term})).finditer(text)}
        assert {w for w in words if stems[w] == term} <= candidates, term


def test_the_snippets_reuse_the_stems_of_the_querys_own_words(tmp_path, matcher, monkeypatch):
    index = KeywordIndex(tmp_path / "k.duckdb")
    index.upsert_many([("/r/a.txt", ["Zorbliness of the quarterly Wumpuses"])])
    answer = index.answer("zorbliness wumpuses", 5)
    index.close()
    assert shared_stems().known({"zorbliness", "wumpuses"}) == {"zorbliness": "zorbli", "wumpuses": "wumpus"}
    statements: list[int] = []
    real = matcher._connection
    monkeypatch.setattr(matcher, "_connection", lambda: statements.append(1) or real())
    matcher.learn(answer.texts.values(), answer.terms.terms)
    spans = matcher.matches("Zorbliness of the quarterly Wumpuses", answer.terms.terms)
    assert statements == []  # both words were stemmed once, for the keyword arm
    assert spans == [(0, 10, "zorbli"), (28, 36, "wumpus")]


def test_a_query_lookup_keeps_its_stems_in_the_memo_it_was_given(tmp_path):
    index = KeywordIndex(tmp_path / "k.duckdb")
    index.upsert_many([("/r/a.txt", ["running budgets"])])
    memo = Stems()
    terms = TermLookup(memo).query_terms(index._reader(), "Running budgets", 0)
    index.close()
    assert terms is not None and terms.terms == {"run", "budget"}
    assert memo.known({"running", "budgets", "other"}) == {"running": "run", "budgets": "budget"}


NOT_ASCII = ["Àbout", "ÁND", "Thé", "naïve", "Cafés", "ſt", "ﬁne", "ΣΊΣΥΦΟΣ", "İstanbul", "Straße",
             "ǅungla", "\u0301", "é\u0301", "Ωmega", "RÉSUMÉS", "hopping—running", "“quoted”", "ＡＢＣ",
             "١٢٣"]  # fmt: skip


def test_a_word_that_is_not_ascii_is_folded_by_duckdb_and_stemmed_as_the_extension_stems_it(matcher):
    """The non-ASCII lookup folds in DuckDB and stems and checks the stop list in Python: the same stem and
    stop flag as folding, stemming and the stop list all in DuckDB's SQL."""
    con = matcher._connection()
    expected = {
        w: (stem or "", bool(stop))
        for w, stem, stop in con.execute(
            f"""SELECT w, stem(n, '{tokenize.STEMMER}'), n IN (SELECT sw FROM stopwords) OR len(n) = 0
                FROM (SELECT w, lower(strip_accents(w)) AS n FROM (SELECT unnest($words) AS w))""",
            {"words": NOT_ASCII},
        ).fetchall()
    }
    assert {w: (found.stem, found.stop) for w, found in matcher._lookup(NOT_ASCII).items()} == expected
    assert expected["Àbout"] == ("about", True) and expected["Cafés"] == ("cafe", False)
