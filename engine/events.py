"""A small publish/subscribe bus: the engine announces progress, agent steps and answer deltas here,
and the window, the HTTP server and the CLI listen without the engine knowing which of them is there.

Handlers run synchronously on the publisher's thread; one that raises is logged and never breaks
the publisher (a broken UI listener must not stop indexing).

JSON edge: event payloads, which the window, the HTTP server and the IPC socket hand on to their pages as
JSON.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from typing import Any

log = logging.getLogger(__name__)

AGENT_STEP = "agent-step"
ANSWER_DELTA = "answer-delta"
INDEXING_PROGRESS = "indexing-progress"
NOTICE = "notice"  # {message, level}: something the person should know now (a store rebuilt, ...)
AGENT_RESULT = "agent-result"  # a tool's (truncated) result, after it ran: {turn_id, call_id, tool, result}
TOOL_APPROVAL = "tool-approval"  # an MCP call waiting for the person (engine/agent/approval.py)
AGENT_THINKING = (
    "agent-thinking"  # {turn_id, conversation_id, delta}: the model's reasoning, for the trace only
)
CHAT_TURN = "chat-turn"  # {turn_id, conversation_id}: a turn started (so the page can stop it)

Handler = Callable[[str, dict[str, Any]], None]


class EventBus:
    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._handlers: list[tuple[str | None, Handler]] = []

    def subscribe(self, handler: Handler, topic: str | None = None) -> Callable[[], None]:
        """Call `handler(topic, payload)` for `topic` (or every topic when None); returns an unsubscribe."""
        entry = (topic, handler)
        with self._lock:
            self._handlers.append(entry)

        def unsubscribe() -> None:
            with self._lock:
                if entry in self._handlers:
                    self._handlers.remove(entry)

        return unsubscribe

    def publish(self, topic: str, payload: dict[str, Any] | None = None) -> None:
        data = payload or {}
        with self._lock:
            handlers = [h for t, h in self._handlers if t is None or t == topic]
        for handler in handlers:
            try:
                handler(topic, data)
            except Exception:  # a listener's bug must never stop the engine
                log.exception("event handler failed for %s", topic)
