"""`sensetree mcp list`: the tools of the enabled MCP servers, as the assistant sees them.

A tool that pauses the turn to ask the person first (DESIGN §2a) is marked; a server that could not
be reached is listed with the reason. Through the running SenseTree when there is one.
"""

from __future__ import annotations

import argparse
import sys
from typing import Any, TextIO

from cli.context import Context, plain


def add_parser(subparsers: Any, context: Context | None = None) -> None:
    mcp = subparsers.add_parser("mcp", help="MCP servers")
    mcp_sub = mcp.add_subparsers(dest="mcp_command", required=True)
    listing = mcp_sub.add_parser("list", help="list the tools of the enabled MCP servers")
    if context is not None:
        listing.set_defaults(func=lambda args: _run_in(context, args))


def _run_in(context: Context, args: argparse.Namespace) -> int:
    with context.engine() as engine:
        return run(args, engine, sys.stdout)


def run(args: argparse.Namespace, engine: Any, out: TextIO) -> int:
    rows = plain(engine.list_mcp_tools())
    if not rows:
        print("No MCP servers are configured (add them under mcpServers in the settings file).", file=out)
        return 0
    failed = 0
    for row in rows:
        if row.get("error"):
            failed += 1
            print(f"{row['server']}: not available — {row['error']}", file=out)
        else:
            asks = "  (asks before running)" if row.get("approval", "asks") == "asks" else ""
            print(f"{row['name']}  {row['description']}{asks}", file=out)
    return 1 if failed == len(rows) else 0
