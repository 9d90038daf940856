"""Run by test_window.py in its own process (Qt wants the main thread): open the real window over a
real Engine, make a bridge call from the page, read its result back with evaluate_js, check that an
engine event reaches the page, print one JSON line and quit. The engine is built as `sensetree` builds
it: an Engine whose start-up the window starts once it is shown (cli/window.py)."""

from __future__ import annotations

import json
import os
import sys
import threading
from pathlib import Path
from typing import Any

from bridge import Api
from bridge.window import DesktopWindow
from engine.embed import HashingEmbedder
from engine.engine import Engine

BOUND_S = 60


def _await_js(window: Any, script: str, then: Any = None) -> Any:
    """Evaluate a promise-returning script in the page and wait (bounded) for its resolved value."""
    done = threading.Event()
    box: dict[str, Any] = {}

    def resolved(value: Any) -> None:
        box["value"] = value
        done.set()

    window.evaluate_js(script, callback=resolved)
    if then is not None:
        then()
    if not done.wait(BOUND_S):
        raise TimeoutError(f"the page did not answer: {script}")
    return box["value"]


def main(home: Path) -> int:
    report: dict[str, Any] = {}
    shown = threading.Event()

    home.mkdir(
        mode=0o700, parents=True, exist_ok=True
    )  # as app.main's logging set-up does, before the window
    engine = Engine(home, embedder=HashingEmbedder(), defer_stores=True, start=False)
    engine.running.when_ready(lambda _parts: report.setdefault("built_after_shown", shown.is_set()))
    api = Api(engine)

    def on_shown() -> None:
        shown.set()
        engine.running.start()

    def probe(window: Any, quit_app: Any) -> None:
        try:
            if not window.events.loaded.wait(BOUND_S):
                raise TimeoutError("the window never loaded")
            report["version"] = _await_js(window, "pywebview.api.app_version()")
            report["roots"] = _await_js(window, "pywebview.api.get_roots()")
            report["page_title"] = window.evaluate_js("document.title")
            listen = (
                "new Promise(r => window.addEventListener('sensetree-event', e => r(e.detail), {once: true}))"
            )
            report["event"] = _await_js(
                window,
                listen,
                then=lambda: engine.events.publish("agent-step", {"step": "🔍 Searching: probe"}),
            )
        except Exception as exc:  # noqa: BLE001 - reported to the test, which shows it
            report["error"] = repr(exc)
        finally:
            quit_app()

    DesktopWindow(api, engine, home=home, on_started=probe, on_shown=on_shown).run()
    engine.running.close()
    print("PROBE " + json.dumps(report), flush=True)
    return 0 if "error" not in report else 1


if __name__ == "__main__":
    # A tray thread that never docked (no tray on Xvfb) is not a daemon; leave without waiting for it.
    os._exit(main(Path(sys.argv[1])))
