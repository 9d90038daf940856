"""SenseTree's composition root and command line.

`sensetree` opens the window (or, with no display, serves the UI over HTTP); the sub-commands mirror
the everyday IPC commands: index, search, status, chat, apply, serve, config, mcp.
"""

from __future__ import annotations

import argparse
import json
import logging
import logging.handlers
import os
import sys
from pathlib import Path
from typing import Any

log = logging.getLogger("sensetree")


def configure_logging(home: Path, verbose: bool = False) -> None:
    """A rotating log file in the data dir; a console handler only when there is a console."""
    root = logging.getLogger()
    root.setLevel(logging.INFO)
    for old in [h for h in root.handlers if getattr(h, "sensetree", False)]:  # configured once per process
        root.removeHandler(old)
        old.close()
    logs = home / "logs"
    logs.mkdir(parents=True, exist_ok=True)
    handler = logging.handlers.RotatingFileHandler(
        logs / "sensetree.log", maxBytes=2_000_000, backupCount=3, encoding="utf-8", errors="backslashreplace"
    )
    handler.setFormatter(logging.Formatter("%(asctime)s %(levelname)s %(name)s: %(message)s"))
    handler.sensetree = True  # type: ignore[attr-defined]
    root.addHandler(handler)
    if sys.stderr is not None:
        console = logging.StreamHandler(sys.stderr)
        console.setLevel(logging.INFO if verbose else logging.WARNING)
        console.setFormatter(logging.Formatter("%(levelname)s: %(message)s"))
        console.sensetree = True  # type: ignore[attr-defined]
        root.addHandler(console)
    for noisy in ("httpx", "watchdog", "transformers", "urllib3"):
        logging.getLogger(noisy).setLevel(logging.WARNING)


def build_engine(background: bool = False, events=None):
    """The one place the engine is built (the window, the server and the CLI all come through here)."""
    from engine.engine import Engine

    engine = Engine(background=background, events=events)
    if sys.stderr is not None:  # what start-up did for the person (the page shows the same as toasts)
        for notice in engine.startup_notices():
            print(f"Notice: {notice}", file=sys.stderr)
    return engine


# ---- sub-commands --------------------------------------------------------------------------------
def cmd_index(args: argparse.Namespace) -> int:
    from cli.progress import ProgressPrinter
    from engine.indexing.pathtext import printable
    from engine.paths import is_within, normalize

    engine = build_engine()
    try:
        printer = ProgressPrinter(sys.stderr, quiet=args.quiet)
        unsubscribe = engine.events.subscribe(printer.on_progress, "indexing-progress")
        for path in args.paths:
            roots = engine.add_indexed_folder(
                path
            )  # an indexed folder is re-scanned: additions and deletions
            print(f"Indexing {printable(os.path.abspath(path))}", file=sys.stderr)
        engine.drain()
        unsubscribe()
        printer.finish(engine.indexing_stats())
        stats = engine.indexing_stats()
        print(
            f"Indexed {stats['done']} file(s), {stats['chunks']} chunk(s); {stats['skipped']} by name only; "
            f"{stats['failed']} failed. Roots: {', '.join(printable(r) for r in roots)}"
        )
        tops = [normalize(path) for path in args.paths]  # own up to every failure beneath these folders
        failed = [
            q
            for q in engine.indexing_queue(1000)
            if q["status"] == "failed" and any(is_within(str(q["path"]), top) for top in tops)
        ]
        for item in failed[:20]:
            print(f"  failed: {printable(str(item['path']))}: {item['error']}", file=sys.stderr)
        if len(failed) > 20:
            print(f"  … and {len(failed) - 20} more (`sensetree status --json` lists them)", file=sys.stderr)
        return 1 if failed else 0  # like cp: a file that could not be indexed is not a success
    finally:
        engine.close()


def cmd_search(args: argparse.Namespace) -> int:
    engine = build_engine()
    try:
        results = engine.semantic_search(args.query, scope=args.scope, limit=args.limit)
    finally:
        engine.close()
    if args.json:
        print(json.dumps(results, indent=2, ensure_ascii=False))
        return 0
    if not results:
        print("No matches. Is the folder indexed? Try `sensetree status`.")
        return 1
    for i, hit in enumerate(results, 1):
        print(f"{i:2}. {hit['score']:.2f}  {hit['path']}")
        print(f"      {hit['snippet']}")
    return 0


def cmd_status(args: argparse.Namespace) -> int:
    from engine.indexing.pathtext import printable

    engine = build_engine()
    try:
        stats, roots = engine.indexing_stats(), engine.get_roots()
        failed = [q for q in engine.indexing_queue(1000) if q["status"] == "failed"]
        warning = engine.settings.load_warning
    finally:
        engine.close()
    if args.json:
        print(json.dumps({"roots": roots, **stats, "failed_files": failed}, indent=2))
        return 0
    print(f"Data folder: {engine.home}")
    print("Indexed folders:" if roots else "No indexed folders yet: run `sensetree index FOLDER`.")
    for root in roots:
        print(f"  {root}")
    print(
        f"Files: {stats['files']} ({stats['done']} done, {stats['skipped']} by name only, "
        f"{stats['failed']} failed, "
        f"{stats['queued']} queued); chunks: {stats['chunks']}{'; PAUSED' if stats['paused'] else ''}"
    )
    for item in failed[:20]:
        print(f"  failed: {printable(item['path'])}: {item['error']}")
    if warning:
        print(f"Warning: {warning}")
    return 0


