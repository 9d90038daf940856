"""`sensetree chat` asks on the terminal before an MCP call that may change things; no terminal: deny."""

from __future__ import annotations

import argparse
import io

import pytest

from cli.chat import add_parser, run
from engine.agent import Call, ScriptedModel
from tests.agent.approval_support import files_server
from tests.agent.helpers import FolderHost, cli_engine

WRITE = [Call("mcp__files__write_note", {"name": "todo.txt", "text": "HACKED"})]


class Keyboard(io.StringIO):
    """What a person types at a terminal."""

    def isatty(self) -> bool:
        return True


def _chat(agent, bus, stdin) -> str:
    parser = argparse.ArgumentParser()
    add_parser(parser.add_subparsers(dest="command"))
    out = io.StringIO()
    run(parser.parse_args(["chat", "update my note"]), cli_engine(agent, bus), out, stdin)
    return out.getvalue()


@pytest.fixture
def notes(tmp_path):
    (tmp_path / "todo.txt").write_text("buy milk\n", encoding="utf-8")
    return tmp_path


@pytest.mark.parametrize(("typed", "written"), [("o\n", True), ("a\n", True), ("\n", False), ("n\n", False)])
def test_the_terminal_prompt_shows_the_call_and_only_o_or_a_let_it_run(notes, make_agent, typed, written):
    model = ScriptedModel([WRITE, "done"])
    agent, bus, _seen = make_agent(FolderHost([notes]), model, mcp_in_process={"files": files_server(notes)})
    text = _chat(agent, bus, Keyboard(typed))
    assert "Allow mcp__files__write_note? [o]nce/[a]lways/[D]eny" in text
    assert "files wants to run write_note: Write a note, replacing what was there." in text
    assert '"text": "HACKED"' in text
    assert ((notes / "todo.txt").read_text() == "HACKED") is written


def test_without_a_terminal_every_call_that_asks_is_denied(notes, make_agent):
    model = ScriptedModel([WRITE, "done"])
    agent, bus, _seen = make_agent(FolderHost([notes]), model, mcp_in_process={"files": files_server(notes)})
    text = _chat(agent, bus, io.StringIO("o\n"))
    assert "Denied mcp__files__write_note: no terminal to ask on" in text and "[o]nce" not in text
    assert (notes / "todo.txt").read_text() == "buy milk\n"
    assert "refused" in [m for m in model.requests[1].messages if m["role"] == "tool"][0]["content"]


def test_there_is_no_allow_tools_flag():
    parser = argparse.ArgumentParser()
    add_parser(parser.add_subparsers(dest="command"))
    with pytest.raises(SystemExit):
        parser.parse_args(["chat", "x", "--allow-tools"])
