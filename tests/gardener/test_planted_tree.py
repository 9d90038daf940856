"""The Gardener on a generated tree with one of every finding planted: exactly the planted findings are
reported, every fix is an ordinary valid draft, and applying then undoing it restores the tree byte
for byte. The Gardener itself never embeds anything nor touches the disk."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from bridge import Api
from bridge.api import to_jsonable
from engine import native_memory
from engine.agent import Call, ScriptedModel
from engine.embed import HashingEmbedder
from engine.engine import Engine
from engine.gardener.model import RANK
from engine.txn.model import ActionPlan
from tests.gardener.planted import edited, expected, plant
from tests.txn.txn_support import snapshot

FIXABLE = [
    "duplicate",
    "near_duplicate",
    "version",
    "misplaced",
    "unhelpful_name",
    "stale_large",
    "clutter",
    "empty_folder",
]


def _build(tmp_path: Path, model: ScriptedModel | None = None) -> tuple[Engine, Path, HashingEmbedder]:
    root = tmp_path / "Home"
    plant(root)
    embedder = HashingEmbedder()
    engine = Engine(tmp_path / "home", embedder=embedder, chat_model=model)
    engine.set_config({"gardener": {"large_file_mb": 0.05}, "indexing": {"qualify_with_model": False}})
    engine.add_indexed_folder(str(root))
    engine.parts.index.drain()
    return engine, Path(os.path.realpath(root)), embedder


@pytest.fixture
def planted(tmp_path):
    engine, root, embedder = _build(tmp_path)
    yield engine, root, embedder
    engine.running.close()


def test_every_planted_finding_is_reported_and_nothing_else(planted):
    engine, root, embedder = planted
    embedded = embedder.embedded
    before = snapshot(root)
    report = engine.analyze_directory(str(root))
    assert {(f.kind, f.evidence[0].path) for f in report.findings} == expected(root)
    assert all(
        RANK[f.severity] <= RANK["info"] for f in report.findings if f.kind in ("empty_folder", "depth")
    )
    assert report.severity == "warn" and report.headline.startswith("1 exact duplicate, 1 near-duplicate,")
    assert embedder.embedded == embedded, "the Gardener must reuse stored vectors, never embed"
    assert snapshot(root) == before, "analysing changes nothing"


def test_findings_carry_their_evidence(planted):
    engine, root, _ = planted
    by_kind = {f.kind: f for f in engine.analyze_directory(str(root)).findings}
    duplicate = by_kind["duplicate"]
    assert duplicate.keep == f"{root}/Finance/invoice-acme.txt"
    assert [e.path for e in duplicate.evidence] == [duplicate.keep, f"{root}/Archive/invoice-acme-backup.txt"]
    assert all(e.size and e.modified for e in duplicate.evidence)
    version = by_kind["version"]
    assert version.keep == f"{root}/Travel/itinerary-final-v2.txt" and len(version.evidence) == 3
    assert all(e.score is not None and e.score >= 0.9 for e in version.evidence)  # text resemblance
    misplaced = by_kind["misplaced"]
    assert misplaced.target == f"{root}/Travel" and misplaced.evidence[1].score > misplaced.evidence[0].score
    assert by_kind["unhelpful_name"].target == "finance-note-12.txt"
    assert by_kind["stale_large"].evidence[0].size == 102_400


def test_each_fix_is_a_valid_draft_and_apply_then_undo_restores_the_tree_byte_for_byte(planted):
    engine, root, _ = planted
    api = Api(engine)
    before = snapshot(root)
    for kind in FIXABLE:
        envelope = api.propose_gardener_fix(path=str(root), kind=kind)
        assert envelope["ok"], (kind, envelope)
        plan = envelope["data"]
        assert plan["operations"], kind
        assert snapshot(root) == before, f"proposing a {kind} fix changed the disk"
        applied = api.apply_action_plan(transaction_id=plan["transaction_id"])
        assert applied["ok"] and applied["data"]["applied"] == len(plan["operations"]), (kind, applied)
        assert snapshot(root) != before
        undone = api.undo_transaction(transaction_id=plan["transaction_id"])
        assert undone["ok"], (kind, undone)
        assert snapshot(root) == before, f"undoing the {kind} fix left the tree changed"


def test_duplicate_fix_trashes_the_older_copy_or_keeps_the_one_picked(planted):
    engine, root, _ = planted
    plan = engine.propose_gardener_fix(str(root), "duplicate")
    assert [(op.kind, op.old_path) for op in plan.operations] == [
        ("delete", f"{root}/Archive/invoice-acme-backup.txt")
    ]
    picked = engine.propose_gardener_fix(str(root), "duplicate", [f"{root}/Archive/invoice-acme-backup.txt"])
    assert [op.old_path for op in picked.operations] == [f"{root}/Finance/invoice-acme.txt"]
    assert isinstance(picked, ActionPlan)  # typed; the page gets the JSON the stored draft always gave
    assert to_jsonable(picked) == engine.get_action_plan(picked.transaction_id) == picked.to_json_dict()


def test_depth_has_no_automatic_fix_and_an_unknown_kind_is_refused(planted):
    engine, root, _ = planted
    api = Api(engine)
    assert api.propose_gardener_fix(path=str(root), kind="depth")["error"]["code"] == "invalid_input"
    assert api.propose_gardener_fix(path=str(root), kind="nonsense")["error"]["code"] == "invalid_input"


def test_a_folder_outside_the_roots_is_refused(planted, tmp_path):
    engine, _, _ = planted
    outside = tmp_path / "Elsewhere"
    outside.mkdir()
    assert Api(engine).analyze_directory(path=str(outside))["error"]["code"] == "out_of_bounds"


def test_the_agent_folder_health_tool_reads_the_findings(tmp_path):
    model = ScriptedModel([[Call("folder_health", {"path": str(tmp_path / "Home")})], "Two copies."])
    engine, root, _ = _build(tmp_path, model)
    engine.set_config({"reasoning": {"enabled": True, "model": "scripted"}})
    try:
        result = engine.chat_with_assistant([{"role": "user", "content": "tidy my Home folder"}])
        assert len(model.requests) == 2, result
        observation = next(m["content"] for m in model.requests[1].messages if m.get("role") == "tool")
        assert "2 identical copies of invoice-acme.txt" in observation
        assert f"{root}/Archive/invoice-acme-backup.txt" in observation
        assert result.answer == "Two copies." and result.plan is None
        model.assert_complete()
    finally:
        engine.running.close()


def test_an_unchanged_catalog_reuses_the_vector_findings_and_a_new_file_is_seen(planted):
    engine, root, _ = planted
    gardener = engine.parts.gardener.gardener
    first = engine.analyze_directory(str(root))
    assert "reused" not in gardener.timings
    again = engine.analyze_directory(str(root))
    assert gardener.timings.get("reused") == 1.0 and again.findings == first.findings
    draft = root / "Projects" / "finance-draft.txt"
    draft.write_text(edited((root / "Finance" / "finance-2.txt").read_text(), 1))
    engine.reindex_path(str(draft))
    engine.parts.index.drain()
    changed = engine.analyze_directory(str(root))
    assert "reused" not in gardener.timings
    assert {(f.kind, f.evidence[0].path) for f in changed.findings} == expected(root) | {
        ("near_duplicate", f"{root}/Finance/finance-2.txt")  # the filed original is kept, listed first
    }


def test_an_analysis_that_compared_vectors_hands_its_freed_memory_back_at_once(planted, monkeypatch):
    """The comparison's pairs and texts are freed when it ends; without a trim right then they stayed
    with the process until an indexing batch next trimmed (bench/serve_memory.py: +25 % RSS kept after
    the Tidy view's first analysis). A reused analysis compared nothing and needs none."""
    engine, root, _ = planted
    trims: list[bool] = []
    monkeypatch.setattr(native_memory, "trim", lambda now=False: trims.append(now))
    engine.analyze_directory(str(root))
    assert trims == [True]
    engine.analyze_directory(str(root))
    assert trims == [True]
