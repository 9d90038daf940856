from __future__ import annotations

import os

import pytest

from engine.agent.bounds import Bounds
from engine.errors import OutOfBounds


def test_dotdot_cannot_climb_out_of_a_root(tmp_path):
    root = tmp_path / "Docs"
    root.mkdir()
    (tmp_path / "secret.txt").write_text("s")
    bounds = Bounds(lambda: [str(root)])
    with pytest.raises(OutOfBounds, match="outside the indexed folders"):
        bounds.check(str(root / ".." / "secret.txt"))
    assert bounds.check(str(root / "sub" / ".." / "a.txt")) == str(root / "a.txt")


def test_a_symlink_inside_a_root_that_points_outside_is_refused(tmp_path):
    root = tmp_path / "Docs"
    root.mkdir()
    outside = tmp_path / "private"
    outside.mkdir()
    (outside / "key.txt").write_text("k")
    os.symlink(outside, root / "link")
    with pytest.raises(OutOfBounds):
        Bounds(lambda: [str(root)]).check(str(root / "link" / "key.txt"))


def test_a_root_named_docs_does_not_authorise_a_sibling_named_docsevil(tmp_path):
    root = tmp_path / "Docs"
    evil = tmp_path / "DocsEvil"
    root.mkdir()
    evil.mkdir()
    bounds = Bounds(lambda: [str(root)])
    assert not bounds.allows(str(evil / "secret"))
    assert bounds.allows(str(root / "secret"))


def test_case_is_folded_only_where_the_file_system_ignores_case(tmp_path):
    root = tmp_path / "Docs"
    root.mkdir()
    other_case = str(tmp_path / "docs" / "a.txt")
    assert Bounds(lambda: [str(root)], fold_case=True).allows(other_case)
    assert not Bounds(lambda: [str(root)], fold_case=False).allows(other_case)


def test_nothing_is_refused_when_no_roots_are_configured(tmp_path):
    assert Bounds(list).check(str(tmp_path / "anything")) == str(tmp_path / "anything")


def test_the_refusal_names_the_path_and_the_indexed_folders(tmp_path):
    root = tmp_path / "Docs"
    root.mkdir()
    with pytest.raises(OutOfBounds) as info:
        Bounds(lambda: [str(root)]).check("/etc/passwd")
    assert "/etc/passwd" in info.value.message and str(root) in info.value.message
