"""`sensetree` with no sub-command: open the window, or with no display serve the UI instead.

A second launch asks the running one to show its window and leaves (the single-instance socket),
before anything opens the stores: the databases admit one process at a time. The window opens at
once and the engine's start-up runs on a thread behind it (engine/startup.py); the page's first calls
that need the stores wait.
"""

from __future__ import annotations

import argparse
import logging
import os
import sys

from cli.context import Context

log = logging.getLogger(__name__)


def run(args: argparse.Namespace, context: Context) -> int:
    try:
        from bridge.window import DesktopWindow, display_available
    except ImportError as exc:  # the window extras are not installed: the browser UI still works
        log.warning("the window is unavailable (%s); serving the UI instead", exc)
        return _serve_instead(context)
    if not display_available():
        return _serve_instead(context)
    from bridge.api import Api
    from bridge.instance import SingleInstance

    if SingleInstance(context.home()).notify_running():
        print("SenseTree is already running; its window was brought to the front.", file=sys.stderr)
        log.info("SenseTree is already running; its window was brought to the front.")
        return 0
    from engine import lifecycle

    # started once the window is on screen (engine/startup.py says why); the page's first call waits for it
    engine = context.build_engine(background=True, start=False)
    try:
        code = DesktopWindow(
            Api(engine),
            engine,
            start_hidden=getattr(args, "tray", False),
            on_started=lambda _window, quit_app: lifecycle.on_quit(quit_app),
            on_shown=engine.running.start,
        ).run()  # SIGTERM closes it
    finally:
        engine.running.close()
    # the window is gone and the engine closed; a tray library's thread must not keep the process alive.
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(code or 0)


def _serve_instead(context: Context) -> int:
    from cli import serve

    print("No display found: serving the UI for your browser instead.", file=sys.stderr)
    return serve.run(argparse.Namespace(port=0, open=False), context)
