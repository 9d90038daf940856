"""The Windows and macOS tray: pystray, whose back-ends there are the OS's own (Win32, AppKit).

Why pystray here and not on Linux: see bridge/tray.py. `really_there()` needs a visible icon on a
back-end with a menu; pystray's bare X11 back-end has none, so it never counts as a tray.
"""

from __future__ import annotations

import logging
from typing import Any

from bridge.tray_menu import OPEN, QUIT, TITLE, TrayActions, icon_png, in_background, pause_label

log = logging.getLogger(__name__)


class PystrayTray:
    def __init__(self, icon: Any, has_menu: bool) -> None:
        self._icon = icon
        self._has_menu = has_menu

    def really_there(self) -> bool:
        return bool(self._has_menu and getattr(self._icon, "visible", False))

    def notify(self, message: str) -> None:
        try:
            self._icon.notify(message, TITLE)
        except Exception:  # not every back-end can show a notification
            log.info("the tray could not show a notification", exc_info=True)

    def stop(self) -> None:
        self._icon.stop()


def start_pystray(actions: TrayActions) -> PystrayTray | None:
    import io

    import pystray
    from PIL import Image

    def toggle(_icon: Any, _item: Any) -> None:
        actions.set_paused(not actions.is_paused())

    menu = pystray.Menu(
        pystray.MenuItem(OPEN, lambda: in_background(actions.open_window), default=True),
        pystray.MenuItem(
            lambda _item: pause_label(actions.is_paused()),
            lambda i, it: in_background(toggle, i, it),
            checked=lambda _item: actions.is_paused(),
        ),
        pystray.MenuItem(QUIT, lambda: in_background(actions.quit_app)),
    )
    icon = pystray.Icon("sensetree", Image.open(io.BytesIO(icon_png())), TITLE, menu)
    icon.run_detached()
    return PystrayTray(icon, bool(getattr(icon, "HAS_MENU", False)))
