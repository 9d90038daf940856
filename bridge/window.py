"""The desktop window: pywebview showing `web/`, a tray icon, and one instance per person.

Why it is its own module: it is the only place that imports a GUI toolkit, so `sensetree serve`, the
CLI and the tests of everything else never load Qt. The window talks to the engine only through
`bridge.Api` (pywebview's js_api) and receives engine events as DOM `sensetree-event`s dispatched with
`run_js`. The tray (bridge/tray.py: Open, Pause/Resume indexing, Quit) keeps indexing alive when the
window is closed; where no tray is really shown, closing the window quits. The window's size comes from
the screen and its place is remembered (bridge/geometry.py). The webview is Qt WebEngine on Linux and
the OS's own elsewhere (`webview_gui`, the same choice as build/bundle_plan.py). A second launch finds
the first through a loopback socket recorded in the data dir and asks it to show its window, then exits.

JSON edge: events handed to the page's JavaScript as JSON, and the envelopes of the window's own calls.
"""

from __future__ import annotations

import contextlib
import json
import logging
import os
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any, Literal

from bridge.api import Api, attach_window
from bridge.engine_api import EngineApi
from bridge.geometry import MIN_SIZE, Rect, WindowState, fit, minimum_size
from bridge.instance import SingleInstance
from bridge.tray import start_tray, uses_qt_tray
from bridge.tray_menu import NOTICE, Tray, TrayActions
from engine.config import data_dir
from engine.resources import web_dir

log = logging.getLogger(__name__)

WINDOW_TITLE = "SenseTree"


