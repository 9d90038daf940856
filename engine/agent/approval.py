"""Tool approval for MCP: which third-party calls may run without asking, and the calls waiting for a person.

SenseTree's promise is that nothing changes without the person's click. Its own tools keep it by
construction (`propose_actions` only drafts a plan), but an MCP server's tool can write, move or send
anything, somewhere SenseTree cannot see or undo. So a call runs without asking only when it is known
not to change anything (DESIGN §2a):

- its server declares it read-only: the MCP tool annotation `readOnlyHint: true`, with no
  `destructiveHint: true` (an annotation that contradicts itself is treated as a write); or
- the person allowed the tool for good ("Always allow"), stored as `mcpServers.<name>.alwaysAllow`
  (the key Cline uses).

Everything else, tools without annotations included, pauses the turn: `ToolApprovals.request`
registers the call, publishes a `tool-approval` event `{turn_id, call_id, server, tool, description,
arguments, state: "pending"}` and waits for `answer(call_id, decision)` with `once | always | deny`.
Nobody answering within the timeout (5 minutes by default) is a denial. A denial is an observation for
the model, never an error for the person: the turn goes on. Once a call is settled the same topic
carries `{call_id, turn_id, state}` with the decision (or `timed_out`), so every open view can close
its card. `waiting()` lists the calls still pending (`list_pending_tool_calls`), so a page reloaded
while a call waits shows its card again instead of letting it time out unseen.
"""

from __future__ import annotations

import logging
import threading
import time
import uuid
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from engine.agent.loop import STOP_POLL_S, turn_stopped
from engine.errors import InvalidInput, NotFound
from engine.events import TOOL_APPROVAL, EventBus
from engine.results import Done, Result

log = logging.getLogger(__name__)

DECISIONS = ("once", "always", "deny")
READ_ONLY, ALWAYS, ASKS = "read_only", "always", "asks"
TIMED_OUT = "timed_out"


def declared_read_only(annotations: Any) -> bool:
    """True when the server declares the tool read-only (`readOnlyHint: true`, `destructiveHint` not true)."""
    if annotations is None:
        return False
    if isinstance(annotations, dict):
        read_only, destructive = annotations.get("readOnlyHint"), annotations.get("destructiveHint")
    else:
        read_only = getattr(annotations, "read_only_hint", None)
        destructive = getattr(annotations, "destructive_hint", None)
    return read_only is True and destructive is not True


def tool_status(read_only: bool, tool: str, always_allowed: set[str] | list[str]) -> str:
    """`read_only` (declared by the server), `always` (the person allowed it) or `asks`."""
    if read_only:
        return READ_ONLY
    if tool in always_allowed:
        return ALWAYS
    return ASKS


@dataclass(frozen=True)
class ToolRequest:
    """What the person is asked about: one call of one MCP tool with its exact arguments."""

    server: str
    tool: str
    description: str
    annotations: Any = None


# A gate sees every MCP call before it runs; it returns None to let it run, or the refusal observation.
Gate = Callable[[ToolRequest, dict[str, Any]], str | None]


class WaitingCall(Result):
    """A call waiting for the person, as the pending `tool-approval` event carried it."""

    turn_id: str
    conversation_id: str | None = None
    call_id: str
    server: str
    tool: str
    description: str
    arguments: dict[str, Any]
    state: str = "pending"


@dataclass
class _Pending:
    payload: dict[str, Any]
    done: threading.Event = field(default_factory=threading.Event)
    decision: str | None = None


def refusal(request: ToolRequest, decision: str, timeout_s: float) -> str:
    """The observation the model reads when a call was not run."""
    name = f"{request.tool} on the MCP server {request.server!r}"
    if decision == TIMED_OUT:
        why = (
            f"Nobody answered within {timeout_s / 60:g} minute(s) whether {name} may run, so it was not run "
            "(no answer counts as a refusal)."
        )
    else:
        why = f"The person refused to let you call {name}; it was not run and nothing was changed."
    return (
        f"{why} Do not call it again in this turn. Carry on without it, or tell the person what you "
        "wanted to do and why, so they can decide."
    )


