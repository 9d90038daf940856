"""The stand-out study (bench/floor_study.py) measures a relative dense rule honestly: a hit standing far
above a flat profile scores high and one inside it low, and the stand-out threshold it reports keeps the
nonsense budget the arms leave, per collection, or refuses when the arms have spent it."""

from __future__ import annotations

import math

import pytest

from bench import floor_study


def test_a_hit_standing_far_above_a_flat_profile_stands_out_and_one_inside_it_does_not():
    flat = (0.25, 0.02)  # every file of the query's candidates near 0.25: noise is flat
    assert floor_study.standout(0.33, flat) == pytest.approx(4.0)
    assert floor_study.standout(0.26, flat) < 1.0


def test_without_a_profile_or_a_cosine_nothing_stands_out():
    assert floor_study.standout(0.9, None) == 0.0
    assert floor_study.standout(0.0, (0.1, 0.05)) == 0.0


def test_the_union_threshold_spends_only_the_nonsense_budget_the_arms_leave():
    # 20 nonsense queries, 5 % budget = 1: the arms show none, so the stand-out may let in the highest one
    group = [(False, v / 10) for v in range(20)]  # stand-outs 0.0 .. 1.9
    level = floor_study.union_threshold([group], 0.95)
    assert level == 1.8
    assert sum(value > level for _, value in group) == 1


def test_the_union_threshold_is_the_strictest_over_collections():
    loose = [(False, 1.0)] * 19 + [(False, 5.0)]
    strict = [(True, 0.0)] + [(False, v) for v in (4.0, 3.0)] + [(False, 0.0)] * 17
    assert floor_study.union_threshold([loose, strict], 0.95) == 4.0


def test_when_the_arms_already_let_more_nonsense_through_than_the_budget_no_threshold_is_safe():
    spent = [(True, 0.0)] * 2 + [(False, 1.0)] * 18
    assert floor_study.union_threshold([spent], 0.95) == math.inf
