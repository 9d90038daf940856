"""The Engine: one method per IPC command of DESIGN §6 (same names, same keyword arguments, JSON-able
results), each a line or two over the parts that start-up built. The bridge, the HTTP server and the CLI
all talk to this object and nothing else.

The Engine holds the commands only. Being running (the data folder, the settings in force, the roots,
the one start-up that opens, repairs, recovers and starts the background work, the wait for it, and
closing) is `Engine.running` (engine/running.py); what start-up built is the frozen record
`Engine.parts` (engine/parts.py), which a command needing a store waits for, bounded.

JSON edge: the commands that take JSON as the page sends it: a settings patch, the chat history, a plan's
edited operations.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, Unpack

from engine import about, prompts
from engine.config import PromptSettings, SettingsView, shown
from engine.desktop import open_in_bounds
from engine.errors import NotFound
from engine.results import Done, GpuInfo
from engine.roots import LIST_LIMIT, Entry
from engine.running import Running, StartOptions
from engine.txn.model import ActionPlan, PlanJson
from engine.txn.results import ApplyResult, Restored, Transaction, TrashItem

if TYPE_CHECKING:  # the parts' modules (LanceDB, DuckDB, numpy) load on the start-up thread (assembly)
    from engine.agent.approval import WaitingCall
    from engine.agent.conversations import Conversation, ConversationSummary
    from engine.agent.mcp import McpTool
    from engine.agent.memory import MemoryNote
    from engine.agent.probe import EndpointCheck
    from engine.agent.turn_result import TurnResult
    from engine.gardener.model import FolderReport, Health
    from engine.indexing.progress import IndexingProgress
    from engine.indexing.results import (
        FileSense,
        PathDetails,
        PinnedSense,
        QueueRow,
        Requalifying,
        SenseRow,
        Thumbnail,
    )
    from engine.media_check import MediaCheck
    from engine.parts import Parts
    from engine.retrieval.results import SearchResult
    from engine.retrieval.semantic_tree import TreeNode


class Engine:
    def __init__(self, home: Path | str | None = None, **options: Unpack[StartOptions]) -> None:
        """Run the engine on `home` (the data folder; the platform's by default): engine/running.py."""
        self.running = Running(home, **options)
        self.events = self.running.events  # the bridge forwards these to the page

    @property
    def parts(self) -> Parts:
        """What start-up built, once it has (a bounded wait, engine/startup.py)."""
        return self.running.wait()

    # ---- indexing commands --------------------------------------------------------------------
    def get_roots(self) -> list[str]:
        return self.parts.index.get_roots()

    def add_indexed_folder(self, path: str) -> list[str]:
        return self.parts.index.add_indexed_folder(path)

    def remove_indexed_folder(self, path: str) -> list[str]:
        return self.parts.index.remove_indexed_folder(path)

    def indexing_stats(self) -> IndexingProgress:
        return self.parts.index.indexing_stats()

    def indexing_queue(self, limit: int = 100) -> list[QueueRow]:
        return self.parts.index.indexing_queue(limit)

    def set_indexing_paused(self, paused: bool) -> Done:
        self.running.live.patch({"indexing": {"paused": bool(paused)}})
        return self.parts.index.set_indexing_paused(paused)

    def reindex_path(self, path: str) -> Done:
        return self.parts.index.reindex_path(path)

    def retry_indexing(self, path: str | None = None) -> Done:
        return self.parts.index.retry_indexing(path)

    def qualify_file(self, path: str) -> FileSense:
        return self.parts.index.qualify_file(path)

    def qualify_folder(self, path: str) -> Requalifying:
        return self.parts.index.qualify_folder(path)

    def set_file_summary(self, path: str, summary: str) -> PinnedSense:
        return self.parts.index.set_file_summary(path, summary)

    def read_semantics(self, path: str, recursive: bool = False) -> list[SenseRow]:
        return self.parts.index.read_semantics(path, recursive)

    def path_details(self, path: str) -> PathDetails:
        return self.parts.index.path_details(path)

    def semantic_search(self, query: str, scope: str | None = None, limit: int = 10) -> list[SearchResult]:
        from engine.searching import checked_search

        hits = checked_search(self.parts.search, self.running.roots, query, scope, limit)
        return self.parts.index.with_pages(hits)

    def keyword_search(self, query: str, scope: str | None = None, limit: int = 10) -> list[SearchResult]:
        from engine.searching import checked_search

        hits = checked_search(self.parts.search, self.running.roots, query, scope, limit, keyword_only=True)
        return self.parts.index.with_pages(hits)

    def file_thumbnail(self, path: str) -> Thumbnail | None:
        return self.parts.index.file_thumbnail(path)

    # ---- action commands ----------------------------------------------------------------------
    def plan_reorganization(self, instruction: str, scope: str) -> ActionPlan:
        return self.parts.txn.plan_reorganization(instruction, scope)

    def apply_action_plan(
        self, transaction_id: str, operations: list[dict[str, Any]] | None = None
    ) -> ApplyResult:
        return self.parts.txn.apply_action_plan(transaction_id, operations)

    def get_action_plan(self, transaction_id: str) -> PlanJson:
        """The stored plan of a transaction, as proposed (`sensetree apply` shows it before asking)."""
        record = self.parts.txn.store.get(transaction_id)
        if record is None:
            raise NotFound(f"No plan has the id {transaction_id}; `sensetree chat` prints it with the plan.")
        return record.plan.to_json_dict()

    def discard_action_plan(self, transaction_id: str) -> Done:
        return self.parts.txn.discard_action_plan(transaction_id)

    def list_transactions(self) -> list[Transaction]:
        return self.parts.txn.list_transactions()

    def undo_transaction(self, transaction_id: str) -> ApplyResult:
        return self.parts.txn.undo_transaction(transaction_id)

    def trash_list(self) -> list[TrashItem]:
        return self.parts.txn.trash_list()

    def trash_restore(self, item_id: str, target_path: str | None = None) -> Restored:
        return self.parts.txn.trash_restore(item_id, target_path)

    # ---- agent commands -----------------------------------------------------------------------
    def chat_with_assistant(
        self,
        messages: Sequence[Mapping[str, Any]],
        scope: str | None = None,
        conversation_id: str | None = None,
    ) -> TurnResult:
        return self.parts.agent.chat_with_assistant(messages, scope, conversation_id)

    def test_chat_endpoint(
        self, base_url: str | None = None, api_key: str | None = None, model: str | None = None
    ) -> EndpointCheck:
        key = self.running.live.typed_key(base_url, api_key)
        return self.parts.agent.test_chat_endpoint(base_url, key, model)

    def test_media_endpoint(
        self, kind: str, base_url: str | None = None, api_key: str | None = None, model: str | None = None
    ) -> MediaCheck:
        from engine import media_check

        return media_check.test_endpoint(
            self.running.settings, kind, (base_url, api_key, model), self.running.live.key_guard
        )

    # ---- conversations (issue 13; DESIGN §6a) ---------------------------------------------------
    def list_conversations(self, query: str | None = None) -> list[ConversationSummary]:
        return self.parts.agent.conversations.find(query)

    def get_conversation(self, conversation_id: str) -> Conversation:
        return self.parts.agent.get_conversation(conversation_id)

    def rename_conversation(self, conversation_id: str, title: str) -> Done:
        self.parts.agent.conversations.rename(conversation_id, title)
        return Done()

    def delete_conversation(self, conversation_id: str) -> Done:
        self.parts.agent.conversations.delete(conversation_id)
        return Done()

    def stop_chat(self, conversation_id: str) -> Done:
        return self.parts.agent.stop_chat(conversation_id)

    def list_models(self, base_url: str | None = None, api_key: str | None = None) -> list[str]:
        return self.parts.agent.list_models(base_url, self.running.live.typed_key(base_url, api_key))

    def list_mcp_tools(self) -> list[McpTool]:
        return self.parts.agent.list_mcp_tools()

    def approve_tool_call(self, call_id: str, decision: str) -> Done:
        return self.parts.agent.approve_tool_call(call_id, decision)

    def list_pending_tool_calls(self) -> list[WaitingCall]:
        return self.parts.agent.list_pending_tool_calls()

    def agent_memory_list(self) -> list[MemoryNote]:
        return self.parts.agent.agent_memory_list()

    def agent_memory_delete(self, id: int) -> Done:
        return self.parts.agent.agent_memory_delete(id)

    def agent_memory_clear(self) -> Done:
        return self.parts.agent.agent_memory_clear()

    def agent_memory_confirm(self, id: int) -> MemoryNote:
        return self.parts.agent.agent_memory_confirm(id)

    # ---- the Gardener and the meaning map (issue 16; DESIGN §6a) ------------------------------------
    def analyze_directory(self, path: str) -> FolderReport:
        return self.parts.gardener.analyze_directory(path)

    def gardener_health(self) -> Health:
        return self.parts.gardener.gardener_health()

    def propose_gardener_fix(self, path: str, kind: str, keep: list[str] | None = None) -> ActionPlan:
        return self.parts.gardener.propose_fix(path, kind, keep or ())

    def semantic_tree(self, query: str, scope: str | None = None, limit: int = 50) -> TreeNode | None:
        """The meaning map: the folder tree of the best `limit` files for `query`, shaded by score."""
        from engine.searching import meaning_map

        return meaning_map(self.parts.search, self.parts.index, self.running.roots, query, scope, limit)

    # ---- files --------------------------------------------------------------------------------
    def list_directory(self, path: str) -> list[Entry]:
        return self.running.roots.listing(path, limit=LIST_LIMIT)

    def open_path(self, path: str, reveal: bool = False) -> Done:
        open_in_bounds(self.running.roots, path, reveal)
        return Done()

    def pick_folder(self) -> str | None:
        return None  # only a window can show a folder picker; the bridge answers this in the window

    # ---- settings and about -------------------------------------------------------------------
    def get_config(self) -> SettingsView:
        return shown(self.running.settings, self.running.notices())

    def set_config(self, patch: dict[str, Any]) -> SettingsView:
        key_notices = self.running.change_settings(patch)
        return self.get_config().model_copy(update={"save_notices": key_notices})

    def get_default_prompts(self) -> PromptSettings:
        """The built-in prompts, keyed as the settings' `prompts` section (the page's placeholders)."""
        return PromptSettings(**prompts.DEFAULTS)

    def gpu_available(self) -> GpuInfo:
        return about.gpu_info()

    def app_version(self) -> str:
        return about.app_version()
