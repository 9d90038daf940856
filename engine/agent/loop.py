"""The ReAct loop: one short generator with explicit limits.

It yields events — a `Step` *before* each tool runs (so the UI shows what is happening), the tool's
`Observation`, answer `Delta`s as the model streams, then exactly one `Answer` or `PlanProposed`. The
consumer (the agent facade, the CLI, tests) publishes them; the loop itself knows no UI.

Limits are explicit: at most `max_rounds` rounds of tool calls, then one last call without tools, so
the person always gets an answer. Plain content stops the loop early; a proposed plan stops it at once
(control returns to the person).

Models answer in many dialects (`dialects.py`): calls written into the content are read as calls (only
for tools offered), and thinking — `<think>` blocks or a separate reasoning field — streams as
`Thinking` events for the trace and never reaches the answer or the history sent back. The tool mode
says how tools reach the model: `native` (the `tools` parameter), `text` (the ReAct text protocol of
`text_protocol.py`, same registry, bounds, approvals and round limit) or `none` (answer from the
excerpts). An endpoint that refuses tools mid-turn switches a native turn to the text protocol.

A turn can be stopped from another thread (`stop()` turns true): no model request and no tool call
starts after that, and a request already streaming is abandoned within `STOP_POLL_S` (it runs on a
helper thread, so a model that is slow to send its first token cannot hold the turn). The answer is
then what had streamed so far, with `Answer.stopped` set.

JSON edge: the conversation's chat messages, tool specs and tool arguments (the OpenAI wire's JSON: `Message`,
`ToolSpec`, `ToolArguments`).
"""

from __future__ import annotations

import contextvars
import json
import logging
import queue
import threading
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

from engine.agent.dialects import ContentStream, parse_reply
from engine.agent.model import (
    ChatModel,
    Message,
    ModelReply,
    Reasoning,
    ToolArguments,
    ToolCall,
    ToolSpec,
    ToolsRejected,
)
from engine.agent.text_protocol import add_protocol, observation
from engine.agent.thinking import split_thinking
from engine.agent.tool_modes import ToolMode
from engine.agent.tools import ToolOutcome, ToolRegistry
from engine.txn.model import ActionPlan

log = logging.getLogger(__name__)

FORCE_ANSWER = (
    "You have used all your tool rounds. Answer the person now from what you found, citing the "
    "files by name; do not call any more tools."
)
STOP_POLL_S = 0.05
Stop = Callable[[], bool]
PlanOf = Callable[[], ActionPlan | None]  # the plan the turn's tools proposed, once there is one
TOOLS_UNAVAILABLE = (
    "Tools are not available with this model. Answer from the excerpts in the system prompt, "
    "citing the files by name, and say if they do not contain the answer."
)


@dataclass(frozen=True)
class Step:
    tool: str
    label: str
    arguments: ToolArguments
    call_id: str = ""  # pairs the step with its Observation (the UI shows both on expand)


@dataclass(frozen=True)
class Observation:
    tool: str
    text: str
    call_id: str = ""
    failed: bool = False  # the call failed or was refused (ToolOutcome.failed)


@dataclass(frozen=True)
class Delta:
    text: str


@dataclass(frozen=True)
class Thinking:
    """A piece of the model's reasoning: for the trace's collapsed "Thinking" step, never the answer."""

    text: str


@dataclass(frozen=True)
class Answer:
    text: str
    forced: bool = False
    tools_rejected: bool = False
    stopped: bool = False


@dataclass(frozen=True)
class PlanProposed:
    plan: ActionPlan
    text: str


Event = Step | Observation | Delta | Thinking | Answer | PlanProposed


@dataclass
class LoopState:
    messages: list[Message]
    rounds: int = 0
    tools_rejected: bool = False
    mode: ToolMode = "native"
    offered: set[str] = field(default_factory=set)
    raw: str = ""  # the last reply's content as the model wrote it (the text protocol reads it back)
    reply: ModelReply = field(default_factory=ModelReply)  # the last reply, read (see `_request`)
    stopped: bool = False  # the person stopped the turn while a reply streamed


