"""The name field's scores and their order, made cheaply for a query word in thousands of paths (issue 30),
stay exactly what adding each term's share path by path and sorting every path gave."""

from __future__ import annotations

import math

from hypothesis import given, settings
from hypothesis import strategies as st

from engine.retrieval.fusion import name_order, with_names
from engine.retrieval.names import NameIndex, idf

WORDS = ["usr", "share", "doc", "recipes", "tax", "2024", "photos", "kyoto", "notes", "draft"]


def _index(paths: list[str]) -> NameIndex:
    index = NameIndex(lambda words: {w: w.lower() for w in words})
    index.fill(paths)
    return index


def _added_path_by_path(index: NameIndex, paths: list[str], terms: set[str]) -> dict[str, float]:
    """The rule as first written: each term's share of the idf mass added to every path holding it."""
    files = len(paths)
    held = {t: {p for p in paths if t in p.lower().replace(".", "/").split("/")} for t in terms}
    weights = {t: idf(files, len(held[t])) for t in terms}
    total = math.fsum(weights.values())
    found: dict[str, float] = {}
    for term in sorted(terms):
        for path in held[term]:
            found[path] = found.get(path, 0.0) + weights[term] / total
    return {p: min(s, 1.0) for p, s in found.items()}


paths_strategy = st.lists(
    st.lists(st.sampled_from(WORDS), min_size=1, max_size=4).map(lambda ws: "/home/" + "/".join(ws) + ".txt"),
    min_size=1,
    max_size=60,
    unique=True,
)


@settings(max_examples=80, deadline=None)
@given(paths=paths_strategy, terms=st.sets(st.sampled_from(WORDS + ["absent"]), min_size=1, max_size=4))
def test_grouped_scores_equal_each_term_added_path_by_path(paths, terms):
    index = _index(paths)
    expected = _added_path_by_path(index, paths, terms)
    got = index.scores(terms)
    assert got.keys() == expected.keys()
    assert all(math.isclose(got[p], expected[p], rel_tol=1e-12, abs_tol=1e-12) for p in got)


@settings(max_examples=80, deadline=None)
@given(
    scores=st.dictionaries(
        st.text(alphabet="abcdef/", min_size=1, max_size=6),
        st.sampled_from([0.25, 0.5, 0.75, 1.0]),
        max_size=80,
    ),
    count=st.integers(min_value=0, max_value=90),
)
def test_the_first_names_are_the_first_of_every_name_sorted(scores, count):
    everything = sorted(scores, key=lambda p: (-scores[p], p))
    assert name_order(scores, count) == everything[:count]


def test_scores_of_many_kinds_are_ordered_the_same_way():
    scores = {f"/p/{i:03d}": (i * 37 % 101) / 101 for i in range(300)}
    assert name_order(scores, 20) == sorted(scores, key=lambda p: (-scores[p], p))[:20]


def test_a_word_in_every_folder_still_lets_the_best_names_the_arms_missed_join():
    names = {f"/usr/share/doc/f{i:04d}.txt": 0.5 for i in range(5000)} | {"/usr/share/doc/usr-guide.txt": 1.0}
    fused = [((f"/usr/share/doc/f{i:04d}.txt", 0), 0.4) for i in range(100)]
    joined = with_names(fused, names, 0.25, 50, name_order(names, 3))  # a prefix cut too short
    extras = [key for key, _ in joined if key not in {k for k, _ in fused}]
    assert extras[0] == ("/usr/share/doc/usr-guide.txt", 0)
    assert len(extras) == 50, "the 50 best names no arm found join, however short the prefix given"
