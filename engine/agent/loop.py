"""The ReAct loop: one short generator with explicit limits.

It yields events — a `Step` *before* each tool runs (so the UI shows what is happening), the tool's
`Observation`, answer `Delta`s as the model streams, then exactly one `Answer` or `PlanProposed`. The
consumer (the agent facade, the CLI, tests) publishes them; the loop itself knows no UI.

Limits are explicit: at most `max_rounds` rounds of tool calls, then one last call without tools, so
the person always gets an answer. Plain content stops the loop early; a proposed plan stops it at once
(control returns to the person). An endpoint that rejects tools is asked once more without them.

A turn can be stopped from another thread (`stop()` turns true): no model request and no tool call
starts after that, and a request already streaming is abandoned within `STOP_POLL_S` (it runs on a
helper thread, so a model that is slow to send its first token cannot hold the turn). The answer is
then what had streamed so far, with `Answer.stopped` set.
"""

from __future__ import annotations

import contextvars
import json
import logging
import queue
import threading
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

from engine.agent.model import ChatModel, Message, ModelReply, ToolCall, ToolsRejected
from engine.agent.tools import ToolRegistry

log = logging.getLogger(__name__)

FORCE_ANSWER = (
    "You have used all your tool rounds. Answer the person now from what you found, citing the "
    "files by name; do not call any more tools."
)
STOP_POLL_S = 0.05
Stop = Callable[[], bool]
TOOLS_UNAVAILABLE = (
    "Tools are not available with this model. Answer from the excerpts in the system prompt, "
    "citing the files by name, and say if they do not contain the answer."
)


@dataclass(frozen=True)
class Step:
    tool: str
    label: str
    arguments: dict[str, Any]
    call_id: str = ""  # pairs the step with its Observation (the UI shows both on expand)


@dataclass(frozen=True)
class Observation:
    tool: str
    text: str
    call_id: str = ""


@dataclass(frozen=True)
class Delta:
    text: str


@dataclass(frozen=True)
class Answer:
    text: str
    forced: bool = False
    tools_rejected: bool = False
    stopped: bool = False


@dataclass(frozen=True)
class PlanProposed:
    plan: dict[str, Any]
    text: str


Event = Step | Observation | Delta | Answer | PlanProposed


@dataclass
class LoopState:
    messages: list[Message]
    rounds: int = 0
    tools_rejected: bool = False
    extra: dict[str, Any] = field(default_factory=dict)


def _assistant_message(reply: ModelReply) -> Message:
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
    model: ChatModel, state: LoopState, tools: list[dict[str, Any]] | None
) -> Iterator[Event | ModelReply]:
    """One model request, streaming deltas; a tools rejection falls back once to a tool-less request."""
    try:
        for item in model.chat(state.messages, None if state.tools_rejected else tools):
            yield Delta(item) if isinstance(item, str) else item
    except ToolsRejected as exc:
        if state.tools_rejected or not tools:
            raise
        log.info("tools rejected by the endpoint, answering without them: %s", exc.message)
        state.tools_rejected = True
        state.messages.append({"role": "system", "content": TOOLS_UNAVAILABLE})
        for item in model.chat(state.messages, None):
            yield Delta(item) if isinstance(item, str) else item


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
    model: ChatModel, state: LoopState, tools: list[dict[str, Any]] | None, stop: Stop | None = None
) -> Iterator[Event]:
    """Yield deltas; the final reply is stashed in state.extra['reply'] (what streamed, when stopped)."""
    reply = ModelReply()
    streamed: list[str] = []
    calls = _call_model(model, state, tools)
    for item in _pump(calls, stop) if stop is not None else calls:
        if isinstance(item, ModelReply):
            reply = item
        else:
            if isinstance(item, Delta):
                streamed.append(item.text)
            yield item
    if stop is not None and stop():
        state.extra["stopped"] = True
        reply = ModelReply(content="".join(streamed))
    state.extra["reply"] = reply


def _run_calls(
    registry: ToolRegistry,
    calls: list[ToolCall],
    plan_of: Callable[[], dict[str, Any] | None],
    stop: Stop = lambda: False,
) -> Iterator[Event]:
    for call in calls:
        if stop():
            return
        yield Step(call.name, registry.label(call.name, call.arguments), call.arguments, call.id)
        if call.error:
            text = f"Error calling {call.name}: {call.error}. Call it again with a JSON object of arguments."
        else:
            text = registry.call(call.name, call.arguments)
        yield Observation(call.name, text, call.id)
        plan = plan_of()
        if plan is not None:
            yield PlanProposed(plan, text)
            return


def run_turn(
    model: ChatModel,
    registry: ToolRegistry,
    messages: list[Message],
    *,
    max_rounds: int = 5,
    plan_of: Callable[[], dict[str, Any] | None] = lambda: None,
    stop: Stop | None = None,
) -> Iterator[Event]:
    """Drive one agent turn; `messages` (system + history) is extended in place with the exchange."""
    state = LoopState(messages=messages)
    specs = registry.specs() or None
    halted: Stop = stop or (lambda: False)
    previous = _turn_stop.get()
    _turn_stop.set(halted)
    try:
        yield from _rounds(model, registry, state, specs, max_rounds, plan_of, stop, halted)
    finally:
        _turn_stop.set(previous)


def _rounds(
    model: ChatModel,
    registry: ToolRegistry,
    state: LoopState,
    specs: list[dict[str, Any]] | None,
    max_rounds: int,
    plan_of: Callable[[], dict[str, Any] | None],
    stop: Stop | None,
    halted: Stop,
) -> Iterator[Event]:
    while state.rounds < max_rounds:
        if halted():
            yield Answer("", stopped=True)
            return
        yield from _request(model, state, specs, stop)
        reply: ModelReply = state.extra["reply"]
        if state.extra.get("stopped"):
            yield Answer(reply.content, stopped=True)
            return
        if not reply.tool_calls or state.tools_rejected:
            yield Answer(reply.content, tools_rejected=state.tools_rejected)
            return
        state.rounds += 1
        state.messages.append(_assistant_message(reply))
        for event in _run_calls(registry, reply.tool_calls, plan_of, halted):
            if isinstance(event, Observation):
                state.messages.append({"role": "tool", "tool_call_id": event.call_id, "content": event.text})
            yield event
            if isinstance(event, PlanProposed):
                return
    if halted():
        yield Answer("", stopped=True)
        return
    state.messages.append({"role": "user", "content": FORCE_ANSWER})
    yield from _request(model, state, None, stop)
    final: ModelReply = state.extra["reply"]
    yield Answer(final.content, forced=True, stopped=bool(state.extra.get("stopped")))
