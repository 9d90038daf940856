from __future__ import annotations

import sys
from contextlib import asynccontextmanager
from pathlib import Path

import psutil
from mcp.server.mcpserver import MCPServer
from mcp.types import ToolAnnotations

from engine.agent import Call, ScriptedModel
from engine.agent.mcp import tool_name
from engine.config import McpServer
from tests.agent.helpers import FolderHost, chat_settings


def notes_server(sessions: list[int] | None = None) -> MCPServer:
    @asynccontextmanager
    async def lifespan(_server: MCPServer):
        if sessions is not None:
            sessions.append(1)
        yield {}

    server = MCPServer("notes", lifespan=lifespan)
    read_only = ToolAnnotations(read_only_hint=True)  # these tests are about the session, not approval

    @server.tool(annotations=read_only)
    def shout(text: str) -> str:
        """Repeat the text in capitals."""
        return text.upper()

    @server.tool(annotations=read_only)
    def explode(reason: str) -> str:
        """Always fails."""
        raise ValueError(reason)

    return server


def test_tool_names_are_prefixed_sanitised_and_capped_at_64_characters():
    assert tool_name("my server", "get.time") == "mcp__my_server__get_time"
    assert len(tool_name("s" * 50, "t" * 50)) == 64


def test_in_process_server_tools_are_listed_with_the_server_named(tmp_path, make_agent):
    agent, _bus, _seen = make_agent(
        FolderHost([tmp_path]), ScriptedModel([]), mcp_in_process={"notes": notes_server()}
    )
    rows = [r.model_dump() for r in agent.list_mcp_tools()]  # the JSON Settings reads
    assert {r["name"] for r in rows} == {"mcp__notes__shout", "mcp__notes__explode"}
    assert all(r["server"] == "notes" and "error" not in r for r in rows)


def test_an_mcp_tool_is_called_through_a_turn_like_any_other_tool(tmp_path, make_agent):
    model = ScriptedModel([[Call("mcp__notes__shout", {"text": "hello"})], "It says HELLO."])
    agent, _bus, _seen = make_agent(FolderHost([tmp_path]), model, mcp_in_process={"notes": notes_server()})
    result = agent.chat_with_assistant([{"role": "user", "content": "shout hello"}])
    assert result.steps == ["🔌 notes: shout"] and result.answer == "It says HELLO."
    spec = next(t for t in model.requests[0].tools or [] if t["function"]["name"] == "mcp__notes__shout")
    assert spec["function"]["description"] == "[notes] Repeat the text in capitals."
    assert spec["function"]["parameters"]["required"] == ["text"]
    assert model.requests[1].messages[-1]["content"] == "HELLO"


def test_mcp_errors_and_long_output_come_back_as_observations(tmp_path, make_agent):
    settings = chat_settings(mcp_output_chars=10)
    model = ScriptedModel(
        [
            [
                Call("mcp__notes__explode", {"reason": "disk on fire"}),
                Call("mcp__notes__shout", {"text": "a" * 50}),
            ],
            "done",
        ]
    )
    agent, _bus, _seen = make_agent(
        FolderHost([tmp_path]), model, settings=settings, mcp_in_process={"notes": notes_server()}
    )
    agent.chat_with_assistant([{"role": "user", "content": "go"}])
    explode, shout = [m["content"] for m in model.requests[1].messages if m["role"] == "tool"]
    assert explode.startswith("Error from MCP server 'notes' tool explode")
    assert shout.startswith("A" * 10 + "\n[… output truncated: 40 more characters]")


def test_the_session_stays_open_across_calls_and_turns(tmp_path, make_agent):
    sessions: list[int] = []
    call = [Call("mcp__notes__shout", {"text": "x"})]
    model = ScriptedModel([call, call, "one", call, "two"])
    agent, _bus, _seen = make_agent(
        FolderHost([tmp_path]), model, mcp_in_process={"notes": notes_server(sessions)}
    )
    agent.chat_with_assistant([{"role": "user", "content": "a"}])
    agent.chat_with_assistant([{"role": "user", "content": "b"}])
    model.assert_complete()
    assert sessions == [1]


def test_a_server_that_fails_to_start_is_reported_and_never_breaks_the_turn(tmp_path, make_agent):
    settings = chat_settings(mcp_timeout_s=10)
    settings.mcp_servers = {"broken": McpServer(command=str(tmp_path / "no-such-server"))}
    model = ScriptedModel(["Still here."])
    agent, _bus, _seen = make_agent(
        FolderHost([tmp_path]), model, settings=settings, mcp_in_process={"notes": notes_server()}
    )
    rows = [r.model_dump() for r in agent.list_mcp_tools()]
    broken = [r for r in rows if r["server"] == "broken"]
    assert len(broken) == 1 and broken[0]["error"]
    assert agent.chat_with_assistant([{"role": "user", "content": "hi"}]).answer == "Still here."
    assert "mcp__notes__shout" in model.requests[0].tool_names


DYING_SERVER = '''
import os
from mcp.server.mcpserver import MCPServer
from mcp.types import ToolAnnotations

server = MCPServer("mortal")

@server.tool(annotations=ToolAnnotations(read_only_hint=True))
def pid() -> str:
    """This process id."""
    return str(os.getpid())

@server.tool(annotations=ToolAnnotations(read_only_hint=True))
def die() -> str:
    """End the process."""
    os._exit(3)

server.run("stdio")
'''


def test_a_server_whose_process_died_is_started_again_on_the_next_call(tmp_path, make_agent):
    script = tmp_path / "mortal.py"
    script.write_text(DYING_SERVER)
    settings = chat_settings(mcp_timeout_s=20)
    settings.mcp_servers = {"mortal": McpServer(command=sys.executable, args=[str(script)])}
    pid, die = [Call("mcp__mortal__pid")], [Call("mcp__mortal__die")]
    model = ScriptedModel([pid, die, pid, "done"])
    agent, _bus, _seen = make_agent(
        FolderHost([tmp_path]), model, settings=settings, log_dir=tmp_path / "logs"
    )
    agent.chat_with_assistant([{"role": "user", "content": "go"}])
    first, died, second = [m["content"] for m in model.requests[3].messages if m["role"] == "tool"]
    assert died.startswith("Error from MCP server 'mortal'")
    assert first.isdigit() and second.isdigit() and first != second


def test_the_real_mcp_server_time_over_stdio_lists_and_answers_through_a_turn(tmp_path, make_agent):
    settings = chat_settings(mcp_timeout_s=30)
    settings.mcp_servers = {
        "time": McpServer(command=sys.executable, args=["-m", "mcp_server_time", "--local-timezone", "UTC"])
    }
    model = ScriptedModel(
        [[Call("mcp__time__get_current_time", {"timezone": "Europe/Paris"})], "It is late."]
    )
    agent, _bus, _seen = make_agent(
        FolderHost([tmp_path]), model, settings=settings, log_dir=tmp_path / "logs"
    )
    names = {r.name for r in agent.list_mcp_tools()}
    assert {"mcp__time__get_current_time", "mcp__time__convert_time"} <= names
    result = agent.chat_with_assistant([{"role": "user", "content": "What time is it in Paris?"}])
    assert result.steps == ["🔌 time: get_current_time"]
    observation = model.requests[1].messages[-1]["content"]
    assert '"timezone": "Europe/Paris"' in observation
    children = psutil.Process().children(recursive=True)
    assert any("mcp_server_time" in " ".join(c.cmdline()) for c in children)
    agent.close()
    _gone, alive = psutil.wait_procs(children, timeout=10)
    assert alive == [] and Path(tmp_path / "logs").is_dir()
