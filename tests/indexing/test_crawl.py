"""Crawl skip rules on real folder trees: segments not substrings, build outputs only in projects,
virtualenvs by their marker, symlinks loop-safe and never out of the root."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from engine.errors import NotFound
from engine.indexing.crawl import FileEntry, crawl, is_skipped

needs_symlinks = pytest.mark.skipif(
    not hasattr(os, "symlink") or os.name == "nt", reason="needs POSIX symlinks"
)


def make(root: Path, *relative: str) -> None:
    for name in relative:
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(f"contents of {name}")


def crawled(root: Path) -> list[str]:
    return [os.path.relpath(entry.path, root) for entry in crawl(str(root))]


def test_crawl_lists_a_folders_files_before_its_subfolders_in_name_order_with_size_and_mtime(tmp_path):
    make(tmp_path, "b.txt", "a/z.md", "a/c.pdf")
    entries = list(crawl(str(tmp_path)))
    assert [os.path.relpath(entry.path, tmp_path) for entry in entries] == ["b.txt", "a/c.pdf", "a/z.md"]
    info = os.stat(tmp_path / "b.txt")
    assert entries[0] == FileEntry(str(tmp_path / "b.txt"), info.st_size, info.st_mtime)


def test_node_modules_is_skipped_but_a_folder_merely_containing_the_word_is_not(tmp_path):
    make(
        tmp_path, "app/node_modules/left-pad/index.js", "my_node_modules_notes/ideas.txt", "node_modules.txt"
    )
    assert sorted(crawled(tmp_path)) == ["my_node_modules_notes/ideas.txt", "node_modules.txt"]


def test_hidden_entries_and_tool_folders_are_skipped(tmp_path):
    make(
        tmp_path,
        ".git/config",
        ".secret.txt",
        "src/__pycache__/m.cpython-311.pyc",
        ".Trash-1000/files/x.txt",
        "lib/site-packages/pkg/mod.py",
        "$RECYCLE.BIN/old.doc",
        "System Volume Information/tracking.log",
        "keep/notes.txt",
    )
    assert crawled(tmp_path) == ["keep/notes.txt"]


def test_build_folder_of_a_python_project_is_skipped_but_a_persons_target_folder_is_kept(tmp_path):
    make(
        tmp_path,
        "Docs/pyproject.toml",
        "Docs/build/lib/module.py",
        "Docs/dist/pkg.tar.gz.txt",
        "Documents/target/goals-2025.txt",
        "Documents/Build plans/shed.txt",
        "Documents/build/deck.txt",
    )
    assert sorted(crawled(tmp_path)) == [
        "Docs/pyproject.toml",
        "Documents/Build plans/shed.txt",
        "Documents/build/deck.txt",
        "Documents/target/goals-2025.txt",
    ]


def test_rust_target_and_node_dist_are_skipped_next_to_their_project_files(tmp_path):
    make(tmp_path, "tool/Cargo.toml", "tool/target/debug/tool.d", "site/package.json", "site/dist/bundle.js")
    assert sorted(crawled(tmp_path)) == ["site/package.json", "tool/Cargo.toml"]


def test_virtualenv_is_skipped_by_its_marker_whatever_its_name(tmp_path):
    make(
        tmp_path,
        "env/pyvenv.cfg",
        "env/lib/python3.11/os.py",
        "project-env/pyvenv.cfg",
        "project-env/bin/activate",
        "env-notes/env.txt",
        "venv/readme.txt",
    )
    assert sorted(crawled(tmp_path)) == ["env-notes/env.txt", "venv/readme.txt"]


def test_junk_files_and_app_bundles_are_skipped(tmp_path):
    make(
        tmp_path,
        "Thumbs.db",
        "desktop.ini",
        "~$report.docx",
        "download.part",
        "video.crdownload",
        "swap.tmp",
        "Mail.app/Contents/Info.plist",
        "Photos Library.photoslibrary/database/photos.db",
        "report.docx",
        "approach.txt",
    )
    assert sorted(crawled(tmp_path)) == ["approach.txt", "report.docx"]


@needs_symlinks
def test_symlink_loop_terminates_and_each_file_is_listed_once(tmp_path):
    make(tmp_path, "a/b/deep.txt")
    os.symlink(tmp_path / "a", tmp_path / "a" / "b" / "back-to-a")
    os.symlink(tmp_path, tmp_path / "a" / "to-root")
    assert crawled(tmp_path) == ["a/b/deep.txt"]


@needs_symlinks
def test_symlinked_folder_inside_the_root_is_listed_under_its_real_path_once(tmp_path):
    root = tmp_path / "root"
    make(root, "real/photo-notes.txt")
    os.symlink(root / "real", root / "alias")
    assert crawled(root) == ["real/photo-notes.txt"]


@needs_symlinks
def test_symlink_pointing_outside_the_root_is_not_followed(tmp_path):
    make(tmp_path, "outside/secret.txt", "root/inside.txt")
    os.symlink(tmp_path / "outside", tmp_path / "root" / "escape")
    os.symlink(tmp_path / "outside" / "secret.txt", tmp_path / "root" / "secret-link.txt")
    assert crawled(tmp_path / "root") == ["inside.txt"]


@pytest.mark.skipif(
    os.name != "posix" or os.geteuid() == 0, reason="needs POSIX permissions and a non-root user"
)
def test_unreadable_folder_is_skipped_without_raising(tmp_path):
    make(tmp_path, "locked/a.txt", "open/b.txt")
    (tmp_path / "locked").chmod(0)
    try:
        assert crawled(tmp_path) == ["open/b.txt"]
    finally:
        (tmp_path / "locked").chmod(0o755)


def test_files_that_vanish_during_the_crawl_are_skipped_without_raising(tmp_path):
    make(tmp_path, "first/a.txt", "second/b.txt", "second/c.txt")
    walk = crawl(str(tmp_path))
    assert os.path.relpath(next(walk).path, tmp_path) == "first/a.txt"
    (tmp_path / "second" / "b.txt").unlink()
    (tmp_path / "second" / "c.txt").unlink()
    (tmp_path / "second").rmdir()
    assert list(walk) == []


def test_missing_root_raises_not_found_instead_of_looking_empty(tmp_path):
    with pytest.raises(NotFound):
        list(crawl(str(tmp_path / "unplugged-drive")))


def test_is_skipped_applies_the_same_segment_rules_to_one_path(tmp_path):
    make(tmp_path, "Docs/pyproject.toml", "Docs/build/x.py", "Documents/target/t.txt", "venv/pyvenv.cfg")
    root = str(tmp_path)
    assert is_skipped(str(tmp_path / "app/node_modules/pkg/index.js"), root)
    assert not is_skipped(str(tmp_path / "my_node_modules_notes/ideas.txt"), root)
    assert is_skipped(str(tmp_path / "Docs/build/x.py"), root)
    assert not is_skipped(str(tmp_path / "Documents/target/t.txt"), root)
    assert is_skipped(str(tmp_path / "venv/lib/site.py"), root)
    assert is_skipped(str(tmp_path / "notes/~$draft.docx"), root)
    assert is_skipped(str(tmp_path / "notes/.hidden.md"), root)
    assert not is_skipped(str(tmp_path / "notes/draft.docx"), root)


def test_is_skipped_is_true_outside_the_root_and_false_for_the_root_itself(tmp_path):
    root = tmp_path / ".config" / "Docs"
    root.mkdir(parents=True)
    assert not is_skipped(str(root), str(root))
    assert not is_skipped(str(root / "a.txt"), str(root))
    assert is_skipped(str(tmp_path / "DocsEvil" / "a.txt"), str(tmp_path / "Docs"))


def test_hidden_root_is_still_crawled(tmp_path):
    make(tmp_path, ".dotfiles/Docs/readme.md")
    assert crawled(tmp_path / ".dotfiles") == ["Docs/readme.md"]
