"""The words of an action plan: what the person approves (`Operation`, `ActionPlan`) and what the
executor journals (`Step`).

An `Operation` is what the model proposes and the person sees on the Before → After card. A `Step`
is one primitive disk change the executor performs for it (create one folder, move one path, put
one path into the trash). Each step is a small frozen value that knows its inverse, so rollback,
crash recovery and undo are the same walk backwards over the journal (CONVENTIONS 8).
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass
from typing import Any, Literal, NotRequired, cast

from pydantic import BaseModel, ConfigDict, Field
from typing_extensions import TypedDict  # pydantic reads TypedDicts from typing_extensions before 3.12

OperationKind = Literal["mkdir", "move", "rename", "delete", "requalify"]
OPERATION_FIELDS = ("kind", "old_path", "new_path", "new_summary", "reason")


class Operation(BaseModel):
    """One proposed change. Which paths are required depends on `kind` (checked by validation)."""

    model_config = ConfigDict(extra="ignore", frozen=True)

    kind: OperationKind
    old_path: str | None = None
    new_path: str | None = None
    new_summary: str | None = None
    reason: str = ""
    # Whether the plan card starts with this line ticked. A Gardener fix leaves its low-confidence
    # lines unticked (their reason says why); presentation only, so not part of `key()`.
    ticked: bool = True

    def key(self) -> tuple[Any, ...]:
        """Every field, in order: two operations are the same only when all of them are."""
        return tuple(getattr(self, name) for name in OPERATION_FIELDS)


class OperationJson(TypedDict):
    """An `Operation` as JSON: what the plan card, History's Review and the chat's plan event show.
    `to_json_dict` writes every key; a History row passes on the keys its stored plan holds."""

    kind: OperationKind
    old_path: NotRequired[str | None]
    new_path: NotRequired[str | None]
    new_summary: NotRequired[str | None]
    reason: NotRequired[str]
    ticked: NotRequired[bool]


class PlanJson(TypedDict):
    """An `ActionPlan` as JSON (`ActionPlan.to_json_dict`)."""

    transaction_id: str
    summary: str
    operations: list[OperationJson]


class ActionPlan(BaseModel):
    """A Dry-Run plan as stored in a draft and shown to the person."""

    model_config = ConfigDict(extra="ignore")

    transaction_id: str = ""
    summary: str = ""
    operations: list[Operation] = Field(default_factory=list)

    def to_json_dict(self) -> PlanJson:
        return cast(PlanJson, self.model_dump(mode="json"))


StepKind = Literal["mkdir", "rmdir", "move", "trash", "untrash"]


@dataclass(frozen=True)
class Step:
    """One primitive disk change; `item_id` names the trash entry for trash/untrash steps."""

    kind: StepKind
    src: str = ""
    dst: str = ""
    item_id: str = ""
    op_index: int = -1

    def inverse(self) -> Step:
        """The step that puts the disk back the way it was before this one."""
        if self.kind == "mkdir":
            return Step("rmdir", dst=self.dst, op_index=self.op_index)
        if self.kind == "rmdir":
            return Step("mkdir", dst=self.dst, op_index=self.op_index)
        if self.kind == "move":
            return Step("move", src=self.dst, dst=self.src, op_index=self.op_index)
        if self.kind == "trash":
            return Step("untrash", src=self.dst, dst=self.src, item_id=self.item_id, op_index=self.op_index)
        return Step("trash", src=self.dst, dst=self.src, item_id=self.item_id, op_index=self.op_index)

    def describe(self) -> str:
        """What a person reads in a rollback or recovery report."""
        if self.kind == "mkdir":
            return f"create folder {self.dst}"
        if self.kind == "rmdir":
            return f"remove folder {self.dst}"
        if self.kind == "move":
            return f"move {self.src} → {self.dst}"
        if self.kind == "trash":
            return f"move {self.src} to the trash"
        return f"restore {self.dst} from the trash"

    def to_json(self) -> str:
        return json.dumps(asdict(self), sort_keys=True)

    @staticmethod
    def from_json(text: str) -> Step:
        return Step(**json.loads(text))
