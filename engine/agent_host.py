"""The engine as the agent sees it: the `AgentHost` the agent's tools call (search, extracted text,
senses, roots, and proposing a plan). Keeping this seam narrow is what lets the agent be tested with
an in-memory host, and what guarantees the agent can never reach the executor: it can only propose."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from engine.errors import NotFound
from engine.indexing.extract import extract
from engine.indexing.service import IndexService

LOSSY_READ_BYTES = 256_000


class EngineAgentHost:
    def __init__(
        self,
        index: IndexService,
        search: Callable[..., list[dict[str, Any]]],
        propose: Callable[[str, list[dict[str, Any]]], dict[str, Any]],
        max_chars: Callable[[], int],
        folder_health: Callable[[str], str] | None = None,
    ):
        self._index, self._search, self._propose, self._max_chars = index, search, propose, max_chars
        self._folder_health = folder_health

    def roots(self) -> list[str]:
        return self._index.roots()

    def search(self, query: str, scope: str | None, limit: int) -> list[dict[str, Any]]:
        return self._search(query, scope=scope, limit=limit)

    def extracted_text(self, path: str) -> str:
        """The text indexing extracts (PDF, DOCX… read properly); unknown files as lossy UTF-8."""
        try:
            extracted = extract(path, max_chars=self._max_chars())
        except FileNotFoundError as exc:
            raise NotFound(f'"{path}" does not exist.') from exc
        if extracted.text or extracted.doc_type != "binary":
            return extracted.text
        with open(path, "rb") as handle:
            raw = handle.read(LOSSY_READ_BYTES)
        text = raw.decode("utf-8", errors="replace")
        garbage = sum(1 for c in text if c == "\ufffd" or (ord(c) < 32 and c not in "\t\n\r"))
        if b"\x00" in raw or garbage > 0.05 * max(len(text), 1):
            return ""  # a real binary: bytes decoded as text would only mislead the model
        return text

    def senses(self, path: str, recursive: bool, limit: int) -> list[dict[str, Any]]:
        return self._index.read_semantics(path, recursive, limit)

    def propose_plan(self, summary: str, operations: list[dict[str, Any]]) -> dict[str, Any]:
        return self._propose(summary, operations)

    def folder_health(self, path: str) -> str:
        if self._folder_health is None:
            return "The folder-health audit is not available in this session."
        return self._folder_health(path)
