"""The one-shot planner: tolerant parsing of the model's reply, clear errors, nothing stored on failure."""

from __future__ import annotations

import json

import pytest

from engine.errors import ModelError, OutOfBounds, PlanInvalid
from engine.prompts import REORGANIZE
from engine.roots import Roots


def planner_replying(reply: str, calls: list[tuple[str, str]]):
    def planner(system: str, user: str) -> str:
        calls.append((system, user))
        return reply

    return planner


def plan_json(root) -> str:
    return json.dumps(
        {
            "summary": "Group invoices",
            "operations": [
                {"kind": "mkdir", "new_path": f"{root}/Invoices", "reason": "group"},
                {
                    "kind": "move",
                    "old_path": f"{root}/invoice-acme.txt",
                    "new_path": f"{root}/Invoices/acme.txt",
                    "reason": "invoice",
                },
            ],
        }
    )


def test_fenced_json_reply_becomes_a_stored_draft_and_the_prompt_lists_children_with_senses(world):
    calls: list[tuple[str, str]] = []
    service = world.service(planner=planner_replying(f"```json\n{plan_json(world.root)}\n```", calls))
    plan = service.plan_reorganization("group the invoices", str(world.root))
    assert plan.summary == "Group invoices" and len(plan.operations) == 2
    assert service.list_transactions()[0].status == "draft"
    system, user = calls[0]
    assert system == REORGANIZE and "group the invoices" in user
    assert (
        f"[F] {world.root}/invoice-acme.txt — about invoice-acme.txt" in user
        and f"[D] {world.root}/old" in user
    )


def test_json_with_prose_around_it_is_parsed(world):
    reply = f"Sure! Here is the plan you asked for:\n{plan_json(world.root)}\nLet me know {{if}} it helps."
    plan = world.service(planner=planner_replying(reply, [])).plan_reorganization("tidy", str(world.root))
    assert [op.kind for op in plan.operations] == ["mkdir", "move"]


def test_invalid_json_is_quoted_in_the_error_and_nothing_is_stored(world):
    service = world.service(
        planner=planner_replying('{"summary": "x", "operations": [ {"kind": "mkdir",, } ]}', [])
    )
    with pytest.raises(ModelError, match=r"not valid JSON \(Expecting property name.*near"):
        service.plan_reorganization("tidy", str(world.root))
    assert service.list_transactions() == []


def test_json_that_is_not_a_plan_is_refused_with_a_quote(world):
    service = world.service(planner=planner_replying('{"answer": "I would move things"}', []))
    with pytest.raises(ModelError, match='needs an "operations" list.*I would move things'):
        service.plan_reorganization("tidy", str(world.root))
    assert service.list_transactions() == []


def test_reply_without_json_is_refused(world):
    service = world.service(planner=planner_replying("I cannot do that.", []))
    with pytest.raises(ModelError, match="holds no JSON object.*I cannot do that"):
        service.plan_reorganization("tidy", str(world.root))


def test_invented_paths_are_validation_problems_and_nothing_is_stored(world):
    reply = json.dumps(
        {
            "summary": "s",
            "operations": [
                {
                    "kind": "move",
                    "old_path": f"{world.root}/tax-2019.pdf",
                    "new_path": f"{world.root}/Tax/2019.pdf",
                }
            ],
        }
    )
    service = world.service(planner=planner_replying(reply, []))
    with pytest.raises(PlanInvalid, match="tax-2019.pdf does not exist"):
        service.plan_reorganization("tidy", str(world.root))
    assert service.list_transactions() == []


def test_planner_needs_a_model_and_a_scope_inside_the_roots(world, tmp_path):
    with pytest.raises(ModelError, match="No reasoning model is configured"):
        world.service().plan_reorganization("tidy", str(world.root))
    with pytest.raises(OutOfBounds, match="outside the indexed folders"):
        world.service(planner=planner_replying("{}", [])).plan_reorganization("tidy", str(tmp_path))


def test_the_persons_reorganize_prompt_is_used_when_given(world):
    from engine.txn import TxnService

    calls: list[tuple[str, str]] = []
    service = TxnService(
        world.db,
        world.home,
        Roots(lambda: world.roots),
        world.index,
        planner_replying(plan_json(world.root), calls),
        reorganize_prompt=lambda: "My own rules",
    )
    service.plan_reorganization("tidy", str(world.root))
    assert calls[0][0] == "My own rules"
