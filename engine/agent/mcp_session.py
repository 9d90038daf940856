"""One MCP server's session, held open by a task on the hub's asyncio loop (engine/agent/mcp.py).

`McpSession.ensure` starts the session lazily and starts it again when the holding task ended (the
server died); the task holds `async with Client(...)` open until `stop()`. A server that says its tools
changed has its cached list dropped, so the next listing reads it again. Every wait is bounded by the
caller's timeout. The results of the `mcp` SDK are untyped here (`Any`): the SDK is imported only where
a server is first used, to keep it off the engine's start.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from typing import TYPE_CHECKING, Any, TextIO

if TYPE_CHECKING:
    from mcp import Client

log = logging.getLogger(__name__)


def describe(exc: BaseException) -> str:
    if isinstance(exc, BaseExceptionGroup) and exc.exceptions:
        return describe(exc.exceptions[0])
    return f"{type(exc).__name__}: {exc}" if str(exc) else type(exc).__name__


def result_text(result: Any) -> str:
    parts = []
    for block in getattr(result, "content", None) or []:
        text = getattr(block, "text", None)
        parts.append(text if text is not None else f"[{getattr(block, 'type', 'content')} omitted]")
    if not parts and getattr(result, "structured_content", None) is not None:
        parts.append(str(result.structured_content))
    return "\n".join(parts)


class McpSession:
    """One server's session, held open by a task on the hub's loop."""

    def __init__(self, name: str, target: Any, errlog: TextIO):
        self.name = name
        self.target = target
        self.errlog = errlog
        self.client: Client | None = None
        self.error: str | None = None
        self.tools: list[Any] = []
        self.listed_at = 0.0
        self._task: asyncio.Task[None] | None = None
        self._ready = asyncio.Event()
        self._stop = asyncio.Event()

    def _transport(self) -> Any:
        from mcp import StdioServerParameters
        from mcp.client.stdio import stdio_client
        from mcp.client.streamable_http import streamable_http_client
        from mcp.shared._httpx_utils import create_mcp_http_client

        if isinstance(self.target, StdioServerParameters):
            return stdio_client(self.target, errlog=self.errlog)
        if isinstance(self.target, tuple):
            url, headers = self.target
            return streamable_http_client(url, http_client=create_mcp_http_client(headers=headers or None))
        return self.target  # an in-process Server / MCPServer

    async def ensure(self, timeout: float) -> Client:
        if self._task is None or self._task.done():
            self._ready, self._stop = asyncio.Event(), asyncio.Event()
            self.client, self.error, self.listed_at = None, None, 0.0
            self._task = asyncio.create_task(self._hold(), name=f"mcp-{self.name}")
        try:
            await asyncio.wait_for(self._ready.wait(), timeout)
        except TimeoutError:
            self.error = f"did not start within {timeout:g} s"
            await self.stop()
        if self.client is None:
            raise RuntimeError(f"MCP server {self.name!r} is unavailable: {self.error}")
        return self.client

    async def _hold(self) -> None:
        from mcp import Client

        try:
            async with Client(
                self._transport(), read_timeout_seconds=None, message_handler=self._on_message
            ) as client:
                self.client = client
                self._ready.set()
                watch = asyncio.create_task(self._watch_tools(client), name=f"mcp-{self.name}-listen")
                try:
                    await self._stop.wait()
                finally:
                    watch.cancel()
        except Exception as exc:  # noqa: BLE001 (any failure of a server ends its session, not the app)
            self.error = describe(exc)
            log.warning("MCP server %s stopped: %s", self.name, self.error)
        finally:
            self.client = None
            self._ready.set()

    async def _on_message(self, message: Any) -> None:
        """A server that says its tools changed is listed again before its tools are next offered: what
        a tool declares is what the approval gate and the pin of "Always allow" judge
        (engine/agent/approval.py), so it must not be a stale copy. Servers before MCP 2026-07-28 say
        so with `notifications/tools/list_changed` (here); newer ones on a listen stream (below)."""
        from mcp.types import ToolListChangedNotification

        if isinstance(getattr(message, "root", message), ToolListChangedNotification):
            self._forget_tools()

    async def _watch_tools(self, client: Client) -> None:
        try:
            async with client.listen(tools_list_changed=True) as changes:
                async for _change in changes:
                    self._forget_tools()
        except Exception as exc:  # noqa: BLE001 (an older server, or the stream dropped: the TTL holds)
            log.debug("MCP server %s: no tools/list_changed stream (%s)", self.name, describe(exc))

    def _forget_tools(self) -> None:
        self.listed_at = 0.0
        self.tools = []

    async def stop(self) -> None:
        task = self._task
        if task is None or task.done():
            return
        self._stop.set()
        try:
            await asyncio.wait_for(asyncio.shield(task), 10)
        except Exception:  # noqa: BLE001 (stopping is best effort; cancel below)
            task.cancel()
            with contextlib.suppress(BaseException):
                await asyncio.wait_for(task, 5)
