"""The tray icon: which implementation each OS gets, and what the window asks of it.

Why two implementations: on Linux pystray has only its bare X11 back-end unless PyGObject and an
AppIndicator library are bundled (no menu, clicks ignored), while Qt, already bundled for the window,
speaks StatusNotifierItem + dbusmenu to KDE, GNOME with the AppIndicator extension and XFCE, and falls
back to XEmbed (docs/packaging.md has the measurements). On Windows and macOS pystray is the native
choice and Qt is not bundled at all. Both offer the same menu (Open SenseTree, Pause/Resume indexing
with its state, Quit; a left click opens the window) and the same `really_there()` check, which the
window asks at every close: close-to-tray only while an icon with its menu is really shown.
"""

from __future__ import annotations

import io
import logging
import sys
import threading
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Protocol

log = logging.getLogger(__name__)

TITLE = "SenseTree"
OPEN, PAUSE, RESUME, QUIT = "Open SenseTree", "Pause indexing", "Resume indexing", "Quit"
NOTICE = "SenseTree keeps indexing in the tray"


@dataclass(frozen=True)
class TrayActions:
    """What the menu does; each runs on the GUI thread (Qt) or pystray's thread."""

    open_window: Callable[[], None]
    is_paused: Callable[[], bool]
    set_paused: Callable[[bool], None]
    quit_app: Callable[[], None]


class Tray(Protocol):
    def really_there(self) -> bool: ...

    def notify(self, message: str) -> None: ...

    def stop(self) -> None: ...


def pause_label(paused: bool) -> str:
    return RESUME if paused else PAUSE


def icon_png(size: int = 64) -> bytes:
    """The tree mark drawn with Pillow (no SVG image plugin needed), as PNG bytes."""
    from PIL import Image, ImageDraw

    image = Image.new("RGBA", (64, 64), (0, 0, 0, 0))
    draw = ImageDraw.Draw(image)
    draw.rounded_rectangle((0, 0, 63, 63), radius=14, fill=(15, 159, 122, 255))
    draw.line((32, 50, 32, 26), fill="white", width=5)
    draw.line((32, 36, 20, 26), fill="white", width=4)
    draw.line((32, 32, 44, 22), fill="white", width=4)
    for cx, cy, r in ((32, 20, 6), (18, 24, 5), (46, 20, 5)):
        draw.ellipse((cx - r, cy - r, cx + r, cy + r), fill="white")
    if size != 64:
        image = image.resize((size, size))
    out = io.BytesIO()
    image.save(out, format="PNG")
    return out.getvalue()


def uses_qt_tray(platform: str = sys.platform) -> bool:
    """Qt's tray on Linux/BSD (the window's toolkit there); pystray on Windows and macOS."""
    return not platform.startswith(("win", "darwin"))


def start_tray(actions: TrayActions, platform: str = sys.platform) -> Tray | None:
    """A tray icon with its menu, or None where the desktop offers none (then closing quits)."""
    try:
        if uses_qt_tray(platform):
            from bridge.tray_qt import start_qt_tray

            return start_qt_tray(actions)
        from bridge.tray_pystray import start_pystray

        return start_pystray(actions)
    except Exception:  # a tray is a convenience: any failure to show one means "no tray", never a crash
        log.warning("No tray icon; closing the window will quit SenseTree.", exc_info=True)
        return None


def in_background(func: Callable[..., Any], *args: Any) -> None:
    """Run a menu action on its own thread, logging a failure instead of raising it into the toolkit.

    Why a thread: an action reaches the engine, which publishes events that the window delivers with
    `run_js`, and pywebview's `run_js` waits for the GUI thread: called from the GUI thread it would
    wait for itself. The engine may also still be starting (engine/startup.py), which must never
    freeze the window."""

    def run() -> None:
        try:
            func(*args)
        except Exception:
            log.exception("tray action failed")

    threading.Thread(target=run, name="sensetree-tray-action", daemon=True).start()
