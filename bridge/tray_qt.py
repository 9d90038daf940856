"""The Linux tray: Qt's QSystemTrayIcon, on the GUI thread of the window's QApplication.

Why Qt and not pystray here: see bridge/tray.py. Qt exports the menu over dbusmenu when a
StatusNotifierWatcher with a host is on the session bus, else docks through XEmbed; with neither,
`isSystemTrayAvailable()` is false and there is no tray. Qt objects must be made and used on the GUI
thread, so construction is handed to it with a zero-delay timer and awaited (bounded).
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from typing import Any, TypeVar

from bridge.tray_menu import OPEN, QUIT, TITLE, TrayActions, icon_png, in_background, pause_label

log = logging.getLogger(__name__)

GUI_BOUND_S = 30
T = TypeVar("T")


def on_gui_thread(func: Callable[[], T], bound_s: float = GUI_BOUND_S) -> T:
    """Run `func` on the QApplication's thread and return its result (directly when already there)."""
    from PySide6.QtCore import QThread, QTimer
    from PySide6.QtWidgets import QApplication

    app = QApplication.instance()
    if app is None:
        raise RuntimeError("no QApplication: the window is not running")
    if QThread.currentThread() == app.thread():
        return func()
    done = threading.Event()
    values: list[T] = []
    errors: list[BaseException] = []

    def run() -> None:
        try:
            values.append(func())
        except BaseException as exc:  # handed back to the caller's thread
            errors.append(exc)
        finally:
            done.set()

    QTimer.singleShot(0, app, run)
    if not done.wait(bound_s):
        raise TimeoutError("the GUI thread did not answer")
    if errors:
        raise errors[0]
    return values[0]


class QtTray:
    """Made on the GUI thread; every method runs there too."""

    def __init__(self, actions: TrayActions) -> None:
        from PySide6.QtGui import QAction, QIcon, QPixmap
        from PySide6.QtWidgets import QMenu, QSystemTrayIcon

        self._actions = actions
        pixmap = QPixmap()
        pixmap.loadFromData(icon_png())
        self._icon = QSystemTrayIcon(QIcon(pixmap))
        self._icon.setToolTip(TITLE)
        self._menu = QMenu()
        self._open = QAction(OPEN, self._menu)
        self._pause = QAction(pause_label(False), self._menu)
        self._pause.setCheckable(True)
        self._quit = QAction(QUIT, self._menu)
        for action in (self._open, self._pause, self._quit):
            self._menu.addAction(action)
        self._open.triggered.connect(lambda: in_background(actions.open_window))
        self._pause.triggered.connect(lambda: in_background(self._toggle_pause))
        self._quit.triggered.connect(lambda: in_background(actions.quit_app))
        self._menu.aboutToShow.connect(self.refresh)
        self._icon.setContextMenu(self._menu)
        self._icon.activated.connect(self._on_activated)
        self.refresh()
        self._icon.show()

    def _on_activated(self, reason: Any) -> None:
        from PySide6.QtWidgets import QSystemTrayIcon

        if reason in (QSystemTrayIcon.ActivationReason.Trigger, QSystemTrayIcon.ActivationReason.DoubleClick):
            in_background(self._actions.open_window)

    def _toggle_pause(self) -> None:  # off the GUI thread
        self._actions.set_paused(not self._actions.is_paused())
        self._read_state()

    def refresh(self) -> None:
        """Show the engine's real state (it can change from the window's Settings too), read off the
        GUI thread and applied on it."""
        in_background(self._read_state)

    def _read_state(self) -> None:
        paused = self._actions.is_paused()
        on_gui_thread(lambda: self._show_state(paused))

    def _show_state(self, paused: bool) -> None:
        self._pause.setChecked(paused)
        self._pause.setText(pause_label(paused))

    def really_there(self) -> bool:
        from PySide6.QtWidgets import QSystemTrayIcon

        def check() -> bool:
            return bool(
                QSystemTrayIcon.isSystemTrayAvailable()
                and self._icon.isVisible()
                and self._icon.contextMenu() is self._menu
                and self._menu.actions()
            )

        return on_gui_thread(check)

    def notify(self, message: str) -> None:
        on_gui_thread(lambda: self._icon.showMessage(TITLE, message))

    def stop(self) -> None:
        on_gui_thread(self._icon.hide)


def start_qt_tray(actions: TrayActions) -> QtTray | None:
    from PySide6.QtWidgets import QSystemTrayIcon

    def make() -> QtTray | None:
        if not QSystemTrayIcon.isSystemTrayAvailable():
            log.warning("No system tray on this desktop; closing the window will quit SenseTree.")
            return None
        return QtTray(actions)

    return on_gui_thread(make)
