"""The engine's store-backed parts, built once in start-up's one order, each given its collaborators in
its constructor (CONVENTIONS 15: build once, then only answer).

The order: **open** the catalog (a damaged one is set aside, engine/stores.py) and keep the roots it
knows, then the keyword and vector stores and the services on them; **repair** what a crash left
(start-up repair); **recover** an interrupted action plan (the journal is rolled back); only then start
the **background** work (the indexer, the Gardener, the query model's warm-up, a model switch a crash
interrupted). `assemble` returns the parts as one frozen `Parts` (engine/parts.py): once a command holds
them they are repaired and recovered, and nothing is patched on afterwards. Every part that holds a
thread or a file is registered with the running engine's `closer` (engine/running.py) as it is built,
so closing (also after a start-up that failed halfway) stops and closes exactly what exists, in reverse
order.

The modules of the stores (LanceDB, DuckDB, numpy) are imported here, on the start-up thread, not when
the Engine's modules load: `sensetree status` and the window's first commands never pay for them.
"""

from __future__ import annotations

import contextlib
import functools
import importlib
import logging
import threading
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from engine import prompts, stores
from engine.datadir import KEYWORDS_FILE
from engine.errors import ModelError
from engine.indexing import catalog as catalog_mod
from engine.indexing import queue as queue_mod
from engine.live_settings import LiveSettings
from engine.parts import AgentSlot, Ground, Parts, StartupNotes
from engine.searching import checked_search

if TYPE_CHECKING:
    from engine.agent.service import Agent
    from engine.db import Database
    from engine.embed import Embedder
    from engine.gardener.service import GardenerService
    from engine.indexing.extract_process import ExtractionProcess
    from engine.indexing.prepared import IndexOptions
    from engine.indexing.reembed import Reembedder
    from engine.indexing.service import IndexService
    from engine.retrieval.hybrid import HybridSearch
    from engine.retrieval.keyword.healing import KeywordStore
    from engine.retrieval.vectors import VectorIndex
    from engine.txn.service import TxnService

log = logging.getLogger(__name__)


def assemble(ground: Ground, closer: contextlib.ExitStack, stopping: threading.Event) -> Parts:
    """Build every part in start-up's one order (module docstring); skip the background work when a quit
    came meanwhile (`stopping`)."""
    notes = StartupNotes()
    vector_modules = _import_vector_modules_meanwhile()
    closer.callback(vector_modules.join)  # never left importing while we close
    log.info("start-up: opening the catalog")
    db = _open_catalog(ground, notes)
    closer.callback(db.close)
    extraction = _extraction(ground, db)
    closer.callback(extraction.stop)
    log.info("start-up: opening the stores")
    keywords, search, index, reembedder = _open_stores(ground, notes, db, closer, extraction, vector_modules)
    log.info("start-up: repairing the index")
    repair_report = index.startup_repair()
    if notes.db_rebuilt and not ground.background:  # the background start re-scans every root anyway
        for root in index.roots():
            index.worker.request_scan(root)
    log.info("start-up: recovering interrupted plans")
    txn = _transactions(ground, db, index)
    recovery_report = txn.recover()
    gardener = _gardener(ground, db, index, txn)
    closer.callback(gardener.stop)
    agent = AgentSlot(lambda: _agent(ground, db, index, search, txn, gardener))
    closer.callback(agent.close)
    if ground.background and not stopping.is_set():
        log.info("start-up: starting the background work")
        _start_background(ground, gardener, index, search, reembedder, stopping)
    log.info("start-up: ready")
    return Parts(
        *(ground, db, keywords, search, index, reembedder, txn, gardener, agent),
        *(repair_report, recovery_report, notes),
    )


def _import_vector_modules_meanwhile() -> threading.Thread:
    """LanceDB's modules, imported on a thread of their own while this one opens the catalog and the
    keyword store (SQLite's check, DuckDB's open and extension load release the interpreter): the
    largest part of opening the stores, before the scan may begin. `_open_stores` waits for it before it
    imports anything else: while LanceDB's client is imported, pydantic classes defined anywhere defer
    their validators (engine/deferred_schemas.py), and the indexer's modules define some."""

    def run() -> None:
        try:
            from engine.deferred_schemas import import_deferring_schemas

            import_deferring_schemas("lance_namespace")  # LanceDB's remote-catalog client, schemas deferred
            importlib.import_module("engine.retrieval.vectors")
        except Exception:  # noqa: BLE001 - the store-opening thread imports them again and says why
            log.debug("importing the vector store's modules ahead failed", exc_info=True)

    thread = threading.Thread(target=run, name="sensetree-import-vectors", daemon=True)
    thread.start()
    return thread


