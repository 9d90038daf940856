"""The reasoning-model seam: what the agent loop needs from a chat model, and the OpenAI-compatible adapter.

The loop and the indexer talk to a `ChatModel` (streamed chat with tools, or a one-shot `text()` call),
never to the `openai` SDK directly, so fakes (`engine.agent.testing`) and any endpoint a person points
SenseTree at are interchangeable. The adapter turns every SDK failure into an `EndpointError` whose
message names the endpoint and what to do: unreachable, bad key, unknown model, timeout, rate limit or
server error after the SDK's bounded retries with back-off. An endpoint that rejects `tools` raises
`ToolsRejected` (recognised by what it says, whatever the status: llama.cpp without `--jinja` answers 500),
so the loop can fall back to the text protocol. Reasoning that the server splits out of the content
(`reasoning_content` from llama.cpp and vLLM, `reasoning` from Ollama and newer vLLM) streams as
`Reasoning` items and lands in `ModelReply.reasoning`, never in the content.

JSON edge: messages, tool specs and tool arguments are the OpenAI wire's JSON; `Message`, `ToolSpec` and
`ToolArguments` name them once, for the whole agent.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Protocol

from engine.agent.thinking import split_thinking
from engine.config import ReasoningSettings
from engine.errors import EndpointError
from engine.openai_detail import error_detail

if TYPE_CHECKING:
    import openai

log = logging.getLogger(__name__)

# The OpenAI wire's JSON, named once: what crosses the agent as the model reads and writes it.
Message = dict[str, Any]  # one chat message
ToolSpec = dict[str, Any]  # one entry of the `tools` parameter
ToolArguments = dict[str, Any]  # a tool call's arguments, the JSON object the model sent


@dataclass(frozen=True)
class ToolCall:
    """One tool call the model asked for; `error` is set when its arguments could not be read."""

    id: str
    name: str
    arguments: ToolArguments = field(default_factory=dict)
    raw_arguments: str = ""
    error: str | None = None


@dataclass(frozen=True)
class ModelReply:
    content: str = ""
    tool_calls: list[ToolCall] = field(default_factory=list)
    reasoning: str = ""


@dataclass(frozen=True)
class Reasoning:
    """A piece of the model's thinking, streamed in a field of its own (not in the content)."""

    text: str


Streamed = str | Reasoning | ModelReply
REASONING_FIELDS = ("reasoning_content", "reasoning")
TOOL_REFUSALS = ("requires --jinja", "does not support tools", "tool choice requires", "not support tool")


class ChatModel(Protocol):
    def chat(self, messages: list[Message], tools: list[ToolSpec] | None) -> Iterator[Streamed]:
        """Yield text deltas (str) and thinking (`Reasoning`) as they arrive, then one final `ModelReply`."""
        ...

    def text(self, system: str, user: str, *, json_mode: bool = False, effort: str | None = None) -> str: ...


class ToolsRejected(EndpointError):
    """The endpoint or model refused a request because it carried tools."""


def parse_arguments(raw: Any) -> tuple[dict[str, Any], str, str | None]:
    """Tool arguments arrive as a JSON string or as an object; anything else becomes an error text."""
    if raw is None or raw == "":
        return {}, "", None
    if isinstance(raw, dict):
        return raw, json.dumps(raw, ensure_ascii=False), None
    text = str(raw)
    try:
        value = json.loads(text)
    except json.JSONDecodeError as exc:
        return {}, text, f"the arguments are not valid JSON ({exc.msg} at position {exc.pos}): {text[:200]}"
    if not isinstance(value, dict):
        return {}, text, f"the arguments must be a JSON object, got {type(value).__name__}: {text[:200]}"
    return value, text, None


def make_tool_call(index: int, call_id: str | None, name: str, raw: Any) -> ToolCall:
    arguments, raw_text, error = parse_arguments(raw)
    return ToolCall(
        id=call_id or f"call_{index}", name=name, arguments=arguments, raw_arguments=raw_text, error=error
    )


