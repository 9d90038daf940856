"""The action system's durable state outlives its database, a full disk and a partial rollback
(issue 11, findings 4 and 7, and the partial-rollback item)."""

from __future__ import annotations

import errno
import os
import shutil
import sqlite3
from pathlib import Path

import pytest

from engine.db import Database
from engine.errors import NoSpace
from engine.txn import MIGRATIONS, FaultPoint
from engine.txn.results import Restored
from tests.txn.test_crash import _fresh, apply_in_child
from tests.txn.txn_support import MIXED_FILES, World, make_world, mixed_plan, snapshot


def _lose_database(world: World) -> World:
    """The SQLite file is gone (deleted, or kept aside as damaged): a new, empty one takes its place."""
    world.db.close()
    for suffix in ("", "-wal", "-shm"):
        path = Path(str(world.home / "sensetree.db") + suffix)
        if path.exists():
            path.unlink()
    db = Database(world.home / "sensetree.db")
    db.migrate(MIGRATIONS)
    return World(world.root, world.home, db, world.index, world.roots)


def test_trash_restore_works_after_the_database_file_is_deleted(world):
    service = world.service()
    plan = service.propose_plan("Clean up", [{"kind": "delete", "old_path": f"{world.root}/notes.md"}])
    assert service.apply_action_plan(plan["transaction_id"]).applied == 1
    assert len(world.trash_manifests()) == 1
    world = _lose_database(world)
    service = world.service()
    assert service.trash_list() == []  # nothing re-listed until start-up recovery ran
    service.recover()
    [item] = service.trash_list()
    assert item.original_path == f"{world.root}/notes.md" and item.transaction_id == plan["transaction_id"]
    assert service.trash_restore(item.item_id) == Restored(path=f"{world.root}/notes.md")
    assert (world.root / "notes.md").read_text() == "# Notes\nbuy milk"
    assert world.trash_files() == [] and world.trash_manifests() == [] and service.trash_list() == []


def test_recover_rolls_back_from_the_journal_file_when_the_database_was_lost(tmp_path, sensetree_home):
    """A child killed at every point of a mixed plan, then the database lost too: the journal file
    alone puts the disk back."""
    probe = make_world(_fresh(tmp_path / "probe"), _fresh(sensetree_home / "probe"), MIXED_FILES)
    seen: list[FaultPoint] = []
    plan = probe.service(fault=seen.append).propose_plan("probe", mixed_plan(probe.root))
    probe.service(fault=seen.append).apply_action_plan(plan["transaction_id"])
    probe.db.close()
    disk_points = [k for k, point in enumerate(seen, start=1) if point.phase == "disk"]
    for k in sorted({*disk_points[::2], disk_points[-1]}):
        world = make_world(_fresh(tmp_path / f"c{k}"), _fresh(sensetree_home / f"c{k}"), MIXED_FILES)
        before = snapshot(world.root)
        plan = world.service().propose_plan("Tidy up", mixed_plan(world.root))
        assert apply_in_child(world.home, world.roots, plan["transaction_id"], k).returncode == 137, k
        world = _lose_database(world)
        reports = world.service().recover()
        assert [r["status"] for r in reports] == ["rolled_back"], (k, reports)
        assert snapshot(world.root) == before, (k, seen[k - 1])
        assert world.trash_files() == [] and world.trash_manifests() == [], k
        assert not list((world.home / "journal").glob("*.jsonl")), k
        assert world.service().recover() == [], k
        world.db.close()


