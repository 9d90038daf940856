"""The built-in tools of a chat turn (DESIGN §2 table), as typed, documented methods of `TurnTools`.

One `TurnTools` lives for one turn: it collects the turn's sources (search hits, deduplicated by
path) and the plan, if one is proposed. Every path argument passes through `Roots.require` first
(engine/roots.py); a refusal is returned as text, never data. Every bound in the table is enforced here.
A tool that cannot do what was asked (a refusal, an unreadable file, a rejected plan) raises `ToolFailed`
with the text the model reads, so the trace marks the call failed (engine/agent/tools.py).

It also notes whether the turn has read anything besides the person's words (pre-RAG excerpts, file
text, listings, senses, search hits, any external tool's output): a `remember` after that is saved
pending, for the person to keep or discard (engine/agent/memory.py), and the answer says so — unless
the note is the person's own words, quoted word for word from their message (`said`): "Remember: Jane
is my accountant" stays a plain note even when the turn also searched the files.

JSON edge: `propose_actions`' operations are the model's JSON objects as it sent them; the plan's
validation (engine/txn/validate.py) reads them into `Operation`s.
"""

from __future__ import annotations

import dataclasses
import os
import re
from typing import Any

from engine.agent.host import AgentHost
from engine.agent.memory import Memory
from engine.agent.sources import Excerpt
from engine.agent.tools import Tool, ToolFailed, tool_from_function
from engine.errors import ExtractionError, NotFound, OutOfBounds, PlanInvalid
from engine.paths import display_name
from engine.retrieval.results import SearchResult, copies_text
from engine.roots import LIST_LIMIT, SENSES_LIMIT, Roots
from engine.txn.model import ActionPlan

SEARCH_LIMIT = 8
READ_CHARS = 4000
PATH_FIELDS = ("old_path", "new_path")


def source_of(hit: SearchResult) -> Excerpt:
    """A chat source; `page` only for a hit in a scanned PDF (the page OCR read it from, issue 33)."""
    excerpt = Excerpt(
        path=hit.path,
        name=hit.name or display_name(hit.path),
        score=float(hit.score or 0.0),
        snippet=hit.snippet or "",
    )
    if hit.page is not None:
        excerpt["page"] = hit.page
    return excerpt


def _copies(hit: SearchResult) -> str:
    """The identical copies one hit stands for (engine/retrieval/copies.py), so the model can name or
    act on each of them: the search gives one row per content."""
    return f"\n   identical copies: {copies_text(hit.copies)}" if hit.copies else ""


