"""calibrated fusion: both arms on an absolute scale, so a decisive single-arm hit stays near the top."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.retrieval.fusion import calibrated, rrf


def generated_arms(seed: int) -> tuple[list[tuple[str, float]], float, list[tuple[str, float]]]:
    """A generated query: 50 dense hits of middling cosine and 50 keyword hits matching one query term of
    four, overlapping the dense ones; "star" holds every query term but the dense arm misses it."""
    rng = random.Random(seed)
    docs = [f"d{i}" for i in range(200)]
    dense = sorted(((d, rng.uniform(0.30, 0.55)) for d in rng.sample(docs, 50)), key=lambda kv: -kv[1])
    reference = 8.0
    overlap = [d for d, _ in dense[:30]] + rng.sample(docs, 20)
    keyword = sorted(((d, rng.uniform(0.10, 0.30) * reference) for d in overlap), key=lambda kv: -kv[1])
    return [("star", 1.1 * reference), *keyword], reference, dense


@pytest.mark.parametrize("seed", range(20))
def test_a_chunk_one_arm_ranks_first_by_a_wide_margin_stays_in_the_top_3_though_the_other_arm_misses_it(seed):
    keyword, reference, dense = generated_arms(seed)
    fused = [key for key, _ in calibrated(keyword, reference, dense, depth=50)]
    assert fused.index("star") < 3
    by_rank = [key for key, _ in rrf([[k for k, _ in keyword], [k for k, _ in dense]])]
    assert by_rank.index("star") >= 3  # what RRF did with it (issue 17: ranks 13-29)


def test_scores_are_the_weighted_mean_of_bm25_over_the_reference_and_the_cosine():
    fused = dict(calibrated([("a", 4.0), ("b", 1.0)], 2.0, [("b", 0.8), ("c", 0.4)], (0.25, 0.75)))
    assert fused["a"] == pytest.approx(0.25 * 1.0)  # capped at 1; absent from an arm: 0 there
    assert fused["b"] == pytest.approx(0.25 * 0.5 + 0.75 * 0.8)
    assert fused["c"] == pytest.approx(0.75 * 0.4)
    assert list(fused) == ["b", "c", "a"]


def test_an_arm_cut_off_at_depth_gives_its_absent_keys_its_lowest_score_and_a_shorter_one_zero():
    keyword, dense = [("a", 4.0), ("b", 1.0)], [("b", 0.8), ("c", 0.4)]
    fused = dict(calibrated(keyword, 2.0, dense, (0.25, 0.75), depth=2))
    assert fused["a"] == pytest.approx(0.25 * 1.0 + 0.75 * 0.4)  # the dense arm was cut off at 2
    assert fused["c"] == pytest.approx(0.25 * 0.5 + 0.75 * 0.4)
    fused = dict(calibrated(keyword, 2.0, dense[:1], (0.25, 0.75), depth=2))
    assert fused["a"] == pytest.approx(0.25 * 1.0)  # one dense hit of 2 asked: nothing else scores


def test_the_scale_does_not_depend_on_the_other_hits_so_a_weak_best_hit_stays_weak():
    weak = calibrated([("a", 0.5)], 10.0, [("a", 0.1), ("b", 0.05)])
    assert weak[0] == ("a", pytest.approx((0.05 + 0.1) / 2))
    assert weak[1] == ("b", pytest.approx(0.05 / 2))
    assert calibrated([("a", 10.0)], 10.0, [("a", 1.0)]) == [("a", pytest.approx(1.0))]


def test_an_empty_arm_counts_zero_and_a_query_without_reference_scores_its_keyword_arm_zero():
    assert calibrated([], 0.0, [("a", 0.6)]) == [("a", pytest.approx(0.3))]
    assert calibrated([("a", 3.0)], 0.0, []) == [("a", 0.0)]
    assert calibrated([], 1.0, []) == []


def test_negative_cosines_clip_to_zero_and_a_key_repeated_in_an_arm_counts_at_its_first_entry():
    fused = dict(calibrated([("a", 2.0), ("a", 0.1)], 2.0, [("a", -0.3)], (1.0, 1.0)))
    assert fused == {"a": pytest.approx(0.5)}


def test_weights_must_be_two_and_positive():
    with pytest.raises(ValueError):
        calibrated([], 1.0, [], (1.0,))
    with pytest.raises(ValueError):
        calibrated([], 1.0, [], (0.0, 0.0))


def plain_calibrated(keyword, reference, dense, weights, depth):
    """The rule written the obvious way (each arm scaled at its first entry, absent keys at 0 or at the
    cut-off arm's lowest, the weighted mean, best first, ties in first-seen order): the reference the
    fast pass in fusion.py must equal exactly."""
    arms = [{}, {}]
    for arm, hits, scale in (
        (arms[0], keyword, lambda s: min(s / reference, 1.0) if reference > 0 else 0.0),
        (arms[1], dense, lambda s: min(max(s, 0.0), 1.0)),
    ):
        for key, score in hits:
            arm.setdefault(key, scale(score))
    absent = [min(arm.values()) if depth is not None and len(arm) >= depth > 0 else 0.0 for arm in arms]
    keys = list(dict.fromkeys([*arms[0], *arms[1]]))
    total = sum(weights)
    fused = {
        k: sum(w * arm.get(k, low) for w, arm, low in zip(weights, arms, absent, strict=True)) / total
        for k in keys
    }
    return sorted(fused.items(), key=lambda item: item[1], reverse=True)


HITS = st.lists(
    st.tuples(st.integers(0, 40), st.floats(-0.5, 30.0, allow_nan=False).map(lambda x: round(x, 2))),
    max_size=60,
)


@settings(max_examples=400, deadline=None)
@given(
    keyword=HITS,
    dense=HITS.map(lambda hits: [(key, score / 30) for key, score in hits]),
    reference=st.sampled_from([0.0, 3.5, 8.0, 12.25]),
    weights=st.sampled_from([(0.4, 0.6), (1.0, 1.0), (0.0, 1.0), (0.3, 0.0)]),
    depth=st.sampled_from([None, 1, 5, 50]),
)
def test_calibrated_equals_the_plain_rule_key_for_key_and_score_for_score(
    keyword, dense, reference, weights, depth
):
    keyword = sorted(keyword, key=lambda kv: -kv[1])
    dense = sorted(dense, key=lambda kv: -kv[1])
    assert calibrated(keyword, reference, dense, weights, depth) == plain_calibrated(
        keyword, reference, dense, weights, depth
    )
