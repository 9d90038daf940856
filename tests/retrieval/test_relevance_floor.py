"""The relevance floor: nonsense finds nothing, real queries keep their hits, calibration is a quantile."""

from __future__ import annotations

import pytest

from engine.indexing.embed import HashingEmbedder
from engine.retrieval import relevance
from engine.retrieval.bm25 import KeywordIndex
from engine.retrieval.hybrid import HybridSearch
from engine.retrieval.vectors import VectorIndex
from tests.retrieval.helpers import filled_stores

TEXTS = {
    "/r/budget.txt": ["The quarterly budget review for the marketing team, with travel costs."],
    "/r/bread.md": ["Sourdough bread: flour, water, salt, and a long slow rise."],
    "/r/zebra.txt": ["Zebras graze on the savanna in large herds."],
    "/r/tcell.txt": ["T cell activation after vaccination with the adjuvant."],
    "/r/lease.txt": ["Rental agreement renewal for the flat on Baker Street, signed in March."],
}


FLOOR = 0.25


@pytest.fixture
def search(tmp_path):
    embedder = HashingEmbedder(64)
    keywords, vectors = filled_stores(tmp_path, TEXTS, embedder)
    # a floor on calibrated fusion's scale; the engine's own is calibrated for the real model by
    # bench/quality.py --calibrate-floor (the hashing embedder's cosines are not that model's)
    yield HybridSearch(
        keywords, vectors, embedder, exists=lambda _path: True, fusion="calibrated", floor=FLOOR
    )
    keywords.close()


@pytest.mark.parametrize("query", ["qwxzv plorkt", "zzkrbl", "vlorp snark quibbet mumblefrotz", "xq jv"])
def test_nonsense_finds_no_matches(search, query):
    assert search.search(query) == []


@pytest.mark.parametrize(
    ("query", "path"),
    [
        ("sourdough bread", "/r/bread.md"),
        ("quarterly budget review", "/r/budget.txt"),
        ("T cell vaccination", "/r/tcell.txt"),
        ("rental agreement renewal", "/r/lease.txt"),
    ],
)
def test_a_real_query_keeps_its_hit(search, query, path):
    assert search.search(query)[0].path == path


def test_without_the_floor_the_same_nonsense_gets_results(search):
    search.floor = 0.0
    assert search.search("qwxzv plorkt")  # the dense arm always answers something


def test_the_floor_applies_to_the_model_it_was_calibrated_with_and_no_other(tmp_path):
    assert relevance.floor_for(relevance.RELEVANCE_FLOOR_MODEL) == relevance.RELEVANCE_FLOOR
    assert relevance.floor_for("sentence-transformers/" + relevance.RELEVANCE_FLOOR_MODEL) == (
        relevance.RELEVANCE_FLOOR
    )
    assert relevance.floor_for("hashing-64") == 0.0
    assert relevance.floor_for("BAAI/bge-small-en-v1.5") == 0.0
    keywords = KeywordIndex(tmp_path / "k.duckdb")
    vectors = VectorIndex(tmp_path / "vectors", 64)
    assert HybridSearch(keywords, vectors, HashingEmbedder(64), fusion="calibrated").floor == 0.0
    assert HybridSearch(keywords, vectors, HashingEmbedder(64), fusion="rrf", floor=None).floor == 0.0
    keywords.close()


def test_calibration_cuts_at_most_the_chosen_share_of_the_weakest_relevant_scores():
    scores = [i / 1000 for i in range(1000)]
    floor = relevance.calibrate(scores, 0.01)
    assert sum(s < floor for s in scores) == 10
    assert relevance.calibrate([0.4], 0.01) == 0.4
    assert relevance.calibrate([], 0.01) == 0.0


def test_above_floor_keeps_the_scores_that_reach_it_in_order():
    ranked = [("a", 0.9), ("b", 0.3), ("c", 0.29), ("d", 0.1)]
    assert relevance.above_floor(ranked, 0.3) == [("a", 0.9), ("b", 0.3)]


def test_a_query_whose_best_hit_is_below_the_floor_has_no_matches_whatever_the_margin():
    assert relevance.above_floor([("a", 0.29), ("b", 0.28)], 0.3, margin=0.5) == []
    assert relevance.above_floor([], 0.3, margin=0.5) == []


def test_hits_within_the_margin_of_the_best_stay_even_below_the_floor():
    weak_but_real = [("a", 0.34), ("b", 0.31), ("c", 0.26), ("d", 0.2)]
    assert relevance.above_floor(weak_but_real, 0.3, margin=0.1) == [("a", 0.34), ("b", 0.31), ("c", 0.26)]
    assert relevance.above_floor(weak_but_real, 0.3, margin=0.0) == [("a", 0.34), ("b", 0.31)]
    strong = [("a", 0.9), ("b", 0.5), ("c", 0.29)]  # far above the floor: the floor cuts its tail
    assert relevance.above_floor(strong, 0.3, margin=0.1) == [("a", 0.9), ("b", 0.5)]


def test_the_margin_holds_all_but_the_chosen_share_of_the_gaps():
    gaps = [i / 1000 for i in range(1000)]
    margin = relevance.calibrate_margin(gaps, 0.01)
    assert sum(g > margin for g in gaps) == 10
    assert relevance.calibrate_margin([0.2], 0.01) == 0.2
    assert relevance.calibrate_margin([], 0.01) == 0.0
