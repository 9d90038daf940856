"""The checks an approval or an undo passes before anything moves: the person's selection against the
stored draft (field by field: only operations exactly as proposed), the sources against their
fingerprints, and for an undo, what the plan left against what is on disk now. Each refusal is an
`InvalidInput` or a `Conflict` whose message says that nothing was changed and what to do.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from engine.errors import Conflict, InvalidInput
from engine.txn import fsops
from engine.txn.model import Operation, Step
from engine.txn.store import TxnRecord, TxnStore


def selected(record: TxnRecord, operations: Sequence[Any] | None) -> list[Operation]:
    """The draft's operations the person kept; anything not in the draft, exactly, is refused."""
    stored = record.plan.operations
    if operations is None:
        return list(stored)
    if not operations:
        raise InvalidInput("No operation was selected; untick fewer operations, or discard the plan instead")
    keys = {op.key(): i for i, op in enumerate(stored)}
    chosen: set[int] = set()
    for number, raw in enumerate(operations, start=1):
        try:
            op = raw if isinstance(raw, Operation) else Operation.model_validate(raw)
        except ValueError as exc:
            raise InvalidInput(
                f"Selected operation {number} is malformed ({exc}); approve the plan as shown"
            ) from exc
        if op.key() not in keys:
            raise InvalidInput(_tampered(number, op, stored))
        if keys[op.key()] in chosen:
            raise InvalidInput(f"Selected operation {number} is listed twice; approve each operation once")
        chosen.add(keys[op.key()])
    return [stored[i] for i in sorted(chosen)]


def check_fingerprints(record: TxnRecord, chosen: list[Operation]) -> None:
    """Every chosen source is as it was when the plan was proposed (its fingerprint), or nothing moves."""
    for op in chosen:
        path = op.old_path
        if path is None or path not in record.fingerprints:
            continue
        now = fsops.fingerprint(path)
        if now != record.fingerprints[path]:
            what = "was moved or deleted" if now is None else "was modified"
            raise Conflict(
                f"{path} {what} since the plan was proposed, so nothing was changed; ask for a new plan"
            )


def check_undo(store: TxnStore, record: TxnRecord, steps: list[Step]) -> None:
    """What the plan left is unchanged and nothing it trashed was restored since, or the undo is refused."""
    for path, then in record.after.items():
        if fsops.fingerprint(path) != then:
            raise Conflict(
                f"{path} changed since the plan was applied, so it cannot be undone safely; "
                "nothing was changed"
            )
    for step in steps:
        item = store.trash_item(step.item_id) if step.kind == "trash" else None
        if step.kind == "trash" and (item is None or item["restored_at"] is not None):
            raise Conflict(
                f"{step.src} was already restored from the trash, so the plan cannot be undone; "
                "nothing was changed"
            )


def _tampered(number: int, op: Operation, stored: list[Operation]) -> str:
    for candidate in stored:
        anchor = "old_path" if candidate.kind != "mkdir" else "new_path"
        if candidate.kind == op.kind and getattr(candidate, anchor) == getattr(op, anchor):
            fields = [
                n
                for n, a, b in zip(
                    ("kind", "old_path", "new_path", "new_summary", "reason"),
                    op.key(),
                    candidate.key(),
                    strict=True,
                )
                if a != b
            ]
            return (
                f"Selected operation {number} differs from the proposed plan in {', '.join(fields)}; "
                "only operations exactly as proposed can be approved, so nothing was changed"
            )
    return (
        f"Selected operation {number} ({op.kind} {op.old_path or op.new_path}) is not part of the proposed "
        "plan; nothing was changed. Ask for a new plan to include it"
    )
