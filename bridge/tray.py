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

import logging
import sys

from bridge.tray_menu import Tray, TrayActions

log = logging.getLogger(__name__)


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