class ToolApprovals:
    """The calls waiting for a person's answer, by call id; thread-safe (answers arrive on any thread)."""

    def __init__(
        self,
        events: EventBus,
        *,
        timeout_s: Callable[[], float],
        always_allowed: Callable[[str], set[str]],
        allow_always: Callable[[str, str], None],
    ):
        self._events = events
        self._timeout = timeout_s
        self._always_allowed = always_allowed
        self._allow_always = allow_always
        self._pending: dict[str, _Pending] = {}
        self._lock = threading.Lock()

    def status(self, server: str, tool: str, read_only: bool) -> str:
        return tool_status(read_only, tool, self._always_allowed(server))

    def gate(self, turn_id: str, conversation_id: str | None = None) -> Gate:
        """The gate for one turn's MCP calls: runs allowed ones, asks about the rest."""

        def check(request: ToolRequest, arguments: dict[str, Any]) -> str | None:
            if self.status(request.server, request.tool, declared_read_only(request.annotations)) != ASKS:
                return None
            decision = self.request(turn_id, request, arguments, conversation_id)
            return None if decision in ("once", "always") else refusal(request, decision, self._timeout())

        return check

    def request(
        self,
        turn_id: str,
        request: ToolRequest,
        arguments: dict[str, Any],
        conversation_id: str | None = None,
    ) -> str:
        """Ask the person and wait (bounded); returns `once`, `always`, `deny` or `timed_out`."""
        call_id = uuid.uuid4().hex
        payload = {
            "turn_id": turn_id,
            "conversation_id": conversation_id,
            "call_id": call_id,
            "server": request.server,
            "tool": request.tool,
            "description": request.description,
            "arguments": arguments,
        }
        pending = _Pending(payload)
        with self._lock:
            self._pending[call_id] = pending
        self._events.publish(TOOL_APPROVAL, {**payload, "state": "pending"})
        timeout = self._timeout()
        stopped = _wait(pending.done, timeout)
        with self._lock:
            self._pending.pop(call_id, None)
            decision = pending.decision
        if decision is None and stopped:
            log.info(
                "MCP call %s:%s: the turn was stopped while it waited; denied", request.server, request.tool
            )
            decision = "deny"
            self._settled(pending, "deny")
        if decision is None:
            log.info(
                "MCP call %s:%s was not answered within %g s; denied", request.server, request.tool, timeout
            )
            decision = TIMED_OUT
            self._settled(pending, TIMED_OUT)
        return decision

    def waiting(self) -> list[WaitingCall]:
        """The calls still waiting for an answer, oldest first."""
        with self._lock:
            payloads = [pending.payload for pending in self._pending.values()]
        return [WaitingCall.model_validate(payload) for payload in payloads]

    def answer(self, call_id: str, decision: str) -> Done:
        """The person's answer to a pending call (`approve_tool_call`)."""
        if decision not in DECISIONS:
            raise InvalidInput(f"decision must be one of {', '.join(DECISIONS)}, not {decision!r}")
        with self._lock:
            pending = self._pending.pop(str(call_id), None)
            if pending is not None:
                pending.decision = decision
        if pending is None:
            raise NotFound(
                f"No tool call with the id {call_id} is waiting for an answer; it was already "
                "answered or it timed out (which counts as a refusal)"
            )
        if decision == "always":
            try:
                self._allow_always(pending.payload["server"], pending.payload["tool"])
            except Exception:  # noqa: BLE001 (the call still runs once; saving the choice is what failed)
                log.exception("could not save 'always allow' for %s", pending.payload["tool"])
        pending.done.set()
        self._settled(pending, decision)
        return Done()

    def close(self) -> None:
        """Deny every call still waiting: the app is closing and nobody is left to answer."""
        with self._lock:
            waiting = list(self._pending.values())
            self._pending.clear()
            for pending in waiting:
                pending.decision = "deny"
        for pending in waiting:
            pending.done.set()
            self._settled(pending, "deny")

    def _settled(self, pending: _Pending, state: str) -> None:
        self._events.publish(
            TOOL_APPROVAL,
            {"turn_id": pending.payload["turn_id"], "call_id": pending.payload["call_id"], "state": state},
        )


def _wait(done: threading.Event, timeout: float) -> bool:
    """Wait for the person's answer, at most `timeout` seconds; True when the turn was stopped meanwhile
    (Stop ends the wait: a stopped turn starts no tool call, so its question is withdrawn as a denial)."""
    deadline = time.monotonic() + timeout
    while not done.wait(min(STOP_POLL_S, max(0.0, deadline - time.monotonic()))):
        if turn_stopped():
            return True
        if time.monotonic() >= deadline:
            return False
    return False
