"""A failure at any point of an apply, or of an undo, leaves the tree, the index and the trash as before."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

from engine.txn import FaultPoint
from tests.txn.txn_support import MIXED_FILES, make_world, mixed_plan, snapshot


class Injected(RuntimeError):
    pass


def fail_at(k: int, seen: list[FaultPoint]):
    """A fault hook that records every point and raises at the k-th one."""

    def hook(point: FaultPoint) -> None:
        seen.append(point)
        if len(seen) == k:
            raise Injected(f"injected failure at point {k}: {point.phase}/{point.stage} #{point.seq}")

    return hook


def count_points(tmp_path: Path, home: Path, plan_for, roots=()) -> int:
    world = make_world(_fresh(tmp_path / "probe"), _fresh(home / "probe"), MIXED_FILES, list(roots))
    seen: list[FaultPoint] = []
    service = world.service(fault=seen.append)
    plan = service.propose_plan("probe", plan_for(world.root))
    assert service.apply_action_plan(plan["transaction_id"]).applied
    world.db.close()
    return len(seen)


def _fresh(path: Path) -> Path:
    path.mkdir(parents=True)
    return path


def test_rollback_restores_everything_when_the_apply_fails_at_every_point(tmp_path, sensetree_home):
    total = count_points(tmp_path, sensetree_home, mixed_plan)
    assert total >= 25  # disk steps × 3 stages, index calls, the requalify
    for k in range(1, total + 1):
        world = make_world(_fresh(tmp_path / f"k{k}"), _fresh(sensetree_home / f"k{k}"), MIXED_FILES)
        before, index_before = snapshot(world.root), world.index.state()
        seen: list[FaultPoint] = []
        service = world.service(fault=fail_at(k, seen))
        plan = service.propose_plan("Tidy up", mixed_plan(world.root))
        result = service.apply_action_plan(plan["transaction_id"])
        assert result.applied == 0 and f"injected failure at point {k}" in result.message, k
        assert all(step["ok"] for step in result.rollback), (k, result.rollback)
        assert snapshot(world.root) == before, k
        world.index.drain()
        assert world.index.state() == index_before, k
        assert world.trash_files() == [] and service.trash_list() == [], k
        assert service.list_transactions()[0].status == "rolled_back"
        world.db.close()


def test_rollback_report_lists_each_undo_step_when_the_third_move_fails(world):
    seen: list[FaultPoint] = []

    def fail_third_move(point: FaultPoint) -> None:
        seen.append(point)
        moves = [p for p in seen if p.stage == "before_disk" and p.step and p.step.kind == "move"]
        if len(moves) == 3 and point is moves[-1]:
            raise OSError("disk full")

    before = snapshot(world.root)
    service = world.service(fault=fail_third_move)
    plan = service.propose_plan("Tidy up", mixed_plan(world.root))
    result = service.apply_action_plan(plan["transaction_id"])
    assert "disk full" in result.message and snapshot(world.root) == before
    steps = [step["step"] for step in result.rollback]
    assert steps[0] == f"remove folder {world.root}/Media"  # the third move itself never reached the disk
    assert steps[1] == f"move {world.root}/Finance/2024/Q1/bolt.txt → {world.root}/invoice-bolt.txt"
    assert steps[-1] == f"remove folder {world.root}/Finance" and all(s["ok"] for s in result.rollback)


def test_undo_that_fails_at_every_point_leaves_the_applied_state(tmp_path, sensetree_home):
    world = make_world(_fresh(tmp_path / "base"), _fresh(sensetree_home / "base"), MIXED_FILES)
    service = world.service()
    plan = service.propose_plan("Tidy up", mixed_plan(world.root))
    service.apply_action_plan(plan["transaction_id"])
    seen: list[FaultPoint] = []
    world.service(fault=seen.append).undo_transaction(plan["transaction_id"])
    total = len(seen)
    world.db.close()
    for k in range(1, total + 1):
        w = make_world(_fresh(tmp_path / f"u{k}"), _fresh(sensetree_home / f"u{k}"), MIXED_FILES)
        p = w.service().propose_plan("Tidy up", mixed_plan(w.root))
        w.service().apply_action_plan(p["transaction_id"])
        applied, index_applied, trash = snapshot(w.root), w.index.state(), w.trash_files()
        result = w.service(fault=fail_at(k, [])).undo_transaction(p["transaction_id"])
        assert result.applied == 0 and all(step["ok"] for step in result.rollback), k
        assert snapshot(w.root) == applied and w.trash_files() == trash, k
        w.index.drain()
        assert w.index.state() == index_applied, k
        assert w.service().undo_transaction(p["transaction_id"]).applied == 7, k
        w.db.close()


def test_requalify_failure_restores_the_senses_already_rewritten(world):
    r = world.root
    ops = [
        {"kind": "requalify", "old_path": f"{r}/notes.md", "new_summary": "[notes] shopping"},
        {"kind": "requalify", "old_path": f"{r}/invoice-acme.txt", "new_summary": "[invoice] ACME"},
    ]
    before = world.index.state()

    def fail_second_rewrite(point: FaultPoint) -> None:
        if point.phase == "semantics" and point.seq == 2:
            raise RuntimeError("model store locked")

    service = world.service(fault=fail_second_rewrite)
    plan = service.propose_plan("Better senses", ops)
    result = service.apply_action_plan(plan["transaction_id"])
    assert result.applied == 0 and "model store locked" in result.message
    assert world.index.state() == before


def cross_fs_root() -> Path | None:
    shm = Path("/dev/shm")
    if not shm.is_dir() or not os.access(shm, os.W_OK):
        return None
    return shm


@pytest.fixture
def other_drive(tmp_path):
    shm = cross_fs_root()
    if shm is None or os.stat(shm).st_dev == os.stat(tmp_path).st_dev:
        pytest.skip("needs a second file system (/dev/shm) to move across")
    folder = Path(shm) / f"sensetree-test-{os.getpid()}-{tmp_path.name}"
    folder.mkdir()
    yield folder
    shutil.rmtree(folder, ignore_errors=True)


def across(other: Path):
    def plan_for(root: Path) -> list[dict]:
        return [
            {"kind": "move", "old_path": f"{root}/photos", "new_path": f"{other}/Archive/photos"},
            {"kind": "move", "old_path": f"{root}/notes.md", "new_path": f"{other}/notes.md"},
            {"kind": "delete", "old_path": f"{other}/seed.txt"},
        ]

    return plan_for


def test_moves_across_file_systems_roll_back_at_every_point(tmp_path, sensetree_home, other_drive):
    (other_drive / "seed.txt").write_text("on the other drive")
    total = count_points(tmp_path, sensetree_home, across(other_drive), [other_drive])
    assert total >= 20
    for k in range(1, total + 1):
        shutil.rmtree(other_drive)
        other_drive.mkdir()
        (other_drive / "seed.txt").write_text("on the other drive")
        world = make_world(
            _fresh(tmp_path / f"x{k}"), _fresh(sensetree_home / f"x{k}"), MIXED_FILES, [other_drive]
        )
        before = snapshot(world.root, other_drive)
        service = world.service(fault=fail_at(k, []))
        plan = service.propose_plan("Archive", across(other_drive)(world.root))
        result = service.apply_action_plan(plan["transaction_id"])
        assert result.applied == 0 and all(step["ok"] for step in result.rollback), (k, result)
        assert snapshot(world.root, other_drive) == before, k
        assert world.trash_files() == [], k
        world.db.close()
