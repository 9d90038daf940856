"""Agent test helpers: a small in-memory host over real files in tmp_path, and agent settings."""

from __future__ import annotations

import os
import re
import uuid
from pathlib import Path
from types import SimpleNamespace
from typing import Any

from engine.config import ReasoningSettings, Settings
from engine.errors import NotFound, PlanInvalid
from engine.indexing.results import SenseRow
from engine.retrieval.results import SearchResult
from engine.roots import Roots
from engine.txn.model import ActionPlan


class FolderHost:
    """Searches, reads and describes the real files under its roots; records plan drafts (no executor)."""

    def __init__(self, roots: list[Path]):
        self.root_paths = [str(r) for r in roots]
        self.roots = Roots(lambda: self.root_paths)
        self.drafts: list[dict[str, Any]] = []  # each draft's JSON
        self.senses_by_path: dict[str, str] = {}
        self.calls: list[str] = []

    def _files(self, scope: str | None) -> list[str]:
        found = []
        for root in [scope] if scope else self.root_paths:
            for folder, _dirs, files in os.walk(root):
                found += [os.path.join(folder, f) for f in sorted(files)]
        return found

    def search(self, query: str, scope: str | None, limit: int) -> list[SearchResult]:
        self.calls.append(f"search:{query}")
        words = set(re.findall(r"\w+", query.lower()))
        hits = []
        for path in self._files(scope):
            text = Path(path).read_text(encoding="utf-8", errors="replace")
            score = len(words & set(re.findall(r"\w+", text.lower())))
            if score:
                hits.append(SearchResult(path, os.path.basename(path), float(score), text[:200], 0))
        return sorted(hits, key=lambda h: -h.score)[:limit]

    def extracted_text(self, path: str) -> str:
        self.calls.append(f"read:{path}")
        if not os.path.isfile(path):
            raise NotFound(f"{path} does not exist.")
        return Path(path).read_text(encoding="utf-8", errors="replace")

    def senses(self, path: str, recursive: bool, limit: int) -> list[SenseRow]:
        rows = [
            SenseRow(path=p, sense=s, doc_type="text", pinned=False)
            for p, s in sorted(self.senses_by_path.items())
            if os.path.dirname(p) == path or (recursive and p.startswith(path + os.sep))
        ]
        return rows[:limit]

    def propose_plan(self, summary: str, operations: list[dict[str, Any]]) -> ActionPlan:
        problems = [
            f"operation {i}: {op.get('old_path')} does not exist"
            for i, op in enumerate(operations, 1)
            if op.get("kind") in ("move", "rename", "delete") and not os.path.exists(str(op.get("old_path")))
        ]
        if problems:
            raise PlanInvalid(problems)
        draft = ActionPlan.model_validate(
            {"transaction_id": uuid.uuid4().hex, "summary": summary, "operations": operations}
        )
        self.drafts.append(draft.to_json_dict())
        return draft


def chat_settings(**agent: Any) -> Settings:
    settings = Settings(reasoning=ReasoningSettings(enabled=True, model="scripted"))
    for key, value in agent.items():
        setattr(settings.agent, key, value)
    return settings


def cli_engine(agent: Any, bus: Any) -> SimpleNamespace:
    """The engine `sensetree chat` and `sensetree mcp` talk to, answered by an in-process agent: its
    chat, approval, MCP listing and conversation commands, and the bus they publish on."""
    return SimpleNamespace(
        events=bus,
        chat_with_assistant=agent.chat_with_assistant,
        approve_tool_call=agent.approve_tool_call,
        list_mcp_tools=agent.list_mcp_tools,
        list_conversations=agent.conversations.find,
        get_conversation=agent.get_conversation,
        close=agent.close,
    )
