"""The chat agent: pre-RAG, prompt assembly, the ReAct tool loop, memory and MCP (DESIGN §2).

The engine builds one `Agent(host, db, settings, events)` and delegates the agent IPC commands to it;
indexing and the planner use `OpenAIChatModel.text()`; tests drive it with `ScriptedModel`.
"""

from engine.agent.conversations import MIGRATIONS as CONVERSATION_MIGRATIONS
from engine.agent.host import AgentHost
from engine.agent.memory import MIGRATIONS as MEMORY_MIGRATIONS
from engine.agent.model import ChatModel, EndpointError, ModelReply, OpenAIChatModel, ToolCall, ToolsRejected
from engine.agent.service import Agent
from engine.agent.testing import Call, FunctionModel, ScriptedModel

MIGRATIONS = MEMORY_MIGRATIONS + CONVERSATION_MIGRATIONS

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