class OpenAIChatModel:
    """Any OpenAI-compatible chat-completions endpoint (OpenAI, Ollama, LM Studio, vLLM, llama.cpp …)."""

    def __init__(self, settings: ReasoningSettings, *, stream: bool = True):
        import openai  # here, not at module level: its ~1,000 pydantic types cost the engine's start ~1 s

        self.settings = settings
        self.stream = stream
        self._client = openai.OpenAI(
            base_url=settings.base_url,
            api_key=settings.api_key or "not-needed",
            timeout=settings.timeout_s,
            max_retries=settings.max_retries,
        )

    def close(self) -> None:
        self._client.close()

    def chat(self, messages: list[Message], tools: list[ToolSpec] | None) -> Iterator[Streamed]:
        import openai  # loaded by __init__ already

        params = self._params(messages, tools)
        try:
            if not self.stream:
                yield self._reply_from_completion(self._client.chat.completions.create(**params))
                return
            stream = self._client.chat.completions.create(**params, stream=True)
            yield from self._read_stream(stream)
        except openai.OpenAIError as exc:
            raise self._translate(exc, with_tools=bool(tools)) from exc

    def text(self, system: str, user: str, *, json_mode: bool = False, effort: str | None = None) -> str:
        """One request, one answer: used by qualification and the one-shot planner."""
        import openai  # loaded by __init__ already

        messages = [{"role": "system", "content": system}, {"role": "user", "content": user}]
        params = self._params(messages, None, effort=effort)
        if json_mode:
            params["response_format"] = {"type": "json_object"}
        try:
            completion = self._client.chat.completions.create(**params)
        except openai.OpenAIError as exc:
            raise self._translate(exc, with_tools=False) from exc

        return split_thinking(self._reply_from_completion(completion).content)[1]

    def list_models(self) -> list[str]:
        import openai  # loaded by __init__ already

        try:
            return [m.id for m in self._client.models.list()]
        except openai.OpenAIError as exc:
            raise self._translate(exc, with_tools=False) from exc

    def _params(
        self, messages: list[Message], tools: list[ToolSpec] | None, effort: str | None = None
    ) -> dict[str, Any]:
        params: dict[str, Any] = {"model": self.settings.model, "messages": messages}
        if tools:
            params["tools"] = tools
            params["tool_choice"] = "auto"
        if self.settings.temperature is not None:
            params["temperature"] = self.settings.temperature
        effort = effort or self.settings.reasoning_effort
        if effort:
            params["reasoning_effort"] = effort
        return params

    @staticmethod
    def _reply_from_completion(completion: Any) -> ModelReply:
        choices = getattr(completion, "choices", None) or []
        if not choices:
            return ModelReply()
        message = choices[0].message
        calls = [
            make_tool_call(i, getattr(tc, "id", None), tc.function.name, tc.function.arguments)
            for i, tc in enumerate(getattr(message, "tool_calls", None) or [])
        ]
        return ModelReply(content=message.content or "", tool_calls=calls, reasoning=_reasoning_of(message))

    @staticmethod
    def _read_stream(stream: Any) -> Iterator[Streamed]:
        parts: list[str] = []
        thoughts: list[str] = []
        pending: dict[int, dict[str, Any]] = {}
        for chunk in stream:
            for choice in getattr(chunk, "choices", None) or []:
                delta = choice.delta
                if delta is None:
                    continue
                thought = _reasoning_of(delta)
                if thought:
                    thoughts.append(thought)
                    yield Reasoning(thought)
                if delta.content:
                    parts.append(delta.content)
                    yield delta.content
                for tc in getattr(delta, "tool_calls", None) or []:
                    _merge_tool_delta(pending, tc)
        calls = [make_tool_call(i, c["id"], c["name"], c["arguments"]) for i, c in sorted(pending.items())]
        yield ModelReply(content="".join(parts), tool_calls=calls, reasoning="".join(thoughts))

    def _translate(self, exc: openai.OpenAIError, *, with_tools: bool) -> EndpointError:
        return translate_error(exc, self.settings, with_tools=with_tools)


