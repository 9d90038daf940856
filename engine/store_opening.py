"""Open the engine's stores on a thread of their own, so commands that need none answer at once.

Why: the window's first bridge answer waited for the whole Engine, and most of building it is importing
LanceDB and DuckDB and opening the keyword and vector stores (~1.6 s of CPU of ~2.1 s, issue 15). None
of that is needed by a command such as `app_version` or `list_directory`. `StoreOpening` runs the
engine's store-opening step (the stores, the start-up repair, the journal recovery, the services built on
them) on its own thread; `wait()` is what a command that needs any of them calls first: it returns once
the step is done (bounded), or raises what the step raised, as an `EngineError` the bridge shows like any
other. The step itself runs exactly the code a synchronous start runs, in the same order (journal recovery
and repair before anything is written), so a damaged store is repaired or rebuilt as before: only when
it happens moves. Called from the opening thread itself (the step's own callbacks), `wait()` returns at
once instead of waiting for itself.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable

from engine.errors import EngineError

log = logging.getLogger(__name__)

OPEN_TIMEOUT_S = 300.0  # a store that takes longer to open than this is reported, not waited for


class StoreOpening:
    """One run of `open_stores`, on a thread (`start`) or on the caller's (`run`); then waited for."""

    def __init__(self, open_stores: Callable[[], None], name: str = "sensetree-stores"):
        self._open = open_stores
        self._done = threading.Event()
        self._error: BaseException | None = None
        self._callbacks: list[Callable[[], None]] = []
        self._lock = threading.Lock()
        self._thread = threading.Thread(target=self.run, name=name, daemon=True)
        self._runner: threading.Thread | None = None

    def start(self) -> None:
        """Open the stores on the opening thread; the caller goes on at once."""
        self._thread.start()

    def run(self) -> None:
        """Open the stores on this thread (a synchronous start calls this directly and then `wait`s, so
        an error is raised to it exactly as a deferred one is raised to the first command)."""
        self._runner = threading.current_thread()
        try:
            self._open()
        except BaseException as exc:
            log.exception("SenseTree could not open its stores")
            self._error = exc
        with self._lock:
            self._done.set()
            callbacks, self._callbacks = self._callbacks, []
        if self._error is None:
            for callback in callbacks:
                self._callback(callback)

    def on_opening_thread(self) -> bool:
        """True on the thread running the opening step, while it runs (its own reads and writes)."""
        return threading.current_thread() is self._runner and not self._done.is_set()

    def wait(self, timeout: float = OPEN_TIMEOUT_S) -> None:
        """Return once the stores are open; raise the opening's error (an EngineError) if it failed."""
        if self.on_opening_thread():
            return  # the opening step's own callbacks: what they need is what it has opened so far
        if not self._done.wait(timeout):
            raise EngineError("SenseTree is still opening its index; try again in a moment.")
        if self._error is not None:
            if isinstance(self._error, EngineError):
                raise self._error
            raise EngineError(
                f"SenseTree could not open its index: {self._error}. See the log in the data folder."
            )

    def settle(self, timeout: float = OPEN_TIMEOUT_S) -> bool:
        """Wait like `wait` without raising: True when the stores opened (closing uses this)."""
        if self.on_opening_thread():
            return False
        return self._done.wait(timeout) and self._error is None

    def when_open(self, callback: Callable[[], None]) -> None:
        """Run `callback` once the stores are open (now, if they are); never if the opening failed."""
        with self._lock:
            if not self._done.is_set():
                self._callbacks.append(callback)
                return
        if self._error is None:
            self._callback(callback)

    @staticmethod
    def _callback(callback: Callable[[], None]) -> None:
        try:
            callback()
        except Exception:  # a report of what start-up did must never undo the start itself
            log.exception("A start-up callback failed")
