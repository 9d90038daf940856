"""Build the engine off the UI thread, so the window is on screen before the stores are open.

Opening the databases and importing LanceDB takes seconds; a person should see the window at once.
`EngineStarter` starts the build on a thread and stands in for the engine: attribute access waits
(bounded) for the build to finish, then forwards. Its event bus exists from the start, so the window
can subscribe before the engine does. A build that failed raises its error on every call, which the
bridge shows to the person like any other error.

The window starts the build once it is on screen (`start=False`, then `start()` from the window's
`shown` event): building the engine is seconds of pure-Python imports (LanceDB's pydantic models), and a
thread doing them from the first moment halves, through the GIL, the speed of the main thread's own
imports and Qt set-up that the window waits for, while gaining the bridge's first answer almost nothing
(the same Python work, one thread after the other). The first call that needs the engine starts the build
if nothing did, so a window that never shows cannot leave a caller waiting for a build that never began.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from typing import Any

from engine.errors import EngineError
from engine.events import EventBus

log = logging.getLogger(__name__)

START_TIMEOUT_S = 300.0


class EngineStarter:
    def __init__(
        self, build: Callable[[EventBus], Any], events: EventBus | None = None, *, start: bool = True
    ):
        self.events = events or EventBus()
        self._engine: Any = None
        self._error: BaseException | None = None
        self._ready = threading.Event()
        self._started = False
        self._start_lock = threading.Lock()
        self._thread = threading.Thread(
            target=self._build, args=(build,), name="sensetree-start", daemon=True
        )
        if start:
            self.start()

    def start(self) -> None:
        """Begin building the engine on its thread (once; later calls do nothing)."""
        with self._start_lock:
            if self._started:
                return
            self._started = True
        self._thread.start()

    def _build(self, build: Callable[[EventBus], Any]) -> None:
        try:
            self._engine = build(self.events)
        except BaseException as exc:
            log.exception("SenseTree could not start its engine")
            self._error = exc
        finally:
            self._ready.set()

    def wait(self, timeout: float = START_TIMEOUT_S) -> Any:
        self.start()  # a call before the window asked for the build starts it
        if not self._ready.wait(timeout):
            raise EngineError("SenseTree is still opening its index; try again in a moment.")
        if self._error is not None:
            if isinstance(self._error, EngineError):
                raise self._error
            raise EngineError(f"SenseTree could not start: {self._error}. See the log in the data folder.")
        return self._engine

    def __getattr__(self, name: str) -> Any:
        return getattr(self.wait(), name)

    def close(self) -> None:
        with self._start_lock:
            if not self._started:  # never asked for: nothing to build, nothing to close
                return
        self._ready.wait(START_TIMEOUT_S)
        if self._engine is not None:
            self._engine.close()
