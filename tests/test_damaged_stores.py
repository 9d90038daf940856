"""Damaged stores and unreadable settings never stop a start (issue 11, findings 4 and 5)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from engine.config import load_settings
from engine.txn.results import Restored
from tests.cli.helpers import run_python
from tests.indexing.helpers import SAMPLE, indexed_sample, make_engine

TRAVEL = "notes/travel.txt"


def _data_files(folder: Path) -> list[Path]:
    return sorted(p for p in (folder / "vectors").rglob("data/*.lance"))


def test_a_truncated_vector_data_file_is_kept_aside_and_rebuilt_with_a_notice(tmp_path, sensetree_home):
    root, engine = indexed_sample(tmp_path, sensetree_home)
    engine.running.close()
    data = _data_files(sensetree_home)[0]
    with open(data, "r+b") as handle:
        handle.truncate(os.path.getsize(data) // 2)
    restarted = make_engine(sensetree_home)
    try:
        notices = restarted.get_config().notices
        assert any("search index was damaged" in n for n in notices), notices
        assert list((sensetree_home / "vectors").glob("*.corrupt-*"))
        assert len(restarted.parts.repair_report.reembedding) == len(SAMPLE)  # from their keyword rows
        restarted.parts.index.drain()
        assert restarted.semantic_search("Lisbon Alfama")[0].path == str(root / TRAVEL)
    finally:
        restarted.running.close()


@pytest.mark.parametrize("damage", ["header", "pages"])
def test_a_garbled_database_is_kept_aside_and_the_folders_are_rescanned(tmp_path, sensetree_home, damage):
    root, engine = indexed_sample(tmp_path, sensetree_home)
    engine.running.close()
    db = sensetree_home / "sensetree.db"
    raw = bytearray(db.read_bytes())
    if damage == "header":  # "file is not a database"
        raw[:100] = b"\x5a" * 100
    else:  # "database disk image is malformed": the header survives, every later page is garbage
        raw[4096 + 200 :] = os.urandom(len(raw) - 4096 - 200)
    db.write_bytes(bytes(raw))
    restarted = make_engine(sensetree_home)
    try:
        notices = restarted.get_config().notices
        assert any("database was damaged" in n for n in notices), notices
        assert list(sensetree_home.glob("sensetree.corrupt-*.db"))
        restarted.parts.index.drain()
        assert restarted.indexing_stats().done == len(SAMPLE)
        assert restarted.semantic_search("Lisbon Alfama")[0].path == str(root / TRAVEL)
    finally:
        restarted.running.close()


def test_a_locked_database_is_an_error_not_a_quarantine(tmp_path, sensetree_home):
    import sqlite3

    from engine.stores import is_corruption

    assert not is_corruption(sqlite3.OperationalError("database is locked"))
    assert is_corruption(sqlite3.DatabaseError("file is not a database"))


def test_a_settings_folder_is_reported_not_fatal(tmp_path, sensetree_home):
    (sensetree_home / "settings.json").mkdir()
    settings = load_settings(sensetree_home)
    assert settings.load_warning and "could not be read" in settings.load_warning
    assert settings.roots_defaulted


def test_an_unreadable_settings_file_is_reported_not_fatal(tmp_path, sensetree_home, monkeypatch):
    path = sensetree_home / "settings.json"
    path.write_text("{}", encoding="utf-8")

    def denied(self, *args, **kwargs):
        raise PermissionError(13, "Permission denied", str(self))

    monkeypatch.setattr(Path, "read_text", denied)  # as for a file chmod 0 (the tests may run as root)
    settings = load_settings(sensetree_home)
    assert settings.load_warning and "Permission denied" in settings.load_warning
    assert settings.roots_defaulted


def test_settings_kept_aside_twice_never_purge_the_index(tmp_path, sensetree_home):
    root, engine = indexed_sample(tmp_path, sensetree_home)
    engine.running.close()
    settings = sensetree_home / "settings.json"
    for _start in range(2):  # the second start used to load `roots: []` and purge everything
        settings.write_text("{ torn", encoding="utf-8")
        restarted = make_engine(sensetree_home)
        try:
            assert restarted.get_roots() == [str(root)]
            assert restarted.parts.repair_report.outside_roots == []
            assert restarted.semantic_search("Lisbon Alfama")[0].path == str(root / TRAVEL)
        finally:
            restarted.running.close()
        assert load_settings(sensetree_home).roots == [str(root)]  # a new file was written
    third = make_engine(sensetree_home)
    try:
        assert third.get_roots() == [str(root)] and third.indexing_stats().done == len(SAMPLE)
    finally:
        third.running.close()


def test_a_settings_file_without_roots_keeps_the_indexed_folders(tmp_path, sensetree_home):
    root, engine = indexed_sample(tmp_path, sensetree_home)
    engine.running.close()
    (sensetree_home / "settings.json").write_text('{"indexing": {"watch": false}}', encoding="utf-8")
    restarted = make_engine(sensetree_home)
    try:
        assert restarted.get_roots() == [str(root)]
        assert restarted.indexing_stats().done == len(SAMPLE)
        assert any("kept the 1 it has indexed" in n for n in restarted.get_config().notices)
    finally:
        restarted.running.close()
    assert load_settings(sensetree_home).indexing.watch is False  # the person's other settings stay


def test_a_start_up_purge_of_many_files_is_announced(tmp_path, sensetree_home):
    many = {f"bulk/f{i}.txt": f"bulk file number {i} about topic {i}" for i in range(7)}
    from tests.indexing.helpers import write_docs

    keep = write_docs(tmp_path / "Keep", {"a.txt": "kept file"})
    gone = write_docs(tmp_path / "Gone", many)
    engine = make_engine(sensetree_home)
    engine.add_indexed_folder(str(keep))
    engine.add_indexed_folder(str(gone))
    engine.parts.index.drain()
    engine.running.close()
    import json

    path = sensetree_home / "settings.json"
    data = json.loads(path.read_text(encoding="utf-8"))
    data["roots"] = [str(keep)]  # the person edited the file by hand
    path.write_text(json.dumps(data), encoding="utf-8")
    restarted = make_engine(sensetree_home)
    try:
        assert len(restarted.parts.repair_report.outside_roots) == 7
        assert any(
            "7 file(s) outside the indexed folders were removed" in n for n in restarted.get_config().notices
        )
    finally:
        restarted.running.close()


def test_the_trash_survives_a_garbled_database_and_restores(tmp_path, sensetree_home):
    root, engine = indexed_sample(tmp_path, sensetree_home)
    target = str(root / TRAVEL)
    plan = engine.parts.txn.propose_plan("Clean up", [{"kind": "delete", "old_path": target}])
    assert engine.apply_action_plan(plan["transaction_id"]).applied == 1
    engine.running.close()
    db = sensetree_home / "sensetree.db"
    db.write_bytes(b"garbage" * 1000)
    restarted = make_engine(sensetree_home)
    try:
        [item] = restarted.trash_list()
        assert item.original_path == target and item.transaction_id == plan["transaction_id"]
        assert restarted.trash_restore(item.item_id) == Restored(path=target)
        restarted.parts.index.drain()
        assert restarted.semantic_search("Lisbon Alfama")[0].path == target
    finally:
        restarted.running.close()


def test_the_cli_prints_start_up_notices(tmp_path, sensetree_home):
    (sensetree_home / "settings.json").write_text("{ torn", encoding="utf-8")
    done = run_python("app.py", "status")
    assert done.returncode == 0, done.stderr
    assert "Notice: Your settings file could not be read" in done.stderr


def test_damaged_vector_index_files_are_dropped_and_rebuilt_without_reindexing(tmp_path, sensetree_home):
    root, engine = indexed_sample(tmp_path, sensetree_home)
    engine.running.close()
    damaged = list((sensetree_home / "vectors").rglob("_indices/*/*.lance"))
    assert damaged  # the path B-tree that scoped searches use
    for path in damaged:
        with open(path, "r+b") as handle:
            handle.truncate(os.path.getsize(path) // 2)
    restarted = make_engine(sensetree_home)
    try:
        assert any("Part of the search index was damaged" in n for n in restarted.get_config().notices)
        assert restarted.parts.repair_report.requeued == []
        hits = restarted.semantic_search("Lisbon Alfama", scope=str(root / "notes"))
        assert hits[0].path == str(root / TRAVEL)
    finally:
        restarted.running.close()