def _reasoning_of(message: Any) -> str:
    """The thinking a server put beside the content; the SDK keeps such unknown fields as attributes."""
    for name in REASONING_FIELDS:
        value = getattr(message, name, None)
        if isinstance(value, str) and value:
            return value
    return ""


def _merge_tool_delta(pending: dict[int, dict[str, Any]], tc: Any) -> None:
    """Stream deltas carry a tool call in pieces keyed by index; argument strings are concatenated."""
    index = getattr(tc, "index", None)
    slot = pending.setdefault(
        index if index is not None else len(pending), {"id": None, "name": "", "arguments": ""}
    )
    if getattr(tc, "id", None):
        slot["id"] = tc.id
    function = getattr(tc, "function", None)
    if function is None:
        return
    if getattr(function, "name", None):
        slot["name"] += function.name
    args = getattr(function, "arguments", None)
    if isinstance(args, dict):
        slot["arguments"] = args
    elif args:
        slot["arguments"] = (slot["arguments"] if isinstance(slot["arguments"], str) else "") + args


def translate_error(
    exc: openai.OpenAIError, settings: ReasoningSettings, *, with_tools: bool
) -> EndpointError:
    """An SDK failure → an EndpointError that says what failed and what the person can do."""
    import openai  # loaded by the model that raised `exc`

    where = settings.base_url
    model = settings.model or "(no model set)"
    fix = "Check Settings → Reasoning."
    if isinstance(exc, openai.APITimeoutError):
        return EndpointError(
            f"The reasoning endpoint {where} did not answer within {settings.timeout_s:g} s. "
            f"The model may still be loading or the server is overloaded; try again, or raise "
            f"the timeout in Settings → Reasoning."
        )
    if isinstance(exc, openai.APIConnectionError):
        return EndpointError(
            f"Cannot reach the reasoning endpoint at {where}. Is the server running and is "
            f"the base URL right? {fix}"
        )
    if not isinstance(exc, openai.APIStatusError):
        return EndpointError(f"The reasoning endpoint {where} gave an unreadable answer ({exc}). {fix}")
    status, detail = exc.status_code, error_detail(exc)
    if with_tools and refuses_tools(status, detail):
        return ToolsRejected(f"Model {model!r} at {where} does not accept tool calls: {detail}")
    if status == 401:
        return EndpointError(
            f"The reasoning endpoint {where} refused the API key (401). Enter a valid key in "
            f"Settings → Reasoning."
        )
    if status == 403:
        return EndpointError(
            f"The reasoning endpoint {where} denied access to model {model!r} (403): {detail}"
        )
    if status == 404:
        return EndpointError(
            f"The reasoning endpoint {where} does not know model {model!r} (404), or the base "
            f"URL is missing its /v1 part. Pick an available model in Settings → Reasoning."
        )
    if status == 429:
        return EndpointError(
            f"The reasoning endpoint {where} is rate-limiting requests (429) and still was "
            f"after {settings.max_retries} retries. Wait a moment and ask again."
        )
    if status >= 500:
        return EndpointError(
            f"The reasoning endpoint {where} failed with a server error ({status}) after "
            f"{settings.max_retries} retries: {detail}. Try again later."
        )
    return EndpointError(f"The reasoning endpoint {where} rejected the request ({status}): {detail}. {fix}")


def refuses_tools(status: int, detail: str) -> bool:
    """Does an error say "this server or model cannot take tools"? Ollama: "… does not support tools"
    (400); vLLM: '"auto" tool choice requires --enable-auto-tool-choice …' (400); llama.cpp without
    `--jinja`: "tools param requires --jinja flag", sent as a 500, so a server error counts only when
    it says so in those words."""
    text = detail.lower()
    if "tool" not in text:
        return False
    return status in (400, 422) or (status >= 500 and any(p in text for p in TOOL_REFUSALS))
