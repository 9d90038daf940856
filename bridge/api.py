"""The bridge between the web UI and the engine: one thin method per IPC command of DESIGN §6.

pywebview publishes every public attribute of this object to JavaScript, and `sensetree serve` maps
`POST /api/<command>` onto the same methods, so the public surface is exactly the command set and
nothing else (the engine and the window live on private attributes). Each method takes JSON-able
arguments, makes one engine call and returns the envelope `{ok: true, data}` or
`{ok: false, error: {code, message}}`. Errors are translated here, at exactly one boundary:
`EngineError` keeps its stable code and message; a full disk (ENOSPC, SQLite's "disk is full") is
`no_space`; anything else is logged once and reaches the page as `internal`, without a traceback.

JSON edge: the page's pywebview calls: their arguments arrive, and every answer leaves, as JSON (the
envelope).
"""

from __future__ import annotations

import dataclasses
import enum
import functools
import logging
from collections.abc import Callable, Mapping
from pathlib import PurePath
from typing import Any, TypeVar

from bridge.arguments import ArgumentCheck, Limit, Messages, Query, RowId
from bridge.engine_api import EngineApi
from engine.errors import DISK_FULL, EngineError, is_disk_full
from engine.events import EventBus

log = logging.getLogger(__name__)

Envelope = dict[str, Any]
_Method = TypeVar("_Method", bound=Callable[..., Any])


def ok(data: Any) -> Envelope:
    return {"ok": True, "data": to_jsonable(data)}


def failure(code: str, message: str) -> Envelope:
    return {"ok": False, "error": {"code": code, "message": message}}


def to_jsonable(value: Any) -> Any:
    """Plain JSON values from what the engine returns (dataclasses, pydantic models, paths, tuples)."""
    if value is None or isinstance(value, (bool, int, float, str)):
        return value
    if isinstance(value, enum.Enum):
        return to_jsonable(value.value)
    if isinstance(value, PurePath):
        return str(value)
    if isinstance(value, Mapping):
        return {str(k): to_jsonable(v) for k, v in value.items()}
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        # field by field: `asdict` deep-copies everything first, and this walk converts it again
        # (ten search results: 146 µs instead of 507 µs of CPU)
        return {f.name: to_jsonable(getattr(value, f.name)) for f in dataclasses.fields(value)}
    if hasattr(value, "model_dump"):
        return to_jsonable(value.model_dump(mode="json", by_alias=True))
    if isinstance(value, (list, tuple, set, frozenset)):
        return [to_jsonable(v) for v in value]
    raise TypeError(f"{type(value).__name__} is not JSON-able")


def _command(method: _Method) -> _Method:
    """Wrap a command: check the arguments against its annotations (bridge/arguments.py), call, and
    translate the outcome into the envelope."""
    check = ArgumentCheck(method)
    name = method.__name__

    @functools.wraps(method)
    def call(self: Api, *args: Any, **kwargs: Any) -> Envelope:
        try:
            return ok(method(self, **check(self, args, kwargs)))
        except EngineError as exc:
            return failure(exc.code, exc.message)
        except Exception as exc:
            if is_disk_full(exc):
                log.warning("bridge command %s: the data folder's disk is full (%s)", name, exc)
                return failure(DISK_FULL.code, DISK_FULL.message)
            log.exception("bridge command %s failed", name)
            return failure(
                "internal", f"SenseTree hit an unexpected problem in {name}; the log file has details."
            )

    call.__signature__ = check.signature  # type: ignore[attr-defined]  # pywebview reads parameter names
    return call  # type: ignore[return-value]


def _given(**optional: Any) -> dict[str, Any]:
    """Only the optional arguments the caller actually gave, so the engine's own defaults apply."""
    return {k: v for k, v in optional.items() if v is not None}


