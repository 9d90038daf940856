"""SenseTree's composition root and command line.

`sensetree` opens the window (or, with no display, serves the UI over HTTP); the sub-commands mirror
the everyday IPC commands: index, search, status, chat, apply, serve, config, mcp. Each lives in its
own module under `cli/`; this file only builds the engine (the one place it is built), configures
logging and dispatches the arguments. Nothing heavy is imported here: `--help`, `status` and
`config get` start in a fraction of a second, and a sub-command imports what it uses when it runs.
"""

from __future__ import annotations

import argparse
import importlib
import logging
import logging.handlers
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from engine.engine import Engine
    from engine.retrieval.results import SearchResult

log = logging.getLogger("sensetree")

# The sub-commands, one module each under cli/ (the window, the default command, is cli/window.py).
# What `sensetree --help` says first: the app, for the person at the terminal (the docstring above is
# about the code).
DESCRIPTION = (
    "SenseTree finds, reads and tidies the files in your folders, on this computer. With no command it "
    "opens its window (or, with no display, serves it in your browser)."
)
COMMANDS = ("index", "search", "status", "config", "serve", "chat", "mcp", "apply", "tidy", "map")
OWN_LOGGERS = ("sensetree", "engine", "bridge", "cli", "app", "__main__")


def configure_logging(home: Path, verbose: bool = False) -> None:
    """A rotating log file in the data dir; a console handler only when there is a console, and only
    for SenseTree's own messages: what libraries log or warn (pypdf on a damaged PDF, a deprecation)
    goes to the file, never into the middle of the progress line."""
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
        console.addFilter(_own_records)
        console.sensetree = True  # type: ignore[attr-defined]
        root.addHandler(console)
    for noisy in ("httpx", "watchdog", "transformers", "urllib3"):
        logging.getLogger(noisy).setLevel(logging.WARNING)
    logging.captureWarnings(True)  # `warnings.warn` from a library becomes a py.warnings log record


def _own_records(record: logging.LogRecord) -> bool:
    return record.name.split(".", 1)[0] in OWN_LOGGERS


def engine_class() -> Any:
    """The Engine class. Importing it loads neither LanceDB nor DuckDB: the Engine imports them as it
    opens its stores (LanceDB's namespace client with its pydantic schemas deferred,
    engine/deferred_schemas.py), on its own thread where the stores open in the background."""
    from engine.engine import Engine

    return Engine


def build_engine(background: bool = False, events: Any = None, start: bool = True) -> Engine:
    """The one place the engine is built (the window, the server and the CLI all come through here).
    A background engine (the window, the server) runs its start-up on a thread of its own, so the page's
    first commands that need no store answer at once (engine/startup.py); a CLI command needs its stores
    at once anyway. `start=False`: the window starts it once it is on screen."""
    engine: Engine = engine_class()(
        background=background, events=events, defer_stores=background, start=start
    )
    if sys.stderr is not None:  # what start-up did for the person (the page shows the same as toasts)
        engine.running.when_ready(lambda _parts: _print_notices(engine))
    return engine


def _print_notices(engine: Engine) -> None:
    for notice in engine.running.notices():
        print(f"Notice: {notice}", file=sys.stderr)


def _installed_version() -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("sensetree")
    except PackageNotFoundError:  # a source checkout that was never installed
        return "0.1.0"


class _Version(argparse.Action):
    """`--version`, with the installed version looked up only when asked (not on every start)."""

    def __call__(self, parser: argparse.ArgumentParser, *_args: Any, **_kwargs: Any) -> None:
        print(f"SenseTree {_installed_version()}")
        parser.exit()


def data_dir() -> Path:
    """The data dir, imported when a command first needs it: not for --help."""
    from engine.datadir import data_dir as home

    return home()


def context() -> Any:
    """What every sub-command is given: how to build the engine and where the data dir is."""
    from cli.context import Context

    return Context(build_engine=build_engine, home=data_dir, peek_keywords=peek_keywords)


def peek_keywords(home: Path, query: str, scope: str | None = None, limit: int = 10) -> list[SearchResult]:
    """The keyword answer read before the engine opens (engine/keyword_peek.py), imported when used."""
    from engine.keyword_peek import keyword_answer

    return keyword_answer(home, query, scope, limit)


def command_module(name: str) -> Any:
    """The module of a sub-command; one that cannot be imported stops the program with its name and the
    reason (an incomplete installation), instead of the command silently going missing."""
    try:
        return importlib.import_module(f"cli.{name}")
    except ImportError as exc:
        raise SystemExit(
            f"SenseTree is incomplete: the `{name}` command could not be loaded ({exc}). Reinstall SenseTree."
        ) from exc


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="sensetree", description=DESCRIPTION)
    parser.add_argument("-v", "--verbose", action="store_true", help="log progress details to the console")
    parser.add_argument(
        "--tray", action="store_true", help="start in the tray, window hidden (autostart at login)"
    )
    parser.add_argument(
        "--version",
        action=_Version,
        nargs=0,
        help="print the version and exit (the release workflow's first smoke check)",
    )
    sub = parser.add_subparsers(dest="command")
    shared = context()
    for name in COMMANDS:
        command_module(name).add_parser(sub, shared)
    window = command_module("window")
    parser.set_defaults(func=lambda args: window.run(args, shared))
    return parser


def main(argv: list[str] | None = None) -> int:
    from engine import lifecycle, native_memory

    native_memory.limit_arenas()  # before any thread starts (native_memory.py, issue 30)
    from engine.errors import EngineError

    try:
        with lifecycle.QuitSignals():  # from the first moment: a quit while starting up ends cleanly too
            args = build_parser().parse_args(argv)
            configure_logging(data_dir(), args.verbose)
            return int(args.func(args) or 0)  # a quit signal closes the stores like an exit
    except EngineError as exc:
        print(f"Error: {exc.message}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print("Interrupted.", file=sys.stderr)
        return 130


if __name__ == "__main__":
    sys.exit(main())
