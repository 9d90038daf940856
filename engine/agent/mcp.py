"""MCP servers as agent tools: every tool of every enabled server appears as `mcp__<server>__<tool>`.

The agent is synchronous (pywebview calls arrive on arbitrary threads) while the `mcp` SDK is async,
so one background thread runs an asyncio loop that owns every session. Each server's session
(engine/agent/mcp_session.py) lives in its own task that holds `async with Client(...)` open: sessions
start lazily, stay open across calls and turns, and are started again when the process died (the
holding task ended). Tool lists are cached with a TTL, and read again as soon as a server says they
changed (`tools/list_changed`). Every wait is bounded by the configured timeout; output is truncated to
a budget; a server that fails to start is skipped with a logged reason, reported by `list_mcp_tools`,
and never breaks a turn. `close()` stops every process.

Every call passes a `Gate` first (engine/agent/approval.py): a tool its server does not declare
read-only and closed to the outside world runs only after the person allowed it (as it declares itself
now); a refusal comes back as the observation.

JSON edge: MCP tool arguments and schemas, as the MCP servers define and take them.
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
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TextIO, TypeVar

from engine.agent.approval import Gate, ToolRequest, ToolStatus, declared_read_only
from engine.agent.mcp_session import McpSession, describe, result_text
from engine.agent.model import ToolArguments
from engine.agent.tools import Tool, ToolFailed
from engine.config import McpServer
from engine.results import Result

# The `mcp` SDK is imported where a server is first used, not with this module: its pydantic types cost
# the engine's start seconds (measured: bench/package.py), and most people configure no MCP server.

log = logging.getLogger(__name__)
T = TypeVar("T")
# How a server is reached: the SDK's StdioServerParameters, (url, headers) for streamable HTTP, or an
# in-process server object (tests); the SDK's types are not imported until a server is used.
Target = Any

LIST_TTL_S = 300.0
NAME_LIMIT = 64


def tool_name(server: str, tool: str) -> str:
    """`mcp__<server>__<tool>`, sanitised to [A-Za-z0-9_-] and at most 64 characters."""
    return re.sub(r"[^A-Za-z0-9_-]", "_", f"mcp__{server}__{tool}")[:NAME_LIMIT]


def _request(server: str, spec: Any) -> ToolRequest:
    return ToolRequest(server, spec.name, spec.description or "", spec.annotations)


@dataclass(frozen=True)
class Listing:
    """One server's tools as its session listed them (the SDK's `Tool`s), or why it could not list them."""

    tools: list[Any] = field(default_factory=list)
    error: str | None = None


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
        in_process: dict[str, Target] | None = None,
        list_ttl_s: float = LIST_TTL_S,
    ):
        self._servers = servers
        self._timeout = timeout_s
        self._output_chars = output_chars
        self._log_dir = log_dir
        self._in_process = dict(in_process or {})
        self._ttl = list_ttl_s
        self._conns: dict[str, tuple[str, McpSession]] = {}
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
            for spec in info.tools:
                tools.append(self._as_tool(server, spec, gate))
        return tools

    def list_tools(self, status: Callable[[ToolRequest], ToolStatus] | None = None) -> list[McpTool]:
        """Every tool of every enabled server (one error row for a server that failed), for Settings and
        `sensetree mcp list`; `status` gives each tool's `approval` (ToolApprovals.status)."""
        rows: list[McpTool] = []
        for server, info in self._listing().items():
            if info.error:
                rows.append(McpTool(server=server, name="", description="", error=info.error))
            for spec in info.tools:
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

    def call(self, server: str, tool: str, arguments: ToolArguments) -> str:
        """The tool's output, truncated to the budget; a failure raises `ToolFailed` (an observation for
        the model, marked failed in the trace)."""
        timeout = self._timeout()
        try:
            result = self._run(self._call(server, tool, arguments, timeout), timeout + 5)
        except Exception as exc:  # noqa: BLE001 (an MCP failure is an observation for the model)
            raise ToolFailed(f"Error from MCP server {server!r} calling {tool}: {describe(exc)}") from None
        text = result_text(result)
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
    def _listing(self) -> dict[str, Listing]:
        names = self._enabled()
        if not names:
            return {}
        timeout = self._timeout()
        try:
            return self._run(self._list_all(names, timeout), timeout * 2 + 5)
        except Exception as exc:  # noqa: BLE001 (the hub failed; no server is usable this turn)
            log.warning("listing MCP tools failed: %s", describe(exc))
            return {name: Listing(error=describe(exc)) for name in names}

    def _enabled(self) -> dict[str, Target]:
        from mcp import StdioServerParameters

        targets: dict[str, Target] = {}
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

    async def _list_all(self, targets: dict[str, Target], timeout: float) -> dict[str, Listing]:
        for stale in [n for n in self._conns if n not in targets]:  # disabled or removed since last time
            await self._conns.pop(stale)[1].stop()
        names = list(targets)
        results = await asyncio.gather(*(self._list_one(n, targets[n], timeout) for n in names))
        return dict(zip(names, results, strict=True))

    async def _list_one(self, name: str, target: Target, timeout: float) -> Listing:
        conn = await self._connection(name, target)
        try:
            client = await conn.ensure(timeout)
            if not conn.tools or time.monotonic() - conn.listed_at > self._ttl:
                listed = await asyncio.wait_for(client.list_tools(), timeout)
                conn.tools, conn.listed_at = list(listed.tools), time.monotonic()
            return Listing(tools=conn.tools)
        except Exception as exc:  # noqa: BLE001 (a failing server is skipped, never breaks a turn)
            reason = conn.error if conn.client is None and conn.error else describe(exc)
            log.warning("MCP server %s skipped: %s", name, reason)
            await conn.stop()
            return Listing(error=reason)

    async def _call(self, server: str, tool: str, arguments: ToolArguments, timeout: float) -> Any:
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

    async def _connection(self, name: str, target: Any) -> McpSession:
        from mcp import StdioServerParameters

        key = repr(target) if not isinstance(target, StdioServerParameters) else target.model_dump_json()
        entry = self._conns.get(name)
        if entry is not None and entry[0] == key:
            return entry[1]
        if entry is not None:  # the configuration changed: restart with the new one
            await entry[1].stop()
        conn = McpSession(name, target, self._errlog(name))
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

    async def _stop_all(self, conns: list[McpSession]) -> None:
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

    def _run(self, coro: Coroutine[Any, Any, T], timeout: float) -> T:
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
