"""Files that hold no text are found by what they are and where they sit: installers by "installer",
tool folders as one block each, never file by file."""

from __future__ import annotations

import os

from engine.indexing.crawl import crawl
from engine.indexing.descriptors import describe_file, describe_folder, is_tool_folder
from engine.indexing.scan import scan_root
from tests.indexing.helpers import SAMPLE, indexed_engine, write_docs

BYTES = bytes(range(256)) * 8


def test_every_installer_kind_is_found_by_the_word_installer(tmp_path, sensetree_home):
    root = write_docs(tmp_path / "Docs", SAMPLE)
    installers = [root / "Downloads" / n for n in ("setup.exe", "printer.deb", "agent.msi", "Player.dmg")]
    installers[0].parent.mkdir()
    for path in installers:  # each its own content: identical copies would be one search row
        path.write_bytes(path.name.encode() + BYTES)
    (root / "Downloads" / "holiday.zip").write_bytes(BYTES)
    with indexed_engine(root, sensetree_home) as engine:
        found = [hit.path for hit in engine.semantic_search("installer", limit=10)]
    assert set(found[:4]) == {str(p) for p in installers}


def test_a_descriptor_says_kind_size_folder_and_fifteen_sibling_names(tmp_path):
    folder = tmp_path / "Camera"
    folder.mkdir()
    for n in range(20):
        (folder / f"note{n:02}.txt").write_text("x")
    photo = folder / "IMG_0001.jpg"
    photo.write_bytes(b"\xff" * 2500)
    text = describe_file(str(photo))
    assert "Kind: photo" in text and "Size: 2.5 KB" in text
    assert f"Folder: Camera ({folder})" in text
    assert "Beside it: note00.txt, note01.txt" in text and "note14.txt and 5 more" in text
    assert "IMG_0001.jpg" not in text.split("Beside it:")[1]


def test_a_binary_is_catalogued_with_its_descriptor_as_its_one_chunk(tmp_path, sensetree_home):
    root = write_docs(tmp_path / "Docs", SAMPLE)
    (root / "invoices" / "scan-backup.iso").write_bytes(BYTES)
    with indexed_engine(root, sensetree_home) as engine:
        record = engine.parts.index.catalog.get(str(root / "invoices" / "scan-backup.iso"))
        hits = engine.semantic_search("disk image next to acme-2024.txt", limit=3)
    assert record.status == "skipped" and record.doc_type == "binary" and record.chunks == 1
    assert hits[0].path == str(root / "invoices" / "scan-backup.iso")


def test_node_modules_is_listed_as_one_block_with_its_file_count(tmp_path, sensetree_home):
    root = write_docs(tmp_path / "Docs", SAMPLE)
    modules = root / "webshop" / "node_modules"
    for n in range(7):
        (modules / f"pkg{n}").mkdir(parents=True)
        (modules / f"pkg{n}" / "index.js").write_text("module.exports = 1")
    (root / "webshop" / "package.json").write_text('{"name": "webshop"}')
    with indexed_engine(root, sensetree_home) as engine:
        record = engine.parts.index.catalog.get(str(modules))
        under = [r.path for r in engine.parts.index.catalog.under(str(modules))]
        hits = engine.semantic_search("JavaScript dependencies of the webshop", limit=3)
    assert record.status == "skipped" and record.doc_type == "folder"
    assert record.sense == "node_modules: 7 files, JavaScript dependencies (npm packages)"
    assert under == [str(modules)]
    assert hits[0].path == str(modules)


def test_an_unchanged_tool_folder_is_not_queued_again_by_a_rescan(tmp_path, sensetree_home):
    root = write_docs(tmp_path / "Docs", SAMPLE)
    (root / "tool" / "node_modules" / "a").mkdir(parents=True)
    with indexed_engine(root, sensetree_home) as engine:
        report = scan_root(str(root), engine.parts.index.catalog, engine.parts.index.queue)
        record = engine.parts.index.catalog.get(str(root / "tool" / "node_modules"))
    assert report.seen == len(SAMPLE) + 1 and report.queued == 0 and report.removed == 0
    assert record.sense == "node_modules: 0 files, JavaScript dependencies (npm packages)"


def test_crawl_lists_tool_folders_as_entries_only_when_asked(tmp_path):
    for rel in ("p/node_modules/x/i.js", "p/env/pyvenv.cfg", "p/env/lib/m.py", "p/__pycache__/m.pyc"):
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / rel).write_text("x")
    plain = [os.path.relpath(e.path, tmp_path) for e in crawl(str(tmp_path))]
    blocks = [os.path.relpath(e.path, tmp_path) for e in crawl(str(tmp_path), blocks=is_tool_folder)]
    assert plain == [] and sorted(blocks) == ["p/env", "p/node_modules"]


def test_a_virtualenv_block_says_what_it_is_whatever_its_name(tmp_path):
    venv = tmp_path / "proj" / "env"
    (venv / "lib").mkdir(parents=True)
    (venv / "pyvenv.cfg").write_text("home = /usr/bin")
    (venv / "lib" / "m.py").write_text("x")
    text = describe_folder(str(venv), "Python virtual environment (installed packages)")
    assert text.startswith("env: 2 files, Python virtual environment") and "Project folder: proj" in text
