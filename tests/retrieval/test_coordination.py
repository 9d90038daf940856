"""Coordination: when the keyword arm's best hit is a coincidence (part of the query, and the dense arm finds
it unrelated), a chunk earns the keyword score in proportion to the share of the query it holds, so a
paraphrase's dense answer is not buried under a partial word match (issue 28)."""

from __future__ import annotations

import numpy as np

from engine.retrieval import coordination as coordination_module
from engine.retrieval import relevance
from engine.retrieval.coordination import coincidental, coordinated, share_held
from engine.retrieval.fusion import Hit
from engine.retrieval.hybrid import HybridSearch
from engine.retrieval.terms import shared_matcher
from tests.retrieval.helpers import filled_stores

REPORT = "/r/Work/q3-report.txt"
LEASE = "/r/Housing/lease.txt"
TEXTS = {
    REPORT: ["Q3 report: a supplier contract ends in December; we expect a flat fourth quarter. Flat sales."],
    LEASE: ["Tenancy agreement for the apartment on Elm Road, rent due on the first of the month."],
    "/r/Recipes/soup.md": ["Leek soup: leeks, potatoes, stock; simmer and blend."],
}
QUERY = "contract for the flat I live in"  # a paraphrase of the lease: no word of it is in the lease


class MeaningEmbedder:
    """A fake model that knows the lease means the query: both on one axis, everything else elsewhere."""

    name = "meaning-fake"
    dim = 3

    def embed(self, texts: list[str]) -> np.ndarray:
        out = np.zeros((len(texts), 3), dtype=np.float32)
        for row, text in enumerate(texts):
            if "Tenancy" in text:
                out[row] = (1.0, 0.0, 2.5)  # the lease: a cosine of 0.55 with the query
            elif text == QUERY:
                out[row] = (1.0, 0.0, 0.2)
            else:
                out[row] = (0.0, 1.0, 0.1) if "report" in text else (0.0, 0.0, 1.0)
        return out


def test_a_chunk_holding_part_of_the_query_holds_that_share_of_its_terms():
    matcher = shared_matcher()
    terms = matcher.query_terms(QUERY)  # contract, flat, live
    assert share_held(TEXTS[REPORT][0], terms, matcher) == 2 / 3
    assert share_held("We live in a flat under contract.", terms, matcher) == 1.0


def test_a_partial_match_the_dense_arm_finds_unrelated_is_a_coincidence_and_a_related_one_is_not():
    matcher = shared_matcher()
    terms = matcher.query_terms(QUERY)
    hits = [Hit(REPORT, 0, 5.0)]
    texts = {(REPORT, 0): TEXTS[REPORT][0]}
    assert coincidental(hits, texts, terms, [Hit(LEASE, 0, 0.6)], related=0.3, matcher=matcher)
    assert not coincidental(hits, texts, terms, [Hit(REPORT, 0, 0.6)], related=0.3, matcher=matcher)
    whole = {(REPORT, 0): "We live in a flat under contract."}
    assert not coincidental(hits, whole, terms, [Hit(LEASE, 0, 0.6)], related=0.3, matcher=matcher)


def test_coordination_ranks_the_chunk_holding_the_whole_query_first_and_leaves_one_word_queries_alone():
    matcher = shared_matcher()
    terms = matcher.query_terms(QUERY)
    texts = {
        (REPORT, 0): "flat flat flat contract contract",
        ("/r/b", 0): "We live in a flat under contract.",
    }
    hits = [Hit(REPORT, 0, 6.0), Hit("/r/b", 0, 4.0)]
    assert [h.path for h in coordinated(hits, texts, terms, power=2.0, matcher=matcher)] == ["/r/b", REPORT]
    assert coordinated(hits, texts, terms, power=0.0, matcher=matcher) == hits
    one = matcher.query_terms("flat")
    assert coordinated(hits, texts, one, power=2.0, matcher=matcher) == hits


def test_the_best_hits_share_worked_out_ahead_is_the_one_coincidental_reads(monkeypatch):
    matcher = shared_matcher()
    terms = matcher.query_terms("monthly supplier ledger")
    hits = [Hit(REPORT, 0, 5.0)]
    texts = {(REPORT, 0): "The supplier ledger, closed in a Q3 quarter."}
    coordination_module.ahead(hits, texts, terms)  # while the vector search runs
    asked = []
    monkeypatch.setattr(coordination_module, "share_held", lambda *args: asked.append(args) or 1.0)
    assert coincidental(hits, texts, terms, [Hit(LEASE, 0, 0.6)], related=0.3, matcher=matcher)
    assert asked == []  # the kept share (2 of 3 terms), not a second look at the text


def _search(tmp_path, coordination: float) -> HybridSearch:
    embedder = MeaningEmbedder()
    keywords, vectors = filled_stores(tmp_path, TEXTS, embedder)  # type: ignore[arg-type]
    floor = relevance.Floor(lexical=0.3, semantic=0.5, margin=0.2, folder=1.0)
    return HybridSearch(
        keywords,
        vectors,
        embedder,  # type: ignore[arg-type]
        exists=lambda _path: True,
        floor=floor,
        coordination=coordination,
        weights=(0.8, 0.2),  # a keyword-heavy fusion, where the coincidence outranks the meaning
    )


def test_a_paraphrase_finds_its_file_above_a_partial_word_match(tmp_path):
    search = _search(tmp_path / "on", coordination=2.0)
    assert search.search(QUERY)[0].path == LEASE
    search.keywords.close()


def test_without_coordination_the_partial_word_match_buries_the_paraphrase(tmp_path):
    search = _search(tmp_path / "off", coordination=0.0)
    assert search.search(QUERY)[0].path == REPORT  # what bench/meaning_misses.py found on main
    search.keywords.close()
