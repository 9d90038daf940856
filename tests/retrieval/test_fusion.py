"""Reciprocal-rank fusion is pure: these tests need no store."""

from __future__ import annotations

import pytest

from engine.retrieval.fusion import name_order, rrf, rrf_ceiling, with_names


def test_rrf_scores_each_key_by_the_sum_of_its_reciprocal_ranks():
    fused = dict(rrf([["a", "b", "c"], ["b", "d"]], k=60))
    assert fused["b"] == pytest.approx(1 / 62 + 1 / 61)
    assert fused["a"] == pytest.approx(1 / 61)
    assert fused["d"] == pytest.approx(1 / 62)
    assert fused["c"] == pytest.approx(1 / 63)


def test_rrf_puts_a_key_found_by_both_arms_above_keys_found_by_one():
    fused = rrf([["x", "both"], ["y", "both"]], k=60)
    assert fused[0][0] == "both"


def test_rrf_counts_a_key_repeated_in_one_ranking_at_its_best_rank_only():
    fused = dict(rrf([["a", "a", "b"]], k=60))
    assert fused["a"] == pytest.approx(1 / 61)
    assert fused["b"] == pytest.approx(1 / 63)


def test_rrf_keeps_first_seen_order_on_ties_so_results_are_deterministic():
    assert [key for key, _ in rrf([["a"], ["b"]])] == ["a", "b"]


def test_rrf_weights_scale_each_arm():
    fused = dict(rrf([["a"], ["b"]], k=60, weights=[2.0, 1.0]))
    assert fused["a"] == pytest.approx(2 / 61)
    assert fused["b"] == pytest.approx(1 / 61)


def test_rrf_of_nothing_is_nothing():
    assert rrf([]) == []
    assert rrf([[], []]) == []


def test_rrf_refuses_a_weight_list_of_the_wrong_length():
    with pytest.raises(ValueError, match="2 rankings but 1 weights"):
        rrf([["a"], ["b"]], weights=[1.0])


def test_rrf_ceiling_is_the_score_of_a_key_first_in_every_ranking():
    fused = dict(rrf([["a"], ["a"]], k=60))
    assert fused["a"] / rrf_ceiling(60) == pytest.approx(1.0)


def test_names_put_in_order_ahead_join_the_ranking_as_the_names_themselves_would():
    fused = [(("/a", 0), 0.8), (("/b", 2), 0.5)]
    names = {"/b": 0.5, "/z": 0.9, "/y": 0.9, "/x": 0.2, "/w": 0.4}
    order = name_order(names)
    assert order == ["/y", "/z", "/b", "/w", "/x"]
    joined = with_names(fused, names, 0.5, added=2, best_first=order)
    assert joined == with_names(fused, names, 0.5, added=2)
    assert [key for key, _ in joined] == [("/a", 0), ("/b", 2), ("/y", 0), ("/z", 0)]
