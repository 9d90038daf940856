"""The Gardener's small pure pieces: candidate pairs, name rules, the meaning map's tree, the schedule,
the report cache and the background pass's event — each without an index."""

from __future__ import annotations

import os
import re
from pathlib import Path

import numpy as np

from engine.config import GardenerSettings
from engine.db import Database
from engine.events import EventBus
from engine.gardener import layout, similar
from engine.gardener.background import GARDENER_REPORT, BackgroundPass, Schedule
from engine.gardener.duplicates import version_stem
from engine.gardener.model import Evidence, Finding, FolderReport, summarise
from engine.gardener.names import is_unhelpful, proposed_name
from engine.gardener.store import MIGRATIONS, ReportCache
from engine.retrieval.semantic_tree import ALL_FOLDERS, build_tree, top_branches
from engine.roots import Roots

REPO = Path(__file__).resolve().parents[2]


def _exact(vectors: np.ndarray, threshold: float) -> list[tuple[int, int]]:
    """Every pair of rows at or above `threshold`, from the full product (the reference the tables
    must match), in key order."""
    n = len(vectors)
    keys, _ = similar._exact_pairs(vectors, np.arange(n), threshold, n)
    return [(int(k) // n, int(k) % n) for k in np.sort(keys)]


def _unit(rows: np.ndarray) -> np.ndarray:
    return (rows / np.linalg.norm(rows, axis=1, keepdims=True)).astype(np.float32)


def test_hashed_candidates_find_the_same_near_pairs_as_the_exact_product():
    rng = np.random.default_rng(0)
    base = _unit(rng.standard_normal((similar.EXACT_ROWS + 500, 64)))
    near = _unit(base[:200] + 0.03 * rng.standard_normal((200, 64)))  # cosine ≈ 0.97 to their originals
    vectors = np.vstack([base, near])
    found = {(i, j) for i, j, _ in similar.similar_pairs(vectors, 0.95)}
    exact = set(_exact(vectors, 0.95))
    assert len(exact) >= 190
    assert found == exact


def test_version_marks_are_stripped_down_to_one_stem():
    names = [
        "report.docx",
        "report (1).docx",
        "Report-final-v2.docx",
        "Copy of report.docx",
        "report_old.docx",
    ]
    assert {version_stem(n) for n in names} == {"report.docx"}
    assert version_stem("report.pdf") != version_stem("report.docx")
    assert version_stem("2024-01-05.txt") == "2024-01-05.txt"  # a name that is only a date stays


def test_unhelpful_names_are_recognised_and_helpful_ones_left_alone():
    for name in [
        "scan_0042.pdf",
        "Document1.docx",
        "Untitled 3.txt",
        "untitled.txt",
        "12345.txt",
        "export_0.csv",
    ]:
        assert is_unhelpful(name), name
    for name in ["invoice-acme.pdf", "scanner-manual.pdf", "Documentation.md", "img-of-lisbon.png"]:
        assert not is_unhelpful(name), name


def test_a_camera_name_a_scanner_date_or_a_journal_day_is_conventional_not_unhelpful():
    for name in [
        "IMG_4400.jpg",
        "IMG_2041.JPG",
        "DSC_0012.JPG",
        "DSC00012.jpg",
        "PXL_20240312_101010.jpg",
        "20240312_1010.jpg",
        "Scan_2024-03-01.pdf",
        "2024-01-03.md",
        "Screenshot 2024-03-01 at 10.11.12.png",
    ]:
        assert not is_unhelpful(name), name


def test_a_short_first_line_of_the_text_is_the_title_a_name_comes_from():
    text = "Letter to the council\nDear Sir or Madam, I am writing about the street light."
    assert proposed_name("Document1.docx", "Document1.docx: Letter to the council Dear Sir or", text) == (
        "letter-council.docx"
    )


def test_no_name_is_suggested_unless_it_reads_clearly_better_than_the_old_one():
    assert proposed_name("Document3.txt", "Document3.txt: asdf asdf.") is None
    assert proposed_name("export_0.csv", "export_0.csv: id,value 0,0.0437 1") is None
    assert proposed_name("untitled.txt", "untitled.txt: Ideas for the garden shed. We could") == (
        "ideas-garden-shed.txt"
    )


def test_a_name_is_proposed_from_the_sense_keeping_the_extension():
    assert proposed_name(
        "scan_0042.PDF", "[invoice] Invoice from ACME Corp for consulting, March 2024. Paid."
    ) == ("invoice-acme-corp-consulting-march-2024.pdf")
    assert proposed_name("scan_0042.txt", "scan_0042.txt: Finance note 12. More.") == "finance-note-12.txt"
    assert proposed_name("scan_0042.pdf", None) is None


def test_the_meaning_map_scores_folders_by_their_best_file_and_sorts_branches():
    hits = [("/r/A/x.txt", 0.2), ("/r/B/C/y.txt", 0.9), ("/r/B/z.txt", 0.5), ("/r/A/x.txt", 0.4)]
    tree = build_tree(hits, ["/r"], {"/r/B/C/y.txt": 10, "/r/B/z.txt": 5, "/r/A/x.txt": 1})
    assert tree is not None and tree.path == "/r" and tree.score == 0.9 and tree.size == 16
    assert [c.name for c in tree.children] == ["B", "A"]
    b = tree.children[0]
    assert [(c.name, c.score) for c in b.children] == [("C", 0.9), ("z.txt", 0.5)]
    assert tree.children[1].children[0].score == 0.4  # a file's best score
    assert top_branches(tree) == ["/r/B", "/r/A"]


def test_the_meaning_map_joins_several_roots_and_is_none_without_hits():
    tree = build_tree([("/a/f.txt", 0.3), ("/b/g.txt", 0.7), ("/elsewhere/h.txt", 0.99)], ["/a", "/b"])
    assert tree is not None and tree.name == ALL_FOLDERS
    assert [c.path for c in tree.children] == ["/b", "/a"]
    assert build_tree([], ["/a"]) is None


def test_the_schedule_runs_45_s_after_start_then_every_5_minutes_and_when_roots_change():
    schedule = Schedule(start=100.0)
    assert not schedule.due(144.0, ["/a"]) and schedule.due(145.0, ["/a"])
    schedule.ran(145.0, ["/a"])
    assert not schedule.due(444.0, ["/a"]) and schedule.due(445.0, ["/a"])
    assert schedule.due(200.0, ["/a", "/b"])


def _report(path: str, findings: list[Finding], at: float) -> FolderReport:
    severity, headline, counts = summarise(findings)
    return FolderReport(path, severity, headline, counts, findings, at, 3)


def test_the_pass_publishes_a_report_only_when_its_findings_change(tmp_path):
    db = Database(tmp_path / "g.db")
    db.migrate(MIGRATIONS)
    cache, events, seen = ReportCache(db), EventBus(), []
    events.subscribe(lambda topic, payload: seen.append(payload), GARDENER_REPORT)
    findings: list[Finding] = []
    clock = iter(range(1000, 2000, 10))
    bg = BackgroundPass(
        lambda root: _report(root, list(findings), float(next(clock))),
        lambda: ["/r"],
        cache,
        events,
        busy=lambda: False,
        clock=lambda: 0.0,
    )
    bg.run_once()
    bg.run_once()
    assert [p["severity"] for p in seen] == ["ok"]
    findings.append(Finding("empty_folder", "info", "x is empty", "empty", [Evidence("/r/x")]))
    bg.run_once()
    assert [p["severity"] for p in seen] == ["ok", "info"]
    cached = cache.get("/r")
    assert cached is not None and cached.findings == findings and cached.headline == "1 empty folder"


def test_no_gardener_module_walks_the_disk_itself():
    for module in (REPO / "engine" / "gardener").glob("*.py"):
        source = module.read_text(encoding="utf-8")
        assert not re.search(r"os\.(scandir|listdir|walk)\b", source), module.name


def test_bucket_pairs_are_every_pair_inside_each_bucket_once():
    order = np.array([4, 0, 7, 2, 5, 1, 6, 3])
    starts, sizes = np.array([0, 3, 5]), np.array([3, 2, 3])  # buckets {4,0,7} {2,5} {1,6,3}
    keys = similar._bucket_pairs(order, starts, sizes, 8)
    pairs = sorted((int(k) // 8, int(k) % 8) for k in keys)
    assert pairs == [(0, 4), (0, 7), (1, 3), (1, 6), (2, 5), (3, 6), (4, 7)]


def test_the_tables_find_every_pair_just_above_the_default_threshold_in_a_big_set():
    rng = np.random.default_rng(1)
    centres = _unit(rng.standard_normal((200, 384)))
    base = _unit(
        centres[rng.integers(0, 200, similar.EXACT_ROWS + 1000)]
        + 0.08 * rng.standard_normal((similar.EXACT_ROWS + 1000, 384))
    )
    noise = _unit(rng.standard_normal((1000, 384)))
    # pairs at cosine 0.92–0.93: c·v + √(1 − c²)·n with n ⟂ v
    noise = _unit(noise - np.sum(noise * base[:1000], axis=1, keepdims=True) * base[:1000])
    cos = np.linspace(0.9205, 0.93, 1000)[:, None]
    near = _unit(cos * base[:1000] + np.sqrt(1 - cos**2) * noise)
    vectors = np.vstack([base, near])
    threshold = GardenerSettings().near_duplicate_cosine
    exact = set(_exact(vectors, threshold))
    assert len(exact) >= 1000
    assert {(i, j) for i, j, _ in similar.similar_pairs(vectors, threshold)} == exact


def test_the_table_plan_bounds_the_chance_of_missing_a_pair_at_the_threshold():
    for threshold in (0.8, 0.9, 0.92, 0.95, 0.99):
        bits, tables = similar.plan(threshold)
        p = 1 - np.arccos(threshold) / np.pi
        assert (1 - p**bits) ** tables <= similar.MISS and tables <= similar.MAX_TABLES
        assert similar.max_splits(threshold, bits * tables) > bits * tables * np.arccos(threshold) / np.pi


def test_the_tree_leaves_out_what_lies_in_folders_the_crawler_skips(tmp_path):
    root = tmp_path / "Home"
    for rel in ("node_modules/pkg/index.js", ".git/objects/ab", "src/node_modules/x.js", "src/main.py"):
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text("x")
    top = os.path.realpath(root)
    tree = layout.read_tree(Roots(lambda: [top]), top, 100)
    assert sorted(os.path.relpath(e.path, top) for e in tree.entries) == ["src", "src/main.py"]


def test_a_pass_pauses_between_roots_while_the_engine_is_busy_and_resumes_with_the_roots_left(tmp_path):
    db = Database(tmp_path / "g.db")
    db.migrate(MIGRATIONS)
    busy, checked = [False], []

    def analyze(root: str) -> FolderReport:
        checked.append(root)
        busy[0] = True  # indexing starts while the first root is checked
        return _report(root, [], 1.0)

    bg = BackgroundPass(
        analyze, lambda: ["/a", "/b"], ReportCache(db), EventBus(), lambda: busy[0], lambda: 0.0
    )
    assert [r.path for r in bg.run_once()] == ["/a"]
    assert bg.paused and bg.schedule.due(45.0, ["/a", "/b"]), "a paused round has not run"
    assert bg.run_once() == [] and checked == ["/a"], "nothing is checked while the engine is busy"
    busy[0] = False
    bg.run_once()
    assert checked == ["/a", "/b"] and not bg.paused and not bg.schedule.due(299.0, ["/a", "/b"])


def test_a_tight_cluster_bigger_than_a_bucket_yields_all_its_pairs_once(monkeypatch):
    monkeypatch.setattr(similar, "EXACT_ROWS", 500)  # the hashed path at a tenth of the size
    monkeypatch.setattr(similar, "BIG_BUCKET", 64)
    rng = np.random.default_rng(2)
    spread = _unit(rng.standard_normal((similar.EXACT_ROWS + 200, 64)))
    centre = _unit(rng.standard_normal((1, 64)))
    cluster = _unit(centre + 0.01 * rng.standard_normal((similar.BIG_BUCKET + 100, 64)))  # one big bucket
    vectors = np.vstack([spread, cluster])
    found = similar.similar_pairs(vectors, 0.95)
    exact = _exact(vectors, 0.95)
    assert len(found) == len(exact) >= len(cluster) * (len(cluster) - 1) // 2
    assert {(i, j) for i, j, _ in found} == set(exact)
