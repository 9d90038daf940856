"""The agent's only door into the rest of the engine. Declared here, implemented by the engine (and by
small in-memory hosts in tests), so the agent can be built and tested without the indexer, the stores
or the action executor being present.

JSON edge: a proposed plan's operations cross it as the model's JSON (its tool arguments); the plan comes
back as an `ActionPlan`.
"""

from __future__ import annotations

from typing import Any, Protocol

from engine.indexing.results import SenseRow
from engine.retrieval.results import SearchResult
from engine.roots import Roots
from engine.txn.model import ActionPlan


class AgentHost(Protocol):
    roots: Roots  # the indexed folders and the one bounds rule every tool path passes through

    def search(self, query: str, scope: str | None, limit: int) -> list[SearchResult]:
        """Hybrid search + rerank, best first."""
        ...

    def extracted_text(self, path: str) -> str:
        """The file's text as indexing extracts it; raises ExtractionError or NotFound."""
        ...

    def senses(self, path: str, recursive: bool, limit: int) -> list[SenseRow]:
        """The stored senses under a folder (or of one file)."""
        ...

    def propose_plan(self, summary: str, operations: list[dict[str, Any]]) -> ActionPlan:
        """Validate and persist a draft ActionPlan; raises PlanInvalid(problems). Executes nothing."""
        ...

    def folder_health(self, path: str) -> str:
        """The Gardener's findings under a folder, as text with evidence (engine/gardener). Read-only."""
        ...
