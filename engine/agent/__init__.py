"""The chat agent: pre-RAG, prompt assembly, the ReAct tool loop, memory and MCP (DESIGN §2).

The engine builds one `Agent(host, db, settings, events)` and delegates the agent IPC commands to it;
indexing and the planner use `OpenAIChatModel.text()`; tests drive it with `ScriptedModel`.

The names below are resolved on first use (PEP 562), not when the package is imported: a command
that only needs the agent's migrations (every engine start) or a submodule must not pay for the
`openai` and `mcp` SDKs (about a second at start, issue 12); chat, the planner and the tests that
name `Agent` import them at that moment.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

from engine.agent.conversations import MIGRATIONS as CONVERSATION_MIGRATIONS
from engine.agent.memory import MIGRATIONS as MEMORY_MIGRATIONS
from engine.agent.tool_modes import MIGRATIONS as TOOL_MODE_MIGRATIONS

if TYPE_CHECKING:
    from engine.agent.host import AgentHost
    from engine.agent.model import ChatModel, ModelReply, OpenAIChatModel, ToolCall, ToolsRejected
    from engine.agent.service import Agent
    from engine.agent.testing import Call, FunctionModel, ScriptedModel
    from engine.errors import EndpointError

MIGRATIONS = MEMORY_MIGRATIONS + CONVERSATION_MIGRATIONS + TOOL_MODE_MIGRATIONS

_LAZY = {
    "Agent": "engine.agent.service",
    "AgentHost": "engine.agent.host",
    "Call": "engine.agent.testing",
    "ChatModel": "engine.agent.model",
    "EndpointError": "engine.errors",
    "FunctionModel": "engine.agent.testing",
    "ModelReply": "engine.agent.model",
    "OpenAIChatModel": "engine.agent.model",
    "ScriptedModel": "engine.agent.testing",
    "ToolCall": "engine.agent.model",
    "ToolsRejected": "engine.agent.model",
}

__all__ = [
    "MIGRATIONS",
    "Agent",
    "AgentHost",
    "Call",
    "ChatModel",
    "EndpointError",
    "FunctionModel",
    "ModelReply",
    "OpenAIChatModel",
    "ScriptedModel",
    "ToolCall",
    "ToolsRejected",
]


def __getattr__(name: str) -> Any:
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(module), name)
    globals()[name] = value  # resolved once
    return value
