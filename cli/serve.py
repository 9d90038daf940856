"""`sensetree serve`: the web UI on 127.0.0.1 for a browser, with the engine opening behind it.

The URL is printed first, before the stores are opened (that takes seconds: LanceDB, DuckDB, the
query model): the engine's start-up runs on a thread (engine/startup.py, as the window's does) and
every command the page sends that needs the stores waits for it, so the page shows "Starting…" until
the bridge answers. The single-instance socket is recorded at once too, so a `sensetree search` from a
terminal waits for this engine instead of trying to open the same stores. If the engine cannot start, the
reason is printed and serving stops with status 1.
"""

from __future__ import annotations

import argparse
import sys
import threading
from typing import TYPE_CHECKING, Any

from cli.context import Context

if TYPE_CHECKING:
    from engine.engine import Engine


def add_parser(subparsers: Any, context: Context) -> None:
    p = subparsers.add_parser("serve", help="serve the UI on 127.0.0.1 for a browser")
    p.add_argument("--port", type=int, default=0)
    p.add_argument("--open", action="store_true", help="open the browser")
    p.set_defaults(func=lambda args: run(args, context))


def run(args: argparse.Namespace, context: Context) -> int:
    if context.running() is not None:
        print(
            "SenseTree is already running (a window or another `sensetree serve`); it has the index "
            "open. Use that one, or quit it first.",
            file=sys.stderr,
        )
        return 1
    from bridge.api import Api
    from bridge.instance import SingleInstance
    from bridge.server import serve
    from engine import lifecycle

    engine = context.build_engine(background=True, start=False)  # started once the URL is printed
    api = Api(engine)
    stop = lifecycle.stop_event()  # SIGTERM / SIGHUP / Ctrl+C set it: serving ends, the engine closes below
    instance = SingleInstance(context.home())
    failed: list[str] = []

    def ready(_url: str) -> None:
        instance.listen(on_quit=stop.set, api=api)
        engine.running.start()  # the URL first: start-up's imports would otherwise compete with printing it
        threading.Thread(target=_watch_start, args=(engine, stop, failed), daemon=True).start()

    try:
        serve(api, port=args.port, open_browser=args.open, ready=ready, stop=stop)
    finally:
        instance.release()
        engine.running.close()
    return 1 if failed else 0


def _watch_start(engine: Engine, stop: threading.Event, failed: list[str]) -> None:
    """Stop serving, with the reason on the terminal, when the engine cannot start or open its stores."""
    from engine.errors import EngineError

    try:
        engine.running.wait()
    except EngineError as exc:
        failed.append(exc.message)
        print(f"Error: {exc.message}", file=sys.stderr, flush=True)
        stop.set()
