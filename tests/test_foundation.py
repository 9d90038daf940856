"""Settings, SQLite and path rules: the pieces everything else stands on."""

from __future__ import annotations

import json
import os
import threading

import pytest

from engine.config import MASK, Settings, apply_patch, data_dir, load_settings, masked, save_settings
from engine.db import Database
from engine.errors import InvalidInput
from engine.events import EventBus
from engine.paths import find_root, is_within, normalize


def test_data_dir_follows_sensetree_home(sensetree_home):
    assert data_dir() == sensetree_home


def test_corrupt_settings_file_is_kept_aside_and_reported(sensetree_home):
    (sensetree_home / "settings.json").write_text("{ not json", encoding="utf-8")
    settings = load_settings()
    assert settings.load_warning and "could not be read" in settings.load_warning
    kept = list(sensetree_home.glob("settings.corrupt-*.json"))
    assert len(kept) == 1 and kept[0].read_text(encoding="utf-8") == "{ not json"
    assert not (sensetree_home / "settings.json").exists()


def test_settings_round_trip_and_masked_secrets_survive_a_patch(sensetree_home):
    settings = apply_patch(Settings(), {"reasoning": {"api_key": "sk-secret", "model": "m1"}})
    save_settings(settings)
    shown = masked(load_settings())
    assert shown["reasoning"]["api_key"] == MASK and shown["reasoning"]["model"] == "m1"
    again = apply_patch(load_settings(), shown | {"reasoning": shown["reasoning"] | {"model": "m2"}})
    assert again.reasoning.api_key == "sk-secret" and again.reasoning.model == "m2"
    on_disk = json.loads((sensetree_home / "settings.json").read_text())
    assert "mcpServers" in on_disk


def test_invalid_settings_patch_is_refused_with_a_message():
    with pytest.raises(InvalidInput):
        apply_patch(Settings(), {"embedding": {"device": "quantum"}})


def test_nested_atomic_rolls_back_only_the_inner_savepoint(tmp_path):
    db = Database(tmp_path / "t.db")
    db.migrate([("t1", "CREATE TABLE t (x INTEGER)")])
    with db.atomic():
        db.execute("INSERT INTO t VALUES (1)")
        with pytest.raises(RuntimeError), db.atomic():
            db.execute("INSERT INTO t VALUES (2)")
            raise RuntimeError("inner failure")
    assert [r["x"] for r in db.query("SELECT x FROM t")] == [1]


def test_migrations_apply_once_and_record_themselves(tmp_path):
    db = Database(tmp_path / "t.db")
    migrations = [("a", "CREATE TABLE a (x INTEGER);\nCREATE INDEX a_x ON a(x);")]
    assert db.migrate(migrations) == ["a"]
    assert db.migrate(migrations) == []
    assert db.one("SELECT count(*) AS n FROM _migrations WHERE name = 'a'")["n"] == 1


def test_each_thread_gets_its_own_connection(tmp_path):
    db = Database(tmp_path / "t.db")
    seen = []
    thread = threading.Thread(target=lambda: seen.append(db.conn))
    thread.start()
    thread.join(10)
    assert seen and seen[0] is not db.conn


def test_root_contains_paths_only_on_segment_boundaries(tmp_path):
    docs = tmp_path / "Docs"
    evil = tmp_path / "DocsEvil"
    docs.mkdir()
    evil.mkdir()
    assert is_within(normalize(docs / "a.txt"), normalize(docs))
    assert not is_within(normalize(evil / "secret"), normalize(docs))
    assert find_root(str(docs / ".." / "DocsEvil" / "x"), [str(docs)]) is None


def test_symlink_out_of_a_root_resolves_outside_it(tmp_path):
    root = tmp_path / "root"
    outside = tmp_path / "outside"
    root.mkdir()
    outside.mkdir()
    os.symlink(outside, root / "link")
    assert find_root(str(root / "link" / "f.txt"), [str(root)]) is None


def test_a_failing_event_handler_does_not_stop_the_others():
    bus = EventBus()
    got = []
    bus.subscribe(lambda t, p: (_ for _ in ()).throw(RuntimeError("boom")))
    bus.subscribe(lambda t, p: got.append((t, p)), "indexing-progress")
    bus.publish("indexing-progress", {"done": 1})
    bus.publish("agent-step", {"text": "x"})
    assert got == [("indexing-progress", {"done": 1})]


def test_a_null_mcp_server_in_a_patch_removes_that_server():
    settings = apply_patch(
        Settings(), {"mcpServers": {"time": {"command": "t"}, "files": {"url": "http://127.0.0.1:1/mcp"}}}
    )
    settings = apply_patch(settings, {"mcpServers": {"time": None}})
    assert list(settings.mcp_servers) == ["files"]
