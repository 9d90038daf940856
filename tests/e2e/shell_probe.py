"""Run by test_tray.py and test_window_geometry.py in its own process: the real window and tray over a real
Engine, driven from stdin like a person would (one word per line), reporting on stdout.

Commands: `close` (the window's own close, as the title bar's X does), `geometry` (prints
`GEOMETRY {"x", "y", "width", "height", "visible"}`). It prints `READY` once the page has loaded and
`VISIBLE true|false` whenever the window is shown or hidden. The process ends when the app quits, with the
exit code `sensetree` itself uses (0).
"""

from __future__ import annotations

import json
import os
import sys
import threading
from pathlib import Path
from typing import Any

from bridge import Api
from bridge.tray_qt import on_gui_thread
from bridge.window import DesktopWindow
from engine.embed import HashingEmbedder
from engine.engine import Engine

BOUND_S = 60
_OUT = threading.Lock()


def say(line: str) -> None:
    """One whole line to the test, never interleaved with another thread's: `print` writes the text and the
    newline separately, so READY and VISIBLE from two threads once came out as `READYVISIBLE true`."""
    with _OUT:
        sys.stdout.write(line + "\n")
        sys.stdout.flush()


def _view(window: Any) -> Any:
    from webview.platforms.qt import BrowserView

    return BrowserView.instances[window.uid]


def _geometry(window: Any) -> dict[str, Any]:
    def read() -> dict[str, Any]:
        view = _view(window)
        return {
            "x": view.x(),
            "y": view.y(),
            "width": view.width(),
            "height": view.height(),
            "visible": view.isVisible(),
        }

    return on_gui_thread(read)


def main(home: Path, start_hidden: bool) -> int:
    engine = Engine(home, embedder=HashingEmbedder())
    api = Api(engine)
    stop = threading.Event()

    def watch(window: Any) -> None:
        last = None
        while not stop.is_set():
            try:
                visible = on_gui_thread(lambda: _view(window).isVisible(), bound_s=5)
            except Exception:  # the window is going away
                return
            if visible != last:
                say(f"VISIBLE {'true' if visible else 'false'}")
                last = visible
            stop.wait(0.05)

    def commands(window: Any) -> None:
        for line in sys.stdin:
            word = line.strip()
            if word == "close":
                on_gui_thread(lambda: _view(window).close())
            elif word == "geometry":
                say("GEOMETRY " + json.dumps(_geometry(window)))

    def started(window: Any, _quit: Any) -> None:
        if not window.events.loaded.wait(BOUND_S):
            say("ERROR the window never loaded")
            return
        threading.Thread(target=watch, args=(window,), daemon=True).start()
        say("READY")
        threading.Thread(target=commands, args=(window,), daemon=True).start()

    try:
        code = DesktopWindow(api, engine, home=home, on_started=started, start_hidden=start_hidden).run()
    finally:
        stop.set()
        engine.running.close()
    say("EXIT")
    return code


if __name__ == "__main__":
    sys.stdout.flush()
    os._exit(main(Path(sys.argv[1]), start_hidden="--tray" in sys.argv[2:]))
