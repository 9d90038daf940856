"""`sensetree status`: the indexed folders, the counts and the files that failed, and why.

With a SenseTree running it asks that one (its live figures, paused state included); with none it
reads the database alone (`engine.snapshot`), so it answers in a fraction of a second without
loading the search stores or the model. A database SQLite calls damaged is handed to a full Engine
start, which sets it aside and says so.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any, TextIO

from cli.context import Context, plain

FAILED_SHOWN = 20


def add_parser(subparsers: Any, context: Context) -> None:
    p = subparsers.add_parser("status", help="indexed folders, counts and failures")
    p.add_argument("--json", action="store_true")
    p.set_defaults(func=lambda args: run(args, context, sys.stdout))


def run(args: argparse.Namespace, context: Context, out: TextIO) -> int:
    remote = context.running()
    if remote is not None:
        return report(args, remote, context, out)
    from engine.errors import StoreError
    from engine.snapshot import IndexSnapshot

    try:
        snapshot = IndexSnapshot(context.home())
    except StoreError:
        with context.local() as engine:  # it quarantines the damaged file and prints the notice
            return report(args, engine, context, out)
    try:
        for notice in snapshot.startup_notices():
            print(f"Notice: {notice}", file=sys.stderr)
        return report(args, snapshot, context, out)
    finally:
        snapshot.close()


def report(args: argparse.Namespace, engine: Any, context: Context, out: TextIO) -> int:
    from engine.indexing.pathtext import printable

    stats, roots = plain(engine.indexing_stats()), plain(engine.get_roots())
    failed = [q for q in plain(engine.indexing_queue(limit=1000)) if q["status"] == "failed"]
    if args.json:
        summary = {**stats, "roots": roots, "per_root": stats.get("roots", []), "failed_files": failed}
        print(json.dumps(summary, indent=2), file=out)
        return 0
    print(f"Data folder: {context.home()}", file=out)
    print("Indexed folders:" if roots else "No indexed folders yet: run `sensetree index FOLDER`.", file=out)
    for root in roots:
        print(f"  {root}", file=out)
    print(
        f"Files: {stats['files']} ({stats['done']} done, {stats['skipped']} by name only, "
        f"{stats['failed']} failed, {stats['queued']} queued); chunks: {stats['chunks']}"
        f"{'; PAUSED' if stats['paused'] else ''}",
        file=out,
    )
    for item in failed[:FAILED_SHOWN]:
        print(f"  failed: {printable(item['path'])}: {item['error']}", file=out)
    return 0
