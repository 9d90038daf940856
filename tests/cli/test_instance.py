"""The command line talks to a running SenseTree over the single-instance socket (issue 12, item 6):
the instance here is an Engine started by the test, its Api on the socket as the window and `serve`
put it; with none running, the command opens the stores itself."""

from __future__ import annotations

import argparse
import io
import json
import socket
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from bridge.api import Api
from bridge.instance import INSTANCE_FILE, InstanceClient, Refused, SingleInstance
from cli import chat, index, status
from cli.context import Context
from cli.remote import RemoteEngine
from engine.agent import Call, ScriptedModel
from engine.embed import HashingEmbedder
from engine.engine import Engine
from tests.cli.helpers import HEAVY, indexed_home, run_cli, write_docs


def refuse_to_build(**_kwargs: Any) -> Any:
    raise AssertionError("the command opened the stores although an instance is running")


def context_for(home: Path) -> Context:
    return Context(build_engine=refuse_to_build, home=lambda: home)


@pytest.fixture
def serve_instance() -> Iterator[Any]:
    """serve_instance(engine, home): put the engine's Api on the socket recorded in `home`."""
    started: list[SingleInstance] = []

    def start(engine: Engine, home: Path) -> SingleInstance:
        instance = SingleInstance(home)
        instance.listen(on_quit=lambda: None, api=Api(engine))
        started.append(instance)
        return instance

    yield start
    for instance in started:
        instance.release()


def test_a_running_instance_answers_sensetree_search_through_the_socket(
    tmp_path, sensetree_home, serve_instance
):
    docs = indexed_home(tmp_path, sensetree_home)
    engine = Engine(sensetree_home, embedder=HashingEmbedder())  # holds the stores: a second opener fails
    try:
        serve_instance(engine, sensetree_home)
        done, modules = run_cli(["search", "orchard budget", "--json"], sensetree_home)
    finally:
        engine.running.close()
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)[0]["path"] == str(docs / "a.txt")
    assert sorted(modules & set(HEAVY)) == []  # no store, no model: the instance answered


def test_with_no_instance_running_search_opens_the_stores_itself(tmp_path, sensetree_home):
    docs = indexed_home(tmp_path, sensetree_home)
    done, modules = run_cli(["search", "orchard budget", "--json"], sensetree_home)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)[0]["path"] == str(docs / "a.txt")
    assert {"lancedb", "duckdb"} <= modules


def test_status_reports_the_running_instances_index_not_the_files_in_its_own_data_dir(
    tmp_path, serve_instance
):
    docs = write_docs(tmp_path / "Docs")
    engine = Engine(tmp_path / "engine-home", embedder=HashingEmbedder())
    try:
        engine.add_indexed_folder(str(docs))
        engine.parts.index.drain()
        cli_home = tmp_path / "cli-home"  # holds the instance file only: no database to read
        cli_home.mkdir()
        serve_instance(engine, cli_home)
        out = io.StringIO()
        assert status.run(argparse.Namespace(json=False), context_for(cli_home), out) == 0
    finally:
        engine.running.close()
    assert f"  {docs}" in out.getvalue()
    assert "Files: 2 (2 done" in out.getvalue()


def test_index_through_the_running_instance_follows_its_progress_until_the_folder_is_indexed(
    tmp_path, sensetree_home, serve_instance
):
    docs = write_docs(tmp_path / "Docs")
    engine = Engine(sensetree_home, embedder=HashingEmbedder(), background=True)
    try:
        serve_instance(engine, sensetree_home)
        out, err = io.StringIO(), io.StringIO()
        args = argparse.Namespace(paths=[str(docs)], quiet=False)
        assert index.run(args, context_for(sensetree_home), out, err) == 0
        assert engine.indexing_stats().done == 2
        assert [hit.path for hit in engine.semantic_search("greenhouse minutes")][0] == str(docs / "b.txt")
    finally:
        engine.running.close()
    assert out.getvalue().startswith("Indexed 2 file(s), 2 chunk(s)")
    assert f"Indexing {docs}" in err.getvalue() and "2/2 searchable" in err.getvalue()


def test_chat_through_the_running_instance_streams_the_steps_and_answer_of_its_own_turn(
    tmp_path, sensetree_home, serve_instance
):
    docs = indexed_home(tmp_path, sensetree_home)
    settings = json.loads((sensetree_home / "settings.json").read_text())
    settings["reasoning"] = {"enabled": True, "model": "scripted"}
    (sensetree_home / "settings.json").write_text(json.dumps(settings))
    model = ScriptedModel([[Call("search_files", {"query": "orchard"})], "The budget is in a.txt."])
    engine = Engine(sensetree_home, embedder=HashingEmbedder(), chat_model=model)
    try:
        serve_instance(engine, sensetree_home)
        parser = argparse.ArgumentParser()
        chat.add_parser(parser.add_subparsers(dest="command"))
        out = io.StringIO()
        remote = RemoteEngine(InstanceClient(sensetree_home))
        assert chat.run(parser.parse_args(["chat", "where is the budget?"]), remote, out) == 0
    finally:
        engine.running.close()
    text = out.getvalue()
    assert (
        text.index("🔍 Searching: orchard") < text.index("The budget is in a.txt.") < text.index("Sources:")
    )
    assert text.count("The budget is in a.txt.") == 1  # streamed once, not printed again
    assert str(docs / "a.txt") in text


def test_an_engine_error_from_the_instance_keeps_its_code_and_message(
    tmp_path, sensetree_home, serve_instance
):
    engine = Engine(sensetree_home, embedder=HashingEmbedder())
    try:
        serve_instance(engine, sensetree_home)
        with pytest.raises(Refused) as caught:
            InstanceClient(sensetree_home).call("semantic_search", {"query": "  "})
    finally:
        engine.running.close()
    assert caught.value.code == "invalid_input" and "Type a few words" in caught.value.message


def test_a_call_without_the_secret_gets_no_answer_and_the_file_is_private(
    tmp_path, sensetree_home, serve_instance
):
    engine = Engine(sensetree_home, embedder=HashingEmbedder())
    try:
        serve_instance(engine, sensetree_home)
        record = sensetree_home / INSTANCE_FILE
        assert record.stat().st_mode & 0o777 == 0o600
        info = json.loads(record.read_text())
        with socket.create_connection(("127.0.0.1", info["port"]), timeout=10) as conn:
            conn.sendall(b"0123456789abcdef0123456789abcdef call\n" + b'{"command": "get_config"}\n')
            assert conn.recv(4096) == b""  # closed without a byte
        forged = tmp_path / "forged"
        forged.mkdir()
        (forged / INSTANCE_FILE).write_text(json.dumps({**info, "secret": "0" * 32}))
        assert InstanceClient.find(forged) is None
        assert InstanceClient.find(sensetree_home) is not None
    finally:
        engine.running.close()


def test_with_no_instance_file_no_instance_is_found(sensetree_home):
    assert InstanceClient.find(sensetree_home) is None
    assert Context(build_engine=refuse_to_build, home=lambda: sensetree_home).running() is None