def display_available() -> bool:
    """False on Linux/BSD without an X or Wayland display: `sensetree` then serves over HTTP instead."""
    if sys.platform.startswith(("linux", "freebsd", "openbsd")):
        return bool(os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY"))
    return True


def event_script(topic: str, payload: dict[str, Any]) -> str:
    """The JavaScript that hands one engine event to the page (JSON is valid JavaScript)."""
    detail = json.dumps({"topic": topic, "payload": payload}, ensure_ascii=True, default=str)
    return f"window.dispatchEvent(new CustomEvent('sensetree-event', {{detail: {detail}}}));"


def webview_gui(platform: str = sys.platform) -> Literal["qt"] | None:
    """pywebview's back-end: Qt WebEngine on Linux/BSD (bundled there); elsewhere None, pywebview's
    default for the OS: EdgeChromium (WebView2) on Windows, Cocoa/WKWebView on macOS."""
    return "qt" if uses_qt_tray(platform) else None


def available_areas() -> list[Rect]:
    """Each screen's area without panels and docks, primary first (whole screens where the toolkit
    cannot say). Asked before the window exists, so the geometry can be chosen from the screen."""
    import webview

    try:
        screens = webview.screens
    except Exception:  # no screen information is not a reason to refuse to open a window
        log.info("could not read the screens", exc_info=True)
        return []
    areas = []
    for screen in screens:
        frame = getattr(screen, "frame", None)
        if frame is not None and hasattr(frame, "availableGeometry"):  # Qt's QScreen
            g = frame.availableGeometry()
            areas.append(Rect(g.x(), g.y(), g.width(), g.height()))
        elif frame is not None and hasattr(frame, "WorkingArea"):  # WinForms' Screen
            w = frame.WorkingArea
            areas.append(Rect(w.X, w.Y, w.Width, w.Height))
        else:
            areas.append(Rect(screen.x, screen.y, screen.width, screen.height))
    return areas


def _show(window: Any) -> None:
    window.show()
    window.restore()


def _rect_of(window: Any) -> Rect | None:
    try:
        return Rect(int(window.x), int(window.y), int(window.width), int(window.height))
    except Exception:  # the window may already be gone
        return None


class DesktopWindow:
    """The window, its tray and the single-instance listener for one run of the GUI loop (`run`).

    `engine` is only used for its event bus; the caller closes it after `run` returns. `on_started(window,
    quit)` runs on a worker thread once the GUI loop is up (tests use it to drive the page and quit).
    `start_hidden` (the `--tray` start at login) keeps the window hidden when a tray icon can show it.
    `on_shown()` runs once the window is on screen (or, started hidden, once it exists): the caller starts
    building the engine there, so that work does not compete with the window's own start for the GIL.
    Closing the window hides it only while a tray icon with its menu is really shown; otherwise
    closing quits. The window's place is remembered in the data dir and clamped to the screens.
    """

    def __init__(
        self,
        api: Api,
        engine: EngineApi,
        *,
        debug: bool = False,
        home: Path | None = None,
        on_started: Callable[[Any, Callable[[], None]], None] | None = None,
        start_hidden: bool = False,
        on_shown: Callable[[], None] | None = None,
    ):
        self.api, self.engine, self.debug = api, engine, debug
        self.home = home or data_dir()
        self.on_started, self.start_hidden, self.on_shown = on_started, start_hidden, on_shown
        self.quitting = False
        self.tray: Tray | None = None  # the tray icon once the GUI loop is up (None where none can be shown)
        self.window: Any = None  # pywebview's Window, once created
        self.saved = WindowState()

    def run(self) -> int:
        """Open the window and run the GUI loop on this (the main) thread until the person quits. Returns 0
        when it ran, or when another instance was asked to show its window instead."""
        instance = SingleInstance(self.home)
        if instance.notify_running():
            log.info("SenseTree is already running; its window was brought to the front.")
            return 0
        if webview_gui() == "qt":
            os.environ.setdefault("PYWEBVIEW_GUI", "qt")  # so reading the screens picks the same back-end
        import webview

        window = self.window = self._create(webview)
        unsubscribe = self.engine.events.subscribe(lambda topic, payload: _forward(window, topic, payload))
        window.events.closing += self._on_closing
        if self.on_shown is not None:
            on_shown = self.on_shown
            window.events.shown += lambda: on_shown()  # pywebview passes no window to a handler taking none
        instance.listen(lambda: _show(window), on_quit=self.quit_app, api=self.api)  # the CLI calls in too
        try:
            webview.start(
                self._started,
                gui=webview_gui(),
                debug=self.debug,
                private_mode=False,
                storage_path=str(self.home / "webview"),
            )
        finally:
            unsubscribe()
            if self.tray is not None:
                with contextlib.suppress(Exception):
                    self.tray.stop()
            instance.release()
        return 0

    def _create(self, webview: Any) -> Any:
        """The window, placed where it was last (clamped to the screens), with the bridge attached."""
        self.saved = WindowState.load(self.home)
        areas = available_areas()
        rect = fit(self.saved.rect, areas)
        low = minimum_size(areas[0]) if areas else MIN_SIZE
        window = webview.create_window(
            WINDOW_TITLE,
            url=str(web_dir() / "index.html"),
            js_api=self.api,
            x=rect.x,
            y=rect.y,
            width=rect.width,
            height=rect.height,
            min_size=low,
            text_select=True,
            hidden=self.start_hidden,
        )
        if window is None:  # pywebview's answer when an `initialized` handler cancels the window; we set none
            raise RuntimeError("pywebview did not create the window")
        attach_window(self.api, window)
        return window

    def _remember_place(self) -> None:
        place = _rect_of(self.window)
        if place is not None:
            self.saved.rect = place
        self.saved.save_quietly(self.home)

    def quit_app(self) -> None:
        if not self.quitting:
            self.quitting = True
            self._remember_place()
        self.window.destroy()

    def _on_closing(self) -> bool:
        if self.quitting:
            return True
        self._remember_place()
        tray = self.tray
        if tray is None or not tray.really_there():
            self.quitting = True  # no tray to come back from: closing quits
            return True
        self.window.hide()  # indexing carries on; the tray brings the window back
        if not self.saved.tray_notice_shown:
            tray.notify(NOTICE)
            self.saved.tray_notice_shown = True
            self.saved.save_quietly(self.home)
        return False

    def _started(self) -> None:
        api, window = self.api, self.window
        self.tray = start_tray(
            TrayActions(
                open_window=lambda: _show(window),
                is_paused=lambda: _paused(api),
                set_paused=lambda paused: _ok(api.set_indexing_paused(paused)),
                quit_app=self.quit_app,
            )
        )
        if self.start_hidden and (self.tray is None or not self.tray.really_there()):
            _show(window)  # no tray to bring it back: a hidden window would be unreachable
        if self.on_started is not None:
            self.on_started(window, self.quit_app)


def _paused(api: Api) -> bool:
    envelope = api.indexing_stats()
    return bool(envelope.get("ok") and envelope["data"].get("paused"))


def _ok(envelope: dict[str, Any]) -> None:
    if not envelope.get("ok"):
        raise RuntimeError(envelope.get("error", {}).get("message", "the engine refused"))


def _forward(window: Any, topic: str, payload: dict[str, Any]) -> None:
    try:
        window.run_js(event_script(topic, payload))
    except Exception:  # the page may be loading or gone; an event is not worth crashing the engine
        log.debug("could not deliver %s to the window", topic, exc_info=True)
