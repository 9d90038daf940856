"""Tool approval for MCP: which third-party calls may run without asking, and the calls waiting for a person.

SenseTree's promise is that nothing changes without the person's click. Its own tools keep it by
construction (`propose_actions` only drafts a plan), but an MCP server's tool can write, move or send
anything, somewhere SenseTree cannot see or undo. So a call runs without asking only when it is known
not to change anything (DESIGN §2a):

- its server declares it read-only and closed: the MCP tool annotation `readOnlyHint: true`, with no
  `destructiveHint: true` (an annotation that contradicts itself is treated as a write) and no
  `openWorldHint: true` (a tool that reaches the outside world — a fetch — sends whatever is in its
  arguments there: reading the world is a way to send to it; issue 31, N2); or
- the person allowed the tool for good ("Always allow"), stored as `mcpServers.<name>.alwaysAllow`
  (the key Cline uses) with, in `alwaysAllowPins`, the `pin` of what the tool declared when it was
  allowed (its name, description and annotations): a server that changes what its tool says or
  declares is asked about again (N17). A name in `alwaysAllow` without a pin (a pasted config) asks
  once more, and the answer pins it.

Everything else, tools without annotations included, pauses the turn: `ToolApprovals.request`
registers the call, publishes a `tool-approval` event `{turn_id, call_id, server, tool, description,
arguments, state: "pending"}` and waits for `answer(call_id, decision)` with `once | always | deny`.
Nobody answering within the timeout (5 minutes by default) is a denial. A denial is an observation for
the model, never an error for the person: the turn goes on. Once a call is settled the same topic
carries `{call_id, turn_id, state}` with the decision (or `timed_out`), so every open view can close
its card. `waiting()` lists the calls still pending (`list_pending_tool_calls`), so a page reloaded
while a call waits shows its card again instead of letting it time out unseen.

JSON edge: MCP's tool annotations, and the `tool-approval` event's payload.
"""

from __future__ import annotations

import hashlib
import json
import logging
import threading
import time
import uuid
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, Final, Literal, get_args

from engine.agent.loop import STOP_POLL_S, turn_stopped
from engine.agent.model import ToolArguments
from engine.errors import InvalidInput, NotFound
from engine.events import TOOL_APPROVAL, EventBus
from engine.results import Done, Result

log = logging.getLogger(__name__)

Decision = Literal["once", "always", "deny"]  # the person's answer (`approve_tool_call`)
DECISIONS: tuple[Decision, ...] = get_args(Decision)
TIMED_OUT: Final = "timed_out"  # nobody answered in time: a denial
Outcome = Decision | Literal["timed_out"]  # how a waiting call was settled
ApprovalState = Literal["pending"] | Outcome  # a call's card: waiting, then how it was settled
ToolStatus = Literal["read_only", "always", "asks"]  # whether a tool's calls ask first (`list_mcp_tools`)
READ_ONLY: Final = "read_only"
ALWAYS: Final = "always"
ASKS: Final = "asks"


def hints(annotations: Any) -> dict[str, Any]:
    """The tool's annotations as MCP's JSON names them (`readOnlyHint`…), from a dict or the SDK's model."""
    if annotations is None:
        return {}
    if isinstance(annotations, dict):
        return dict(annotations)
    dump = getattr(annotations, "model_dump", None)
    return dict(dump(by_alias=True, exclude_none=True)) if callable(dump) else {}


def declared_read_only(annotations: Any) -> bool:
    """True when the server declares the tool read-only and closed (`readOnlyHint: true`; neither
    `destructiveHint` nor `openWorldHint` true)."""
    declared = hints(annotations)
    return (
        declared.get("readOnlyHint") is True
        and declared.get("destructiveHint") is not True
        and declared.get("openWorldHint") is not True
    )


