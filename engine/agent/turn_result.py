"""One chat turn, declared once: the record the agent fills as the turn runs, and what
`chat_with_assistant` answers.

`TurnRecord` is the turn while it runs: the loop's events add steps and trace rows, a proposed plan or
a stop replaces the answer, and a failure sets `error`. At the end it becomes a frozen `TurnResult`
and is stored in its conversation (engine/agent/conversations.py). The result's JSON is what the page
has always read: every key is sent (`plan` as null when none was proposed) except `error`, which
appears only when the turn failed (`{code, message}`, as the page's error banner reads it).

JSON edge: `TurnResult` is an IPC result, and a trace row's `arguments` are the tool's JSON arguments as
the model sent them.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

from typing_extensions import TypedDict  # pydantic reads TypedDicts from typing_extensions before 3.12

from engine.agent.model import ToolArguments
from engine.agent.sources import Source
from engine.results import Result
from engine.txn.model import ActionPlan, PlanJson

# A stored turn's `status`: `running` from the question until the turn ends one of the other three ways.
TurnStatus = Literal["running", "done", "stopped", "error"]
EMPTY_ANSWER = "The model returned an empty answer; try asking again."


class TraceEntry(TypedDict):
    """One tool call of the turn, as the trace shows it: `error` when the call failed or was refused."""

    label: str
    tool: str
    arguments: ToolArguments
    result: str | None
    error: bool


class TurnError(TypedDict):
    """Why a turn failed, as the page's error banner reads it."""

    code: str
    message: str


class TurnResult(Result):
    answer: str
    sources: list[Source]  # best first
    plan: PlanJson | None  # the proposed ActionPlan's JSON, or null
    steps: list[str]  # the tool labels shown as the turn ran ("🔍 Searching: ACME")
    trace: list[TraceEntry]
    conversation_id: str
    turn_id: str
    stopped: bool
    model: str
    error: TurnError | None = None  # absent unless the turn failed


@dataclass
class TurnRecord:
    """The turn while it runs (see the module docstring)."""

    conversation_id: str
    turn_id: str
    model: str
    answer: str = ""
    sources: list[Source] = field(default_factory=list)
    plan: ActionPlan | None = None
    steps: list[str] = field(default_factory=list)
    trace: list[TraceEntry] = field(default_factory=list)
    stopped: bool = False
    error: TurnError | None = None

    @property
    def status(self) -> TurnStatus:
        return "error" if self.error else "stopped" if self.stopped else "done"

    def fail(self, code: str, message: str) -> None:
        self.error = TurnError(code=code, message=message)

    def step(self, label: str, tool: str, arguments: ToolArguments) -> None:
        """A tool call starts: its label joins the steps, and a trace row waits for its result."""
        self.steps.append(label)
        self.trace.append(TraceEntry(label=label, tool=tool, arguments=arguments, result=None, error=False))

    def observed(self, result: str, failed: bool) -> None:
        """The running call's result (already cut for the trace) completes its trace row."""
        if self.trace:
            self.trace[-1]["result"] = result
            self.trace[-1]["error"] = failed

    def proposed(self, plan: ActionPlan) -> None:
        self.plan = plan
        self.answer = _plan_answer(plan)

    def answered(self, text: str, *, stopped: bool) -> None:
        """The final answer; a stopped turn keeps what had streamed, even nothing."""
        self.answer = text if stopped or text else EMPTY_ANSWER
        self.stopped = self.stopped or stopped

    def read_paths(self) -> set[str]:
        """The paths the agent read with `read_file` (those sources count as used)."""
        return {str(t["arguments"].get("path")) for t in self.trace if t["tool"] == "read_file"}

    def plan_json(self) -> PlanJson | None:
        return self.plan.to_json_dict() if self.plan is not None else None

    def result(self) -> TurnResult:
        return TurnResult(
            answer=self.answer,
            sources=self.sources,
            plan=self.plan_json(),
            steps=self.steps,
            trace=self.trace,
            conversation_id=self.conversation_id,
            turn_id=self.turn_id,
            stopped=self.stopped,
            model=self.model,
            error=self.error,
        )


def _plan_answer(plan: ActionPlan) -> str:
    count = len(plan.operations)
    summary = plan.summary or "a reorganisation"
    return (
        f"I prepared an action plan with {count} operation(s): {summary}. Nothing has changed yet; "
        f"review it, untick what you don't want, and approve."
    )
