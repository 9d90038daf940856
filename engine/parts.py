"""The record of what start-up built: `Parts`, frozen, read by the Engine's commands and by whoever needs
one part (a test, a bench, the start-up notices), and `Ground`, what was known before start-up.

Why a record apart from the code that builds it (engine/assembly.py): the commands and the tests read
parts, they never build them, so they import this small module and not the builder (which imports the
stores' libraries on the start-up thread). The parts' own modules are named here for the type checker
only.

A part that is one step inside another (the indexer inside the index service, the model of the index in
force inside the indexer) is a property, read at each use: a model switch replaces the indexer's embedder
and vector table while the record itself stays as built.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from engine.events import EventBus
from engine.live_settings import LiveSettings
from engine.roots import Roots

if TYPE_CHECKING:
    from engine.agent.service import Agent
    from engine.db import Database
    from engine.embed import Embedder
    from engine.gardener.service import GardenerService
    from engine.indexing.indexer import Indexer
    from engine.indexing.reembed import Reembedder
    from engine.indexing.repair import RepairReport
    from engine.indexing.service import IndexService
    from engine.retrieval.hybrid import HybridSearch
    from engine.retrieval.keyword.healing import KeywordStore
    from engine.retrieval.vectors import VectorIndex
    from engine.txn.results import Recovered
    from engine.txn.service import TxnService


@dataclass(frozen=True)
class Ground:
    """What the engine knows before start-up: where, which settings, which bounds, what to run."""

    home: Path
    events: EventBus
    settings: LiveSettings
    roots: Roots
    embedder: Embedder | None = None  # a fixed embedder (tests, benches), else the settings' model
    background: bool = False  # the window and the server: indexer, watcher, Gardener, warm-up

    @property
    def vectors_dir(self) -> Path:
        return self.home / "vectors"


@dataclass
class StartupNotes:
    """What start-up did on the person's behalf, for `startup_notices` (engine/startup_notices.py)."""

    notices: list[str] = field(default_factory=list)
    db_rebuilt: bool = False  # a lost or damaged catalog: the roots are re-scanned
    vectors_kept_aside: bool = False  # the vector store was set aside (its notice says so)
    load_warning: str | None = None  # the settings file was unreadable and kept aside

    def add(self, notice: str | None) -> None:
        if notice:
            self.notices.append(notice)


@dataclass(frozen=True)
class Parts:
    ground: Ground
    db: Database
    keywords: KeywordStore
    search: HybridSearch
    index: IndexService
    reembedder: Reembedder
    txn: TxnService
    gardener: GardenerService
    agent_slot: AgentSlot
    repair_report: RepairReport
    recovery_report: list[Recovered]
    notes: StartupNotes

    @property
    def agent(self) -> Agent:
        """The chat agent, built at the first agent command."""
        return self.agent_slot.get()

    @property
    def indexer(self) -> Indexer:
        return self.index.indexer

    @property
    def embedder(self) -> Embedder:
        """The model of the index in force (it changes when a model switch completes)."""
        return self.index.indexer.embedder

    @property
    def vectors(self) -> VectorIndex:
        """The vector table of the index in force (it changes with the model)."""
        return self.index.indexer.vectors

    @property
    def vectors_dir(self) -> Path:
        return self.ground.vectors_dir


class AgentSlot:
    """The chat agent, built at its first use (thread-safe: IPC calls arrive on any thread)."""

    def __init__(self, build: Callable[[], Agent]):
        self._build = build
        self._agent: Agent | None = None
        self._lock = threading.Lock()

    def get(self) -> Agent:
        with self._lock:
            if self._agent is None:
                self._agent = self._build()
            return self._agent

    def close(self) -> None:
        if self._agent is not None:  # never built: nothing to close (and nothing to import)
            self._agent.close()