def _open_catalog(ground: Ground, notes: StartupNotes) -> Database:
    """The SQLite catalog (a damaged one set aside), and the roots it knows kept in the settings."""
    path = ground.home / "sensetree.db"
    lost = not path.exists() and (ground.home / KEYWORDS_FILE).exists()
    db, db_notice = stores.open_database(path, catalog_mod.MIGRATIONS + queue_mod.MIGRATIONS)
    notes.add(db_notice)
    notes.db_rebuilt = db_notice is not None or lost
    settings, roots_notice = stores.keep_known_roots(ground.settings.current, db, ground.home)
    ground.settings.adopt(settings)
    notes.add(roots_notice)
    notes.load_warning = settings.load_warning
    return db


def _extraction(ground: Ground, db: Database) -> ExtractionProcess:
    """The second process that reads PDF, DOCX, HTML… beside the indexer (a long-lived engine's: the
    window, the server). Before a first index it starts now, so its imports run on the other core while
    this thread opens the stores, and it reads the roots' files before it is asked for them
    (engine/indexing/first_reads.py); otherwise it starts at the first such file (extract_process.py)."""
    from engine.indexing.extract_process import ExtractionProcess
    from engine.indexing.first_reads import ReadFirst

    extraction = ExtractionProcess(enabled=None if ground.background else False)
    roots = ground.roots.paths()
    if extraction.enabled and roots and catalog_mod.Catalog(db).empty():
        s = ground.settings.current.indexing
        extraction.start(first=ReadFirst(tuple(roots), s.max_chars, max_file_bytes(s.max_file_mb)))
    return extraction


def _open_stores(
    ground: Ground,
    notes: StartupNotes,
    db: Database,
    closer: contextlib.ExitStack,
    extraction: ExtractionProcess,
    vector_modules: threading.Thread,
) -> tuple[KeywordStore, HybridSearch, IndexService, Reembedder]:
    from engine.retrieval.keyword.healing import KeywordStore

    keywords = KeywordStore(ground.home / KEYWORDS_FILE, ground.events)  # heals a damaged file
    closer.callback(keywords.close)
    vector_modules.join()  # LanceDB's modules, imported meanwhile (`_import_vector_modules_meanwhile`)
    from engine.deferred_schemas import import_deferring_schemas

    import_deferring_schemas("lance_namespace")  # imported already, unless that thread failed
    from engine.indexing.reembed import Reembedder, write_active
    from engine.indexing.service import IndexService
    from engine.retrieval.hybrid import HybridSearch
    from engine.retrieval.rerank import make_reranker

    settings = ground.settings
    active = ground.embedder or active_embedder(ground)
    opener = VectorOpener(ground.vectors_dir, notes)
    vectors = opener(active)
    index: IndexService | None = None
    closer.callback(lambda: (index.indexer.vectors if index is not None else vectors).close())  # in force
    write_active(ground.vectors_dir, active.name)
    index = IndexService(
        db,
        ground.events,
        keywords,
        vectors,
        active,
        lambda: settings.current,
        settings.save_roots,
        lambda: index_options(settings),
        str(ground.home),
        ground.roots,
        extraction=extraction,
    )
    closer.callback(index.stop)
    search = HybridSearch(
        keywords,
        vectors,
        active,
        make_reranker(settings.current.rerank),
        pending=index.catalog.pending_among,  # results say `semantic: "pending"`
        copies=index.catalog.identical_copies,  # identical copies share one result row
    )
    closer.callback(search.close)
    reembedder = Reembedder(index.indexer, search, index.catalog, ground.vectors_dir, ground.events, opener)
    closer.callback(reembedder.stop)
    return keywords, search, index, reembedder


def _start_background(
    ground: Ground,
    gardener: GardenerService,
    index: IndexService,
    search: HybridSearch,
    reembedder: Reembedder,
    stopping: threading.Event,
) -> None:
    gardener.start()
    index.start_background()
    # the query model loads once the keyword phase has nothing due, not at the first search; not once a
    # quit has begun (closing shuts the search's query thread before it stops the indexer's worker)
    index.worker.when_keyword_idle(lambda: None if stopping.is_set() else search.warm())
    if ground.embedder is None and index.indexer.embedder.name != wanted_embedder(ground).name:
        reembedder.start(wanted_embedder(ground))  # finish a model switch a crash interrupted


class VectorOpener:
    """Opens the vector table of a model (start-up, and a model switch later), noting what it healed."""

    def __init__(self, vectors_dir: Path, notes: StartupNotes):
        self._dir, self._notes = vectors_dir, notes

    def __call__(self, embedder: Embedder) -> VectorIndex:
        from engine.indexing.reembed import slug

        vectors, notice = stores.open_vectors(self._dir / slug(embedder.name), embedder.dim)
        self._notes.add(notice)
        self._notes.vectors_kept_aside = self._notes.vectors_kept_aside or stores.kept_aside(notice)
        return vectors


