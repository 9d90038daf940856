"""The Engine: the composition of settings, stores, the index, actions and the agent, with one method
per IPC command of DESIGN §6 (same names, same keyword arguments, JSON-able results). The bridge, the
HTTP server and the CLI all talk to this object and nothing else."""

from __future__ import annotations

import functools
import logging
import os
import subprocess
import sys
import threading
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from engine import privacy, prompts, stores
from engine.config import (
    PromptSettings,
    Settings,
    SettingsView,
    apply_patch,
    data_dir,
    load_settings,
    save_settings,
    shown,
)
from engine.errors import EngineError, InvalidInput, ModelError, NotFound
from engine.events import EventBus
from engine.indexing import catalog as catalog_mod
from engine.indexing import queue as queue_mod
from engine.paths import normalize
from engine.results import Done, GpuInfo
from engine.roots import LIST_LIMIT, Entry, Roots
from engine.store_opening import StoreOpening
from engine.txn.model import ActionPlan
from engine.txn.results import ApplyResult, Restored, Transaction, TrashItem

if TYPE_CHECKING:  # the stores' modules (LanceDB, DuckDB, numpy) load on the opening thread (_open_stores)
    from engine.agent.approval import WaitingCall
    from engine.agent.conversations import Conversation, ConversationSummary
    from engine.agent.mcp import McpTool
    from engine.agent.memory import MemoryNote
    from engine.agent.probe import EndpointCheck
    from engine.agent.service import Agent
    from engine.agent.turn_result import TurnResult
    from engine.gardener.model import FolderReport, Health
    from engine.indexing.embed import Embedder
    from engine.indexing.indexer import IndexOptions
    from engine.indexing.progress import IndexingProgress
    from engine.indexing.reembed import Reembedder
    from engine.indexing.results import FileSense, PathDetails, PinnedSense, QueueRow, Requalifying, SenseRow
    from engine.indexing.service import IndexService
    from engine.key_guard import KeyGuard
    from engine.retrieval.hybrid import HybridSearch
    from engine.retrieval.keyword_store import KeywordStore
    from engine.retrieval.results import SearchResult
    from engine.retrieval.semantic_tree import TreeNode
    from engine.retrieval.vectors import VectorIndex

log = logging.getLogger(__name__)

PURGE_NOTICE_FILES = 5  # a start-up purge of more files than this is announced


