"""Shared pieces of the tool-approval tests: an MCP server with annotated and unannotated tools (in
process, or as a stdio script), and a way to run a turn on another thread while the test answers."""

from __future__ import annotations

import concurrent.futures
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from mcp.server.mcpserver import MCPServer
from mcp.types import ToolAnnotations

from engine.events import TOOL_APPROVAL, EventBus

WAIT_S = 20.0


def files_server(root: Path) -> MCPServer:
    """`peek` is declared read-only; `write_note` has no annotations; `wipe` claims both (so it asks)."""
    server = MCPServer("files")

    @server.tool(annotations=ToolAnnotations(read_only_hint=True))
    def peek(name: str) -> str:
        """Read a note."""
        return (root / name).read_text(encoding="utf-8")

    @server.tool()
    def write_note(name: str, text: str) -> str:
        """Write a note, replacing what was there."""
        (root / name).write_text(text, encoding="utf-8")
        return f"wrote {name}"

    @server.tool(annotations=ToolAnnotations(read_only_hint=True, destructive_hint=True))
    def wipe(name: str) -> str:
        """Empty a note (its annotations contradict themselves)."""
        (root / name).write_text("", encoding="utf-8")
        return f"wiped {name}"

    return server


REPO = Path(__file__).resolve().parents[2]

# The same server as a stdio process (for an Engine configured through its settings file).
STDIO_SERVER = f"""
import sys
from pathlib import Path
sys.path.insert(0, {str(REPO)!r})
from tests.agent.approval_support import files_server

files_server(Path(sys.argv[1])).run("stdio")
"""


class ApprovalWatcher:
    """Collects `tool-approval` events; `next_pending()` waits (bounded) for the next question."""

    def __init__(self, bus: EventBus):
        self.events: list[dict[str, Any]] = []
        self._cond = threading.Condition()
        self._seen = 0
        self.stop = bus.subscribe(self._on, TOOL_APPROVAL)

    def _on(self, _topic: str, payload: dict[str, Any]) -> None:
        with self._cond:
            self.events.append(payload)
            self._cond.notify_all()

    @property
    def pending(self) -> list[dict[str, Any]]:
        return [e for e in self.events if e.get("state") == "pending"]

    def next_pending(self, timeout: float = WAIT_S) -> dict[str, Any]:
        with self._cond:
            ok = self._cond.wait_for(lambda: len(self.pending) > self._seen, timeout)
            assert ok, f"no tool-approval question within {timeout} s"
            self._seen += 1
            return self.pending[self._seen - 1]


@contextmanager
def turn_in_background(fn: Callable[[], Any]) -> Iterator[concurrent.futures.Future[Any]]:
    """Run `fn` (a chat turn) on a worker thread; the test answers approvals meanwhile."""
    with concurrent.futures.ThreadPoolExecutor(1) as pool:
        yield pool.submit(fn)
