"""engine/roots.py: the one bounds rule and the one listing, including the ≥ 10,000-path bounds fuzz."""

from __future__ import annotations

import dataclasses
import os
import unicodedata

import pytest

from engine.errors import NotFound, OutOfBounds
from engine.paths import case_insensitive_fs
from engine.roots import LIST_LIMIT, Entry, Roots
from tests.bounds_world import NFD_NAME, build_world, generated_paths, physically_inside


def _roots(*folders) -> Roots:
    paths = [str(f) for f in folders]
    return Roots(lambda: paths)


def test_dotdot_cannot_climb_out_of_a_root(tmp_path):
    root = tmp_path / "Docs"
    root.mkdir()
    (tmp_path / "secret.txt").write_text("s")
    roots = _roots(root)
    with pytest.raises(OutOfBounds, match="outside the indexed folders"):
        roots.require(str(root / ".." / "secret.txt"))
    assert roots.require(str(root / "sub" / ".." / "a.txt")) == str(root / "a.txt")


def test_a_symlink_inside_a_root_that_points_outside_is_refused(tmp_path):
    root, outside = tmp_path / "Docs", tmp_path / "private"
    root.mkdir()
    outside.mkdir()
    (outside / "key.txt").write_text("k")
    os.symlink(outside, root / "link")
    with pytest.raises(OutOfBounds):
        _roots(root).require(str(root / "link" / "key.txt"))


def test_a_root_named_docs_does_not_authorise_a_sibling_named_docsevil(tmp_path):
    root, evil = tmp_path / "Docs", tmp_path / "DocsEvil"
    root.mkdir()
    evil.mkdir()
    roots = _roots(root)
    assert not roots.allows(str(evil / "secret"))
    assert roots.allows(str(root / "secret"))


def test_case_is_folded_only_where_the_file_system_ignores_case(tmp_path):
    root = tmp_path / "Docs"
    root.mkdir()
    other_case = str(tmp_path / "docs" / "a.txt")
    assert Roots(lambda: [str(root)], fold_case=True).allows(other_case)
    assert not Roots(lambda: [str(root)], fold_case=False).allows(other_case)


def test_with_no_roots_nothing_is_in_bounds_and_the_refusal_says_where_to_add_a_folder(tmp_path):
    with pytest.raises(OutOfBounds) as info:
        Roots(list).require(str(tmp_path / "anything"))
    assert "Folders & indexing" in info.value.message
    assert not Roots(list).allows(str(tmp_path))


def test_the_refusal_names_the_path_the_indexed_folders_and_where_to_add_one(tmp_path):
    root = tmp_path / "Docs"
    root.mkdir()
    with pytest.raises(OutOfBounds) as info:
        _roots(root).require("/etc/passwd")
    message = info.value.message
    assert "/etc/passwd" in message and str(root) in message and "Folders & indexing" in message


@pytest.mark.parametrize("bad", ["", "   ", "relative/a.txt", "a\x00b", None, 7])
def test_empty_relative_nul_and_non_string_paths_are_refused_as_out_of_bounds(tmp_path, bad):
    root = tmp_path / "Docs"
    root.mkdir()
    with pytest.raises(OutOfBounds):
        _roots(root).require(bad)  # type: ignore[arg-type]


def test_a_symlink_loop_inside_a_root_is_refused(tmp_path):
    root = tmp_path / "Docs"
    root.mkdir()
    os.symlink("loop", root / "loop")
    with pytest.raises(OutOfBounds, match="loops"):
        _roots(root).require(str(root / "loop"))
    with pytest.raises(OutOfBounds, match="loops"):
        _roots(root).require(str(root / "loop" / "deeper.txt"))


def test_keep_link_keeps_the_last_name_and_checks_where_the_link_points(tmp_path):
    root, outside = tmp_path / "Docs", tmp_path / "private"
    (root / "sub").mkdir(parents=True)
    outside.mkdir()
    os.symlink(root / "sub", root / "inner")
    os.symlink(outside, root / "out")
    roots = _roots(root)
    assert roots.require(str(root / "inner"), keep_link=True) == str(root / "inner")
    assert roots.require(str(root / "inner")) == str(root / "sub")
    with pytest.raises(OutOfBounds):
        roots.require(str(root / "out"), keep_link=True)


def test_root_of_is_the_deepest_root_holding_the_path(tmp_path):
    outer, inner = tmp_path / "a", tmp_path / "a" / "b"
    inner.mkdir(parents=True)
    roots = _roots(outer, inner)
    assert roots.root_of(str(inner / "x.txt")) == str(inner)
    assert roots.root_of(str(outer / "y.txt")) == str(outer)
    assert roots.root_of(str(tmp_path / "elsewhere")) is None
    assert roots.root_of("bad\x00path") is None


