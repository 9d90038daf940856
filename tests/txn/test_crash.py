"""A process killed at any point of an apply is rolled back by the next start's `recover()`."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from engine.txn import FaultPoint
from tests.txn.txn_support import MIXED_FILES, make_world, mixed_plan, snapshot

REPO = Path(__file__).resolve().parents[2]
CHILD = """
import json, sys
from pathlib import Path
from engine.db import Database
from engine.roots import Roots
from engine.txn import TxnService
from tests.txn.txn_support import MemoryIndex
home, roots, txn = Path(sys.argv[1]), json.loads(sys.argv[2]), sys.argv[3]
index = MemoryIndex()
for root in roots:
    index.add_tree(Path(root))
service = TxnService(Database(home / "sensetree.db"), home, Roots(lambda: roots), index, None)
print(service.apply_action_plan(txn).model_dump_json())
"""


def apply_in_child(
    home: Path, roots: list[str], txn_id: str, crash_at: int
) -> subprocess.CompletedProcess[str]:
    env = dict(
        os.environ, SENSETREE_TESTING="1", SENSETREE_TXN_CRASH_AT=str(crash_at), SENSETREE_HOME=str(home)
    )
    return subprocess.run(
        [sys.executable, "-c", CHILD, str(home), json.dumps(roots), txn_id],
        check=False,
        cwd=REPO,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )


def crash_everywhere(tmp_path: Path, home: Path, plan_for, extra_roots=(), reset=lambda: None) -> list[str]:
    """Crash a child at every fault point k in turn; after each, recover and compare. Returns the stages
    hit."""
    probe_home = home / "probe"
    probe_home.mkdir()
    stages: list[str] = []
    reset()
    probe = make_world(_fresh(tmp_path / "probe"), probe_home, MIXED_FILES, list(extra_roots))
    seen: list[FaultPoint] = []
    plan = probe.service(fault=seen.append).propose_plan("probe", plan_for(probe.root))
    probe.service(fault=seen.append).apply_action_plan(plan["transaction_id"])
    probe.db.close()
    for k in range(1, len(seen) + 1):
        reset()
        world = make_world(_fresh(tmp_path / f"c{k}"), _fresh(home / f"c{k}"), MIXED_FILES, list(extra_roots))
        before = snapshot(world.root, *extra_roots)
        plan = world.service().propose_plan("Tidy up", plan_for(world.root))
        child = apply_in_child(world.home, world.roots, plan["transaction_id"], k)
        assert child.returncode == 137, (k, child.stdout, child.stderr)
        reports = world.service().recover()  # a fresh service, as at the next start
        assert [r["status"] for r in reports] == ["rolled_back"], (k, reports)
        assert snapshot(world.root, *extra_roots) == before, (k, seen[k - 1])
        assert world.trash_files() == [] and world.service().trash_list() == [], k
        assert world.service().recover() == [], k
        stages.append(seen[k - 1].stage)
        world.db.close()
    return stages


def _fresh(path: Path) -> Path:
    path.mkdir(parents=True)
    return path


def test_recover_rolls_back_a_child_killed_at_every_point_of_a_mixed_plan(tmp_path, sensetree_home):
    stages = crash_everywhere(tmp_path, sensetree_home, mixed_plan)
    assert {"before_intent", "before_disk", "before_done", "before_call"} <= set(stages)
    assert len(stages) >= 25


def test_child_that_is_not_told_to_crash_commits(world):
    plan = world.service().propose_plan("Tidy up", mixed_plan(world.root))
    child = apply_in_child(world.home, world.roots, plan["transaction_id"], 10_000)
    assert child.returncode == 0, child.stderr
    assert json.loads(child.stdout.strip().splitlines()[-1])["applied"] == 7
    assert world.service().recover() == []


def test_recover_rolls_back_a_child_killed_at_every_point_of_a_move_across_file_systems(
    tmp_path, sensetree_home
):
    shm = Path("/dev/shm")
    if not shm.is_dir() or os.stat(shm).st_dev == os.stat(tmp_path).st_dev:
        pytest.skip("needs a second file system (/dev/shm) to move across")
    other = shm / f"sensetree-crash-{os.getpid()}"

    def reset() -> None:
        shutil.rmtree(other, ignore_errors=True)
        other.mkdir()
        (other / "seed.txt").write_text("on the other drive")

    def plan_for(root: Path) -> list[dict]:
        return [
            {"kind": "move", "old_path": f"{root}/photos", "new_path": f"{other}/Archive/photos"},
            {"kind": "move", "old_path": f"{root}/notes.md", "new_path": f"{other}/notes.md"},
            {"kind": "delete", "old_path": f"{other}/seed.txt"},
        ]

    try:
        stages = crash_everywhere(tmp_path, sensetree_home, plan_for, [other], reset)
    finally:
        shutil.rmtree(other, ignore_errors=True)
    assert {"after_copy", "after_place"} <= set(stages)
