from __future__ import annotations

import argparse
import io

from mcp.server.mcpserver import MCPServer

from cli import mcp as mcp_command
from cli.chat import add_parser, run
from engine.agent import Call, ScriptedModel
from engine.agent.service import NO_ENDPOINT
from engine.config import Settings
from tests.agent.helpers import FolderHost, cli_engine


def parse(argv: list[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser()
    commands = parser.add_subparsers(dest="command")
    add_parser(commands)
    mcp_command.add_parser(commands)
    return parser.parse_args(argv)


def test_chat_prints_steps_as_they_happen_streams_the_answer_and_lists_sources(tmp_path, make_agent):
    (tmp_path / "invoice.txt").write_text("Invoice total 1200 EUR")
    model = ScriptedModel([[Call("search_files", {"query": "invoice"})], "The total is 1200 EUR."])
    agent, bus, _seen = make_agent(FolderHost([tmp_path]), model)
    out = io.StringIO()
    code = run(parse(["chat", "invoice total?"]), cli_engine(agent, bus), out)
    text = out.getvalue()
    assert code == 0
    assert text.index("🔍 Searching: invoice") < text.index("The total is 1200 EUR.") < text.index("Sources:")
    assert text.count("The total is 1200 EUR.") == 1
    assert f"[1] invoice.txt  {tmp_path / 'invoice.txt'}" in text


def test_chat_prints_a_proposed_plan_as_before_and_after_with_its_transaction_id(tmp_path, make_agent):
    (tmp_path / "a.txt").write_text("a")
    ops = [
        {"kind": "mkdir", "new_path": str(tmp_path / "Old"), "reason": "archive"},
        {
            "kind": "move",
            "old_path": str(tmp_path / "a.txt"),
            "new_path": str(tmp_path / "Old" / "a.txt"),
            "reason": "old file",
        },
    ]
    host = FolderHost([tmp_path])
    model = ScriptedModel([[Call("propose_actions", {"summary": "Archive a", "operations": ops})]])
    agent, bus, _seen = make_agent(host, model)
    out = io.StringIO()
    run(parse(["chat", "archive a.txt", "--scope", str(tmp_path)]), cli_engine(agent, bus), out)
    text = out.getvalue()
    tid = host.drafts[0]["transaction_id"]
    assert f"Action plan {tid}: Archive a" in text
    assert f"move      {tmp_path / 'a.txt'} → {tmp_path / 'Old' / 'a.txt'}" in text
    assert f"sensetree apply {tid}" in text and (tmp_path / "a.txt").exists()


def test_mcp_list_prints_each_tool_with_its_prefixed_name(tmp_path, make_agent):
    server = MCPServer("notes")

    @server.tool()
    def shout(text: str) -> str:
        """Repeat the text in capitals."""
        return text.upper()

    agent, bus, _seen = make_agent(
        FolderHost([tmp_path]), ScriptedModel([]), mcp_in_process={"notes": server}
    )
    out = io.StringIO()
    assert mcp_command.run(parse(["mcp", "list"]), cli_engine(agent, bus), out) == 0
    assert out.getvalue() == "mcp__notes__shout  Repeat the text in capitals.  (asks before running)\n"


def test_chat_continue_resumes_the_newest_conversation_with_its_history_and_list_shows_it(
    tmp_path, make_agent
):
    model = ScriptedModel(["Paris.", "About 2.1 million people."])
    agent, bus, _seen = make_agent(FolderHost([tmp_path]), model)
    engine = cli_engine(agent, bus)
    run(parse(["chat", "Capital of France?"]), engine, io.StringIO())
    out = io.StringIO()
    assert run(parse(["chat", "--continue", "How many live there?"]), engine, out) == 0
    sent = [(m["role"], m["content"]) for m in model.requests[1].messages if m["role"] != "system"]
    assert sent == [("user", "Capital of France?"), ("assistant", "Paris."), ("user", "How many live there?")]
    listing = io.StringIO()
    run(parse(["chat", "--list"]), engine, listing)
    rows = listing.getvalue().splitlines()
    assert len(rows) == 1 and rows[0].endswith("2 turn(s)  Capital of France?")
    exported = io.StringIO()
    run(parse(["chat", "--export", rows[0].split()[0]]), engine, exported)
    assert (
        exported.getvalue().startswith("# Capital of France?\n")
        and "About 2.1 million people." in exported.getvalue()
    )


def test_chat_without_an_endpoint_tells_a_terminal_user_the_config_commands_not_the_settings_screen(
    tmp_path, make_agent
):
    agent, bus, _seen = make_agent(FolderHost([tmp_path]), ScriptedModel([]), settings=Settings())
    out = io.StringIO()
    code = run(parse(["chat", "hello?"]), cli_engine(agent, bus), out)
    text = out.getvalue()
    assert code == 1 and NO_ENDPOINT.split(". ")[0] in text
    assert "Settings → Reasoning" not in text
    assert "sensetree config set reasoning.base_url http://" in text
    assert "sensetree config set reasoning.enabled true" in text