class DiskFull:
    """Every SQLite write fails with `database or disk is full` while `on` (reads still work)."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch):
        self.on = False
        real_execute, real_atomic = Database.execute, Database.atomic
        full = self

        def execute(db, sql, params=()):
            if full.on and sql.lstrip().split(None, 1)[0].upper() in ("INSERT", "UPDATE", "DELETE", "BEGIN"):
                raise sqlite3.OperationalError("database or disk is full")
            return real_execute(db, sql, params)

        def atomic(db):
            if full.on:
                raise sqlite3.OperationalError("database or disk is full")
            return real_atomic(db)

        monkeypatch.setattr(Database, "execute", execute)
        monkeypatch.setattr(Database, "atomic", atomic)


def _fill_disk_at(k: int, full: DiskFull):
    count = 0

    def hook(point: FaultPoint) -> None:
        nonlocal count
        count += 1
        if count == k:
            full.on = True
            raise OSError(errno.ENOSPC, "No space left on device")

    return hook


def test_a_disk_full_during_rollback_still_rolls_back_and_reports_plainly(world, monkeypatch):
    full = DiskFull(monkeypatch)
    before = snapshot(world.root)
    service = world.service(fault=_fill_disk_at(12, full))
    plan = service.propose_plan("Tidy up", mixed_plan(world.root))
    result = service.apply_action_plan(plan["transaction_id"])  # no exception: no `internal` error
    assert result.applied == 0 and "No space left on device" in result.message
    assert "could not record this in its history yet" in result.message
    assert all(step["ok"] for step in result.rollback)
    assert snapshot(world.root) == before and world.trash_files() == []
    assert service.list_transactions()[0].status == "rolled_back"  # not `applying`
    full.on = False  # room again: the next command writes the outcome back
    assert service.list_transactions()[0].status == "rolled_back"
    row = world.db.one("SELECT status FROM txn_transactions WHERE id = ?", (plan["transaction_id"],))
    assert row["status"] == "rolled_back"
    assert not list((world.home / "journal").glob("*.jsonl"))


def test_a_rollback_sqlite_could_not_record_is_written_back_at_the_next_start(world, monkeypatch):
    full = DiskFull(monkeypatch)
    before = snapshot(world.root)
    service = world.service(fault=_fill_disk_at(9, full))
    plan = service.propose_plan("Tidy up", mixed_plan(world.root))
    assert service.apply_action_plan(plan["transaction_id"]).applied == 0
    full.on = False  # the app quit; space was freed; the next start
    reports = world.service().recover()
    assert [r["status"] for r in reports] == ["rolled_back"]
    assert snapshot(world.root) == before
    assert world.service().list_transactions()[0].status == "rolled_back"
    assert not list((world.home / "journal").glob("*.jsonl"))


def test_a_plan_copying_more_than_the_data_folder_holds_is_refused_with_the_figures(
    tmp_path, sensetree_home, monkeypatch
):
    shm = Path("/dev/shm")
    if not shm.is_dir() or os.stat(shm).st_dev == os.stat(sensetree_home).st_dev:
        pytest.skip("needs a second file system (/dev/shm) to delete across")
    other = shm / f"sensetree-space-{os.getpid()}"
    other.mkdir()
    try:
        (other / "big.bin").write_bytes(b"x" * 1_200_000)
        world = make_world(tmp_path, sensetree_home, MIXED_FILES, [other])
        service = world.service()
        plan = service.propose_plan(
            "Clean up",
            [
                {"kind": "delete", "old_path": f"{other}/big.bin"},
                {"kind": "delete", "old_path": f"{world.root}/notes.md"},
            ],
        )
        real = shutil.disk_usage
        monkeypatch.setattr(
            shutil,
            "disk_usage",
            lambda path: (
                real(path)._replace(free=300_000) if str(path).startswith(str(sensetree_home)) else real(path)
            ),
        )
        with pytest.raises(NoSpace, match=r"needs 3\d\.\d MB in the data folder .*, 300\.0 kB free"):
            service.apply_action_plan(plan["transaction_id"])
        assert (other / "big.bin").exists() and (world.root / "notes.md").exists()
        assert service.list_transactions()[0].status == "draft"  # it can be approved once there is room
        monkeypatch.setattr(shutil, "disk_usage", real)
        assert service.apply_action_plan(plan["transaction_id"]).applied == 2
        world.db.close()
    finally:
        shutil.rmtree(other, ignore_errors=True)


def _block_folder_rollback(world: World):
    """Once the plan's Finance folder exists, put a stranger's file in it and fail: its removal must fail."""

    def hook(point: FaultPoint) -> None:
        if point.phase == "index":
            (world.root / "Finance" / "stranger.txt").write_text("added by someone else")
            raise RuntimeError("injected failure")

    return hook


def test_a_partial_rollback_says_what_is_where_and_can_be_retried(world):
    service = world.service(fault=_block_folder_rollback(world))
    plan = service.propose_plan("Tidy up", mixed_plan(world.root))
    result = service.apply_action_plan(plan["transaction_id"])
    message = result.message
    assert not message.startswith("Nothing was changed"), message
    assert "could not be fully undone" in message
    assert f"the folder {world.root}/Finance that the plan created is still there" in message
    assert "Retry rollback" in message
    assert service.list_transactions()[0].status == "rollback_incomplete"
    restarted = world.service()
    assert restarted.recover() == []
    [notice] = restarted.startup_notices([])
    assert "Tidy up" in notice and "Retry rollback" in notice and "Finance" in notice
    (world.root / "Finance" / "stranger.txt").unlink()  # the person moves the stranger's file out
    retried = restarted.undo_transaction(plan["transaction_id"])
    assert retried.applied == 0 and "rollback of “Tidy up” is complete" in retried.message
    assert not (world.root / "Finance").exists()
    assert restarted.list_transactions()[0].status == "rolled_back"
    assert restarted.startup_notices([]) == []


def test_the_engine_shows_a_start_up_notice_for_an_incomplete_rollback_and_retries_it(
    tmp_path, sensetree_home
):
    from tests.indexing.helpers import indexed_sample, make_engine

    root, engine = indexed_sample(tmp_path, sensetree_home)
    plan = engine.parts.txn.propose_plan(
        "File the recipes",
        [{"kind": "move", "old_path": f"{root}/recipes/bread.txt", "new_path": f"{root}/Kitchen/bread.txt"}],
    )

    def hook(point: FaultPoint) -> None:
        if point.phase == "index":
            (root / "Kitchen" / "stranger.txt").write_text("added by someone else")
            raise RuntimeError("injected failure")

    engine.parts.txn.disk.fault = hook
    assert "could not be fully undone" in engine.apply_action_plan(plan["transaction_id"]).message
    engine.running.close()
    restarted = make_engine(sensetree_home)
    try:
        [notice] = [n for n in restarted.get_config().notices if "File the recipes" in n]
        assert "Retry rollback" in notice and f"{root}/Kitchen" in notice
        (root / "Kitchen" / "stranger.txt").unlink()
        assert "is complete" in restarted.undo_transaction(plan["transaction_id"]).message
        assert (root / "recipes" / "bread.txt").exists() and not (root / "Kitchen").exists()
        assert not [n for n in restarted.get_config().notices if "File the recipes" in n]
    finally:
        restarted.running.close()
