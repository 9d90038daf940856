"""`sensetree chat "question" [--scope DIR]`: the agent from a terminal.

Every turn is stored like the window's: `--continue` asks in the newest conversation (or
`--conversation ID` in a given one), `--list` lists them newest first, `--export ID` prints one as
Markdown.

Steps are printed as they happen (the same `agent-step` events the window shows), the answer streams
as `answer-delta` events arrive, then the sources are listed. A proposed plan is printed as a
Before → After list with its transaction id; approving it happens in the app or with `sensetree apply`.
With a SenseTree running, the turn runs there (cli/context.py) and its events come back over the
single-instance socket; only the events of this turn are shown, and only its approvals asked.

An MCP call that needs the person's approval (DESIGN §2a) is asked on the terminal:
`Allow mcp__x__y? [o]nce/[a]lways/[D]eny`, after the tool's description and exact arguments. Deny is
the default, and without a terminal (stdin not a TTY: a script, a pipe, cron) every such call is
denied: there is deliberately no `--allow-tools`, because approving is a person's act.

JSON edge: the chat's events, sources and plan as JSON (`plain`), the same from this process's engine as over
the IPC socket.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from typing import Any, TextIO

from cli.context import Context, plain
from engine.events import AGENT_STEP, ANSWER_DELTA, TOOL_APPROVAL

# The engine's no-endpoint answer names the window's Settings; a terminal user gets the commands instead
# (tests/agent/test_cli_chat.py fails if the engine's sentence changes and this no longer matches).
IN_SETTINGS = "Set its base URL and model in Settings → Reasoning and switch it on."
IN_TERMINAL = (
    "Set it from here:\n"
    "  sensetree config set reasoning.base_url http://127.0.0.1:11434/v1\n"
    "  sensetree config set reasoning.model qwen2.5:7b-instruct\n"
    "  sensetree config set reasoning.enabled true"
)


def add_parser(subparsers: Any, context: Context | None = None) -> None:
    chat = subparsers.add_parser("chat", help="ask the assistant about your files")
    chat.add_argument("question", nargs="?", help="what to ask")
    chat.add_argument("--scope", help="restrict the answer to this folder")
    chat.add_argument(
        "--continue", dest="resume", action="store_true", help="continue the newest conversation"
    )
    chat.add_argument("--conversation", metavar="ID", help="continue this conversation")
    chat.add_argument("--list", dest="list_conversations", action="store_true", help="list the conversations")
    chat.add_argument("--export", metavar="ID", help="print a conversation as Markdown")
    if context is not None:
        chat.set_defaults(func=lambda args: _run_in(context, args))


def _run_in(context: Context, args: argparse.Namespace) -> int:
    with context.engine() as engine:
        return run(args, engine)


def run(args: argparse.Namespace, engine: Any, out: TextIO | None = None, stdin: TextIO | None = None) -> int:
    return _chat(args, engine, out or sys.stdout, stdin or sys.stdin)


ANSWERS = {"o": "once", "once": "once", "a": "always", "always": "always"}
ARGUMENT_CHARS = 2000


def _ask_on_terminal(engine: Any, payload: dict[str, Any], out: TextIO, stdin: TextIO) -> None:
    """The terminal's answer to a `tool-approval` question; deny by default and without a terminal."""
    from engine.agent.mcp import tool_name  # MCP loads only when a tool asks

    name = tool_name(payload["server"], payload["tool"])
    arguments = json.dumps(payload.get("arguments") or {}, indent=2, ensure_ascii=False)
    if len(arguments) > ARGUMENT_CHARS:
        arguments = arguments[:ARGUMENT_CHARS] + f"\n… ({len(arguments) - ARGUMENT_CHARS} more characters)"
    wants = f"\n  🔌 {payload['server']} wants to run {payload['tool']}: {payload.get('description') or ''}"
    print(wants.rstrip(), file=out)
    print("  with " + arguments.replace("\n", "\n  "), file=out)
    decision = "deny"
    if stdin.isatty():
        print(f"Allow {name}? [o]nce/[a]lways/[D]eny ", end="", file=out, flush=True)
        line = stdin.readline()
        decision = ANSWERS.get(line.strip().lower(), "deny")
    else:
        print(f"  Denied {name}: no terminal to ask on (approving a tool is a person's act).", file=out)
    engine.approve_tool_call(call_id=payload["call_id"], decision=decision)


def _list(engine: Any, out: TextIO) -> int:
    rows = plain(engine.list_conversations())
    if not rows:
        print('No conversations yet. Start one with: sensetree chat "your question"', file=out)
    for row in rows:
        when = time.strftime("%Y-%m-%d %H:%M", time.localtime(row["updated_at"]))
        print(f"{row['conversation_id']}  {when}  {row['turns']:>3} turn(s)  {row['title']}", file=out)
    return 0


