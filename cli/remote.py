"""The running instance's engine, as the command line sees it through the single-instance socket.

`RemoteEngine` answers the same command methods as `engine.Engine` (DESIGN §6, by keyword), so a
sub-command is written once and runs against either: the engine it opened itself, or the one already
running in the window or `sensetree serve` (warm model, live indexing). Events that belong to a call
(agent steps, answer deltas, tool approvals of the turn it started) arrive on `events` while the call
runs, as they would from a local engine; `watch` follows either's events between calls.

JSON edge: events as the running instance's IPC socket forwards them (JSON objects).
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from bridge.instance import EventSink, InstanceClient
from engine.events import EventBus


class RemoteEngine:
    def __init__(self, client: InstanceClient) -> None:
        self._client = client
        self.events = EventBus()
        self.home: Path = client.home
        self.remote = True

    def __getattr__(self, command: str) -> Any:
        if command.startswith("_"):
            raise AttributeError(command)

        def call(**kwargs: Any) -> Any:
            return self._client.call(command, kwargs, self.events.publish)

        return call

    def close(self) -> None:
        """Nothing to close: the running instance keeps its stores."""


def watch(engine: Any, topics: list[str], on_event: EventSink) -> contextlib.AbstractContextManager[None]:
    """`on_event(topic, payload)` for the engine's events of `topics` inside the block, whether the
    engine runs here or in the running instance (then on a thread of its own)."""
    if isinstance(engine, RemoteEngine):
        return engine._client.watch(topics, on_event)
    return _local_watch(engine, topics, on_event)


@contextlib.contextmanager
def _local_watch(engine: Any, topics: list[str], on_event: EventSink) -> Iterator[None]:
    stops = [engine.events.subscribe(on_event, topic) for topic in topics]
    try:
        yield
    finally:
        for stop in stops:
            stop()
