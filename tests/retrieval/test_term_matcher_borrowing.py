"""A term matcher can stem with a connection it borrows (the keyword index's, in the cold keyword peek),
so a process that has loaded the FTS extension once does not load it again (issue 30)."""

from __future__ import annotations

from engine.retrieval.keyword.index import KeywordIndex
from engine.retrieval.terms import TermMatcher


def test_a_borrowing_matcher_stems_with_the_lent_connection_and_lets_go_of_it_after(tmp_path):
    index = KeywordIndex(tmp_path / "k.duckdb")
    matcher = TermMatcher()
    with matcher.borrowing(index.stemming_connection()):
        assert matcher._con is index.stemming_connection()
        assert matcher.spans("Running budgets", frozenset({"run"})) == [(0, 7)]
    assert matcher._con is None
    index.close()
    assert matcher.spans("the runs", frozenset({"run"})) == [(4, 8)]  # its own connection from then on
    matcher.close()


def test_a_matcher_with_its_own_connection_keeps_it_while_lent_another(tmp_path):
    index = KeywordIndex(tmp_path / "k.duckdb")
    matcher = TermMatcher()
    assert matcher.query_terms("running") == {"run"}
    own = matcher._con
    with matcher.borrowing(index.stemming_connection()):
        assert matcher._con is own
    assert matcher._con is own
    matcher.close()
    index.close()