class TurnTools:
    def __init__(self, host: AgentHost, roots: Roots, memory: Memory, scope: str | None = None):
        self._host = host
        self._roots = roots
        self._memory = memory
        self._scope = scope
        self._texts: dict[str, str] = {}
        self.sources: dict[str, Excerpt] = {}  # by path, in the order found
        self.plan: ActionPlan | None = None
        self.read_content = False  # has anything but the person's words entered this turn?
        self.said = ""  # the person's message of this turn
        self.pending_notes: list[str] = []

    def add_sources(self, hits: list[SearchResult]) -> None:
        self.read_content = self.read_content or bool(hits)
        for hit in hits:
            if hit.path not in self.sources:
                self.sources[hit.path] = source_of(hit)

    def external(self, tool: Tool) -> Tool:
        """`tool` (an MCP tool) marking the turn as having read outside content when it runs."""

        def run(*args: Any, **kwargs: Any) -> str:
            self.read_content = True
            return tool.fn(*args, **kwargs)

        return dataclasses.replace(tool, fn=run)

    def pending_notice(self) -> str:
        """A line for the answer when this turn saved notes that await the person's confirmation."""
        if not self.pending_notes:
            return ""
        quoted = "; ".join(f"“{note}”" for note in self.pending_notes)
        return (
            f"\n\n🧠 A note awaits your confirmation in Settings → Agent memory before it is used: {quoted}. "
            "It was suggested after reading your files, so keep it only if it is true."
        )

    def tools(self) -> list[Tool]:
        return [
            tool_from_function(self.search_files, label=lambda a: f"🔍 Searching: {a.get('query', '')}"),
            tool_from_function(
                self.read_file, label=lambda a: f"📄 Reading: {display_name(str(a.get('path')))}"
            ),
            tool_from_function(self.list_directory, label=lambda a: f"📂 Listing: {a.get('path', '')}"),
            tool_from_function(
                self.read_semantics, label=lambda a: f"🧾 Reading senses: {a.get('path', '')}"
            ),
            tool_from_function(
                self.folder_health, label=lambda a: f"🌱 Checking folder health: {a.get('path', '')}"
            ),
            tool_from_function(self.propose_actions, label=lambda a: "🛠️ Preparing an action plan"),
            tool_from_function(self.remember, label=lambda a: "🧠 Remembering"),
        ]

    def search_files(self, query: str, scope: str | None = None) -> str:
        """Search the person's indexed files (keyword + meaning) and return the best matching passages.

        Args:
            query: what to look for, in natural words
            scope: an absolute folder path to search within (defaults to the open folder)
        """
        try:
            folder = self._roots.require(scope) if scope else self._scope
        except OutOfBounds as exc:
            raise _refusal(exc) from None
        hits = self._host.search(query, folder, SEARCH_LIMIT)[:SEARCH_LIMIT]
        self.add_sources(hits)
        if not hits:
            return f"No indexed file matches {query!r}."
        lines = [
            f"{i}. {h.path} (score {float(h.score or 0):.3f}){_copies(h)}\n"
            f"   {' '.join((h.snippet or '').split())[:500]}"
            for i, h in enumerate(hits, 1)
        ]
        return "\n".join(lines)

    def read_file(self, path: str, offset: int = 0) -> str:
        """Read a file's extracted text (PDF, DOCX and others are read properly), about 4000 characters
        per call.

        Args:
            path: the exact absolute path of the file
            offset: the character position to start from, to continue a long file
        """
        try:
            target = self._roots.require(path)
        except OutOfBounds as exc:
            raise _refusal(exc) from None
        if target not in self._texts:
            if os.path.isdir(target):
                return f"{path} is a folder; use list_directory to see inside it."
            try:
                self._texts[target] = self._host.extracted_text(target)
            except (NotFound, ExtractionError) as exc:
                raise ToolFailed(f"Could not read {path}: {exc.message}") from None
        text = self._texts[target]
        self.read_content = True
        start = max(0, int(offset))
        piece = text[start : start + READ_CHARS]
        end = start + len(piece)
        if not text:
            return f"{path} has no extractable text."
        if end < len(text):
            piece += f"\n[… {len(text) - end} more characters; call read_file with offset={end} to continue]"
        return piece

    def list_directory(self, path: str) -> str:
        """List a folder's direct children with exact absolute paths, marked [D] for folders and [F] for
        files.

        Args:
            path: the exact absolute path of the folder
        """
        try:
            entries = self._roots.listing(path, limit=LIST_LIMIT + 1)
        except OutOfBounds as exc:
            raise _refusal(exc) from None
        except NotFound as exc:
            raise ToolFailed(f"Could not list {path}: {exc.message}") from None
        self.read_content = self.read_content or bool(entries)  # names are written by whoever made the files
        lines = [f"{'[D]' if e.is_dir else '[F]'} {e.path}" for e in entries[:LIST_LIMIT]]
        if len(entries) > LIST_LIMIT:
            lines.append(f"[… more than {LIST_LIMIT} entries; list a subfolder to see the rest]")
        return "\n".join(lines) or f"{path} is empty."

    def read_semantics(self, path: str, recursive: bool = False) -> str:
        """Read the stored sense (a short factual description) of the files in a folder, or of one file.

        Args:
            path: the exact absolute path of a folder or file
            recursive: include files in subfolders too
        """
        try:
            target = self._roots.require(path)
        except OutOfBounds as exc:
            raise _refusal(exc) from None
        rows = self._host.senses(target, bool(recursive), SENSES_LIMIT)[:SENSES_LIMIT]
        if not rows:
            return f"No stored senses under {path} (it may not be indexed yet)."
        self.read_content = True
        return "\n".join(f"- {r.path} [{r.doc_type or '?'}]: {r.sense or '(no sense yet)'}" for r in rows)

    def folder_health(self, path: str) -> str:
        """Audit a folder: duplicates, near-duplicates, old versions, misplaced files, unhelpful names,
        stale large files, clutter, empty folders and deep nesting, with evidence. Read-only.

        Args:
            path: the exact absolute path of the folder
        """
        try:
            target = self._roots.require(path)
            report = self._host.folder_health(target)
        except OutOfBounds as exc:
            raise _refusal(exc) from None
        except NotFound as exc:
            raise ToolFailed(f"Could not check {path}: {exc.message}") from None
        self.read_content = True  # file names and senses are written by whoever made the files
        return report

    def propose_actions(self, summary: str, operations: list[dict[str, Any]]) -> str:
        """Propose a plan of file operations for the person to review; nothing is executed until they approve.

        Args:
            summary: one sentence saying what the plan does and why
            operations: list of {kind: mkdir|move|rename|delete|requalify, old_path, new_path,
                new_summary, reason}
        """
        problems = self._out_of_bounds(operations)
        if problems:
            raise ToolFailed("The plan was not created:\n- " + "\n- ".join(problems))
        try:
            plan = self._host.propose_plan(summary, operations)
        except PlanInvalid as exc:
            raise ToolFailed(
                "The plan was rejected; fix these problems and call propose_actions again:\n- "
                + "\n- ".join(exc.problems)
            ) from None
        self.plan = plan
        count = len(plan.operations or operations)
        return (
            f"Action plan {plan.transaction_id} is ready with {count} operation(s). Nothing has "
            f"been changed: the person will review it and decide."
        )

    def remember(self, note: str) -> str:
        """Save a durable one-line note (a fact about the person or their files) for future conversations.

        Args:
            note: the fact to remember, in one line
        """
        saved = self._memory.remember(note, pending=self.read_content and not _quotes(self.said, note))
        if saved is None:
            return "Nothing saved: the note was empty."
        if saved["duplicate"]:
            return (
                "Already remembered."
                if not saved["pending"]
                else "Already suggested; it awaits the person's confirmation."
            )
        if not saved["pending"]:
            return f"Remembered: {saved['note']}"
        self.pending_notes.append(saved["note"])
        return (
            f"Saved as a suggestion: {saved['note']}. This turn read file content, so the person confirms "
            "the note in Settings before it is used; tell them it awaits their confirmation."
        )

    def _out_of_bounds(self, operations: Any) -> list[str]:
        if not isinstance(operations, list) or not all(isinstance(op, dict) for op in operations):
            return ["operations must be a list of objects"]
        problems = []
        for i, op in enumerate(operations, 1):
            for key in PATH_FIELDS:
                value = op.get(key)
                if value and not self._roots.allows(str(value)):
                    problems.append(f"operation {i}: {key} {value!r} is outside the indexed folders")
        return problems


def _refusal(exc: OutOfBounds) -> ToolFailed:
    """What the model reads instead of data."""
    return ToolFailed(f"Refused: {exc.message}")


def _quotes(said: str, note: str) -> bool:
    """True when `note`'s words appear in `said` in the same order, contiguous (case and punctuation
    aside)."""
    note_words, said_words = (" ".join(re.findall(r"\w+", text.casefold())) for text in (note, said))
    return bool(note_words) and f" {note_words} " in f" {said_words} "
