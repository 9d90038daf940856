"""MCP servers as agent tools: every tool of every enabled server appears as `mcp__<server>__<tool>`.

The agent is synchronous (pywebview calls arrive on arbitrary threads) while the `mcp` SDK is async,
so one background thread runs an asyncio loop that owns every session. Each server's session lives in
its own task that holds `async with Client(...)` open: sessions start lazily, stay open across calls
and turns, and are started again when the process died (the holding task ended). Tool lists are cached
with a TTL, and read again as soon as a server says they changed (`tools/list_changed`). Every wait
is bounded by the configured timeout; output is truncated to a budget; a server that fails to start
is skipped with a logged reason, reported by `list_mcp_tools`, and never breaks a turn. `close()`
stops every process.

Every call passes a `Gate` first (engine/agent/approval.py): a tool its server does not declare
read-only and closed to the outside world runs only after the person allowed it (as it declares itself
now); a refusal comes back as the observation.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import logging
import re
import sys
import threading
import time
from collections.abc import Callable, Coroutine
from pathlib import Path
from typing import TYPE_CHECKING, Any, TextIO

from engine.agent.approval import Gate, ToolRequest, ToolStatus, declared_read_only
from engine.agent.tools import Tool, ToolFailed
from engine.config import McpServer
from engine.results import Result

if TYPE_CHECKING:
    from mcp import Client

# The `mcp` SDK is imported where a server is first used, not with this module: its pydantic types cost
# the engine's start seconds (measured: bench/package.py), and most people configure no MCP server.

log = logging.getLogger(__name__)

LIST_TTL_S = 300.0
NAME_LIMIT = 64


def tool_name(server: str, tool: str) -> str:
    """`mcp__<server>__<tool>`, sanitised to [A-Za-z0-9_-] and at most 64 characters."""
    return re.sub(r"[^A-Za-z0-9_-]", "_", f"mcp__{server}__{tool}")[:NAME_LIMIT]


def _describe(exc: BaseException) -> str:
    if isinstance(exc, BaseExceptionGroup) and exc.exceptions:
        return _describe(exc.exceptions[0])
    return f"{type(exc).__name__}: {exc}" if str(exc) else type(exc).__name__


def _result_text(result: Any) -> str:
    parts = []
    for block in getattr(result, "content", None) or []:
        text = getattr(block, "text", None)
        parts.append(text if text is not None else f"[{getattr(block, 'type', 'content')} omitted]")
    if not parts and getattr(result, "structured_content", None) is not None:
        parts.append(str(result.structured_content))
    return "\n".join(parts)


def _request(server: str, spec: Any) -> ToolRequest:
    return ToolRequest(server, spec.name, spec.description or "", spec.annotations)


class _Connection:
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
            self.error = _describe(exc)
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
            log.debug("MCP server %s: no tools/list_changed stream (%s)", self.name, _describe(exc))

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


class McpTool(Result):
    """One row of `list_mcp_tools`: `name` as the model calls it, `tool` the server's own name (what
    `alwaysAllow` lists), `read_only` what the server declares, `approval` whether a call asks first;
    a server that could not be listed gives one row with its `error` instead."""

    server: str
    name: str
    description: str
    tool: str | None = None
    read_only: bool | None = None
    approval: ToolStatus | None = None
    error: str | None = None


class McpHub:
    """Sync facade over the MCP sessions of the configured servers."""

    def __init__(
        self,
        servers: Callable[[], dict[str, McpServer]],
        *,
        timeout_s: Callable[[], float],
        output_chars: Callable[[], int],
        log_dir: Path | None = None,
        in_process: dict[str, Any] | None = None,
        list_ttl_s: float = LIST_TTL_S,
    ):
        self._servers = servers
        self._timeout = timeout_s
        self._output_chars = output_chars
        self._log_dir = log_dir
        self._in_process = dict(in_process or {})
        self._ttl = list_ttl_s
        self._conns: dict[str, tuple[str, _Connection]] = {}
        self._lock = threading.Lock()
        self._loop: asyncio.AbstractEventLoop | None = None
        self._thread: threading.Thread | None = None
        self._logs: list[TextIO] = []

    # ---- public, synchronous ----------------------------------------------------------------
    @property
    def has_in_process(self) -> bool:
        return bool(self._in_process)

    def tools(self, gate: Gate | None = None) -> list[Tool]:
        """Every tool of every enabled server that is up; servers that fail are skipped (and logged).

        `gate` sees each call before it runs (the approval policy); without one, calls run directly.
        """
        tools: list[Tool] = []
        for server, info in self._listing().items():
            for spec in info.get("tools", []):
                tools.append(self._as_tool(server, spec, gate))
        return tools

    def list_tools(self, status: Callable[[ToolRequest], ToolStatus] | None = None) -> list[McpTool]:
        """Every tool of every enabled server (one error row for a server that failed), for Settings and
        `sensetree mcp list`; `status` gives each tool's `approval` (ToolApprovals.status)."""
        rows: list[McpTool] = []
        for server, info in self._listing().items():
            if info.get("error"):
                rows.append(McpTool(server=server, name="", description="", error=info["error"]))
            for spec in info.get("tools", []):
                request = _request(server, spec)
                rows.append(
                    McpTool(
                        server=server,
                        name=tool_name(server, spec.name),
                        tool=spec.name,
                        description=request.description,
                        read_only=declared_read_only(spec.annotations),
                        approval=status(request) if status is not None else None,
                    )
                )
        return rows

    def call(self, server: str, tool: str, arguments: dict[str, Any]) -> str:
        """The tool's output, truncated to the budget; a failure raises `ToolFailed` (an observation for
        the model, marked failed in the trace)."""
        timeout = self._timeout()
        try:
            result = self._run(self._call(server, tool, arguments, timeout), timeout + 5)
        except Exception as exc:  # noqa: BLE001 (an MCP failure is an observation for the model)
            raise ToolFailed(f"Error from MCP server {server!r} calling {tool}: {_describe(exc)}") from None
        text = _result_text(result)
        limit = self._output_chars()
        if len(text) > limit:
            text = text[:limit] + f"\n[… output truncated: {len(text) - limit} more characters]"
        if getattr(result, "is_error", False):
            raise ToolFailed(f"Error from MCP server {server!r} tool {tool}: {text}")
        return text or "(the tool returned no content)"

    def close(self) -> None:
        """Stop every session (and so every server process), then the loop thread."""
        with self._lock:
            loop, thread, conns = self._loop, self._thread, [c for _, c in self._conns.values()]
            self._conns.clear()
            self._loop, self._thread = None, None
        if loop is not None:
            with contextlib.suppress(Exception):
                asyncio.run_coroutine_threadsafe(self._stop_all(conns), loop).result(30)
            loop.call_soon_threadsafe(loop.stop)
            if thread is not None:
                thread.join(10)
            loop.close()
        for handle in self._logs:
            with contextlib.suppress(OSError):
                handle.close()
        self._logs.clear()

    # ---- internals --------------------------------------------------------------------------
    def _listing(self) -> dict[str, dict[str, Any]]:
        names = self._enabled()
        if not names:
            return {}
        timeout = self._timeout()
        try:
            return self._run(self._list_all(names, timeout), timeout * 2 + 5)
        except Exception as exc:  # noqa: BLE001 (the hub failed; no server is usable this turn)
            log.warning("listing MCP tools failed: %s", _describe(exc))
            return {name: {"error": _describe(exc)} for name in names}

    def _enabled(self) -> dict[str, Any]:
        from mcp import StdioServerParameters

        targets: dict[str, Any] = {}
        for name, config in self._servers().items():
            if not config.enabled:
                continue
            if config.command:
                targets[name] = StdioServerParameters(
                    command=config.command, args=list(config.args), env=dict(config.env) or None
                )
            elif config.url:
                targets[name] = (config.url, dict(config.headers))
            else:
                log.warning("MCP server %s has neither command nor url; skipped", name)
        targets.update(self._in_process)
        return targets

    async def _list_all(self, targets: dict[str, Any], timeout: float) -> dict[str, dict[str, Any]]:
        for stale in [n for n in self._conns if n not in targets]:  # disabled or removed since last time
            await self._conns.pop(stale)[1].stop()
        names = list(targets)
        results = await asyncio.gather(*(self._list_one(n, targets[n], timeout) for n in names))
        return dict(zip(names, results, strict=True))

    async def _list_one(self, name: str, target: Any, timeout: float) -> dict[str, Any]:
        conn = await self._connection(name, target)
        try:
            client = await conn.ensure(timeout)
            if not conn.tools or time.monotonic() - conn.listed_at > self._ttl:
                listed = await asyncio.wait_for(client.list_tools(), timeout)
                conn.tools, conn.listed_at = list(listed.tools), time.monotonic()
            return {"tools": conn.tools}
        except Exception as exc:  # noqa: BLE001 (a failing server is skipped, never breaks a turn)
            reason = conn.error if conn.client is None and conn.error else _describe(exc)
            log.warning("MCP server %s skipped: %s", name, reason)
            await conn.stop()
            return {"error": reason, "tools": []}

    async def _call(self, server: str, tool: str, arguments: dict[str, Any], timeout: float) -> Any:
        entry = self._conns.get(server)
        if entry is None:
            raise RuntimeError("the server is not running; it may have been disabled")
        conn = entry[1]
        client = await conn.ensure(timeout)
        try:
            return await asyncio.wait_for(client.call_tool(tool, arguments), timeout)
        except Exception:
            await conn.stop()  # a dead or wedged session is started afresh on the next use
            raise

    async def _connection(self, name: str, target: Any) -> _Connection:
        from mcp import StdioServerParameters

        key = repr(target) if not isinstance(target, StdioServerParameters) else target.model_dump_json()
        entry = self._conns.get(name)
        if entry is not None and entry[0] == key:
            return entry[1]
        if entry is not None:  # the configuration changed: restart with the new one
            await entry[1].stop()
        conn = _Connection(name, target, self._errlog(name))
        self._conns[name] = (key, conn)
        return conn

    def _errlog(self, name: str) -> TextIO:
        if self._log_dir is None:
            return sys.stderr
        self._log_dir.mkdir(parents=True, exist_ok=True)
        safe = re.sub(r"[^A-Za-z0-9_-]", "_", name)
        handle = open(self._log_dir / f"mcp-{safe}.log", "a", encoding="utf-8")  # noqa: SIM115 (closed in close())
        self._logs.append(handle)
        return handle

    async def _stop_all(self, conns: list[_Connection]) -> None:
        await asyncio.gather(*(c.stop() for c in conns), return_exceptions=True)

    def _as_tool(self, server: str, spec: Any, gate: Gate | None = None) -> Tool:
        schema = dict(spec.input_schema or {"type": "object", "properties": {}})
        schema.setdefault("type", "object")
        request = _request(server, spec)

        def call(**arguments: Any) -> str:
            refused = gate(request, arguments) if gate is not None else None
            return refused if refused is not None else self.call(server, spec.name, arguments)

        return Tool(
            name=tool_name(server, spec.name),
            description=f"[{server}] {spec.description or spec.name}",
            parameters=schema,
            fn=call,
            label=lambda _a: f"🔌 {server}: {spec.name}",
            strict_args=False,
        )

    def _run(self, coro: Coroutine[Any, Any, Any], timeout: float) -> Any:
        future = asyncio.run_coroutine_threadsafe(coro, self._ensure_loop())
        try:
            return future.result(timeout)
        except concurrent.futures.TimeoutError as exc:
            future.cancel()
            raise TimeoutError(f"no answer within {timeout:g} s") from exc

    def _ensure_loop(self) -> asyncio.AbstractEventLoop:
        with self._lock:
            if self._loop is None:
                self._loop = asyncio.new_event_loop()
                self._thread = threading.Thread(
                    target=self._loop.run_forever, name="sensetree-mcp", daemon=True
                )
                self._thread.start()
            return self._loop
