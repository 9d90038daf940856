"""Quit cleanly when the system asks: SIGTERM (logout, `kill`, a service manager), SIGINT (Ctrl+C), SIGHUP
(the terminal closed) and, on Windows, the console window closing, the user logging off or shutdown.

By default Python dies on SIGTERM and SIGHUP without running a `finally` block, which leaves the stores
as a kill -9 would (a DuckDB WAL to replay, half a batch written). Inside `with QuitSignals():` the
first such signal is a request to quit: the actions the running command registered with `on_quit` run
(`serve` sets its stop event, the window closes itself), the command returns, and its `finally` closes
the engine (each store checkpoints, the journal is already on disk). A command with no quit action
(index, search, chat) is unwound with `KeyboardInterrupt`, which runs the same `finally` blocks; so is
any command at a second signal, for a person who does not want to wait.

Python runs a signal's handler on the main thread only when that thread runs Python code, which a GUI
loop (the window's Qt loop) may not do for a long time. So the handler is also woken through
`signal.set_wakeup_fd`: a small thread reads the signal numbers from a socket pair and runs the quit
actions itself. Each delivery is acted on once, by whichever of the two sees it first.

Windows has no SIGTERM from the console: closing it sends CTRL_CLOSE_EVENT to a handler thread and
the process is ended when that handler returns (or after ~5 s). The handler asks for the quit and
waits, bounded, for the command to finish; it is installed through ctypes and only on Windows.
"""

from __future__ import annotations

import _thread
import contextlib
import logging
import signal
import socket
import sys
import threading
from collections.abc import Callable
from types import FrameType
from typing import Any, TypeVar

log = logging.getLogger(__name__)
T = TypeVar("T")

SIGNAL_NAMES = ("SIGTERM", "SIGINT", "SIGHUP", "SIGBREAK")  # SIGBREAK: Ctrl+Break on Windows
WINDOWS_QUIT_EVENTS = (2, 5, 6)  # CTRL_CLOSE_EVENT, CTRL_LOGOFF_EVENT, CTRL_SHUTDOWN_EVENT
WINDOWS_WAIT_S = 4.5  # Windows ends the process ~5 s after a close event

_active: QuitSignals | None = None


def on_quit(action: Callable[[], None]) -> None:
    """Register `action` (quick, thread-safe: set an event, close a window) with the active QuitSignals."""
    if _active is not None:
        _active.on_quit(action)


def stop_event() -> threading.Event:
    """An event that the first quit signal sets (a server's `stop`)."""
    event = threading.Event()
    on_quit(event.set)
    return event


def run_quitting(func: Callable[..., T], *args: Any) -> T:
    """`func(*args)` with quit signals handled (see the module docstring); the CLI's entry uses it."""
    with QuitSignals():
        return func(*args)


class QuitSignals:
    def __init__(self) -> None:
        self.requested = threading.Event()
        self.signum: int | None = None
        self._actions: list[Callable[[], None]] = []
        self._lock = threading.Lock()
        self._seen = {"handler": 0, "watcher": 0}
        self._acted = 0
        self._previous: dict[int, Any] = {}
        self._previous_wakeup = -1
        self._sockets: tuple[socket.socket, socket.socket] | None = None
        self._finished = threading.Event()
        self._console_handler: Any = None

    def on_quit(self, action: Callable[[], None]) -> None:
        with self._lock:
            self._actions.append(action)

    # ---- install / restore --------------------------------------------------------------------
    def __enter__(self) -> QuitSignals:
        global _active
        if threading.current_thread() is not threading.main_thread():
            return self  # signals are only delivered to the main thread: nothing to install
        for name in SIGNAL_NAMES:
            number = getattr(signal, name, None)
            if number is not None:
                self._previous[number] = signal.signal(number, self._on_signal)
        self._start_watcher()
        if sys.platform == "win32":
            self._install_console_handler()
        _active = self
        return self

    def __exit__(self, *exc: object) -> None:
        global _active
        self._finished.set()
        if _active is self:
            _active = None
        for number, previous in self._previous.items():
            with contextlib.suppress(ValueError, TypeError, OSError):
                signal.signal(number, previous)
        self._previous.clear()
        if self._sockets is not None:
            with contextlib.suppress(ValueError, OSError):
                signal.set_wakeup_fd(self._previous_wakeup)
            for sock in self._sockets:
                sock.close()  # the watcher's recv returns and it ends
            self._sockets = None

    def _start_watcher(self) -> None:
        try:
            reader, writer = socket.socketpair()
            writer.setblocking(False)
            self._previous_wakeup = signal.set_wakeup_fd(writer.fileno(), warn_on_full_buffer=False)
        except (OSError, ValueError) as exc:  # no socket pair or wake-up fd here: the handler alone will do
            log.debug("no signal wake-up thread: %s", exc)
            return
        self._sockets = (reader, writer)
        threading.Thread(target=self._watch, args=(reader,), name="sensetree-signals", daemon=True).start()

    def _watch(self, reader: socket.socket) -> None:
        while True:
            try:
                data = reader.recv(64)
            except OSError:
                return
            if not data:
                return
            for number in data:
                if number in self._previous:
                    self._deliver("watcher", number)

    # ---- delivery -----------------------------------------------------------------------------
    def _on_signal(self, signum: int, _frame: FrameType | None) -> None:
        if self._deliver("handler", signum):
            raise KeyboardInterrupt

    def _deliver(self, by: str, signum: int) -> bool:
        """Act once per delivered signal; True when the caller (the main thread's handler) must unwind.

        The first signal runs the quit actions, from whichever path sees it first. Unwinding (no quit
        action, or a second signal) is left to the handler: only the main thread can raise into the command.
        """
        with self._lock:
            self._seen[by] += 1
            if self._seen[by] <= self._acted:
                return False  # the other path already acted on this delivery
            first = not self.requested.is_set()
            if by != "handler" and not (first and self._actions):
                return False
            self._acted = self._seen[by]
            self.requested.set()
            self.signum = self.signum or signum
            actions = list(self._actions) if first else []
        if not actions:
            return True
        log.info("quit requested by %s", _name(signum))
        self._run(actions)
        return False

    @staticmethod
    def _run(actions: list[Callable[[], None]]) -> None:
        for action in actions:
            try:
                action()
            except Exception:  # one broken action must not keep the others from running
                log.exception("quit action failed")

    # ---- Windows console ----------------------------------------------------------------------
    def _install_console_handler(self) -> None:
        try:
            import ctypes
            from ctypes import wintypes

            routine = ctypes.WINFUNCTYPE(wintypes.BOOL, wintypes.DWORD)  # type: ignore[attr-defined]

            def handler(event: int) -> bool:
                if event not in WINDOWS_QUIT_EVENTS:
                    return False  # Ctrl+C / Ctrl+Break: Python's own SIGINT / SIGBREAK handling
                with self._lock:
                    actions = [] if self.requested.is_set() else list(self._actions)
                    self.requested.set()
                    self.signum = self.signum or int(signal.SIGTERM)
                if actions:
                    self._run(actions)
                else:
                    _thread.interrupt_main()  # unwinds the command like Ctrl+C would
                self._finished.wait(WINDOWS_WAIT_S)
                return True

            self._console_handler = routine(handler)  # kept referenced while installed
            ctypes.windll.kernel32.SetConsoleCtrlHandler(self._console_handler, True)  # type: ignore[attr-defined]
        except Exception:  # no console, or no ctypes: the window's own close button still quits cleanly
            log.debug("no Windows console handler", exc_info=True)


def _name(signum: int) -> str:
    try:
        return signal.Signals(signum).name
    except ValueError:
        return str(signum)
