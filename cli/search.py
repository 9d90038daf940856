"""`sensetree search QUERY`: hybrid search of the indexed folders, from a terminal.

Through the running SenseTree when there is one (its model is loaded: the answer is back in well
under a second); otherwise the stores and the query model are opened here. The model takes seconds to
load, so then the keyword arm answers first (no model: within a second of the start) and the fused list
follows once the model is ready (issue 30): the keyword hits are read from the keyword index alone,
before the engine opens (engine/keyword_peek.py).

JSON edge: search hits as JSON (`plain`), from this process's engine or over the IPC socket.
"""

from __future__ import annotations

import argparse
import contextlib
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
    options = {"scope": args.scope} if args.scope else {}
    remote = context.running()
    if remote is None and not args.json:
        _keyword_first(args, context, out)
    with context.engine() if remote is None else contextlib.nullcontext(remote) as engine:
        results = plain(engine.semantic_search(query=args.query, limit=args.limit, **options))
    if args.json:
        print(json.dumps(results, indent=2, ensure_ascii=False), file=out)
        return 0
    if not results:
        print("No matches. Is the folder indexed? Try `sensetree status`.", file=out)
        return 1
    _print_hits(results, out)
    if any(hit.get("semantic") == "keyword-only" for hit in results):
        print(KEYWORD_ONLY, file=out)
    return 0


def _keyword_first(args: argparse.Namespace, context: Context, out: TextIO) -> None:
    """With none running, the engine and then the query model take seconds to open: the keyword hits,
    read from the keyword index alone, are printed before either (the fused list follows)."""
    if context.peek_keywords is None:
        return
    hits = plain(context.peek_keywords(context.home(), args.query, args.scope, args.limit))
    if hits:
        print("Keyword matches (the search model is loading; the full answer follows):", file=out)
        _print_hits(hits, out)
        print("Ranked by meaning and keywords:", file=out)
        out.flush()


def _print_hits(hits: list[dict[str, Any]], out: TextIO) -> None:
    for i, hit in enumerate(hits, 1):
        print(f"{i:2}. {hit['score']:.2f}  {result_label(hit['path'])}", file=out)
        if hit.get("copies"):  # the identical copies this row stands for (`--json` lists them all)
            from engine.retrieval.results import copies_text

            print(f"      also in: {copies_text(hit['copies'])}", file=out)
        print(f"      {hit['snippet']}", file=out)


# what a search that could not ask the vector index says beside its results (the page says the same)
KEYWORD_ONLY = (
    "Meaning search is unavailable right now (its index is being rebuilt, or the embedding model "
    "cannot be reached): these results match your words only."
)


def result_label(path: str) -> str:
    """`name  (in folder)`: the name a person knows, and the folder that tells same-named files apart."""
    return f"{os.path.basename(path)}  (in {os.path.dirname(path)}{os.sep})"
