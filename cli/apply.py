"""`sensetree apply ID`: approve a proposed plan from the command line, all of it or all but the
operations the person skips; `sensetree apply --undo ID` undoes a committed one. The same rules as the
app's Approve button apply: only operations that are in the stored draft, fingerprints re-checked,
journaled, rolled back on the first failure.

The plan is read from this process's engine (`Engine.get_action_plan` is not an IPC command), so
while a SenseTree is running the plan is approved in its window; `--undo` works through it too.

JSON edge: the apply result as JSON (`plain`), as a running instance's IPC socket would send it.
"""

from __future__ import annotations

import argparse
import sys
from typing import Any, TextIO

from cli.chat import plan_lines
from cli.context import Context, plain
from engine.errors import EngineError, InvalidInput


def add_parser(subparsers: Any, context: Context) -> None:
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

    p.set_defaults(func=lambda args: _run_in(context, args))


def _run_in(context: Context, args: argparse.Namespace) -> int:
    remote = context.running()
    if remote is not None and args.undo:
        return _report(plain(remote.undo_transaction(transaction_id=args.transaction_id)), sys.stdout)
    if remote is not None:
        raise EngineError(
            "SenseTree is running: approve the plan in its window (Chat), or quit it and run "
            f"`sensetree apply {args.transaction_id}` again."
        )
    with context.local() as engine:
        return run(args, engine, sys.stdout, sys.stdin)


def run(args: argparse.Namespace, engine: Any, out: TextIO, stdin: TextIO | None) -> int:
    if args.undo:
        return _report(plain(engine.undo_transaction(transaction_id=args.transaction_id)), out)
    plan = plain(engine.get_action_plan(args.transaction_id))
    operations = plan["operations"]
    skipped = set(args.skip or [])
    if not skipped <= set(range(1, len(operations) + 1)):
        raise InvalidInput(f"--skip takes operation numbers from 1 to {len(operations)}.")
    chosen = [op for i, op in enumerate(operations, 1) if i not in skipped]
    print("\n".join(plan_lines({**plan, "operations": chosen})), file=out)
    if not args.yes and not _confirmed(len(chosen), out, stdin):
        print("Nothing was changed.", file=out)
        return 1
    return _report(
        plain(engine.apply_action_plan(transaction_id=args.transaction_id, operations=chosen)), out
    )


def _confirmed(count: int, out: TextIO, stdin: TextIO | None) -> bool:
    if stdin is None or not stdin.isatty():
        print("Add --yes to apply without a prompt.", file=out)
        return False
    print(f"\nApply these {count} operation(s)? [y/N] ", end="", file=out, flush=True)
    return stdin.readline().strip().lower() in ("y", "yes")


def _report(result: dict[str, Any], out: TextIO) -> int:
    print(result["message"], file=out)
    for step in result.get("rollback") or []:
        mark = "ok" if step.get("ok") else "FAILED"
        print(f"  [{mark}] {step['step']}: {step.get('detail') or step.get('error') or ''}", file=out)
    return 0 if result.get("applied") else 1