class Api:
    """The commands, exactly. `window.py` sets `_window` so `pick_folder` can open a native dialog."""

    def __init__(self, engine: EngineApi) -> None:
        self._engine = engine
        self._window: Any = None

    # Chat and actions
    @_command
    def chat_with_assistant(
        self, messages: Messages, scope: str | None = None, conversation_id: str | None = None
    ) -> Any:
        return self._engine.chat_with_assistant(
            messages=messages, **_given(scope=scope, conversation_id=conversation_id)
        )

    @_command
    def approve_tool_call(self, call_id: str, decision: str) -> Any:
        """Answer an MCP call waiting for the person: `once`, `always` or `deny` (DESIGN §2a, §6a)."""
        return self._engine.approve_tool_call(call_id=call_id, decision=decision)

    @_command
    def list_pending_tool_calls(self) -> Any:
        """The MCP calls still waiting for an answer, so a reloaded page shows their cards again."""
        return self._engine.list_pending_tool_calls()

    @_command
    def plan_reorganization(self, instruction: str, scope: str) -> Any:
        return self._engine.plan_reorganization(instruction=instruction, scope=scope)

    @_command
    def apply_action_plan(self, transaction_id: str, operations: list[dict[str, Any]] | None = None) -> Any:
        return self._engine.apply_action_plan(transaction_id=transaction_id, **_given(operations=operations))

    @_command
    def discard_action_plan(self, transaction_id: str) -> Any:
        return self._engine.discard_action_plan(transaction_id=transaction_id)

    @_command
    def list_transactions(self) -> Any:
        return self._engine.list_transactions()

    @_command
    def undo_transaction(self, transaction_id: str) -> Any:
        return self._engine.undo_transaction(transaction_id=transaction_id)

    @_command
    def trash_list(self) -> Any:
        return self._engine.trash_list()

    @_command
    def trash_restore(self, item_id: str, target_path: str | None = None) -> Any:
        return self._engine.trash_restore(item_id=item_id, **_given(target_path=target_path))

    # Agent memory
    @_command
    def agent_memory_list(self) -> Any:
        return self._engine.agent_memory_list()

    @_command
    def agent_memory_delete(self, id: RowId) -> Any:  # `id`: the documented argument name
        return self._engine.agent_memory_delete(id=id)

    @_command
    def agent_memory_clear(self) -> Any:
        return self._engine.agent_memory_clear()

    @_command
    def agent_memory_confirm(self, id: RowId) -> Any:
        """Keep a pending note (one a turn suggested after reading files): it enters prompts from now on."""
        return self._engine.agent_memory_confirm(id=id)

    # Senses
    @_command
    def qualify_file(self, path: str) -> Any:
        return self._engine.qualify_file(path=path)

    @_command
    def qualify_folder(self, path: str) -> Any:
        return self._engine.qualify_folder(path=path)

    @_command
    def set_file_summary(self, path: str, summary: str) -> Any:
        return self._engine.set_file_summary(path=path, summary=summary)

    @_command
    def read_semantics(self, path: str, recursive: bool | None = None) -> Any:
        return self._engine.read_semantics(path=path, **_given(recursive=recursive))

    # Roots and indexing
    @_command
    def get_roots(self) -> Any:
        return self._engine.get_roots()

    @_command
    def add_indexed_folder(self, path: str) -> Any:
        return self._engine.add_indexed_folder(path=path)

    @_command
    def remove_indexed_folder(self, path: str) -> Any:
        return self._engine.remove_indexed_folder(path=path)

    @_command
    def pick_folder(self) -> str | None:
        """The native folder dialog of the window; null in a browser (the page shows a path field)."""
        if self._window is None:
            return None
        chosen = self._window.create_file_dialog(20)  # webview.FileDialog.FOLDER
        return str(chosen[0]) if chosen else None

    @_command
    def indexing_stats(self) -> Any:
        return self._engine.indexing_stats()

    @_command
    def indexing_queue(self, limit: Limit | None = None) -> Any:
        return self._engine.indexing_queue(**_given(limit=limit))

    @_command
    def set_indexing_paused(self, paused: bool) -> Any:
        return self._engine.set_indexing_paused(paused=bool(paused))

    @_command
    def reindex_path(self, path: str) -> Any:
        return self._engine.reindex_path(path=path)

    @_command
    def retry_indexing(self, path: str | None = None) -> Any:
        return self._engine.retry_indexing(**_given(path=path))

    # Search and files
    @_command
    def semantic_search(self, query: Query, scope: str | None = None, limit: Limit | None = None) -> Any:
        return self._engine.semantic_search(query=query, **_given(scope=scope, limit=limit))

    @_command
    def keyword_search(self, query: Query, scope: str | None = None, limit: Limit | None = None) -> Any:
        """The keyword arm alone, in milliseconds: the page shows these while the fused list is computed."""
        return self._engine.keyword_search(query=query, **_given(scope=scope, limit=limit))

    @_command
    def list_directory(self, path: str) -> Any:
        return self._engine.list_directory(path=path)

    @_command
    def path_details(self, path: str) -> Any:
        return self._engine.path_details(path=path)

    @_command
    def file_thumbnail(self, path: str) -> Any:
        return self._engine.file_thumbnail(path=path)

    @_command
    def open_path(self, path: str, reveal: bool | None = None) -> Any:
        return self._engine.open_path(path=path, **_given(reveal=reveal))

    # Settings
    @_command
    def get_config(self) -> Any:
        return self._engine.get_config()

    @_command
    def set_config(self, patch: dict[str, Any]) -> Any:
        return self._engine.set_config(patch=patch)

    @_command
    def get_default_prompts(self) -> Any:
        return self._engine.get_default_prompts()

    @_command
    def test_chat_endpoint(
        self, base_url: str | None = None, api_key: str | None = None, model: str | None = None
    ) -> Any:
        return self._engine.test_chat_endpoint(**_given(base_url=base_url, api_key=api_key, model=model))

    @_command
    def test_media_endpoint(
        self, kind: str, base_url: str | None = None, api_key: str | None = None, model: str | None = None
    ) -> Any:
        typed = _given(base_url=base_url, api_key=api_key, model=model)
        return self._engine.test_media_endpoint(kind, **typed)

    @_command
    def list_mcp_tools(self) -> Any:
        return self._engine.list_mcp_tools()

    @_command
    def gpu_available(self) -> Any:
        return self._engine.gpu_available()

    @_command
    def app_version(self) -> Any:
        return self._engine.app_version()

    # Conversations and models (DESIGN §6a)
    @_command
    def list_conversations(self, query: str | None = None) -> Any:
        return self._engine.list_conversations(**_given(query=query))

    @_command
    def get_conversation(self, conversation_id: str) -> Any:
        return self._engine.get_conversation(conversation_id=conversation_id)

    @_command
    def rename_conversation(self, conversation_id: str, title: str) -> Any:
        return self._engine.rename_conversation(conversation_id=conversation_id, title=title)

    @_command
    def delete_conversation(self, conversation_id: str) -> Any:
        return self._engine.delete_conversation(conversation_id=conversation_id)

    @_command
    def stop_chat(self, conversation_id: str) -> Any:
        return self._engine.stop_chat(conversation_id=conversation_id)

    @_command
    def list_models(self, base_url: str | None = None, api_key: str | None = None) -> Any:
        return self._engine.list_models(**_given(base_url=base_url, api_key=api_key))

    # The Gardener and the meaning map (DESIGN §6a, issue 16)
    @_command
    def analyze_directory(self, path: str) -> Any:
        return self._engine.analyze_directory(path=path)

    @_command
    def gardener_health(self) -> Any:
        return self._engine.gardener_health()

    @_command
    def semantic_tree(self, query: Query, scope: str | None = None, limit: Limit | None = None) -> Any:
        return self._engine.semantic_tree(query=query, **_given(scope=scope, limit=limit))

    @_command
    def propose_gardener_fix(self, path: str, kind: str, keep: list[str] | None = None) -> Any:
        """A draft plan fixing one kind of finding (the plan card reviews it); changes nothing."""
        return self._engine.propose_gardener_fix(path=path, kind=kind, **_given(keep=keep))


# The IPC commands: the public methods of `Api`, in the order they are written (pywebview publishes exactly
# those, and the HTTP server and the instance socket accept exactly these names). tests/bridge pins the set
# against DESIGN §6 and §6a.
COMMANDS: tuple[str, ...] = tuple(
    name for name, member in vars(Api).items() if not name.startswith("_") and callable(member)
)


def attach_window(api: Api, window: Any) -> None:
    """Give the bridge the pywebview window (for native dialogs); the engine never sees it."""
    api._window = window


def event_bus(api: Api) -> EventBus:
    """The engine's event bus, for the window and the HTTP server to forward events to the page."""
    return api._engine.events
