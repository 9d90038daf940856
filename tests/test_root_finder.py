"""`RootFinder` answers as `find_root` does, resolving each folder's symbolic links once."""

from __future__ import annotations

import os

from engine import paths
from engine.paths import RootFinder, find_root


def test_root_finder_agrees_with_find_root_on_links_missing_files_and_nested_roots(tmp_path):
    docs = tmp_path / "Docs"
    (docs / "inner").mkdir(parents=True)
    (docs / "inner" / "a.txt").write_text("a", encoding="utf-8")
    outside = tmp_path / "Elsewhere"
    outside.mkdir()
    (outside / "b.txt").write_text("b", encoding="utf-8")
    os.symlink(outside / "b.txt", docs / "linked-out.txt")  # a file that leads out of the root
    os.symlink(outside, docs / "linked-folder")
    os.symlink(docs, tmp_path / "DocsLink")  # a root named through a link
    roots = [str(tmp_path / "DocsLink"), str(docs / "inner"), str(outside)]
    asked = [
        docs / "inner" / "a.txt",
        docs / "linked-out.txt",
        docs / "linked-folder" / "b.txt",
        docs / "inner" / "not-yet.txt",
        docs / "gone" / "deeper.txt",
        tmp_path / "DocsLink" / "inner" / "a.txt",
        tmp_path / "Unrelated" / "c.txt",
        docs / "inner" / ".." / "inner" / "a.txt",
        tmp_path,
    ]
    finder = RootFinder()
    for _ in range(2):  # the second round answers from what the first remembered
        for path in asked:
            assert finder.find_root(str(path), roots) == find_root(str(path), roots), path
            assert finder.normalize(str(path)) == paths.normalize(path), path


def test_files_of_one_folder_cost_one_lstat_each_once_the_folder_is_resolved(tmp_path, monkeypatch):
    folder = tmp_path / "Docs" / "a" / "b"
    folder.mkdir(parents=True)
    files = [folder / f"{n}.txt" for n in range(20)]
    for file in files:
        file.write_text("x", encoding="utf-8")
    finder = RootFinder()
    roots = [str(tmp_path / "Docs")]
    assert finder.find_root(str(files[0]), roots) == str(tmp_path / "Docs")  # the folders resolved once
    calls = 0
    lstat = os.lstat

    def counted(path, *args, **kwargs):
        nonlocal calls
        calls += 1
        return lstat(path, *args, **kwargs)

    monkeypatch.setattr(os, "lstat", counted)
    for file in files[1:]:
        assert finder.find_root(str(file), roots) == str(tmp_path / "Docs")
    assert calls == len(files) - 1
