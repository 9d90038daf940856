"""`test_chat_endpoint`: is the reasoning endpoint reachable, does it offer the configured model, and how
does that model call tools — natively, via text, or not at all? Answers in words a person can act on,
never by raising. The mode found is stored per model (`tool_modes.py`) and the next turns start in it.

JSON edge: the chat messages and tool specs sent to the model under test (the OpenAI wire's JSON).
"""

from __future__ import annotations

from engine.agent.dialects import parse_reply
from engine.agent.model import ChatModel, Message, ModelReply, ToolSpec, ToolsRejected
from engine.agent.text_protocol import protocol_prompt
from engine.agent.tool_modes import ToolMode
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
PING = [{"role": "user", "content": "Call the ping tool now, with no arguments. Do not answer in words."}]
MODE_WORDS = {
    "native": "calls tools natively",
    "text": "calls tools via text (the text protocol SenseTree falls back to)",
    "none": "does not call tools at all: chat answers from the search excerpts only",
}


class EndpointCheck(Result):
    """`test_chat_endpoint`'s verdict: `ok`, a sentence for the person, whether tool calls work, how
    (`tool_mode`: native / text / none, stored per model), and — when what was typed is a slip (no
    scheme, no `/v1`) — the address that does answer."""

    ok: bool
    message: str
    tools_supported: bool
    tool_mode: ToolMode | None = None
    suggested_base_url: str | None = None


def failed(message: str) -> EndpointCheck:
    return EndpointCheck(ok=False, message=message, tools_supported=False)


def _finish(model: ChatModel, messages: list[Message], tools: list[ToolSpec] | None) -> ModelReply:
    reply = ModelReply()
    for item in model.chat(messages, tools):
        if isinstance(item, ModelReply):
            reply = item
    return reply


def tool_mode(model: ChatModel) -> tuple[ToolMode, bool]:
    """(mode, written as text): one tiny request offering `ping`; when the model refuses or ignores it,
    one more asking for the call in the text protocol. Endpoint failures propagate."""
    try:
        reply = _finish(model, PING, [PING_TOOL])
        if reply.tool_calls:
            return "native", False
        if parse_reply(reply.content, {"ping"}).calls:
            return "native", True  # written in its own dialect, which the loop reads
    except ToolsRejected:
        pass
    ask = [{"role": "system", "content": protocol_prompt([PING_TOOL])}, *PING]
    reply = _finish(model, ask, None)
    return ("text" if parse_reply(reply.content, {"ping"}, actions=True).calls else "none"), True


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
        mode, as_text = tool_mode(model)
    except EndpointError as exc:
        return failed(exc.message)
    words = MODE_WORDS[mode]
    if mode == "native" and as_text:
        words = "calls tools via text (written into its reply in its own format, which SenseTree reads)"
    return EndpointCheck(
        ok=True,
        tools_supported=mode != "none",
        tool_mode=mode,
        message=f"Connected to {settings.model!r} at {settings.base_url}; it {words}.",
    )
