"""`test_chat_endpoint`: is the reasoning endpoint reachable, does it offer the configured model, and does
that model accept tool calls? Answers in words a person can act on, never by raising."""

from __future__ import annotations

from typing import Any

from engine.agent.model import ChatModel, ModelReply, ToolsRejected
from engine.config import ReasoningSettings
from engine.errors import EndpointError
from engine.results import Result

PING_TOOL = {
    "type": "function",
    "function": {
        "name": "ping",
        "description": "Answers pong. Call it only when asked to.",
        "parameters": {"type": "object", "properties": {}, "required": []},
    },
}
PING = [{"role": "user", "content": "Reply with the single word OK."}]


class EndpointCheck(Result):
    """`test_chat_endpoint`'s verdict: `ok`, a sentence for the person, whether tool calls work, and —
    when what was typed is a slip (no scheme, no `/v1`) — the address that does answer."""

    ok: bool
    message: str
    tools_supported: bool
    suggested_base_url: str | None = None


def failed(message: str) -> EndpointCheck:
    return EndpointCheck(ok=False, message=message, tools_supported=False)


def _finish(model: ChatModel, tools: list[dict[str, Any]] | None) -> ModelReply:
    reply = ModelReply()
    for item in model.chat(PING, tools):
        if isinstance(item, ModelReply):
            reply = item
    return reply


def _missing_model(model: ChatModel, settings: ReasoningSettings) -> str | None:
    """A message when the endpoint lists its models and the configured one is not among them."""
    lister = getattr(model, "list_models", None)
    if not callable(lister):
        return None
    try:
        names = lister()
    except EndpointError:
        return None  # many local servers do not implement /models; the chat call below decides
    if names and settings.model not in names:
        shown = ", ".join(sorted(names)[:12])
        return (
            f"{settings.base_url} is reachable but does not offer model {settings.model!r}. "
            f"Available: {shown}."
        )
    return None


def probe_endpoint(model: ChatModel, settings: ReasoningSettings) -> EndpointCheck:
    missing = _missing_model(model, settings)
    if missing:
        return failed(missing)
    try:
        _finish(model, [PING_TOOL])
        tools_supported = True
    except ToolsRejected:
        tools_supported = False
    except EndpointError as exc:
        return failed(exc.message)
    if not tools_supported:
        try:
            _finish(model, None)
        except EndpointError as exc:
            return failed(exc.message)
        return EndpointCheck(
            ok=True,
            tools_supported=False,
            message=f"Connected to {settings.model!r}, but it does not accept tool calls: chat answers "
            f"from the search excerpts only.",
        )
    return EndpointCheck(
        ok=True,
        tools_supported=True,
        message=f"Connected to {settings.model!r} at {settings.base_url}; tool calls are supported.",
    )
