"""`sensetree map "query" [--scope DIR]`: the meaning map in the terminal — the folder tree of the best
matches, each folder scored by its best file, branches sorted by score, with a bar per line.

Through the running SenseTree when there is one (its query model is warm and it holds the stores),
otherwise with the stores opened here; the tree arrives as the bridge's JSON either way.

JSON edge: the folder map as JSON (`plain`), from this process's engine or over the IPC socket.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from typing import Any, TextIO

from cli.context import Context, plain

BAR = 20


def add_parser(subparsers: Any, context: Context) -> None:
    p = subparsers.add_parser("map", help="show where in your folders a topic lives, as a scored tree")
    p.add_argument("query", help="what to look for, in natural words")
    p.add_argument("--scope", help="map only this folder")
    p.add_argument("--limit", type=int, default=50, help="files to place on the map (default 50)")
    p.add_argument("--json", action="store_true", help="print the tree as JSON")

    def func(args: argparse.Namespace) -> int:
        options = {"scope": os.path.abspath(args.scope)} if args.scope else {}
        with context.engine() as engine:
            tree = plain(engine.semantic_tree(query=args.query, limit=args.limit, **options))
        return run(tree, args.json, sys.stdout)

    p.set_defaults(func=func)


def run(tree: dict[str, Any] | None, as_json: bool, out: TextIO) -> int:
    """Print `tree` (a TreeNode as JSON, or None when nothing matched)."""
    if as_json:
        print(json.dumps(tree, indent=2, ensure_ascii=False), file=out)
        return 0 if tree else 1
    if tree is None:
        print("Nothing matches. Is the folder indexed? Try `sensetree status`.", file=out)
        return 1
    print("\n".join(tree_lines(tree, tree["score"])), file=out)
    return 0


def _holds(node: dict[str, Any]) -> str:
    """What a folder of the map holds: its matching files, counted through its subfolders."""
    files = _files(node)
    return f"{files} matching file{'' if files == 1 else 's'}"


def _files(node: dict[str, Any]) -> int:
    return sum(_files(child) if child["is_dir"] else 1 for child in node["children"])


def tree_lines(node: dict[str, Any], top: float, depth: int = 0) -> list[str]:
    filled = round(BAR * node["score"] / top) if top > 0 else 0
    bar = "█" * filled + "·" * (BAR - filled)
    label = (node["path"] if depth == 0 and node["path"] else node["name"]) + ("/" if node["is_dir"] else "")
    if node["is_dir"]:  # said before the name, so every line still ends with the path or name
        label = f"[folder, {_holds(node)}] {label}"
    lines = [f"{bar} {node['score']:6.3f}  {'  ' * depth}{label}"]
    for child in node["children"]:
        lines.extend(tree_lines(child, top, depth + 1))
    return lines
