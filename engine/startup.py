"""One start-up: the engine's store-backed parts built once, on a thread of their own or on the caller's,
and one wait for them (one timeout, one message).

Why a thread: opening the databases and importing LanceDB takes seconds, and the window (or the page of
`sensetree serve`) should answer at once; a command that needs no store (`app_version`,
`list_directory`) answers meanwhile, and a command that needs one calls `wait()`, which returns the
parts once they are built (repaired and recovered, engine/assembly.py) or raises why they could not be,
as an `EngineError` the bridge shows like any other.

Why not from the first moment: the window starts the build once it is on screen (`start()` from its
`shown` event). Building is seconds of pure-Python imports, and a thread doing them from the first
moment halves, through the GIL, the speed of the main thread's own imports and Qt set-up that the window
waits for. The first `wait()` starts the build if nothing did, so a window that never shows cannot
leave a caller waiting for a build that never began.

Why `stop()`: a quit signal can come at any point of start-up (issue 31, N8). Closing sets `stopping`,
which the build reads before it starts the background work (the indexer, the model's warm-up), and
joins the build before anything is closed, so no thread of start-up is left in a native library while
the interpreter shuts down.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from typing import Generic, TypeVar

from engine.errors import EngineError

log = logging.getLogger(__name__)
T = TypeVar("T")

START_TIMEOUT_S = 300.0  # a start-up that takes longer than this is reported, not waited for
STILL_STARTING = "SenseTree is still opening its index; try again in a moment."


class Startup(Generic[T]):
    """One run of `build(stopping)`: on its thread (`start`) or on the caller's (`run`); then waited for."""

    def __init__(self, build: Callable[[threading.Event], T], name: str = "sensetree-start"):
        self._build = build
        self.stopping = threading.Event()
        self._done = threading.Event()
        self._lock = threading.Lock()
        self._claimed = False
        self._result: T | None = None
        self._error: BaseException | None = None
        self._callbacks: list[Callable[[T], None]] = []
        self._thread = threading.Thread(target=self._run, name=name, daemon=True)
        self._runner: threading.Thread | None = None

    def start(self) -> None:
        """Build on the start-up thread (once; later calls, and calls after `run`, do nothing)."""
        if self._claim():
            self._thread.start()

    def run(self) -> T:
        """Build on this thread (a synchronous start): returns the parts or raises what `wait` raises."""
        if self._claim():
            self._run()
        return self.wait()

    def _claim(self) -> bool:
        with self._lock:
            claimed, self._claimed = self._claimed, True
        return not claimed

    def _run(self) -> None:
        self._runner = threading.current_thread()
        try:
            self._result = self._build(self.stopping)
        except (KeyboardInterrupt, SystemExit) as exc:  # a quit during a synchronous start: no failure
            self._error = exc
        except BaseException as exc:
            log.exception("SenseTree could not start")
            self._error = exc
        with self._lock:
            self._done.set()
            callbacks, self._callbacks = self._callbacks, []
        if self._error is None and self._result is not None:
            for callback in callbacks:
                self._callback(callback, self._result)

    def on_own_thread(self) -> bool:
        """True on the thread running the build, while it runs (its own steps write settings)."""
        return threading.current_thread() is self._runner and not self._done.is_set()

    def wait(self, timeout: float = START_TIMEOUT_S) -> T:
        """The parts, once built (the first call starts the build if nothing did); raises an EngineError
        when they could not be built, or are not built within `timeout`."""
        if self.on_own_thread():
            raise RuntimeError("the start-up cannot wait for itself")
        self.start()
        if not self._done.wait(timeout):
            raise EngineError(STILL_STARTING)
        if self._error is not None:
            if isinstance(self._error, (EngineError, KeyboardInterrupt, SystemExit)):
                raise self._error
            raise EngineError(
                f"SenseTree could not start because it could not open its index: {self._error}. "
                "See the log in the data folder."
            )
        assert self._result is not None
        return self._result

    def settled(self) -> None:
        """Return once start-up's repair and recovery have run (at once on the start-up thread, whose own
        steps write): what every settings write waits for. Raises what `wait` raises."""
        if not self.on_own_thread():
            self.wait()

    def when_ready(self, callback: Callable[[T], None]) -> None:
        """Run `callback(parts)` once built (now, if they are); never if the build failed."""
        with self._lock:
            if not self._done.is_set():
                self._callbacks.append(callback)
                return
        if self._error is None and self._result is not None:
            self._callback(callback, self._result)

    def stop(self, timeout: float = START_TIMEOUT_S) -> bool:
        """Ask the build to skip what is left of it, and wait for it to end (bounded). True when nothing
        of the build is still running: what was built may be closed."""
        self.stopping.set()
        with self._lock:
            if not self._claimed:  # never started: nothing to wait for, and nothing starts now
                self._claimed, self._error = True, EngineError("SenseTree has quit.")
                self._done.set()
                return True
        if self.on_own_thread():
            return False
        return self._done.wait(timeout)

    @staticmethod
    def _callback(callback: Callable[[T], None], result: T) -> None:
        try:
            callback(result)
        except Exception:  # a report of what start-up did must never undo the start itself
            log.exception("A start-up callback failed")
