"""The Engine: the composition of settings, stores, the index, actions and the agent, with one method
per IPC command of DESIGN §6 (same names, same keyword arguments, JSON-able results). The bridge, the
HTTP server and the CLI all talk to this object and nothing else."""

from __future__ import annotations

import logging
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

from engine import prompts
from engine.config import Settings, apply_patch, data_dir, load_settings, masked, save_settings
from engine.db import Database
from engine.errors import EngineError, InvalidInput, ModelError, NotFound
from engine.events import EventBus
from engine.indexing import catalog as catalog_mod
from engine.indexing import queue as queue_mod
from engine.indexing.embed import Embedder, make_embedder
from engine.indexing.indexer import IndexOptions
from engine.indexing.reembed import Reembedder, read_active, slug, write_active
from engine.indexing.service import IndexService
from engine.retrieval.bm25 import KeywordIndex
from engine.retrieval.hybrid import HybridSearch
from engine.retrieval.rerank import make_reranker
from engine.retrieval.vectors import VectorIndex

log = logging.getLogger(__name__)

LIST_LIMIT = 500


class Engine:
    def __init__(self, home: Path | str | None = None, *, embedder: Embedder | None = None,
                 chat_model: Any = None, background: bool = False, events: EventBus | None = None):
        self.home = Path(home) if home is not None else data_dir()
        self.home.mkdir(parents=True, exist_ok=True)
        self.settings: Settings = load_settings(self.home)
        self._load_warning = self.settings.load_warning
        self.events = events or EventBus()
        self.db = Database(self.home / "sensetree.db")
        self.db.migrate(catalog_mod.MIGRATIONS + queue_mod.MIGRATIONS)
        active = embedder or self._active_embedder()
        self._chat_model = chat_model
        self.keywords = KeywordIndex(self.home / "keywords.duckdb")
        vectors = self._open_vectors(active)
        write_active(self.vectors_dir, active.name)
        self.search = HybridSearch(self.keywords, vectors, active, make_reranker(self.settings.rerank))
        self.index = IndexService(self.db, self.events, self.keywords, vectors, active,
                                  lambda: self.settings, self._save_roots, self._index_options, str(self.home))
        self.indexer = self.index.indexer
        self.repair_report = self.index.startup_repair()
        self.reembedder = Reembedder(self.indexer, self.search, self.index.catalog, self.vectors_dir, self.events,
                                     self._open_vectors)
        self._build_actions_and_agent()
        self._background = background
        if background:
            self.index.start_background()
            self.search.warm()  # the query model loads now, not at the first search
            if embedder is None and self.embedder.name != self._wanted_embedder().name:
                self.reembedder.start(self._wanted_embedder())  # finish a model switch a crash interrupted

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
        emb = self.settings.embedding
        return make_embedder(emb.model, emb.device, emb.quantize, emb.batch_size)

    def _active_embedder(self) -> Embedder:
        """The model whose index is complete: the one in settings, unless a switch is still under way."""
        wanted = self._wanted_embedder()
        active = read_active(self.vectors_dir)
        if active is None or active == wanted.name:
            return wanted
        model, _, quantize = active.partition("+")
        emb = self.settings.embedding
        return make_embedder(model, emb.device, quantize or "none", emb.batch_size)

    def _open_vectors(self, embedder: Embedder) -> VectorIndex:
        return VectorIndex(self.vectors_dir / slug(embedder.name), embedder.dim)
    def _save_roots(self, roots: list[str]) -> None:
        self._update_settings(self.settings.model_copy(update={"roots": roots}))

    def _update_settings(self, settings: Settings) -> None:
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
        return IndexOptions(max_file_bytes=int(s.indexing.max_file_mb * 1_000_000), max_chars=s.indexing.max_chars,
                            chunk_chars=s.indexing.chunk_chars, chunk_overlap=s.indexing.chunk_overlap,
                            qualify_prompt=prompts.effective(s.prompts.model_dump(), "doc_qualify"),
                            complete=complete)

    def _build_actions_and_agent(self) -> None:
        from engine.agent import MIGRATIONS as AGENT_MIGRATIONS
        from engine.agent.service import Agent
        from engine.agent_host import EngineAgentHost
        from engine.txn.service import TxnService
        from engine.txn.store import MIGRATIONS as TXN_MIGRATIONS

        self.db.migrate(TXN_MIGRATIONS + AGENT_MIGRATIONS)
        self.txn = TxnService(self.db, self.home, self.index.roots, self.indexer, self._planner,
                              reorganize_prompt=lambda: prompts.effective(self.settings.prompts.model_dump(),
                                                                          "reorganize"),
                              quiesce=lambda: self.indexer.lock)  # the worker waits while files move
        self.recovery_report = self.txn.recover()
        host = EngineAgentHost(self.index, self.semantic_search, self._propose_plan,
                               lambda: self.settings.indexing.max_chars)
        factory = (lambda _settings: self._chat_model) if self._chat_model is not None else None
        self.agent = Agent(host, self.db, lambda: self.settings, self.events, factory,
                           log_dir=self.home / "logs")

    def _propose_plan(self, summary: str, operations: list[dict[str, Any]]) -> dict[str, Any]:
        return self.txn.propose_plan(summary, operations)

    def _planner(self, system: str, user: str) -> str:
        model = self.chat_model()
        if model is None:
            raise ModelError("Planning a reorganisation needs a reasoning endpoint: set one in Settings → Reasoning.")
        return model.text(system, user, json_mode=True, effort=self.settings.reasoning.reasoning_effort)

    # ---- lifecycle ----------------------------------------------------------------------------
    def drain(self) -> int:
        return self.index.drain()

    def index_paths(self, paths: list[str]) -> int:
        for path in paths:
            self.add_indexed_folder(path)
        return self.drain()

    def close(self) -> None:
        self.reembedder.stop()
        self.agent.close()
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

    def indexing_stats(self) -> dict[str, Any]:
        return self.index.indexing_stats()

    def indexing_queue(self, limit: int = 100) -> list[dict[str, Any]]:
        return self.index.indexing_queue(limit)

    def set_indexing_paused(self, paused: bool) -> dict[str, bool]:
        self._update_settings(apply_patch(self.settings, {"indexing": {"paused": bool(paused)}}))
        return self.index.set_indexing_paused(paused)

    def reindex_path(self, path: str) -> dict[str, bool]:
        return self.index.reindex_path(path)

    def retry_indexing(self, path: str | None = None) -> dict[str, bool]:
        return self.index.retry_indexing(path)

    def qualify_file(self, path: str) -> dict[str, Any]:
        return self.index.qualify_file(path)

    def qualify_folder(self, path: str) -> dict[str, int]:
        return self.index.qualify_folder(path)

    def set_file_summary(self, path: str, summary: str) -> dict[str, Any]:
        return self.index.set_file_summary(path, summary)

    def read_semantics(self, path: str, recursive: bool = False) -> list[dict[str, Any]]:
        return self.index.read_semantics(path, recursive)

    def path_details(self, path: str) -> dict[str, Any]:
        return self.index.path_details(path)

    def semantic_search(self, query: str, scope: str | None = None, limit: int = 10) -> list[dict[str, Any]]:
        if not query or not query.strip():
            raise InvalidInput("Type a few words to search for.")
        scope_path = self.index.require_in_roots(scope) if scope else None
        limit = max(1, min(int(limit), 100))
        return [r.to_dict() for r in self.search.search(query, scope=scope_path, limit=limit)]

    # ---- action commands ----------------------------------------------------------------------
    def plan_reorganization(self, instruction: str, scope: str) -> dict[str, Any]:
        return self.txn.plan_reorganization(instruction, scope)

    def apply_action_plan(self, transaction_id: str, operations: list[dict[str, Any]] | None = None) -> dict[str, Any]:
        return self.txn.apply_action_plan(transaction_id, operations)

    def discard_action_plan(self, transaction_id: str) -> dict[str, Any]:
        return self.txn.discard_action_plan(transaction_id)

    def list_transactions(self) -> list[dict[str, Any]]:
        return self.txn.list_transactions()

    def undo_transaction(self, transaction_id: str) -> dict[str, Any]:
        return self.txn.undo_transaction(transaction_id)

    def trash_list(self) -> list[dict[str, Any]]:
        return self.txn.trash_list()

    def trash_restore(self, item_id: str, target_path: str | None = None) -> dict[str, str]:
        return self.txn.trash_restore(item_id, target_path)

    # ---- agent commands -----------------------------------------------------------------------
    def chat_with_assistant(self, messages: list[dict[str, Any]], scope: str | None = None) -> dict[str, Any]:
        return self.agent.chat_with_assistant(messages, scope)

    def test_chat_endpoint(self) -> dict[str, Any]:
        return self.agent.test_chat_endpoint()

    def list_mcp_tools(self) -> list[dict[str, Any]]:
        return self.agent.list_mcp_tools()

    def agent_memory_list(self) -> list[dict[str, Any]]:
        return self.agent.agent_memory_list()

    def agent_memory_delete(self, id: int) -> dict[str, Any]:
        return self.agent.agent_memory_delete(id)

    def agent_memory_clear(self) -> dict[str, Any]:
        return self.agent.agent_memory_clear()

    # ---- files --------------------------------------------------------------------------------
    def list_directory(self, path: str) -> list[dict[str, Any]]:
        target = self.index.require_in_roots(path)
        if not os.path.isdir(target):
            raise NotFound(f'"{path}" is not a folder.')
        entries = []
        with os.scandir(target) as it:
            for entry in sorted(it, key=lambda e: (not e.is_dir(), e.name.lower())):
                if entry.name.startswith("."):
                    continue
                entries.append({"path": entry.path, "name": entry.name, "is_dir": entry.is_dir()})
                if len(entries) >= LIST_LIMIT:
                    break
        return entries

    def open_path(self, path: str, reveal: bool = False) -> dict[str, bool]:
        target = self.index.require_in_roots(path)
        if not os.path.exists(target):
            raise NotFound(f'"{path}" no longer exists.')
        _open_with_os(target, reveal)
        return {"ok": True}

    def pick_folder(self) -> str | None:
        return None  # only a window can show a folder picker; the bridge answers this in the window

    # ---- settings and about -------------------------------------------------------------------
    def get_config(self) -> dict[str, Any]:
        config = masked(self.settings)
        config["notices"] = self.startup_notices()
        return config

    def startup_notices(self) -> list[str]:
        """What start-up did on the person's behalf: recoveries, repairs, a settings file kept aside."""
        notices = [self._load_warning] if self._load_warning else []
        for item in self.recovery_report:
            notices.append(f"An action plan was interrupted last time ({item.get('summary') or item['transaction_id']}): "
                           f"{item.get('message') or 'it was rolled back.'}")
        report = self.repair_report
        if report.requeued or report.orphans_dropped or report.keywords_refilled:
            notices.append(f"The index was repaired after an unclean shutdown: {len(report.requeued)} file(s) "
                           f"re-queued, {len(report.keywords_refilled)} keyword entries rebuilt, "
                           f"{len(report.orphans_dropped)} stale entries removed.")
        return notices

    def set_config(self, patch: dict[str, Any]) -> dict[str, Any]:
        if not isinstance(patch, dict):
            raise InvalidInput("Settings changes must be an object of keys to new values.")
        if "roots" in patch:
            raise InvalidInput("Add or remove folders with the Folders view, not through settings.")
        self._update_settings(apply_patch(self.settings, patch))
        if "indexing" in patch and "paused" in patch["indexing"]:
            self.index.set_indexing_paused(self.settings.indexing.paused)
        if "rerank" in patch:
            self.search.reranker = make_reranker(self.settings.rerank)
        if "autostart" in (patch.get("app") or {}):
            from engine import autostart

            autostart.set_enabled(self.settings.app.autostart)
        wanted = self._wanted_embedder()
        if "embedding" in patch and wanted.name != self.embedder.name:
            self.reembedder.start(wanted, background=self._background)
        return self.get_config()

    def get_default_prompts(self) -> dict[str, str]:
        return dict(prompts.DEFAULTS)

    def gpu_available(self) -> dict[str, Any]:
        import torch

        if torch.cuda.is_available():
            return {"cuda": True, "device_name": torch.cuda.get_device_name(0)}
        return {"cuda": False}

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
        subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
    except FileNotFoundError as exc:
        raise EngineError(f"No program to open files was found ({cmd[0]}); open {path} yourself.") from exc
