"""relative_score: min-max-normalised scores combined convexly, so a decisive single-arm hit survives."""

from __future__ import annotations

import pytest

from engine.retrieval.fusion import relative_score, rrf


def test_a_hit_one_arm_ranks_first_by_a_wide_margin_stays_at_the_top_though_the_other_arm_misses_it():
    keyword = [("x", 30.0), ("b", 6.0), ("c", 5.8), ("d", 5.5), ("e", 5.0)]
    dense = [("b", 0.52), ("c", 0.51), ("d", 0.50), ("e", 0.49), ("f", 0.30)]
    assert [k for k, _ in relative_score([keyword, dense])].index(
        "x"
    ) <= 1  # behind only the dense arm's best
    assert [k for k, _ in rrf([[k for k, _ in keyword], [k for k, _ in dense]])].index(
        "x"
    ) >= 4  # RRF sinks it


def test_scores_are_the_weighted_mean_of_each_arms_min_max_normalised_score():
    fused = dict(
        relative_score([[("a", 10.0), ("b", 6.0), ("c", 2.0)], [("b", 0.9), ("a", 0.5)]], [3.0, 1.0])
    )
    assert fused["a"] == pytest.approx((3 * 1.0 + 1 * 0.0) / 4)
    assert fused["b"] == pytest.approx((3 * 0.5 + 1 * 1.0) / 4)
    assert fused["c"] == pytest.approx(0.0)
    assert max(fused.values()) <= 1.0


def test_first_in_every_arm_scores_one_and_an_arm_of_equal_scores_gives_each_key_one():
    assert relative_score([[("a", 2.0), ("b", 1.0)], [("a", 0.9), ("b", 0.1)]])[0] == (
        "a",
        pytest.approx(1.0),
    )
    assert dict(relative_score([[("a", 5.0), ("b", 5.0)]])) == {"a": 1.0, "b": 1.0}


def test_a_key_repeated_in_one_arm_counts_once_at_its_first_entry():
    fused = dict(relative_score([[("a", 4.0), ("b", 2.0), ("a", 0.0)]]))
    assert fused == {"a": 1.0, "b": 0.0}


def test_empty_arms_fuse_to_nothing_and_mismatched_weights_are_refused():
    assert relative_score([[], []]) == []
    with pytest.raises(ValueError):
        relative_score([[("a", 1.0)]], [1.0, 1.0])