def _enter_mode(state: LoopState, mode: ToolMode, specs: list[ToolSpec]) -> None:
    """Tell the model how it may use tools from now on (text protocol, or none at all)."""
    state.mode = mode
    if mode == "text":
        add_protocol(state.messages, specs)
    elif mode == "none":
        state.offered = set()
        state.messages.append({"role": "system", "content": TOOLS_UNAVAILABLE})


def _assistant_message(reply: ModelReply, state: LoopState) -> Message:
    if state.mode == "text":  # the model reads back its own protocol lines, its thinking left out
        return {"role": "assistant", "content": split_thinking(state.raw)[1]}
    return {
        "role": "assistant",
        "content": reply.content or None,
        "tool_calls": [
            {
                "id": c.id,
                "type": "function",
                "function": {"name": c.name, "arguments": c.raw_arguments or json.dumps(c.arguments)},
            }
            for c in reply.tool_calls
        ],
    }


def _call_model(
    model: ChatModel, state: LoopState, tools: list[ToolSpec] | None
) -> Iterator[str | Reasoning | ModelReply]:
    """One model request; an endpoint refusing tools switches the turn to the text protocol."""
    try:
        yield from model.chat(state.messages, tools if state.mode == "native" else None)
    except ToolsRejected as exc:
        if state.mode != "native" or not tools:
            raise
        log.info("tools rejected by the endpoint, using the text protocol: %s", exc.message)
        state.tools_rejected = True
        _enter_mode(state, "text", tools)
        yield from model.chat(state.messages, None)


def _read_reply(reply: ModelReply, state: LoopState) -> ModelReply:
    """The finished reply read in every dialect: calls written as text become calls, thinking moves out."""
    state.raw = reply.content
    parsed = parse_reply(reply.content, state.offered, actions=state.mode == "text")
    thinking = "\n".join(t for t in (reply.reasoning, parsed.thinking) if t)
    calls = reply.tool_calls if state.mode == "native" and reply.tool_calls else parsed.calls
    return ModelReply(content=parsed.text, tool_calls=calls, reasoning=thinking)


_DONE = object()
_turn_stop: contextvars.ContextVar[Stop] = contextvars.ContextVar(
    "sensetree_turn_stop", default=lambda: False
)


def turn_stopped() -> bool:
    """True once the turn running on this thread was asked to stop. A tool that waits (the MCP approval
    prompt) polls it, so Stop ends the wait instead of leaving the turn blocked in a tool."""
    return _turn_stop.get()()


def _pump(source: Iterator[Any], stop: Stop) -> Iterator[Any]:
    """Yield `source`'s items, produced on a helper thread, until it ends or `stop()` turns true."""
    items: queue.Queue[Any] = queue.Queue()

    def produce() -> None:
        try:
            for item in source:
                items.put(item)
                if stop():
                    return
        except BaseException as exc:  # noqa: BLE001 (handed to the turn's thread, re-raised there)
            items.put(exc)
        finally:
            items.put(_DONE)

    threading.Thread(target=produce, name="sensetree-model-call", daemon=True).start()
    while not stop():
        try:
            item = items.get(timeout=STOP_POLL_S)
        except queue.Empty:
            continue
        if item is _DONE:
            return
        if isinstance(item, BaseException):
            raise item
        yield item


