"""`EngineHost`: the `AgentHost` the real engine offers the agent, built from the engine's own parts.

It lives with the agent so the composition root only has to write
`Agent(EngineHost(engine, propose_plan=txn.propose_plan), engine.db, lambda: engine.settings, engine.events)`.
It reads the engine duck-typed (roots, hybrid search, the index's senses, settings) and extracts file
text exactly as indexing does. Unknown files that are really text are read as lossy UTF-8; true
binaries give an empty text, so the model is told there is nothing to read.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from typing import Any

from engine.errors import NotFound
from engine.indexing.extract import extract

LOSSY_BYTES = 256_000
MAX_GARBAGE = 0.05


def lossy_text(path: str, limit: int = LOSSY_BYTES) -> str:
    """UTF-8 with replacement characters, or "" when the bytes do not look like text at all."""
    with open(path, "rb") as handle:
        data = handle.read(limit)
    if b"\x00" in data:
        return ""
    text = data.decode("utf-8", errors="replace")
    garbage = sum(1 for c in text if c == "\ufffd" or (ord(c) < 32 and c not in "\t\n\r\f"))
    return text if text and garbage / len(text) <= MAX_GARBAGE else ""


class EngineHost:
    def __init__(self, engine: Any, propose_plan: Callable[[str, list[dict[str, Any]]], dict[str, Any]]):
        self._engine = engine
        self._propose = propose_plan

    def roots(self) -> list[str]:
        return list(self._engine.get_roots())

    def search(self, query: str, scope: str | None, limit: int) -> list[dict[str, Any]]:
        return [r.to_dict() for r in self._engine.search.search(query, scope=scope, limit=limit)]

    def extracted_text(self, path: str) -> str:
        if not os.path.lexists(path):
            raise NotFound(f"{path} does not exist (it may have been moved or deleted).")
        extracted = extract(path, max_chars=self._engine.settings.indexing.max_chars)
        if extracted.doc_type == "binary":
            return lossy_text(path)
        return extracted.text

    def senses(self, path: str, recursive: bool, limit: int) -> list[dict[str, Any]]:
        rows = self._engine.index.read_semantics(path, recursive, limit)
        return [{"path": r["path"], "sense": r.get("sense"), "doc_type": r.get("doc_type")} for r in rows]

    def propose_plan(self, summary: str, operations: list[dict[str, Any]]) -> dict[str, Any]:
        return self._propose(summary, operations)
