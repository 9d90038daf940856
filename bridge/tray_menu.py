"""What both tray implementations share: the menu's words, the actions it runs, the icon.

Its own module so that bridge/tray.py (which chooses an implementation) and the two implementations
(bridge/tray_qt.py, bridge/tray_pystray.py) all import it and none imports another: no import circle.
"""

from __future__ import annotations

import io
import logging
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