def _history(args: argparse.Namespace, engine: Any) -> tuple[str | None, list[dict[str, Any]]]:
    """The conversation to continue and its stored messages (none for a new conversation)."""
    conversation_id = args.conversation
    if args.resume and not conversation_id:
        newest = plain(engine.list_conversations())
        conversation_id = newest[0]["conversation_id"] if newest else None
    if not conversation_id:
        return None, []
    messages = []
    for turn in plain(engine.get_conversation(conversation_id=conversation_id))["turns"]:
        messages.append({"role": "user", "content": turn["user"]})
        if turn["answer"]:
            messages.append({"role": "assistant", "content": turn["answer"]})
    return conversation_id, messages


def _chat(args: argparse.Namespace, engine: Any, out: TextIO, stdin: TextIO) -> int:
    if args.list_conversations:
        return _list(engine, out)
    if args.export:
        out.write(plain(engine.get_conversation(conversation_id=args.export))["markdown"])
        return 0
    if not args.question or not args.question.strip():
        print('Ask a question: sensetree chat "…" (or --list to see your conversations).', file=out)
        return 2
    conversation_id, messages = _history(args, engine)
    streamed: list[str] = []

    def on_step(_topic: str, payload: dict[str, Any]) -> None:
        print(f"  {payload['step']}", file=out, flush=True)

    def on_delta(_topic: str, payload: dict[str, Any]) -> None:
        if not streamed:
            print(file=out)
        streamed.append(payload["delta"])
        out.write(payload["delta"])
        out.flush()

    def on_approval(_topic: str, payload: dict[str, Any]) -> None:
        if payload.get("state") == "pending":
            _ask_on_terminal(engine, payload, out, stdin)

    unsubscribe = [
        engine.events.subscribe(on_step, AGENT_STEP),
        engine.events.subscribe(on_delta, ANSWER_DELTA),
        engine.events.subscribe(on_approval, TOOL_APPROVAL),
    ]
    try:
        messages.append({"role": "user", "content": args.question})
        options = {"conversation_id": conversation_id} if conversation_id else {}
        result = plain(engine.chat_with_assistant(messages=messages, scope=args.scope, **options))
    finally:
        for stop in unsubscribe:
            stop()
    if (result.get("error") or {}).get("code") == "no_endpoint":  # the page's words name Settings
        result["answer"] = result["answer"].replace(IN_SETTINGS, IN_TERMINAL)
    if result.get("plan"):
        print(f"\n{result['answer']}", file=out)
        print(format_plan(result["plan"]), file=out)
    elif not streamed or "".join(streamed).strip() != result["answer"].strip():
        print(f"\n{result['answer']}", file=out)
    else:
        print(file=out)
    _print_sources(result.get("sources") or [], out)
    if result.get("conversation_id"):
        print(
            f'\n(conversation {result["conversation_id"]}; ask more with: sensetree chat --continue "…")',
            file=out,
        )
    return 1 if result.get("error") else 0


def _print_sources(sources: list[dict[str, Any]], out: TextIO) -> None:
    if sources:
        print("\nSources:", file=out)
        for i, source in enumerate(sources, 1):
            print(f"  [{i}] {source['name']}  {source['path']}", file=out)


def plan_lines(plan: dict[str, Any]) -> list[str]:
    """The plan as a numbered Before → After list (shared with `sensetree apply`)."""
    lines = [f"\nAction plan {plan['transaction_id']}: {plan.get('summary', '')}"]
    for i, op in enumerate(plan.get("operations") or [], 1):
        lines.append(f"  {i}. {op['kind']:<9} {_before_after(op)}")
        if op.get("reason"):
            lines.append(f"     why: {op['reason']}")
    return lines


def format_plan(plan: dict[str, Any]) -> str:
    """The plan as a Before → After list, with how to approve it."""
    lines = plan_lines(plan)
    lines.append(
        f"\nNothing has changed. Approve it in the app, or run: sensetree apply {plan['transaction_id']}"
    )
    return "\n".join(lines)


def _before_after(op: dict[str, Any]) -> str:
    kind, old, new = op["kind"], op.get("old_path"), op.get("new_path")
    if kind == "mkdir":
        return f"(new folder) → {new}"
    if kind == "delete":
        return f"{old} → (SenseTree trash)"
    if kind == "requalify":
        return f"{old}: sense → {op.get('new_summary')!r}"
    return f"{old} → {new}"