def _request(
    model: ChatModel, state: LoopState, tools: list[ToolSpec] | None, stop: Stop | None = None
) -> Iterator[Event]:
    """Yield answer deltas and thinking; the final reply, read, is stashed in state.reply
    (what streamed as answer, when stopped)."""
    reply = ModelReply()
    shown: list[str] = []
    thought = False
    stream: ContentStream | None = None  # made at the first item: a refusal may switch the mode first
    calls = _call_model(model, state, tools)
    for item in _pump(calls, stop) if stop is not None else calls:
        if isinstance(item, ModelReply):
            reply = item
            continue
        if isinstance(item, Reasoning):
            thought = True
            yield Thinking(item.text)
            continue
        stream = stream or ContentStream(actions=state.mode == "text")
        for event in _pieces(stream.feed(item), shown):
            thought = thought or isinstance(event, Thinking)
            yield event
    if stream is not None:
        yield from _pieces(stream.finish(), shown)
    if stop is not None and stop():
        state.stopped = True
        reply = ModelReply(content="".join(shown))
    else:
        reply = _read_reply(reply, state)
        if reply.reasoning and not thought:
            yield Thinking(reply.reasoning)
    state.reply = reply


def _pieces(pieces: Sequence[tuple[str, str]], shown: list[str]) -> Iterator[Event]:
    for kind, text in pieces:
        if kind == "thinking":
            yield Thinking(text)
        else:
            shown.append(text)
            yield Delta(text)


def _run_calls(
    registry: ToolRegistry,
    calls: list[ToolCall],
    plan_of: PlanOf,
    stop: Stop = lambda: False,
) -> Iterator[Event]:
    for call in calls:
        if stop():
            return
        yield Step(call.name, registry.label(call.name, call.arguments), call.arguments, call.id)
        if call.error:
            text = f"Error calling {call.name}: {call.error}. Call it again with a JSON object of arguments."
            outcome = ToolOutcome(text, failed=True)
        else:
            outcome = registry.run(call.name, call.arguments)
        yield Observation(call.name, outcome.text, call.id, outcome.failed)
        plan = plan_of()
        if plan is not None:
            yield PlanProposed(plan, outcome.text)
            return


def run_turn(
    model: ChatModel,
    registry: ToolRegistry,
    messages: list[Message],
    *,
    max_rounds: int = 5,
    plan_of: PlanOf = lambda: None,
    stop: Stop | None = None,
    tool_mode: ToolMode = "native",
) -> Iterator[Event]:
    """Drive one agent turn; `messages` (system + history) is extended in place with the exchange."""
    specs = registry.specs() or None
    state = LoopState(messages=messages, offered={s["function"]["name"] for s in specs or []})
    if specs and tool_mode in ("text", "none"):
        state.tools_rejected = True
        _enter_mode(state, tool_mode, specs)
    halted: Stop = stop or (lambda: False)
    previous = _turn_stop.get()
    _turn_stop.set(halted)
    try:
        yield from _rounds(model, registry, state, specs, max_rounds, plan_of, stop, halted)
    finally:
        _turn_stop.set(previous)


def _observation_message(event: Observation, state: LoopState) -> Message:
    if state.mode == "text":
        return observation(event.tool, event.text)
    return {"role": "tool", "tool_call_id": event.call_id, "content": event.text}


def _rounds(
    model: ChatModel,
    registry: ToolRegistry,
    state: LoopState,
    specs: list[ToolSpec] | None,
    max_rounds: int,
    plan_of: PlanOf,
    stop: Stop | None,
    halted: Stop,
) -> Iterator[Event]:
    while state.rounds < max_rounds:
        if halted():
            yield Answer("", stopped=True)
            return
        yield from _request(model, state, specs, stop)
        reply = state.reply
        if state.stopped:
            yield Answer(reply.content, stopped=True)
            return
        if not reply.tool_calls or state.mode == "none":
            yield Answer(reply.content, tools_rejected=state.tools_rejected)
            return
        state.rounds += 1
        state.messages.append(_assistant_message(reply, state))
        for event in _run_calls(registry, reply.tool_calls, plan_of, halted):
            if isinstance(event, Observation):
                state.messages.append(_observation_message(event, state))
            yield event
            if isinstance(event, PlanProposed):
                return
    if halted():
        yield Answer("", stopped=True)
        return
    state.messages.append({"role": "user", "content": FORCE_ANSWER})
    yield from _request(model, state, None, stop)
    yield Answer(state.reply.content, forced=True, stopped=state.stopped)
