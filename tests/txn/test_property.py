"""Property: any valid plan over any small tree, applied then undone, leaves tree, index and trash as
before."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from engine.db import Database
from engine.roots import Roots
from engine.txn import MIGRATIONS, TxnService
from tests.txn.txn_support import MemoryIndex, snapshot, write_tree

NAMES = ["a", "b", "c", "docs", "x.txt", "y.md", "z.pdf", "deep", "Ünï.txt"]
trees = st.dictionaries(
    st.lists(st.sampled_from(NAMES), min_size=1, max_size=3).map("/".join),
    st.text(alphabet="abc xyz\n", max_size=20),
    min_size=1,
    max_size=8,
)


def _model(root: Path) -> dict[str, str]:
    kinds = {}
    for dirpath, dirs, files in os.walk(root):
        for name in dirs:
            kinds[os.path.relpath(os.path.join(dirpath, name), root)] = "dir"
        for name in files:
            kinds[os.path.relpath(os.path.join(dirpath, name), root)] = "file"
    return kinds


def _within(path: str, top: str) -> bool:
    return path == top or path.startswith(top + "/")


def _draw_op(data, tree: dict[str, str], pinned: set[str], root: Path) -> dict | None:
    kind = data.draw(st.sampled_from(["mkdir", "move", "rename", "delete", "requalify"]))
    entries = sorted(tree)
    folders = [""] + sorted(p for p, k in tree.items() if k == "dir")
    name = data.draw(st.sampled_from(NAMES + ["new", "n2"]))
    if kind == "mkdir":
        parent = data.draw(st.sampled_from(folders))
        new = f"{parent}/{name}".lstrip("/")
        if new in tree:
            return None
        tree[new] = "dir"
        return {"kind": "mkdir", "new_path": f"{root}/{new}", "reason": "r"}
    if not entries:
        return None
    old = data.draw(st.sampled_from(entries))
    if kind == "requalify":
        if tree[old] != "file" or old in pinned:
            return None
        pinned.add(old)
        return {
            "kind": "requalify",
            "old_path": f"{root}/{old}",
            "new_summary": f"pinned {old}",
            "reason": "r",
        }
    if kind == "delete":
        if any(_within(p, old) for p in pinned):
            return None
        for p in [p for p in tree if _within(p, old)]:
            del tree[p]
        return {"kind": "delete", "old_path": f"{root}/{old}", "reason": "r"}
    parent = os.path.dirname(old) if kind == "rename" else data.draw(st.sampled_from(folders))
    sub = "" if kind == "rename" else data.draw(st.sampled_from(["", "fresh/"]))
    new = f"{parent}/{sub}{name}".lstrip("/")
    if new in tree or _within(new, old) or (sub and f"{parent}/fresh".lstrip("/") in tree):
        return None
    if sub:
        tree[os.path.dirname(new)] = "dir"
    for p in [p for p in tree if _within(p, old)]:
        tree[new + p[len(old) :]] = tree.pop(p)
    for p in [p for p in pinned if _within(p, old)]:
        pinned.discard(p)
        pinned.add(new + p[len(old) :])
    return {"kind": kind, "old_path": f"{root}/{old}", "new_path": f"{root}/{new}", "reason": "r"}


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(files=trees, data=st.data())
def test_apply_then_undo_of_any_valid_plan_restores_tree_index_and_trash(files, data):
    with tempfile.TemporaryDirectory() as scratch:
        root, home = Path(scratch) / "Docs", Path(scratch) / "home"
        root.mkdir(), home.mkdir()
        try:
            write_tree(root, files)
        except (NotADirectoryError, FileExistsError, IsADirectoryError):
            return  # "a" as both a file and a folder: not a tree
        db = Database(home / "sensetree.db")
        db.migrate(MIGRATIONS)
        index = MemoryIndex()
        index.add_tree(root)
        tree, pinned = _model(root), set()
        draws = range(data.draw(st.integers(1, 8)))
        ops = [op for op in (_draw_op(data, tree, pinned, root) for _ in draws) if op]
        if any(op in ops[:i] for i, op in enumerate(ops)):  # the validator rightly refuses repeats
            db.close()
            assume(False)
        if not ops:
            db.close()
            return
        before, index_before = snapshot(root), index.state()
        service = TxnService(db, home, Roots(lambda: [str(root)]), index, None)
        plan = service.propose_plan("random", ops)
        assert service.apply_action_plan(plan["transaction_id"]).applied == len(ops)
        assert _model(root) == tree
        index.drain()
        undone = service.undo_transaction(plan["transaction_id"])
        assert undone.applied == len(ops), undone
        index.drain()
        assert snapshot(root) == before
        assert index.state() == index_before
        assert service.trash_list() == [] and not any((home / "trash").glob("*"))
        db.close()
