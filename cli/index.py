"""`sensetree index FOLDER...`: add folders and index them; returns when the queue is drained.

With no SenseTree running, the stores are opened here and the queue is run on this thread. With one
running, the folders are added to it and this command follows its live `indexing-progress` events
until the scan of the folders has run and the queue is empty (or says so if indexing is paused there);
the running instance keeps indexing if this command is interrupted. Either way a file that could not
be indexed makes the exit status 1, like cp.

JSON edge: the `indexing-progress` events and `indexing_stats` as JSON, from this process's engine or over the
IPC socket.
"""

from __future__ import annotations

import argparse
import os
import sys
import threading
from typing import Any, TextIO

from cli.context import Context, plain

FAILED_SHOWN = 20
POLL_S = 2.0  # how often a follower checks that the running instance is not paused


def add_parser(subparsers: Any, context: Context) -> None:
    p = subparsers.add_parser("index", help="add folders and index them; returns when the queue is drained")
    p.add_argument("paths", nargs="+")
    p.add_argument("-q", "--quiet", action="store_true")
    p.set_defaults(func=lambda args: run(args, context, sys.stdout, sys.stderr))


def run(args: argparse.Namespace, context: Context, out: TextIO, err: TextIO) -> int:
    from cli.progress import ProgressPrinter
    from cli.remote import RemoteEngine

    printer = ProgressPrinter(err, quiet=args.quiet)
    with context.engine() as engine:
        if isinstance(engine, RemoteEngine):
            roots = _follow(engine, args.paths, printer, err)
            if roots is None:
                return 0
        else:
            roots = _index_here(engine, args.paths, printer, err)
        stats = plain(engine.indexing_stats())
        printer.finish(stats)
        return _report(engine, args.paths, roots, stats, out, err)


def _add(engine: Any, paths: list[str], err: TextIO) -> list[str]:
    from engine.indexing.pathtext import printable

    roots: list[str] = []
    for path in paths:
        roots = plain(engine.add_indexed_folder(path=os.path.abspath(path)))  # a known folder is re-scanned
        print(f"Indexing {printable(os.path.abspath(path))}", file=err)
    return roots


def _index_here(engine: Any, paths: list[str], printer: Any, err: TextIO) -> list[str]:
    from engine.events import INDEXING_PROGRESS

    unsubscribe = engine.events.subscribe(printer.on_progress, INDEXING_PROGRESS)
    try:
        roots = _add(engine, paths, err)
        engine.parts.index.drain()
    finally:
        unsubscribe()
    return roots


def _follow(engine: Any, paths: list[str], printer: Any, err: TextIO) -> list[str] | None:
    """Add the folders to the running instance and follow its progress until they are indexed; None
    when it is paused (they are indexed when it resumes)."""
    from cli.remote import watch
    from engine.events import INDEXING_PROGRESS
    from engine.paths import normalize

    tops = [normalize(os.path.abspath(path)) for path in paths]
    finished = threading.Event()

    def on_progress(topic: str, stats: dict[str, Any]) -> None:
        printer.on_progress(topic, stats)
        if _settled(stats, tops):
            finished.set()

    with watch(engine, [INDEXING_PROGRESS], on_progress):
        roots = _add(engine, paths, err)
        while not finished.wait(POLL_S):
            stats = plain(engine.indexing_stats())
            if _settled(stats, tops):
                break
            if stats.get("paused"):
                print(
                    "Indexing is paused in the running SenseTree: the folders were added and are "
                    "indexed when it resumes (the tray menu, or Folders & indexing).",
                    file=err,
                )
                return None
    return roots


def _settled(stats: dict[str, Any], tops: list[str]) -> bool:
    """Our folders are known, scanned, and both phases are idle with nothing queued (a snapshot, pushed
    or polled, says so; a quick folder may never be seen mid-way)."""
    from engine.roots import Roots

    known = Roots(lambda: [str(r.get("path")) for r in stats.get("roots") or [] if isinstance(r, dict)])
    busy = Roots(lambda: [*(stats.get("scanning") or []), *(stats.get("removing") or [])])
    if not all(known.allows(top) and not busy.allows(top) for top in tops):
        return False
    if stats.get("current") or stats.get("queued"):
        return False
    phases = [stats.get(name) or {} for name in ("keyword", "semantic")]
    return all(int(p.get("done") or 0) >= int(p.get("total") or 0) for p in phases)


def _report(
    engine: Any, paths: list[str], roots: list[str], stats: dict[str, Any], out: TextIO, err: TextIO
) -> int:
    from engine.indexing.pathtext import printable
    from engine.paths import normalize
    from engine.roots import Roots

    print(
        f"Indexed {stats['done']} file(s), {stats['chunks']} chunk(s); {stats['skipped']} by name only; "
        f"{stats['failed']} failed. Roots: {', '.join(printable(r) for r in roots)}",
        file=out,
    )
    ours = Roots(lambda: [normalize(os.path.abspath(path)) for path in paths])
    failed = [  # own up to every failure beneath these folders
        q
        for q in plain(engine.indexing_queue(limit=1000))
        if q["status"] == "failed" and ours.allows(str(q["path"]))
    ]
    for item in failed[:FAILED_SHOWN]:
        print(f"  failed: {printable(str(item['path']))}: {item['error']}", file=err)
    if len(failed) > FAILED_SHOWN:
        print(f"  … and {len(failed) - FAILED_SHOWN} more (`sensetree status --json` lists them)", file=err)
    return 1 if failed else 0  # like cp: a file that could not be indexed is not a success
