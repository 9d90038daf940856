"""Model fakes are product code: the tests, the benchmark and a person's own experiments drive the
agent with them, so they live beside the real adapter and obey the same `ChatModel` contract.

`ScriptedModel(steps)` plays a fixed script — each step a text reply, a list of tool calls, or an
exception to raise — and `assert_complete()` proves the script was used up. `FunctionModel(fn)` lets a
fake react to the messages and tools it receives. Both record every request they were given.

JSON edge: the fakes see the chat messages, tool specs and tool arguments as the OpenAI wire carries them.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field

from engine.agent.model import Message, ModelReply, ToolArguments, ToolCall, ToolSpec, make_tool_call


@dataclass(frozen=True)
class Call:
    """A tool call in a script: `Call("search_files", {"query": "x"})`; `arguments` may be a raw string."""

    name: str
    arguments: ToolArguments | str = field(default_factory=dict)
    id: str | None = None


Step = str | list[Call] | ModelReply | BaseException


@dataclass
class Request:
    messages: list[Message]
    tools: list[ToolSpec] | None

    @property
    def tool_names(self) -> list[str]:
        return [t["function"]["name"] for t in self.tools or []]

    @property
    def system(self) -> str:
        return (
            str(self.messages[0]["content"]) if self.messages and self.messages[0]["role"] == "system" else ""
        )


def _reply(step: Step) -> ModelReply:
    if isinstance(step, ModelReply):
        return step
    if isinstance(step, str):
        return ModelReply(content=step)
    if isinstance(step, BaseException):
        raise step
    calls: list[ToolCall] = [
        make_tool_call(i, c.id or f"call_{i}", c.name, c.arguments) for i, c in enumerate(step)
    ]
    return ModelReply(tool_calls=calls)


def _stream(reply: ModelReply, chunked: bool) -> Iterator[str | ModelReply]:
    if chunked and reply.content:
        yield from re.findall(r"\S+\s*|\s+", reply.content)
    yield reply


class ScriptedModel:
    """Replies from a fixed script, one step per request; text steps stream word by word."""

    def __init__(self, steps: list[Step], *, texts: list[str] | None = None, stream: bool = True):
        self.steps = list(steps)
        self.texts = list(texts or [])
        self.stream = stream
        self.requests: list[Request] = []
        self.text_requests: list[tuple[str, str]] = []
        self._next = 0

    def chat(self, messages: list[Message], tools: list[ToolSpec] | None) -> Iterator[str | ModelReply]:
        self.requests.append(Request([dict(m) for m in messages], tools))
        if self._next >= len(self.steps):
            raise AssertionError(
                f"ScriptedModel got request #{self._next + 1} but the script has only {len(self.steps)} steps"
            )
        step = self.steps[self._next]
        self._next += 1
        if isinstance(step, BaseException):
            raise step
        yield from _stream(_reply(step), self.stream)

    def text(self, system: str, user: str, *, json_mode: bool = False, effort: str | None = None) -> str:
        self.text_requests.append((system, user))
        if not self.texts:
            raise AssertionError("ScriptedModel.text() was called but no `texts` were scripted")
        return self.texts.pop(0)

    def assert_complete(self) -> None:
        if self._next != len(self.steps):
            raise AssertionError(f"ScriptedModel used {self._next} of {len(self.steps)} scripted steps")


class FunctionModel:
    """Calls `fn(messages, tools)` for every request; `fn` returns a Step (text, [Call], ModelReply)."""

    def __init__(
        self,
        fn: Callable[[list[Message], list[ToolSpec] | None], Step],
        *,
        text_fn: Callable[[str, str], str] | None = None,
        stream: bool = False,
    ):
        self.fn = fn
        self.text_fn = text_fn
        self.stream = stream
        self.requests: list[Request] = []

    def chat(self, messages: list[Message], tools: list[ToolSpec] | None) -> Iterator[str | ModelReply]:
        self.requests.append(Request(messages, tools))
        step = self.fn(messages, tools)
        if isinstance(step, BaseException):
            raise step
        yield from _stream(_reply(step), self.stream)

    def text(self, system: str, user: str, *, json_mode: bool = False, effort: str | None = None) -> str:
        if self.text_fn is None:
            raise AssertionError("FunctionModel.text() was called but no text_fn was given")
        return self.text_fn(system, user)
