"""The engine's adapter for the agent's port (`engine/agent/host.py` declares `AgentHost`): search,
extracted text, senses, the roots, and proposing a plan. Keeping this seam narrow is what lets the
agent be tested with an in-memory host, and what guarantees the agent can never reach the executor:
it can only propose. Policy lives elsewhere (reading in engine/indexing/reading.py, bounds in
engine/roots.py); this class only forwards.

JSON edge: a proposed plan's operations, the model's tool arguments, handed on to the plan's validation.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from engine.indexing.reading import readable_text
from engine.indexing.results import SenseRow
from engine.indexing.service import IndexService
from engine.retrieval.results import SearchResult
from engine.roots import Roots
from engine.txn.model import ActionPlan


class EngineAgentHost:
    def __init__(
        self,
        index: IndexService,
        roots: Roots,
        search: Callable[..., list[SearchResult]],
        propose: Callable[[str, list[dict[str, Any]]], ActionPlan],
        max_chars: Callable[[], int],
        folder_health: Callable[[str], str] | None = None,
    ):
        self._index, self._search, self._propose, self._max_chars = index, search, propose, max_chars
        self.roots = roots
        self._folder_health = folder_health

    def search(self, query: str, scope: str | None, limit: int) -> list[SearchResult]:
        return self._index.with_pages(self._search(query, scope=scope, limit=limit))  # a scan's page

    def extracted_text(self, path: str) -> str:
        indexer = self._index.indexer
        return readable_text(path, self._max_chars(), indexer.ocr.for_reading, indexer.media.for_reading)

    def senses(self, path: str, recursive: bool, limit: int) -> list[SenseRow]:
        return self._index.read_semantics(path, recursive, limit)

    def propose_plan(self, summary: str, operations: list[dict[str, Any]]) -> ActionPlan:
        return self._propose(summary, operations)

    def folder_health(self, path: str) -> str:
        if self._folder_health is None:
            return "The folder-health audit is not available in this session."
        return self._folder_health(path)