class Engine:
    # What `_open_stores` builds. Until it has finished, reading one of these waits for it (`__getattr__`;
    # the opening thread itself reads them from `_staged`, where it puts them as it builds them), so no
    # command uses a part before start-up's repair and journal recovery, and a command that needs none of
    # them (`app_version`, `list_directory`…) answers while the stores open.
    _OPENED = frozenset(
        ("keywords", "search", "index", "indexer", "repair_report", "reembedder", "txn", "recovery_report")
        + ("gardener",)
    )
    keywords: KeywordStore
    search: HybridSearch
    index: IndexService
    reembedder: Reembedder

    def __init__(
        self,
        home: Path | str | None = None,
        *,
        embedder: Embedder | None = None,
        chat_model: Any = None,
        background: bool = False,
        events: EventBus | None = None,
        defer_stores: bool = False,
    ):
        """Settings, the catalog database and the roots now; then the stores and everything built on
        them (`_open_stores`): on this thread, or with `defer_stores` on a thread of their own, so the
        window's first commands answer while LanceDB and DuckDB load (engine/store_opening.py)."""
        privacy.private_umask()  # before anything is written: every store file is created 0600
        self.home = Path(home) if home is not None else data_dir()
        self.home.mkdir(mode=privacy.DIR_MODE, parents=True, exist_ok=True)
        privacy.make_private(self.home)  # what an older version (or a copy) left readable by others
        self.settings: Settings = load_settings(self.home)
        self._store_notices: list[str] = []
        self._vectors_kept_aside = False  # the vector store was set aside at this start (its notice says so)
        db_path = self.home / "sensetree.db"
        db_lost = not db_path.exists() and (self.home / "keywords.duckdb").exists()
        self._opened_stores: list[Any] = []  # what to close if the opening fails halfway
        self._staged: dict[str, Any] = {}  # the parts `_open_stores` has built, published when it ends
        self.events = events or EventBus()
        self.db, db_notice = stores.open_database(db_path, catalog_mod.MIGRATIONS + queue_mod.MIGRATIONS)
        self._note(db_notice)
        self.settings, roots_notice = stores.keep_known_roots(self.settings, self.db, self.home)
        self._note(roots_notice)
        self._load_warning = self.settings.load_warning
        self.roots = Roots(lambda: self.settings.roots)  # the one bounds rule, for every part below
        self._chat_model = chat_model
        self._db_rebuilt = db_notice is not None or db_lost  # a lost catalog: the roots are re-scanned
        self._background = background
        self._agent: Agent | None = None
        self._agent_lock = threading.Lock()
        self._opening = StoreOpening(functools.partial(self._open_stores, embedder))
        if defer_stores:
            self._opening.start()
        else:
            self._opening.run()
            self._opening.wait()  # a synchronous start raises what opening raised, as before

    def __getattr__(self, name: str) -> Any:
        """Only for what the opening step builds and has not published yet: wait for it, then answer."""
        if name in Engine._OPENED and "_opening" in self.__dict__:
            if self._opening.on_opening_thread():
                if name in self._staged:
                    return self._staged[name]
            else:
                self._opening.wait()
                if name in self.__dict__:
                    return self.__dict__[name]
        raise AttributeError(f"{type(self).__name__!r} object has no attribute {name!r}")

    def __setattr__(self, name: str, value: Any) -> None:
        """What the opening step builds is staged until it has finished (see `_OPENED`)."""
        opening = self.__dict__.get("_opening")
        if name in Engine._OPENED and opening is not None and opening.on_opening_thread():
            self._staged[name] = value
        else:
            object.__setattr__(self, name, value)

    def _open_stores(self, embedder: Embedder | None) -> None:
        """The stores and the services on them, in the start's one order: open (healing a damaged store),
        repair what a crash left, roll back an interrupted plan, then start the background work."""
        from engine.deferred_schemas import import_deferring_schemas

        import_deferring_schemas("lance_namespace")  # LanceDB's remote-catalog client, schemas deferred
        from engine.indexing.reembed import Reembedder, write_active
        from engine.indexing.service import IndexService
        from engine.retrieval.hybrid import HybridSearch
        from engine.retrieval.keyword_store import KeywordStore
        from engine.retrieval.rerank import make_reranker

        active = embedder or self._active_embedder()
        keywords = KeywordStore(self.home / "keywords.duckdb", self.events)  # heals a damaged file
        self._opened_stores.append(keywords)
        vectors = self._open_vectors(active)
        self._opened_stores.append(vectors)
        write_active(self.vectors_dir, active.name)
        self.keywords = keywords
        self.search = HybridSearch(keywords, vectors, active, make_reranker(self.settings.rerank))
        self.index = IndexService(
            self.db,
            self.events,
            keywords,
            vectors,
            active,
            lambda: self.settings,
            self._save_roots,
            self._index_options,
            str(self.home),
            self.roots,
        )
        self.indexer = self.index.indexer
        self.search.pending = self.index.catalog.pending_among  # results say `semantic: "pending"`
        self.repair_report = self.index.startup_repair()
        if self._db_rebuilt and not self._background:  # the background start re-scans every root anyway
            for root in self.index.roots():
                self.index.worker.request_scan(root)
        self.reembedder = Reembedder(
            self.indexer, self.search, self.index.catalog, self.vectors_dir, self.events, self._open_vectors
        )
        self._build_actions_and_agent()
        self._build_gardener()
        if self._background:
            self.gardener.start()
            self.index.start_background()
            self.search.warm()  # the query model loads now, not at the first search
            if embedder is None and self.embedder.name != self._wanted_embedder().name:
                self.reembedder.start(self._wanted_embedder())  # finish a model switch a crash interrupted
        self.__dict__.update(self._staged)  # every part at once, repaired and recovered: commands may go

    def wait_for_stores(self) -> None:
        """Return once the stores are open; raise why they could not be (an EngineError) if so."""
        self._opening.wait()

    def when_stores_open(self, callback: Any) -> None:
        """Run `callback()` once the stores are open (at once if they are; never if opening failed)."""
        self._opening.when_open(callback)

    # ---- composition helpers ------------------------------------------------------------------
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

    def _wanted_embedder(self) -> Embedder:
        from engine.indexing.embed import embedder_for

        return embedder_for(self.settings.embedding, self.vectors_dir / "dims.json")

    def _active_embedder(self) -> Embedder:
        """The model whose index is complete: the one in settings, unless a switch is still under way."""
        from engine.indexing.embed import embedder_named
        from engine.indexing.reembed import read_active

        wanted = self._wanted_embedder()
        active = read_active(self.vectors_dir)
        if active is None or active == wanted.name:
            return wanted
        return embedder_named(active, self.settings.embedding, self.vectors_dir / "dims.json")

    def _open_vectors(self, embedder: Embedder) -> VectorIndex:
        from engine.indexing.reembed import slug

        vectors, notice = stores.open_vectors(self.vectors_dir / slug(embedder.name), embedder.dim)
        self._note(notice)
        self._vectors_kept_aside = self._vectors_kept_aside or stores.kept_aside(notice)
        return vectors

    def _note(self, notice: str | None) -> None:
        if notice:
            self._store_notices.append(notice)

    def _save_roots(self, roots: list[str]) -> None:
        self._update_settings(self.settings.model_copy(update={"roots": roots, "roots_defaulted": False}))

    def _update_settings(self, settings: Settings) -> None:
        self._opening.wait()  # no write before start-up's repair and journal recovery have run
        save_settings(settings, self.home)
        self.settings = settings

    def chat_model(self) -> Any:
        """The reasoning model when one is configured and enabled, else None."""
        if self._chat_model is not None:
            return self._chat_model
        if not self.settings.reasoning.enabled:
            return None
        from engine.agent.model import OpenAIChatModel

        return OpenAIChatModel(self.settings.reasoning)

    def _index_options(self) -> IndexOptions:
        s = self.settings
        model = self.chat_model() if s.indexing.qualify_with_model else None
        complete = None
        if model is not None:

            def complete(system: str, user: str) -> str:
                return model.text(system, user, effort=s.indexing.qualify_effort)

        from engine.indexing.indexer import IndexOptions

        return IndexOptions(
            max_file_bytes=int(s.indexing.max_file_mb * 1_000_000),
            max_chars=s.indexing.max_chars,
            chunk_chars=s.indexing.chunk_chars,
            chunk_overlap=s.indexing.chunk_overlap,
            qualify_prompt=prompts.effective(s.prompts.model_dump(), "doc_qualify"),
            complete=complete,
        )

    def _build_actions_and_agent(self) -> None:
        """The transactions now (a journal left by a crash is replayed at start); the agent's tables now,
        the agent itself at its first use (`agent`): openai and mcp load with the first chat, not with
        every `sensetree search` (issue 12)."""
        from engine.agent import MIGRATIONS as AGENT_MIGRATIONS
        from engine.txn.service import TxnService
        from engine.txn.store import MIGRATIONS as TXN_MIGRATIONS

        self.db.migrate(TXN_MIGRATIONS + AGENT_MIGRATIONS)
        self.txn = TxnService(
            self.db,
            self.home,
            self.roots,
            self.indexer,
            self._planner,
            reorganize_prompt=lambda: prompts.effective(self.settings.prompts.model_dump(), "reorganize"),
            quiesce=self.indexer.quiesced,
        )  # the worker waits while files move
        self.recovery_report = self.txn.recover()

    @property
    def agent(self) -> Agent:
        """The chat agent, built at the first agent command (thread-safe: IPC calls arrive on any thread)."""
        with self._agent_lock:
            if self._agent is None:
                self._agent = self._build_agent()
            return self._agent

    def _build_agent(self) -> Agent:
        from engine.agent.service import Agent
        from engine.agent_adapter import EngineAgentHost

        host = EngineAgentHost(
            self.index,
            self.roots,
            self.semantic_search,
            self._propose_plan,
            lambda: self.settings.indexing.max_chars,
            folder_health=lambda path: self.gardener.folder_health(path),
        )
        factory = (lambda _settings: self._chat_model) if self._chat_model is not None else None
        return Agent(
            host,
            self.db,
            lambda: self.settings,
            self.events,
            factory,
            log_dir=self.home / "logs",
            save_always_allow=self._save_always_allow,
        )

    def _build_gardener(self) -> None:
        """The folder-health audit (issue 16): reads the catalog, stored vectors and listing only."""
        from engine.gardener.service import GardenerService

        self.gardener = GardenerService(
            self.db,
            self.index.catalog,
            lambda: self.vectors,
            self.roots,
            lambda: self.settings.gardener,
            self.events,
            lambda summary, operations: self.txn.draft(summary, operations),  # the stored draft, typed
            self._gardener_busy,
        )

    def _gardener_busy(self) -> bool:
        """Indexing has work queued, or the index is locked (a batch is written or a plan applied)."""
        if self.index.queue.pending() and not self.index.worker.paused:
            return True
        if not self.indexer.lock.acquire(blocking=False):
            return True
        self.indexer.lock.release()
        return False

    def _save_always_allow(self, server: str, tools: list[str], pins: dict[str, str]) -> None:
        """The person's "Always allow" for an MCP tool, written to `mcpServers.<server>.alwaysAllow`
        with the pin of what the tool declared (`alwaysAllowPins`; engine/agent/approval.py)."""
        patch = {"mcpServers": {server: {"alwaysAllow": tools, "alwaysAllowPins": pins}}}
        self._update_settings(apply_patch(self.settings, patch))

    def _propose_plan(self, summary: str, operations: list[dict[str, Any]]) -> dict[str, Any]:
        return self.txn.propose_plan(summary, operations)

    def _planner(self, system: str, user: str) -> str:
        model = self.chat_model()
        if model is None:
            raise ModelError(
                "Planning a reorganisation needs a reasoning endpoint: set one in Settings → Reasoning."
            )
        return model.text(system, user, json_mode=True, effort=self.settings.reasoning.reasoning_effort)

    # ---- lifecycle ----------------------------------------------------------------------------
    def drain(self) -> int:
        return self.index.drain()

    def index_paths(self, paths: list[str]) -> int:
        for path in paths:
            self.add_indexed_folder(path)
        return self.drain()

    def close(self) -> None:
        if not self._opening.settle():  # the opening failed (or never ended): close what it had opened
            opened = {**self._staged, **vars(self)}
            for part in ("gardener", "reembedder", "index"):  # threads it may have started on the stores
                if part in opened:
                    opened[part].stop()
            for store in self._opened_stores:
                store.close()
            self.db.close()
            return
        self.gardener.stop()
        self.reembedder.stop()
        if self._agent is not None:  # never built: nothing to close (and nothing to import)
            self._agent.close()
        self.index.stop()
        self.keywords.close()
        self.vectors.close()
        self.db.close()

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
        self._update_settings(apply_patch(self.settings, {"indexing": {"paused": bool(paused)}}))
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
        if not query or not query.strip():
            raise InvalidInput("Type a few words to search for.")
        scope_path = self.roots.require(scope) if scope else None
        limit = max(1, min(int(limit), 100))
        return self.search.search(query, scope=scope_path, limit=limit)

    # ---- action commands ----------------------------------------------------------------------
    def plan_reorganization(self, instruction: str, scope: str) -> ActionPlan:
        return self.txn.plan_reorganization(instruction, scope)

    def apply_action_plan(
        self, transaction_id: str, operations: list[dict[str, Any]] | None = None
    ) -> ApplyResult:
        return self.txn.apply_action_plan(transaction_id, operations)

    def get_action_plan(self, transaction_id: str) -> dict[str, Any]:
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
        return self.agent.test_chat_endpoint(base_url, self._typed_key(base_url, api_key), model)

    def _typed_key(self, base_url: str | None, api_key: str | None) -> str | None:
        """The key a request to an address the person typed may carry: one typed with it, else the stored
        key only where it was entered (engine/key_guard.py), so a typed URL never receives it unvouched."""
        if base_url is None:
            return api_key
        return self.key_guard.key_for("reasoning", self.settings, base_url.strip(), api_key)

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
        return self.agent.list_models(base_url, self._typed_key(base_url, api_key))

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
        from engine.retrieval.semantic_tree import MAP_LIMIT, build_tree

        if not query or not query.strip():
            raise InvalidInput("Type a few words to map.")
        scope_path = self.roots.require(scope) if scope else None
        hits = self.search.search(query, scope=scope_path, limit=max(1, min(int(limit), MAP_LIMIT)))
        sizes = {h.path: getattr(self.index.catalog.get(h.path), "size", None) for h in hits}
        bases = [scope_path] if scope_path else [normalize(r) for r in self.index.roots()]
        return build_tree(((h.path, h.score) for h in hits), bases, sizes)

    # ---- files --------------------------------------------------------------------------------
    def list_directory(self, path: str) -> list[Entry]:
        return self.roots.listing(path, limit=LIST_LIMIT)

    def open_path(self, path: str, reveal: bool = False) -> Done:
        target = self.roots.require(path)
        if not os.path.exists(target):
            raise NotFound(f'"{path}" no longer exists.')
        _open_with_os(target, reveal)
        return Done()

    def pick_folder(self) -> str | None:
        return None  # only a window can show a folder picker; the bridge answers this in the window

    # ---- settings and about -------------------------------------------------------------------
    def get_config(self) -> SettingsView:
        return shown(self.settings, self.startup_notices())

    def startup_notices(self) -> list[str]:
        """What start-up did on the person's behalf: recoveries, repairs, a settings file kept aside."""
        notices = [self._load_warning] if self._load_warning else []
        notices.extend(self._store_notices)
        notices += self.keywords.notices  # a damaged keyword index set aside and rebuilt
        for item in self.recovery_report:
            notices.append(
                "An action plan was interrupted last time "
                f"({item.get('summary') or item['transaction_id']}): "
                f"{item.get('message') or 'it was rolled back.'}"
            )
        notices.extend(self.txn.startup_notices(self.recovery_report))
        report = self.repair_report
        if len(report.outside_roots) > PURGE_NOTICE_FILES:
            notices.append(
                f"{len(report.outside_roots)} file(s) outside the indexed folders were removed from the "
                f"index (for example {report.outside_roots[0]})."
            )
        if self._db_rebuilt or self._vectors_kept_aside:
            pass  # the store's notice says what happened; the repair figures would only repeat it
        elif report.requeued or report.orphans_dropped or report.keywords_refilled or report.reembedding:
            notices.append(
                f"The index was repaired after an unclean shutdown: {len(report.requeued)} file(s) "
                f"re-queued, {len(report.reembedding)} embedded again from their indexed text, "
                f"{len(report.keywords_refilled)} keyword entries rebuilt, "
                f"{len(report.orphans_dropped)} stale entries removed."
            )
        return notices

    @functools.cached_property
    def key_guard(self) -> KeyGuard:
        """API keys go only where they were entered (docs/api-keys.md). Built on first use, from the
        settings as loaded: only set_config changes keys, and it asks the guard before it does."""
        from engine.key_guard import KeyGuard

        return KeyGuard(self.settings)

    def set_config(self, patch: dict[str, Any]) -> SettingsView:
        if not isinstance(patch, dict):
            raise InvalidInput("Settings changes must be an object of keys to new values.")
        if "roots" in patch:
            raise InvalidInput("Add or remove folders with the Folders view, not through settings.")
        patch, key_notices = self.key_guard.review(self.settings, patch)
        candidate = self.key_guard.finish(apply_patch(self.settings, patch))
        if "base_url" in (patch.get("reasoning") or {}):
            from engine.agent.endpoints import refuse_unsaveable

            refuse_unsaveable(candidate.reasoning.base_url)
        if "embedding" in patch and candidate.embedding.provider == "endpoint":
            from engine.indexing.embed import embedder_for

            _ = embedder_for(candidate.embedding, self.vectors_dir / "dims.json").dim  # probe before saving
        self._update_settings(candidate)
        self.key_guard.trust(self.settings)
        if "indexing" in patch and "paused" in patch["indexing"]:
            self.index.set_indexing_paused(self.settings.indexing.paused)
        if "rerank" in patch:
            from engine.retrieval.rerank import make_reranker

            self.search.reranker = make_reranker(self.settings.rerank)
        if "autostart" in (patch.get("app") or {}):
            from engine import autostart

            autostart.set_enabled(self.settings.app.autostart)
        wanted = self._wanted_embedder()
        if "embedding" in patch and wanted.name != self.embedder.name:
            self.reembedder.start(wanted, background=self._background)
        return self.get_config().model_copy(update={"save_notices": key_notices})

    def get_default_prompts(self) -> PromptSettings:
        """The built-in prompts, keyed as the settings' `prompts` section (the page's placeholders)."""
        return PromptSettings(**prompts.DEFAULTS)

    def gpu_available(self) -> GpuInfo:
        import torch

        if torch.cuda.is_available():
            return GpuInfo(cuda=True, device_name=torch.cuda.get_device_name(0))
        return GpuInfo(cuda=False)

    def app_version(self) -> str:
        from importlib.metadata import PackageNotFoundError, version

        try:
            return version("sensetree")
        except PackageNotFoundError:
            return "0.1.0"


def _open_with_os(path: str, reveal: bool) -> None:
    """Open a file with its default application, or show it in the file manager."""
    if sys.platform == "darwin":
        cmd = ["open", "-R", path] if reveal else ["open", path]
    elif sys.platform == "win32":
        if reveal:
            subprocess.Popen(["explorer", "/select,", path])
        else:
            os.startfile(path)  # type: ignore[attr-defined]
        return
    else:
        cmd = ["xdg-open", os.path.dirname(path) if reveal else path]
    try:
        subprocess.Popen(
            cmd,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            start_new_session=True,
            umask=privacy.user_umask(),
        )  # what the person's program saves is not made 0600
    except FileNotFoundError as exc:
        raise EngineError(f"No program to open files was found ({cmd[0]}); open {path} yourself.") from exc