def test_roots_are_read_afresh_on_every_call(tmp_path):
    configured: list[str] = []
    roots = Roots(lambda: configured)
    assert not roots.allows(str(tmp_path / "a"))
    configured.append(str(tmp_path))
    assert roots.allows(str(tmp_path / "a"))


def test_nfd_spelling_of_an_nfc_root_is_outside_where_the_file_system_tells_them_apart(tmp_path):
    world = build_world(tmp_path)
    nfd_secret = str(tmp_path / NFD_NAME / "secret.txt")
    same_folder = os.path.samefile(world.cafe, tmp_path / NFD_NAME)
    assert Roots(lambda: world.roots).allows(nfd_secret) is same_folder


def test_listing_puts_folders_first_hides_dot_files_and_joins_exact_paths(tmp_path):
    root = tmp_path / "Docs"
    (root / "Zeta").mkdir(parents=True)
    (root / "alpha").mkdir()
    (root / "b.txt").write_text("12345")
    (root / "A.txt").write_text("1")
    (root / ".secret").write_text("x")
    entries = _roots(root).listing(str(root))
    assert [e.name for e in entries] == ["alpha", "Zeta", "A.txt", "b.txt"]
    b = entries[3]
    assert b == Entry(str(root / "b.txt"), "b.txt", False, 5, b.modified) and b.modified
    assert entries[0].is_dir and entries[0].size is None
    assert ".secret" in [e.name for e in _roots(root).listing(str(root), hidden=True)]


def test_entry_is_frozen(tmp_path):
    with pytest.raises(dataclasses.FrozenInstanceError):
        Entry("/a", "a", False, 1, 0.0).name = "b"  # type: ignore[misc]


def test_listing_goes_breadth_first_to_the_depth_and_stops_at_the_limit(tmp_path):
    root = tmp_path / "Docs"
    (root / "one" / "two" / "three").mkdir(parents=True)
    (root / "one" / "two" / "deep.txt").write_text("d")
    (root / "top.txt").write_text("t")
    roots = _roots(root)
    shallow = [os.path.relpath(e.path, root) for e in roots.listing(str(root))]
    assert shallow == ["one", "top.txt"]
    deeper = [os.path.relpath(e.path, root) for e in roots.listing(str(root), depth=2)]
    assert deeper == ["one", "top.txt", os.path.join("one", "two")]
    assert len(roots.listing(str(root), depth=5, limit=3)) == 3
    assert LIST_LIMIT == 200


def test_listing_shows_symlinks_but_never_follows_them_out(tmp_path):
    root, outside = tmp_path / "Docs", tmp_path / "private"
    root.mkdir()
    outside.mkdir()
    (outside / "secret.txt").write_text("s")
    os.symlink(outside, root / "out")
    entries = _roots(root).listing(str(root), depth=3)
    assert [(e.name, e.is_dir) for e in entries] == [("out", False)]


def test_listing_refuses_a_folder_outside_and_a_file(tmp_path):
    root = tmp_path / "Docs"
    root.mkdir()
    (root / "a.txt").write_text("a")
    with pytest.raises(OutOfBounds):
        _roots(root).listing(str(tmp_path))
    with pytest.raises(NotFound):
        _roots(root).listing(str(root / "a.txt"))


def test_fuzz_ten_thousand_hostile_paths_never_leave_the_roots(tmp_path):
    """Every accepted path is inside a root by the kernel's own account (inode walk), every refusal is
    OutOfBounds, and both outcomes occur often enough that the fuzz means something."""
    world = build_world(tmp_path)
    roots = Roots(lambda: world.roots)
    accepted = refused = 0
    for path in generated_paths(world, 10_000):
        try:
            target = roots.require(path)
        except OutOfBounds:
            refused += 1
            assert not roots.allows(path)
            continue
        accepted += 1
        assert physically_inside(target, world.roots), (path, target)
        assert roots.root_of(path) is not None
        if os.path.isdir(target):
            for entry in roots.listing(target, depth=2):
                assert physically_inside(entry.path, world.roots) or os.path.islink(entry.path), entry
    assert accepted > 500 and refused > 1000, (accepted, refused)


def test_fuzz_every_inside_file_stays_reachable_under_harmless_spellings(tmp_path):
    world = build_world(tmp_path)
    roots = Roots(lambda: world.roots)
    for path in world.inside_files:
        folder, name = os.path.split(path)
        for spelling in (path, f"{folder}/./{name}", f"{folder}//{name}", f"{folder}/sub/../{name}"):
            assert roots.require(spelling) == path
    if case_insensitive_fs(str(world.docs)):
        assert roots.allows(str(world.docs).swapcase())
    assert unicodedata.normalize("NFC", str(world.cafe)) == str(world.cafe)
