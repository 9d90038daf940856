"""What the composition root (app.py) hands every sub-command: how to reach an engine.

`engine()` is the one rule of the command line: when a SenseTree is already running (the window or
`sensetree serve`), talk to it over the single-instance socket — its model is warm and its index
open, and the databases admit one process at a time anyway; only when none runs, open the stores in
this process (and close them after). `local()` always opens them here, for commands that need what
only a local engine offers.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeAlias

if TYPE_CHECKING:
    from cli.remote import RemoteEngine
    from engine.engine import Engine
    from engine.retrieval.results import SearchResult

    # What a sub-command talks to: the engine it opened here, or the running instance's over the socket
    # (whose methods answer the same commands by keyword and return JSON).
    CommandEngine: TypeAlias = Engine | RemoteEngine


@dataclass(frozen=True)
class Context:
    build_engine: Callable[..., Engine]  # app.build_engine: opens the stores in this process
    home: Callable[[], Path]  # the data dir (engine.config.data_dir)
    # app.peek_keywords(home, query, scope, limit): keyword hits read before any engine opens (issue 30)
    peek_keywords: Callable[[Path, str, str | None, int], list[SearchResult]] | None = None

    def running(self) -> RemoteEngine | None:
        """The running instance as a RemoteEngine, or None when none answers."""
        from bridge.instance import InstanceClient
        from cli.remote import RemoteEngine

        client = InstanceClient.find(self.home())
        return RemoteEngine(client) if client is not None else None

    @contextlib.contextmanager
    def engine(self) -> Iterator[CommandEngine]:
        remote = self.running()
        if remote is not None:
            yield remote
            return
        with self.local() as engine:
            yield engine

    @contextlib.contextmanager
    def local(self) -> Iterator[Engine]:
        engine = self.build_engine()
        try:
            yield engine
        finally:
            engine.running.close()


def plain(value: Any) -> Any:
    """JSON data from an engine's result: a running instance sends JSON already; a local engine may
    return dataclasses or pydantic models, which the bridge's one serialiser turns into the same."""
    if _is_plain(value):
        return value
    from bridge.api import to_jsonable  # only a local engine's typed results pay for this import

    return to_jsonable(value)


def _is_plain(value: Any) -> bool:
    if value is None or isinstance(value, (str, int, float, bool)):
        return True
    if isinstance(value, dict):
        return all(isinstance(k, str) and _is_plain(v) for k, v in value.items())
    if isinstance(value, list):
        return all(_is_plain(v) for v in value)
    return False