def wanted_embedder(ground: Ground) -> Embedder:
    """The model the settings name."""
    from engine.embed import embedder_for

    return embedder_for(ground.settings.current.embedding, ground.vectors_dir / "dims.json")


def active_embedder(ground: Ground) -> Embedder:
    """The model whose index is complete: the one in settings, unless a switch is still under way."""
    from engine.embed import embedder_named
    from engine.indexing.reembed import read_active

    wanted = wanted_embedder(ground)
    active = read_active(ground.vectors_dir)
    if active is None or active == wanted.name:
        return wanted
    return embedder_named(active, ground.settings.current.embedding, ground.vectors_dir / "dims.json")


def index_options(live: LiveSettings) -> IndexOptions:
    """How the indexer reads, chunks and qualifies files, from the settings in force."""
    from engine.indexing.media_phase import media_endpoints
    from engine.indexing.prepared import IndexOptions

    s = live.current
    model = live.chat_model() if s.indexing.qualify_with_model else None
    complete = None
    if model is not None:

        def complete(system: str, user: str) -> str:
            return model.text(system, user, effort=s.indexing.qualify_effort)

    return IndexOptions(
        max_file_bytes=max_file_bytes(s.indexing.max_file_mb),
        max_chars=s.indexing.max_chars,
        chunk_chars=s.indexing.chunk_chars,
        chunk_overlap=s.indexing.chunk_overlap,
        qualify_prompt=prompts.effective(s.prompts.model_dump(), "doc_qualify"),
        complete=complete,
        media=media_endpoints(s),
    )


def max_file_bytes(max_file_mb: float) -> int:
    """The size past which a file is indexed by its name alone (the settings say it in MB)."""
    return int(max_file_mb * 1_000_000)


def _transactions(ground: Ground, db: Database, index: IndexService) -> TxnService:
    """The transactions (a journal left by a crash is replayed by `recover`); the agent's tables now, the
    agent itself at its first use: openai and mcp load with the first chat, not with every search."""
    from engine.agent import MIGRATIONS as AGENT_MIGRATIONS
    from engine.txn.service import TxnService
    from engine.txn.store import MIGRATIONS as TXN_MIGRATIONS

    db.migrate(TXN_MIGRATIONS + AGENT_MIGRATIONS)
    live = ground.settings
    return TxnService(
        db,
        ground.home,
        ground.roots,
        index.indexer,
        _planner(live),
        reorganize_prompt=lambda: prompts.effective(live.current.prompts.model_dump(), "reorganize"),
        quiesce=index.indexer.quiesced,
    )  # the worker waits while files move


def _planner(live: LiveSettings) -> Callable[[str, str], str]:
    def planner(system: str, user: str) -> str:
        model = live.chat_model()
        if model is None:
            raise ModelError(
                "Planning a reorganisation needs a reasoning endpoint: set one in Settings → Reasoning."
            )
        return model.text(system, user, json_mode=True, effort=live.current.reasoning.reasoning_effort)

    return planner


def _gardener(ground: Ground, db: Database, index: IndexService, txn: TxnService) -> GardenerService:
    """The folder-health audit (issue 16): reads the catalog, stored vectors and listing only."""
    from engine.gardener.service import GardenerService

    return GardenerService(
        db,
        index.catalog,
        lambda: index.indexer.vectors,
        ground.roots,
        lambda: ground.settings.current.gardener,
        ground.events,
        txn.draft,  # the stored draft, typed
        lambda: gardener_busy(index),
    )


def gardener_busy(index: IndexService) -> bool:
    """Indexing has work queued, or the index is locked (a batch is written or a plan applied)."""
    if index.queue.pending() and not index.worker.paused:
        return True
    if not index.indexer.lock.acquire(blocking=False):
        return True
    index.indexer.lock.release()
    return False


def _agent(
    ground: Ground, db: Database, index: IndexService, search: HybridSearch, txn: TxnService, gardener: Any
) -> Agent:
    from engine.agent.service import Agent
    from engine.agent_adapter import EngineAgentHost

    live = ground.settings
    host = EngineAgentHost(
        index,
        ground.roots,
        functools.partial(checked_search, search, ground.roots),
        txn.draft,
        lambda: live.current.indexing.max_chars,
        folder_health=gardener.folder_health,
    )
    fixed = live.fixed_chat_model
    return Agent(
        host,
        db,
        lambda: live.current,
        ground.events,
        (lambda _settings: fixed) if fixed is not None else None,
        log_dir=ground.home / "logs",
        save_always_allow=live.save_always_allow,
    )
