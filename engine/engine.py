"""The Engine: one method per IPC command of DESIGN §6 (same names, same keyword arguments, JSON-able
results), each a line or two over the parts that start-up built (engine/assembly.py). The bridge, the
HTTP server and the CLI all talk to this object and nothing else.

The Engine itself only knows where its data lives, the settings in force (engine/live_settings.py) and
the roots; the stores and the services on them come from one start-up (engine/startup.py), on a thread
of their own for the window and the server (`defer_stores`), so a command that needs no store answers
at once and one that needs them waits, bounded, until they are open, repaired and recovered.

JSON edge: the commands that take JSON as the page sends it: a settings patch, the chat history, a plan's
edited operations.
"""

from __future__ import annotations

import contextlib
import threading
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from engine import about, privacy, prompts
from engine.config import PromptSettings, Settings, SettingsView, data_dir, load_settings, shown
from engine.desktop import open_in_bounds
from engine.errors import NotFound
from engine.events import EventBus
from engine.live_settings import LiveSettings
from engine.results import Done, GpuInfo
from engine.roots import LIST_LIMIT, Entry, Roots
from engine.startup import Startup
from engine.txn.model import ActionPlan, PlanJson
from engine.txn.results import ApplyResult, Restored, Transaction, TrashItem

if TYPE_CHECKING:  # the parts' modules (LanceDB, DuckDB, numpy) load on the start-up thread (assembly)
    from engine.agent.approval import WaitingCall
    from engine.agent.conversations import Conversation, ConversationSummary
    from engine.agent.mcp import McpTool
    from engine.agent.memory import MemoryNote
    from engine.agent.probe import EndpointCheck
    from engine.agent.service import Agent
    from engine.agent.turn_result import TurnResult
    from engine.assembly import Parts
    from engine.db import Database
    from engine.embed import Embedder
    from engine.gardener.model import FolderReport, Health
    from engine.gardener.service import GardenerService
    from engine.indexing.indexer import Indexer
    from engine.indexing.progress import IndexingProgress
    from engine.indexing.repair import RepairReport
    from engine.indexing.results import (
        FileSense,
        PathDetails,
        PinnedSense,
        QueueRow,
        Requalifying,
        SenseRow,
        Thumbnail,
    )
    from engine.indexing.service import IndexService
    from engine.key_guard import KeyGuard
    from engine.media_check import MediaCheck
    from engine.retrieval.hybrid import HybridSearch
    from engine.retrieval.keyword.healing import KeywordStore
    from engine.retrieval.results import SearchResult
    from engine.retrieval.semantic_tree import TreeNode
    from engine.retrieval.vectors import VectorIndex
    from engine.txn.service import TxnService


