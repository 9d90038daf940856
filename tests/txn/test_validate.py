"""Plans are validated on a virtual tree; every problem gets a message the model can act on."""

from __future__ import annotations

import os

import pytest

from engine.errors import PlanInvalid
from engine.roots import Roots
from engine.txn.validate import validate


def problems(ops, roots) -> list[str]:
    with pytest.raises(PlanInvalid) as caught:
        validate(ops, Roots(lambda: roots))
    return caught.value.problems


def test_sibling_root_with_a_shared_prefix_is_not_authorised(tmp_path):
    docs, evil = tmp_path / "Docs", tmp_path / "DocsEvil"
    docs.mkdir(), evil.mkdir()
    (evil / "secret.txt").write_text("s")
    [problem] = problems([{"kind": "delete", "old_path": str(evil / "secret.txt")}], [str(docs)])
    assert 'DocsEvil/secret.txt" is outside the indexed folders' in problem and problem.startswith(
        "operation 1"
    )


def test_dotdot_escaping_a_root_is_refused(tmp_path):
    docs = tmp_path / "Docs"
    docs.mkdir()
    (tmp_path / "private.txt").write_text("p")
    [problem] = problems(
        [{"kind": "move", "old_path": f"{docs}/../private.txt", "new_path": f"{docs}/p.txt"}], [str(docs)]
    )
    assert "outside the indexed folders" in problem


def test_symlink_escaping_a_root_is_refused_for_paths_through_it_and_for_the_link(tmp_path):
    docs, outside = tmp_path / "Docs", tmp_path / "outside"
    docs.mkdir(), outside.mkdir()
    (outside / "secret.txt").write_text("s")
    os.symlink(outside, docs / "escape")
    through = problems(
        [{"kind": "move", "old_path": f"{docs}/escape/secret.txt", "new_path": f"{docs}/s.txt"}], [str(docs)]
    )
    assert "outside the indexed folders" in through[0]
    link = problems([{"kind": "delete", "old_path": f"{docs}/escape"}], [str(docs)])
    assert "a symbolic link to" in link[0] and "outside" in link[0]


def test_missing_source_existing_target_and_missing_fields_are_each_named(tmp_path):
    root = tmp_path / "Docs"
    root.mkdir()
    (root / "a.txt").write_text("a")
    (root / "b.txt").write_text("b")
    found = problems(
        [
            {"kind": "move", "old_path": f"{root}/ghost.txt", "new_path": f"{root}/g.txt"},
            {"kind": "move", "old_path": f"{root}/a.txt", "new_path": f"{root}/b.txt"},
            {"kind": "move", "old_path": f"{root}/a.txt"},
            {"kind": "requalify", "old_path": f"{root}/a.txt", "new_summary": "  "},
            {"kind": "mkdir", "new_path": str(root)},
        ],
        [str(root)],
    )
    assert "operation 1 (move): " in found[0] and "ghost.txt does not exist" in found[0]
    assert "b.txt already exists; SenseTree never overwrites" in found[1]
    assert "`new_path` is required for move" in found[2]
    assert "`new_summary` must be a non-blank" in found[3]
    assert found[4].startswith("operation 5 (mkdir)") and "already exists" in found[4]


def test_order_is_simulated_so_later_operations_see_earlier_ones(tmp_path):
    root = tmp_path / "Docs"
    (root / "a").mkdir(parents=True)
    (root / "a/x.txt").write_text("x")
    ok = validate(
        [
            {"kind": "mkdir", "new_path": f"{root}/New"},
            {"kind": "move", "old_path": f"{root}/a", "new_path": f"{root}/New/a"},
            {"kind": "rename", "old_path": f"{root}/New/a/x.txt", "new_path": "y.txt"},
            {"kind": "requalify", "old_path": f"{root}/New/a/y.txt", "new_summary": "[note] y"},
        ],
        Roots(lambda: [str(root)]),
    )
    assert ok.operations[2].new_path == f"{root}/New/a/y.txt"
    assert ok.requalify_final == {3: f"{root}/New/a/y.txt"}
    stale = problems(
        [
            {"kind": "move", "old_path": f"{root}/a", "new_path": f"{root}/b"},
            {"kind": "delete", "old_path": f"{root}/a/x.txt"},
        ],
        [str(root)],
    )
    assert stale == [
        (
            f"operation 2 (delete): {root}/a/x.txt does not exist at this point of the plan; "
            "use an exact path from the folder listing"
        )
    ]


def test_duplicates_and_conflicts_are_refused(tmp_path):
    root = tmp_path / "Docs"
    root.mkdir()
    (root / "a.txt").write_text("a")
    move = {"kind": "move", "old_path": f"{root}/a.txt", "new_path": f"{root}/b.txt", "reason": "r"}
    assert "repeats operation 1" in problems([move, move], [str(root)])[0]
    twice = problems([move, {"kind": "delete", "old_path": f"{root}/a.txt"}], [str(root)])
    assert "already moved or deleted by operation 1" in twice[0]
    requalified = problems(
        [
            {"kind": "requalify", "old_path": f"{root}/a.txt", "new_summary": "s"},
            {"kind": "delete", "old_path": f"{root}/a.txt"},
        ],
        [str(root)],
    )
    assert "operation 1 requalifies" in requalified[0]


def test_impossible_shapes_are_refused(tmp_path):
    root = tmp_path / "Docs"
    (root / "d").mkdir(parents=True)
    (root / "f.txt").write_text("f")
    impossible = [
        {"kind": "move", "old_path": f"{root}/d", "new_path": f"{root}/d/inside"},
        {"kind": "mkdir", "new_path": f"{root}/f.txt/sub"},
        {"kind": "requalify", "old_path": f"{root}/d", "new_summary": "a folder"},
        {"kind": "rename", "old_path": f"{root}/f.txt", "new_path": f"{root}/d/g.txt"},
        {"kind": "delete", "old_path": str(root)},
        {"kind": "move", "old_path": "relative.txt", "new_path": f"{root}/r.txt"},
    ]
    found = problems([*impossible, {"kind": "explode", "old_path": f"{root}/f.txt"}], [str(root)])
    assert len(found) == 1 and "operation 7 is malformed" in found[0]  # malformed plans stop early
    found = problems(impossible, [str(root)])
    assert "cannot be moved inside itself" in found[0]
    assert "f.txt is a file, so nothing can be created inside it" in found[1]
    assert "requalify describes one file at a time" in found[2]
    assert "use kind move" in found[3]
    assert "is an indexed folder itself" in found[4]
    assert "must be an exact absolute path" in found[5]


def test_empty_plan_and_no_roots_are_refused(tmp_path):
    assert "no operations" in problems([], [str(tmp_path)])[0]
    assert "No folder is indexed yet" in problems([{"kind": "mkdir", "new_path": str(tmp_path / "x")}], [])[0]
