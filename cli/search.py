"""`sensetree search QUERY`: hybrid search of the indexed folders, from a terminal.

Through the running SenseTree when there is one (its model is loaded: the answer is back in well
under a second); otherwise the stores and the query model are opened here, which takes seconds.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from typing import Any, TextIO

from cli.context import Context, plain


def add_parser(subparsers: Any, context: Context) -> None:
    p = subparsers.add_parser("search", help="hybrid search of the indexed folders")
    p.add_argument("query")
    p.add_argument("--scope", help="only inside this folder")
    p.add_argument("--limit", type=int, default=10)
    p.add_argument("--json", action="store_true")
    p.set_defaults(func=lambda args: run(args, context, sys.stdout))


def run(args: argparse.Namespace, context: Context, out: TextIO) -> int:
    with context.engine() as engine:
        options = {"scope": args.scope} if args.scope else {}
        results = plain(engine.semantic_search(query=args.query, limit=args.limit, **options))
    if args.json:
        print(json.dumps(results, indent=2, ensure_ascii=False), file=out)
        return 0
    if not results:
        print("No matches. Is the folder indexed? Try `sensetree status`.", file=out)
        return 1
    for i, hit in enumerate(results, 1):
        print(f"{i:2}. {hit['score']:.2f}  {result_label(hit['path'])}", file=out)
        print(f"      {hit['snippet']}", file=out)
    if any(hit.get("semantic") == "keyword-only" for hit in results):
        print(KEYWORD_ONLY, file=out)
    return 0


# what a search that could not ask the vector index says beside its results (the page says the same)
KEYWORD_ONLY = (
    "Meaning search is unavailable right now (its index is being rebuilt, or the embedding model "
    "cannot be reached): these results match your words only."
)


def result_label(path: str) -> str:
    """`name  (in folder)`: the name a person knows, and the folder that tells same-named files apart."""
    return f"{os.path.basename(path)}  (in {os.path.dirname(path)}{os.sep})"
