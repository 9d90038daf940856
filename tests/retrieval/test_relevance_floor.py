"""The relevance floor: nonsense finds nothing, real queries keep their hits, calibration is a quantile."""

from __future__ import annotations

import pytest

from engine.embed import HashingEmbedder
from engine.retrieval import relevance
from engine.retrieval.hybrid import HybridSearch
from engine.retrieval.keyword.index import KeywordIndex
from engine.retrieval.vectors import VectorIndex
from tests.retrieval.helpers import filled_stores

TEXTS = {
    "/r/budget.txt": ["The quarterly budget review for the marketing team, with travel costs."],
    "/r/bread.md": ["Sourdough bread: flour, water, salt, and a long slow rise."],
    "/r/zebra.txt": ["Zebras graze on the savanna in large herds."],
    "/r/tcell.txt": ["T cell activation after vaccination with the adjuvant."],
    "/r/lease.txt": ["Rental agreement renewal for the flat on Baker Street, signed in March."],
}


# evidence thresholds for the hashing embedder (word-feature cosines); the engine's own are calibrated for
# the real model by bench/quality.py --calibrate-floor (tests/retrieval/test_search_meaning.py uses them)
FLOOR = relevance.Floor(lexical=0.3, semantic=0.5, margin=0.1)


@pytest.fixture
def search(tmp_path):
    embedder = HashingEmbedder(64)
    keywords, vectors = filled_stores(tmp_path, TEXTS, embedder)
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
    search.floor = None
    assert search.search("qwxzv plorkt")  # the dense arm always answers something


def test_a_folder_name_is_evidence_though_no_text_holds_it(tmp_path):
    embedder = HashingEmbedder(64)
    texts = {**TEXTS, "/r/Zoology/notes.txt": ["Herds graze on the savanna."]}
    keywords, vectors = filled_stores(tmp_path, texts, embedder)
    search = HybridSearch(keywords, vectors, embedder, exists=lambda _path: True, floor=FLOOR)
    assert [r.path for r in search.search("zoology")] == ["/r/Zoology/notes.txt"]
    keywords.close()


def test_the_floor_applies_to_the_model_it_was_calibrated_with_and_no_other(tmp_path):
    assert relevance.floor_for(relevance.RELEVANCE_FLOOR_MODEL) == relevance.RELEVANCE
    assert relevance.floor_for("sentence-transformers/" + relevance.RELEVANCE_FLOOR_MODEL) == (
        relevance.RELEVANCE
    )
    assert relevance.floor_for("hashing-64") is None
    assert relevance.floor_for("BAAI/bge-small-en-v1.5") is None
    keywords = KeywordIndex(tmp_path / "k.duckdb")
    vectors = VectorIndex(tmp_path / "vectors", 64)
    assert HybridSearch(keywords, vectors, HashingEmbedder(64), fusion="calibrated").floor is None
    assert HybridSearch(keywords, vectors, HashingEmbedder(64), fusion="rrf", floor=None).floor is None
    assert HybridSearch(keywords, vectors, HashingEmbedder(64), floor=0.0).floor is None
    keywords.close()


def _evidence(table):
    return lambda key: relevance.Evidence(*table.get(key, (0.0, 0.0, 0.0)))


def test_a_hit_is_shown_when_any_one_arm_has_evidence_for_it():
    floor = relevance.Floor(lexical=0.3, semantic=0.5, margin=0.0)
    ranked = [("words", 0.6), ("meaning", 0.5), ("name", 0.4), ("none", 0.35)]
    table = {
        "words": (0.3, 0.1, 0.0),
        "meaning": (0.0, 0.5, 0.0),
        "name": (0.0, 0.1, 1.0),
        "none": (0.2, 0.4, 0.2),
    }
    assert relevance.shown(ranked, _evidence(table), floor) == ranked[:3]


def test_a_query_with_no_evidence_anywhere_has_no_matches_whatever_the_margin():
    floor = relevance.Floor(lexical=0.3, semantic=0.5, margin=1.0)
    assert relevance.shown([("a", 0.9), ("b", 0.8)], _evidence({"a": (0.3, 0.5, 0.3)}), floor) == []
    assert relevance.shown([], _evidence({}), floor) == []


def test_hits_ranked_near_or_above_the_best_evidenced_hit_stay_without_evidence_of_their_own():
    floor = relevance.Floor(lexical=0.3, semantic=0.5, margin=0.1)
    ranked = [("above", 0.7), ("real", 0.6), ("close", 0.52), ("far", 0.45)]
    shown = relevance.shown(ranked, _evidence({"real": (0.9, 0.0, 0.0)}), floor)
    assert shown == [("above", 0.7), ("real", 0.6), ("close", 0.52)]


def test_no_floor_shows_every_hit():
    assert relevance.shown([("a", 0.1)], _evidence({}), None) == [("a", 0.1)]


def test_the_threshold_keeps_the_chosen_share_of_each_collections_nonsense_out():
    first = [i / 100 for i in range(100)]  # 0.00 .. 0.99
    second = [0.1] * 20
    assert relevance.above_noise([first, second], 0.95) == 0.94  # 95 of 100 at or below it
    assert relevance.above_noise([[0.0] * 30], 0.95) == 0.0  # nonsense that never matches: any match counts
    assert relevance.above_noise([[], []], 0.95) == 0.0


def test_the_margin_holds_all_but_the_chosen_share_of_the_gaps():
    gaps = [i / 1000 for i in range(1000)]
    margin = relevance.calibrate_margin(gaps, 0.01)
    assert sum(g > margin for g in gaps) == 10
    assert relevance.calibrate_margin([0.2], 0.01) == 0.2
    assert relevance.calibrate_margin([], 0.01) == 0.0
