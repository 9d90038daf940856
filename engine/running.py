"""The running engine: its data folder, the settings in force, the roots, and one start-up that builds the
parts in their one order (open → repair → recover → background, engine/assembly.py); then the one wait
for them, what start-up did, a settings change the running parts follow, and closing.

Why apart from the Engine (engine/engine.py): the Engine answers commands, each a line or two over the
parts; being running is one lifecycle that the window, the server, the CLI, the tests and the benches
drive (`start`, `wait`, `when_ready`, `close`), and none of it is a command. `Engine.running` is this
object and `Engine.parts` the record it waits for (engine/parts.py).

The start-up runs on this thread, or with `defer_stores` on a thread of its own (engine/startup.py), so
a command that needs no store answers at once and one that needs them waits, bounded, until they are
open, repaired and recovered. `start=False` (the window) builds nothing until `start()` or the first
`wait()`.

JSON edge: `change_settings` and `follow_settings` read the settings patch as the page or the CLI sent it.
"""

from __future__ import annotations

import contextlib
import threading
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypedDict

from engine import privacy
from engine.config import Settings, data_dir, load_settings
from engine.events import EventBus
from engine.live_settings import LiveSettings
from engine.parts import Ground, Parts
from engine.roots import Roots
from engine.startup import Startup

if TYPE_CHECKING:  # the parts' modules (LanceDB, DuckDB, numpy) load on the start-up thread (assembly)
    from engine.agent.model import ChatModel
    from engine.embed import Embedder


class StartOptions(TypedDict, total=False):
    """How to run (each optional; `Engine(home, **options)` passes them on to `Running`)."""

    embedder: Embedder | None  # a fixed embedder (tests, benches), else the settings' model
    chat_model: ChatModel | None  # a test's model, in place of the settings' endpoint
    background: bool  # the window and the server: indexer, watcher, Gardener, warm-up
    events: EventBus | None
    defer_stores: bool  # start-up on its own thread
    start: bool  # False: nothing is built until `start()` or the first `wait()`


class Running:
    def __init__(
        self,
        home: Path | str | None = None,
        *,
        embedder: Embedder | None = None,
        chat_model: ChatModel | None = None,
        background: bool = False,
        events: EventBus | None = None,
        defer_stores: bool = False,
        start: bool = True,
    ):
        """The data folder, the settings and the roots now; the parts as the module docstring says."""
        privacy.private_umask()  # before anything is written: every store file is created 0600
        self.home = Path(home) if home is not None else data_dir()
        self.home.mkdir(mode=privacy.DIR_MODE, parents=True, exist_ok=True)
        privacy.make_private(self.home)  # what an older version (or a copy) left readable by others
        self.events = events or EventBus()
        self._startup: Startup[Parts] = Startup(self._assemble)
        self.live = LiveSettings(self.home, load_settings(self.home), self._startup.settled, chat_model)
        self.roots = Roots(self.live.roots)  # the one bounds rule, for every part
        self._closer = contextlib.ExitStack()  # what start-up opened, closed in reverse
        self._embedder, self._background = embedder, background
        if start and defer_stores:
            self._startup.start()
        elif start:
            try:
                self._startup.run()  # a synchronous start raises what start-up raised
            except BaseException:
                self._closer.close()
                raise

    @property
    def settings(self) -> Settings:
        """The settings in force (engine/live_settings.py holds them and their writes)."""
        return self.live.current

    def _assemble(self, stopping: threading.Event) -> Parts:
        from engine.assembly import assemble

        ground = Ground(self.home, self.events, self.live, self.roots, self._embedder, self._background)
        return assemble(ground, self._closer, stopping)

    def start(self) -> None:
        """Begin start-up on its thread (once; the window calls this when it is on screen)."""
        self._startup.start()

    def wait(self) -> Parts:
        """The parts, once start-up has built them; raises why it could not (an EngineError) if so."""
        return self._startup.wait()

    def when_ready(self, callback: Callable[[Parts], None]) -> None:
        """Run `callback(parts)` once start-up has built them (at once if it has; never if it failed)."""
        self._startup.when_ready(callback)

    def close(self) -> None:
        """Stop start-up where it is (no background work starts), wait for it, then close what it built."""
        if self._startup.stop():
            self._closer.close()

    def notices(self) -> list[str]:
        """What start-up did on the person's behalf: recoveries, repairs, a settings file kept aside."""
        from engine.startup_notices import startup_notices

        return startup_notices(self.wait())

    def change_settings(self, patch: dict[str, Any]) -> list[str]:
        """The settings page's patch, checked and written (engine/live_settings.py), then followed by the
        running parts; returns what the key guard has to say about it."""
        applied, key_notices = self.live.change(patch)
        follow_settings(self.wait(), applied)
        return key_notices


def follow_settings(parts: Parts, patch: dict[str, Any]) -> None:
    """What a written settings change means for the running parts (and the login item)."""
    settings = parts.ground.settings.current
    if "indexing" in patch and "paused" in patch["indexing"]:
        parts.index.set_indexing_paused(settings.indexing.paused)
    if "rerank" in patch:
        from engine.retrieval.rerank import make_reranker

        parts.search.reranker = make_reranker(settings.rerank)
    if "autostart" in (patch.get("app") or {}):
        from engine import autostart

        autostart.set_enabled(settings.app.autostart)
    if "embedding" not in patch:  # the embedder is made only for a change that can ask for another one
        return
    from engine.embed import embedder_for

    wanted = embedder_for(settings.embedding, parts.ground.vectors_dir / "dims.json")
    if wanted.name != parts.index.indexer.embedder.name:
        parts.reembedder.start(wanted, background=parts.ground.background)
