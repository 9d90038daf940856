"""bench/compare.py's tables and its SUMMARY line: every figure a same-run ratio against its target.

Targets (issue 30, read on real text): our hybrid p50 ≤ 1.0× and p95 ≤ 1.1× of LanceDB's native hybrid
at the same HNSW breadth, unscoped and scoped; the keyword arm's p50 ≤ 1.2× of LanceDB's FTS; the bulk
keyword build ≥ 0.5× SQLite FTS5's throughput; re-indexing one file ≤ LanceDB's delete + add of it.
"""

from __future__ import annotations

AT_DEFAULT = ", LanceDB's default ef"  # suffix of the contestants of the pair at LanceDB's breadth
LANCE_UPDATE = "LanceDB native FTS (delete + add)"
OURS_UPDATE = "SenseTree (DuckDB postings)"
HYBRID_P50, HYBRID_P95, KEYWORD_P50, BUILD = 1.0, 1.1, 1.2, 0.5
Figures = dict[str, tuple[float, float]]


def print_table(title: str, figures: Figures) -> None:
    print(f"\n{title}", flush=True)
    for name, (p50, p95) in figures.items():
        kind = "hybrid" if "hybrid" in name or "+ vector" in name else "keyword"
        base = "LanceDB native FTS top-50" if kind == "keyword" else "LanceDB native hybrid"
        base += AT_DEFAULT if name.endswith(AT_DEFAULT) else ""
        ratio = (
            ""
            if "vector arm" in name
            else f"   ×{p50 / figures[base][0]:.2f} / ×{p95 / figures[base][1]:.2f} of {base}"
        )
        print(f"  {name:<52} p50 {p50:7.1f} ms   p95 {p95:7.1f} ms{ratio}", flush=True)


def _ratio(figures: Figures, ours: str, theirs: str, at: int) -> float:
    return figures[ours][at] / figures[theirs][at]


def _mark(ok: bool) -> str:
    return "met" if ok else "MISSED"


def summarise(
    corpus: str,
    rows: int,
    unscoped: Figures,
    scoped: Figures,
    build_s: dict[str, float],
    updates: dict[str, float],
    embedded: tuple[float, float] | None,
) -> str:
    """One line: each ratio with its target and whether this run met it."""
    hybrid = [
        _ratio(f, "SenseTree hybrid", "LanceDB native hybrid", at)
        for f in (unscoped, scoped)
        for at in (0, 1)
    ]
    theirs = "LanceDB native hybrid" + AT_DEFAULT
    narrow = [_ratio(unscoped, "SenseTree hybrid" + AT_DEFAULT, theirs, at) for at in (0, 1)]
    keyword = _ratio(unscoped, "SenseTree keyword top-50", "LanceDB native FTS top-50", 0)
    throughput = build_s["SQLite FTS5"] / build_s[OURS_UPDATE]
    update = updates[OURS_UPDATE] / updates[LANCE_UPDATE]
    p50_ok, p95_ok = max(hybrid[0], hybrid[2]) <= HYBRID_P50, max(hybrid[1], hybrid[3]) <= HYBRID_P95
    model = ""
    if embedded:
        model = (
            f"with the model under load p50 {embedded[0]:.1f} / p95 {embedded[1]:.1f} ms "
            f"(≤ 60 / 150 {_mark(embedded[0] <= 60 and embedded[1] <= 150)}); "
        )
    return (
        f"SUMMARY {corpus} text, {rows:,} chunks: "
        f"hybrid p50 ×{hybrid[0]:.2f} (scoped ×{hybrid[2]:.2f}) of LanceDB native hybrid at the same ef "
        f"(≤ {HYBRID_P50} {_mark(p50_ok)}), p95 ×{hybrid[1]:.2f} (scoped ×{hybrid[3]:.2f}) "
        f"(≤ {HYBRID_P95} {_mark(p95_ok)}); "
        f"both at LanceDB's default ef ×{narrow[0]:.2f} / ×{narrow[1]:.2f}; "
        f"keyword top-50 p50 ×{keyword:.2f} of LanceDB FTS "
        f"(≤ {KEYWORD_P50} {_mark(keyword <= KEYWORD_P50)}); "
        f"bulk build ×{throughput:.2f} of SQLite FTS5's throughput "
        f"(≥ {BUILD} {_mark(throughput >= BUILD)}); "
        f"one-file update p50 {updates[OURS_UPDATE]:.1f} ms, ×{update:.2f} of LanceDB delete+add "
        f"(≤ 1.0 {_mark(update <= 1.0)}); " + model
    ).rstrip("; ")
