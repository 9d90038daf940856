"""The rule that picks an answer's sources: the hits the answer used (named or read) plus the top 3 by
score, sorted by score, each marked `used`."""

from __future__ import annotations

from engine.agent.sources import TOP_RESULTS, select_sources


def hit(name: str, score: float) -> dict:
    return {"path": f"/docs/{name}", "name": name, "score": score, "snippet": ""}


HITS = [
    hit("e.txt", 0.2),
    hit("a.txt", 0.9),
    hit("c.txt", 0.7),
    hit("b.txt", 0.8),
    hit("d.txt", 0.5),
    hit("f.txt", 0.1),
    hit("g.txt", 0.05),
]


def test_without_any_use_the_sources_are_the_top_three_by_score():
    chosen = select_sources(HITS, "Nothing named here.", set())
    assert [s["name"] for s in chosen] == ["a.txt", "b.txt", "c.txt"] and TOP_RESULTS == 3
    assert not any(s["used"] for s in chosen)


def test_named_and_read_hits_join_the_top_three_and_everything_stays_sorted_by_score():
    chosen = select_sources(HITS, "See F.TXT and /docs/e.txt; a.txt too.", {"/docs/g.txt"})
    assert [(s["name"], s["used"]) for s in chosen] == [
        ("a.txt", True),
        ("b.txt", False),
        ("c.txt", False),
        ("e.txt", True),
        ("f.txt", True),
        ("g.txt", True),
    ]


def test_a_low_hit_that_is_neither_named_nor_read_is_left_out():
    chosen = select_sources(HITS, "d", set())  # a one-letter mention is not a file name
    assert "d.txt" not in [s["name"] for s in chosen]
