"""`sensetree apply ID`: approve a proposed plan from the command line, all of it or all but the
operations the person skips; `sensetree apply --undo ID` undoes a committed one. The same rules as the
app's Approve button apply: only operations that are in the stored draft, fingerprints re-checked,
journaled, rolled back on the first failure."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from typing import Any, TextIO

from cli.chat import plan_lines
from engine.errors import InvalidInput, NotFound
from engine.txn.results import ApplyResult


def add_parser(subparsers: Any, build_engine: Callable[[], Any]) -> None:
    p = subparsers.add_parser("apply", help="approve a proposed action plan (or undo an applied one)")
    p.add_argument("transaction_id", help="the id printed with the plan")
    p.add_argument(
        "--skip",
        type=int,
        nargs="*",
        default=[],
        metavar="N",
        help="operation numbers to leave out (as listed)",
    )
    p.add_argument("--yes", action="store_true", help="apply without asking")
    p.add_argument("--undo", action="store_true", help="undo this committed plan instead")

    def func(args: argparse.Namespace) -> int:
        engine = build_engine()
        try:
            return run(args, engine, sys.stdout, sys.stdin)
        finally:
            engine.close()

    p.set_defaults(func=func)


def run(args: argparse.Namespace, engine: Any, out: TextIO, stdin: TextIO | None) -> int:
    if args.undo:
        return _report(engine.undo_transaction(args.transaction_id), out)
    record = engine.txn.store.get(args.transaction_id)
    if record is None:
        raise NotFound(f"No plan has the id {args.transaction_id}; `sensetree chat` prints it with the plan.")
    plan = record.plan.to_json_dict()
    operations = plan["operations"]
    skipped = set(args.skip or [])
    if not skipped <= set(range(1, len(operations) + 1)):
        raise InvalidInput(f"--skip takes operation numbers from 1 to {len(operations)}.")
    chosen = [op for i, op in enumerate(operations, 1) if i not in skipped]
    print("\n".join(plan_lines({**plan, "operations": chosen})), file=out)
    if not args.yes and not _confirmed(len(chosen), out, stdin):
        print("Nothing was changed.", file=out)
        return 1
    return _report(engine.apply_action_plan(args.transaction_id, chosen), out)


def _confirmed(count: int, out: TextIO, stdin: TextIO | None) -> bool:
    if stdin is None or not stdin.isatty():
        print("Add --yes to apply without a prompt.", file=out)
        return False
    print(f"\nApply these {count} operation(s)? [y/N] ", end="", file=out, flush=True)
    return stdin.readline().strip().lower() in ("y", "yes")


def _report(result: ApplyResult, out: TextIO) -> int:
    print(result.message, file=out)
    for step in result.rollback or []:
        mark = "ok" if step.get("ok") else "FAILED"
        print(f"  [{mark}] {step['step']}: {step.get('detail') or step.get('error') or ''}", file=out)
    return 0 if result.applied else 1