def pin(tool: str, description: str, annotations: Any) -> str:
    """What "Always allow" is bound to: a digest of the tool's name, description and annotations."""
    text = json.dumps([tool, description, hints(annotations)], sort_keys=True, default=str)
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def tool_status(
    read_only: bool, tool: str, always_allowed: Mapping[str, str | None], pinned: str
) -> ToolStatus:
    """`read_only` (declared by the server), `always` (the person allowed this tool as it declares itself
    now: `always_allowed` maps a tool to the pin it was allowed with) or `asks`."""
    if read_only:
        return READ_ONLY
    if tool in always_allowed and always_allowed[tool] == pinned:
        return ALWAYS
    return ASKS


@dataclass(frozen=True)
class ToolRequest:
    """What the person is asked about: one call of one MCP tool with its exact arguments."""

    server: str
    tool: str
    description: str
    annotations: Any = None

    @property
    def pin(self) -> str:
        return pin(self.tool, self.description, self.annotations)


# A gate sees every MCP call before it runs; it returns None to let it run, or the refusal observation.
Gate = Callable[[ToolRequest, ToolArguments], str | None]


class WaitingCall(Result):
    """A call waiting for the person, as the pending `tool-approval` event carried it."""

    turn_id: str
    conversation_id: str | None = None
    call_id: str
    server: str
    tool: str
    description: str
    arguments: ToolArguments
    state: ApprovalState = "pending"


@dataclass
class _Pending:
    payload: dict[str, Any]
    pin: str
    done: threading.Event = field(default_factory=threading.Event)
    decision: Outcome | None = None


def refusal(request: ToolRequest, decision: Outcome, timeout_s: float) -> str:
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
        always_allowed: Callable[[str], Mapping[str, str | None]],
        allow_always: Callable[[str, str, str], None],
    ):
        self._events = events
        self._timeout = timeout_s
        self._always_allowed = always_allowed
        self._allow_always = allow_always
        self._pending: dict[str, _Pending] = {}
        self._lock = threading.Lock()

    def status(self, request: ToolRequest) -> ToolStatus:
        read_only = declared_read_only(request.annotations)
        return tool_status(read_only, request.tool, self._always_allowed(request.server), request.pin)

    def gate(self, turn_id: str, conversation_id: str | None = None) -> Gate:
        """The gate for one turn's MCP calls: runs allowed ones, asks about the rest."""

        def check(request: ToolRequest, arguments: ToolArguments) -> str | None:
            if self.status(request) != ASKS:
                return None
            decision = self.request(turn_id, request, arguments, conversation_id)
            return None if decision in ("once", "always") else refusal(request, decision, self._timeout())

        return check

    def request(
        self,
        turn_id: str,
        request: ToolRequest,
        arguments: ToolArguments,
        conversation_id: str | None = None,
    ) -> Outcome:
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
        pending = _Pending(payload, request.pin)
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
        decided = _decision(decision)
        with self._lock:
            pending = self._pending.pop(str(call_id), None)
            if pending is not None:
                pending.decision = decided
        if pending is None:
            raise NotFound(
                f"No tool call with the id {call_id} is waiting for an answer; it was already "
                "answered or it timed out (which counts as a refusal)"
            )
        if decided == "always":
            try:
                self._allow_always(pending.payload["server"], pending.payload["tool"], pending.pin)
            except Exception:  # noqa: BLE001 (the call still runs once; saving the choice is what failed)
                log.exception("could not save 'always allow' for %s", pending.payload["tool"])
        pending.done.set()
        self._settled(pending, decided)
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

    def _settled(self, pending: _Pending, state: Outcome) -> None:
        self._events.publish(
            TOOL_APPROVAL,
            {"turn_id": pending.payload["turn_id"], "call_id": pending.payload["call_id"], "state": state},
        )


def _decision(answer: str) -> Decision:
    for decision in DECISIONS:
        if answer == decision:
            return decision
    raise InvalidInput(f"decision must be one of {', '.join(DECISIONS)}, not {answer!r}")


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