class Engine:
    def __init__(
        self,
        home: Path | str | None = None,
        *,
        embedder: Embedder | None = None,
        chat_model: Any = None,
        background: bool = False,
        events: EventBus | None = None,
        defer_stores: bool = False,
        start: bool = True,
    ):
        """The settings and the roots now; the parts in start-up's one order (engine/assembly.py): on
        this thread, or with `defer_stores` on the start-up thread. `start=False` (the window) builds
        nothing until `start()` or the first command that needs the parts."""
        privacy.private_umask()  # before anything is written: every store file is created 0600
        self.home = Path(home) if home is not None else data_dir()
        self.home.mkdir(mode=privacy.DIR_MODE, parents=True, exist_ok=True)
        privacy.make_private(self.home)  # what an older version (or a copy) left readable by others
        self.events = events or EventBus()
        self._startup: Startup[Parts] = Startup(self._assemble)
        self._live = LiveSettings(self.home, load_settings(self.home), self._startup.settled, chat_model)
        self.roots = Roots(self._live.roots)  # the one bounds rule, for every part
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

    def _assemble(self, stopping: threading.Event) -> Parts:
        from engine.assembly import Ground, assemble

        ground = Ground(self.home, self.events, self._live, self.roots, self._embedder, self._background)
        return assemble(ground, self._closer, stopping)

    def start(self) -> None:
        """Begin start-up on its thread (once; the window calls this when it is on screen)."""
        self._startup.start()

    def wait_for_stores(self) -> None:
        """Return once start-up has built the parts; raise why it could not (an EngineError) if so."""
        self._startup.wait()

    def when_stores_open(self, callback: Callable[[], None]) -> None:
        """Run `callback()` once start-up has built the parts (at once if it has; never if it failed)."""
        self._startup.when_ready(lambda _parts: callback())

    def close(self) -> None:
        """Stop start-up where it is (no background work starts), wait for it, then close what it built."""
        if self._startup.stop():
            self._closer.close()

    # ---- the parts (waiting for start-up) -------------------------------------------------------
    @property
    def parts(self) -> Parts:
        return self._startup.wait()

    @property
    def settings(self) -> Settings:
        return self._live.current

    @property
    def db(self) -> Database:
        return self.parts.db

    @property
    def keywords(self) -> KeywordStore:
        return self.parts.keywords

    @property
    def search(self) -> HybridSearch:
        return self.parts.search

    @property
    def index(self) -> IndexService:
        return self.parts.index

    @property
    def indexer(self) -> Indexer:
        return self.parts.index.indexer

    @property
    def txn(self) -> TxnService:
        return self.parts.txn

    @property
    def gardener(self) -> GardenerService:
        return self.parts.gardener

    @property
    def agent(self) -> Agent:
        """The chat agent, built at the first agent command."""
        return self.parts.agent.get()

    @property
    def repair_report(self) -> RepairReport:
        return self.parts.repair_report

    @property
    def embedder(self) -> Embedder:
        """The model of the index in force (it changes when a model switch completes)."""
        return self.indexer.embedder

    @property
    def vectors(self) -> VectorIndex:
        return self.indexer.vectors

    @property
    def vectors_dir(self) -> Path:
        return self.home / "vectors"

    # ---- lifecycle ----------------------------------------------------------------------------
    def drain(self) -> int:
        return self.index.drain()

    # ---- indexing commands --------------------------------------------------------------------
    def get_roots(self) -> list[str]:
        return self.index.get_roots()

    def add_indexed_folder(self, path: str) -> list[str]:
        return self.index.add_indexed_folder(path)

    def remove_indexed_folder(self, path: str) -> list[str]:
        return self.index.remove_indexed_folder(path)

    def indexing_stats(self) -> IndexingProgress:
        return self.index.indexing_stats()

    def indexing_queue(self, limit: int = 100) -> list[QueueRow]:
        return self.index.indexing_queue(limit)

    def set_indexing_paused(self, paused: bool) -> Done:
        self._live.patch({"indexing": {"paused": bool(paused)}})
        return self.index.set_indexing_paused(paused)

    def reindex_path(self, path: str) -> Done:
        return self.index.reindex_path(path)

    def retry_indexing(self, path: str | None = None) -> Done:
        return self.index.retry_indexing(path)

    def qualify_file(self, path: str) -> FileSense:
        return self.index.qualify_file(path)

    def qualify_folder(self, path: str) -> Requalifying:
        return self.index.qualify_folder(path)

    def set_file_summary(self, path: str, summary: str) -> PinnedSense:
        return self.index.set_file_summary(path, summary)

    def read_semantics(self, path: str, recursive: bool = False) -> list[SenseRow]:
        return self.index.read_semantics(path, recursive)

    def path_details(self, path: str) -> PathDetails:
        return self.index.path_details(path)

    def semantic_search(self, query: str, scope: str | None = None, limit: int = 10) -> list[SearchResult]:
        from engine.searching import checked_search

        return self.index.with_pages(checked_search(self.search, self.roots, query, scope, limit))

    def keyword_search(self, query: str, scope: str | None = None, limit: int = 10) -> list[SearchResult]:
        from engine.searching import checked_search

        hits = checked_search(self.search, self.roots, query, scope, limit, keyword_only=True)
        return self.index.with_pages(hits)

    def file_thumbnail(self, path: str) -> Thumbnail | None:
        return self.index.file_thumbnail(path)

    # ---- action commands ----------------------------------------------------------------------
    def plan_reorganization(self, instruction: str, scope: str) -> ActionPlan:
        return self.txn.plan_reorganization(instruction, scope)

    def apply_action_plan(
        self, transaction_id: str, operations: list[dict[str, Any]] | None = None
    ) -> ApplyResult:
        return self.txn.apply_action_plan(transaction_id, operations)

    def get_action_plan(self, transaction_id: str) -> PlanJson:
        """The stored plan of a transaction, as proposed (`sensetree apply` shows it before asking)."""
        record = self.txn.store.get(transaction_id)
        if record is None:
            raise NotFound(f"No plan has the id {transaction_id}; `sensetree chat` prints it with the plan.")
        return record.plan.to_json_dict()

    def discard_action_plan(self, transaction_id: str) -> Done:
        return self.txn.discard_action_plan(transaction_id)

    def list_transactions(self) -> list[Transaction]:
        return self.txn.list_transactions()

    def undo_transaction(self, transaction_id: str) -> ApplyResult:
        return self.txn.undo_transaction(transaction_id)

    def trash_list(self) -> list[TrashItem]:
        return self.txn.trash_list()

    def trash_restore(self, item_id: str, target_path: str | None = None) -> Restored:
        return self.txn.trash_restore(item_id, target_path)

    # ---- agent commands -----------------------------------------------------------------------
    def chat_with_assistant(
        self,
        messages: Sequence[Mapping[str, Any]],
        scope: str | None = None,
        conversation_id: str | None = None,
    ) -> TurnResult:
        return self.agent.chat_with_assistant(messages, scope, conversation_id)

    def test_chat_endpoint(
        self, base_url: str | None = None, api_key: str | None = None, model: str | None = None
    ) -> EndpointCheck:
        key = self.key_guard.typed_key(self.settings, base_url, api_key)
        return self.agent.test_chat_endpoint(base_url, key, model)

    def test_media_endpoint(
        self, kind: str, base_url: str | None = None, api_key: str | None = None, model: str | None = None
    ) -> MediaCheck:
        from engine import media_check

        return media_check.test_endpoint(self.settings, kind, (base_url, api_key, model), self.key_guard)

    # ---- conversations (issue 13; DESIGN §6a) ---------------------------------------------------
    def list_conversations(self, query: str | None = None) -> list[ConversationSummary]:
        return self.agent.conversations.find(query)

    def get_conversation(self, conversation_id: str) -> Conversation:
        return self.agent.get_conversation(conversation_id)

    def rename_conversation(self, conversation_id: str, title: str) -> Done:
        self.agent.conversations.rename(conversation_id, title)
        return Done()

    def delete_conversation(self, conversation_id: str) -> Done:
        self.agent.conversations.delete(conversation_id)
        return Done()

    def stop_chat(self, conversation_id: str) -> Done:
        return self.agent.stop_chat(conversation_id)

    def list_models(self, base_url: str | None = None, api_key: str | None = None) -> list[str]:
        return self.agent.list_models(base_url, self.key_guard.typed_key(self.settings, base_url, api_key))

    def list_mcp_tools(self) -> list[McpTool]:
        return self.agent.list_mcp_tools()

    def approve_tool_call(self, call_id: str, decision: str) -> Done:
        return self.agent.approve_tool_call(call_id, decision)

    def list_pending_tool_calls(self) -> list[WaitingCall]:
        return self.agent.list_pending_tool_calls()

    def agent_memory_list(self) -> list[MemoryNote]:
        return self.agent.agent_memory_list()

    def agent_memory_delete(self, id: int) -> Done:
        return self.agent.agent_memory_delete(id)

    def agent_memory_clear(self) -> Done:
        return self.agent.agent_memory_clear()

    def agent_memory_confirm(self, id: int) -> MemoryNote:
        return self.agent.agent_memory_confirm(id)

    # ---- the Gardener and the meaning map (issue 16; DESIGN §6a) ------------------------------------
    def analyze_directory(self, path: str) -> FolderReport:
        return self.gardener.analyze_directory(path)

    def gardener_health(self) -> Health:
        return self.gardener.gardener_health()

    def propose_gardener_fix(self, path: str, kind: str, keep: list[str] | None = None) -> ActionPlan:
        return self.gardener.propose_fix(path, kind, keep or ())

    def semantic_tree(self, query: str, scope: str | None = None, limit: int = 50) -> TreeNode | None:
        """The meaning map: the folder tree of the best `limit` files for `query`, shaded by score."""
        from engine.searching import meaning_map

        return meaning_map(self.search, self.index, self.roots, query, scope, limit)

    # ---- files --------------------------------------------------------------------------------
    def list_directory(self, path: str) -> list[Entry]:
        return self.roots.listing(path, limit=LIST_LIMIT)

    def open_path(self, path: str, reveal: bool = False) -> Done:
        open_in_bounds(self.roots, path, reveal)
        return Done()

    def pick_folder(self) -> str | None:
        return None  # only a window can show a folder picker; the bridge answers this in the window

    # ---- settings and about -------------------------------------------------------------------
    def get_config(self) -> SettingsView:
        return shown(self.settings, self.startup_notices())

    def startup_notices(self) -> list[str]:
        """What start-up did on the person's behalf: recoveries, repairs, a settings file kept aside."""
        from engine.startup_notices import startup_notices

        return startup_notices(self.parts)

    @property
    def key_guard(self) -> KeyGuard:
        return self._live.key_guard

    def set_config(self, patch: dict[str, Any]) -> SettingsView:
        from engine.assembly import follow_settings

        patch, key_notices = self._live.change(patch)
        follow_settings(self.parts, patch)
        return self.get_config().model_copy(update={"save_notices": key_notices})

    def get_default_prompts(self) -> PromptSettings:
        """The built-in prompts, keyed as the settings' `prompts` section (the page's placeholders)."""
        return PromptSettings(**prompts.DEFAULTS)

    def gpu_available(self) -> GpuInfo:
        return about.gpu_info()

    def app_version(self) -> str:
        return about.app_version()