def cmd_config(args: argparse.Namespace) -> int:
    engine = build_engine()
    try:
        config = engine.get_config()
        if args.action == "get":
            value: Any = config
            for part in args.key.split(".") if args.key else []:
                if not isinstance(value, dict) or part not in value:
                    print(f"Unknown setting: {args.key}", file=sys.stderr)
                    return 2
                value = value[part]
            print(json.dumps(value, indent=2, ensure_ascii=False))
            return 0
        if not args.key or args.value is None:
            print("Usage: sensetree config set KEY VALUE", file=sys.stderr)
            return 2
        patch: dict[str, Any] = {}
        cursor = patch
        parts = args.key.split(".")
        for part in parts[:-1]:
            cursor = cursor.setdefault(part, {})
        cursor[parts[-1]] = _parse_value(args.value)
        result = engine.set_config(patch)
        print(f"{args.key} set.")
        for notice in result.get("save_notices", []):  # e.g. an API key not sent to a new address
            print(notice)
        return 0
    finally:
        engine.close()


def _parse_value(text: str) -> Any:
    try:
        return json.loads(text)
    except ValueError:
        return text


def cmd_run(args: argparse.Namespace) -> int:
    """Open the window; with no display (Linux without DISPLAY/WAYLAND_DISPLAY) serve the UI instead."""
    try:
        from bridge.window import display_available, run_window
    except ImportError as exc:  # the window extras are not installed: the browser UI still works
        log.warning("the window is unavailable (%s); serving the UI instead", exc)
        display_available, run_window = (lambda: False), None
    if run_window is None or not display_available():
        print("No display found: serving the UI for your browser instead.", file=sys.stderr)
        return cmd_serve(argparse.Namespace(port=0, open=False))
    from bridge.api import Api
    from bridge.window import SingleInstance

    if SingleInstance().notify_running():  # before the engine: its databases admit one process at a time
        print("SenseTree is already running; its window was brought to the front.", file=sys.stderr)
        log.info("SenseTree is already running; its window was brought to the front.")
        return 0
    # the window opens at once; the stores open on a thread and the page's first calls wait for them
    from engine import lifecycle
    from engine.starter import EngineStarter

    engine = EngineStarter(lambda events: build_engine(background=True, events=events))
    try:
        code = run_window(
            Api(engine),
            engine,
            start_hidden=getattr(args, "tray", False),
            on_started=lambda _window, quit_app: lifecycle.on_quit(quit_app),
        )  # SIGTERM closes it
    finally:
        engine.close()
    # the window is gone and the engine closed; a tray library's thread must not keep the process alive.
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(code or 0)


def cmd_serve(args: argparse.Namespace) -> int:
    from bridge.api import Api
    from bridge.server import serve
    from engine import lifecycle

    engine = build_engine(background=True)
    stop = lifecycle.stop_event()  # SIGTERM / SIGHUP / Ctrl+C set it: serving ends, the engine closes below
    try:
        serve(Api(engine), port=args.port, open_browser=args.open, stop=stop)
    finally:
        engine.close()
    return 0


def _installed_version() -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("sensetree")
    except PackageNotFoundError:  # a source checkout that was never installed
        return "0.1.0"


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="sensetree", description=__doc__.splitlines()[0] if __doc__ else None
    )
    parser.add_argument("-v", "--verbose", action="store_true", help="log progress details to the console")
    parser.add_argument(
        "--tray", action="store_true", help="start in the tray, window hidden (autostart at login)"
    )
    parser.add_argument(
        "--version",
        action="version",
        version=f"SenseTree {_installed_version()}",
        help="print the version and exit (the release workflow's first smoke check)",
    )
    sub = parser.add_subparsers(dest="command")
    p = sub.add_parser("index", help="add folders and index them; returns when the queue is drained")
    p.add_argument("paths", nargs="+")
    p.add_argument("-q", "--quiet", action="store_true")
    p.set_defaults(func=cmd_index)
    p = sub.add_parser("search", help="hybrid search of the indexed folders")
    p.add_argument("query")
    p.add_argument("--scope", help="only inside this folder")
    p.add_argument("--limit", type=int, default=10)
    p.add_argument("--json", action="store_true")
    p.set_defaults(func=cmd_search)
    p = sub.add_parser("status", help="indexed folders, counts and failures")
    p.add_argument("--json", action="store_true")
    p.set_defaults(func=cmd_status)
    p = sub.add_parser("config", help="read or change a setting (dotted keys: reasoning.base_url)")
    p.add_argument("action", choices=["get", "set"])
    p.add_argument("key", nargs="?")
    p.add_argument("value", nargs="?")
    p.set_defaults(func=cmd_config)
    p = sub.add_parser("serve", help="serve the UI on 127.0.0.1 for a browser")
    p.add_argument("--port", type=int, default=0)
    p.add_argument("--open", action="store_true", help="open the browser")
    p.set_defaults(func=cmd_serve)
    _add_optional_commands(sub)
    return parser


def _add_optional_commands(sub: Any) -> None:
    """Sub-commands that live beside their feature (chat and MCP in cli/chat.py, apply in cli/apply.py)."""
    for module in ("cli.chat", "cli.apply", "cli.tidy", "cli.map"):  # cli.tidy, cli.map: issue 16
        try:
            mod = __import__(module, fromlist=["add_parser"])
        except ImportError:
            continue
        mod.add_parser(sub, build_engine)


def main(argv: list[str] | None = None) -> int:
    from engine import lifecycle
    from engine.config import data_dir
    from engine.errors import EngineError

    parser = build_parser()
    args = parser.parse_args(argv)
    configure_logging(data_dir(), args.verbose)
    func = getattr(args, "func", cmd_run)
    try:
        return int(lifecycle.run_quitting(func, args) or 0)  # a quit signal closes the stores like an exit
    except EngineError as exc:
        print(f"Error: {exc.message}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print("Interrupted.", file=sys.stderr)
        return 130


if __name__ == "__main__":
    sys.exit(main())
