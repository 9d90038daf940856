"""Conversations that last: every chat turn is stored in SQLite, so a reload or a restart loses nothing.

A conversation is a titled list of turns. A turn holds the person's text, the answer, the trace (each
step's label, tool, arguments and truncated result), the sources, the plan proposed (id and
operations), the model that answered, its status (`running`, `done`, `stopped`, `error`) and when it
started and finished. Turns are numbered from 0; regenerating an answer or editing a question
truncates the conversation at that turn and runs it again (no branches: what the person sees is what
is stored). The title is the first question, trimmed, until the person renames it.

JSON edge: a stored turn's trace, sources, plan and error are SQLite JSON columns, sent back as they were
stored (older turns included), so `Turn` carries them untyped.
"""

from __future__ import annotations

import json
import re
import time
import uuid
from dataclasses import dataclass
from typing import Any

from engine.agent.turn_result import TurnRecord, TurnStatus
from engine.db import Database, Migration
from engine.errors import InvalidInput, NotFound
from engine.results import Result

TITLE_CHARS = 80
TRACE_RESULT_CHARS = 1500

MIGRATIONS: list[Migration] = [
    (
        "conversations_0001",
        """
        CREATE TABLE conversations (
            id TEXT PRIMARY KEY,
            title TEXT NOT NULL,
            created_at REAL NOT NULL,
            updated_at REAL NOT NULL
        );
        CREATE INDEX conversations_updated ON conversations(updated_at);
        CREATE TABLE conversation_turns (
            conversation_id TEXT NOT NULL REFERENCES conversations(id) ON DELETE CASCADE,
            position INTEGER NOT NULL,
            user_text TEXT NOT NULL,
            answer TEXT NOT NULL DEFAULT '',
            trace TEXT NOT NULL DEFAULT '[]',
            sources TEXT NOT NULL DEFAULT '[]',
            plan_id TEXT,
            plan TEXT,
            model TEXT NOT NULL DEFAULT '',
            status TEXT NOT NULL DEFAULT 'running',
            error TEXT,
            started_at REAL NOT NULL,
            finished_at REAL,
            PRIMARY KEY (conversation_id, position)
        );
    """,
    ),
]


def title_of(question: str) -> str:
    """The first question on one line, cut at a word boundary near TITLE_CHARS."""
    text = " ".join(str(question or "").split())
    if len(text) <= TITLE_CHARS:
        return text or "New chat"
    cut = text[:TITLE_CHARS].rsplit(" ", 1)[0] or text[:TITLE_CHARS]
    return cut.rstrip(" ,.;:") + "…"


def truncate_result(text: str, limit: int = TRACE_RESULT_CHARS) -> str:
    """A tool's result cut for the trace (stored turns, and the live `agent-result` event's wider cut)."""
    text = str(text or "")
    if len(text) <= limit:
        return text
    return text[:limit] + f"\n[… {len(text) - limit} more characters not shown]"


def _like(query: str) -> str:
    return "%" + re.sub(r"([%_\\])", r"\\\1", query.strip()) + "%"


class ConversationSummary(Result):
    """One row of `list_conversations` (DESIGN §6a): `turns` counts the questions asked."""

    conversation_id: str
    title: str
    updated_at: float
    turns: int


class Turn(Result):
    """One stored turn of `get_conversation`; every key is always sent (null where nothing is known).
    `trace`, `sources`, `plan` and `error` are the JSON the turn stored, passed on as they were."""

    position: int
    user: str
    answer: str
    trace: list[dict[str, Any]]
    sources: list[dict[str, Any]]
    plan_id: str | None
    plan: dict[str, Any] | None
    model: str
    status: TurnStatus
    stopped: bool
    error: dict[str, Any] | None
    started_at: float
    finished_at: float | None


def _turn(row: Any) -> Turn:
    """A stored turn row as `get_conversation` sends it (its JSON columns decoded as they were stored)."""
    return Turn(
        position=row["position"],
        user=row["user_text"],
        answer=row["answer"],
        trace=json.loads(row["trace"]),
        sources=json.loads(row["sources"]),
        plan_id=row["plan_id"],
        plan=json.loads(row["plan"]) if row["plan"] else None,
        model=row["model"],
        status=row["status"],
        stopped=row["status"] == "stopped",
        error=json.loads(row["error"]) if row["error"] else None,
        started_at=row["started_at"],
        finished_at=row["finished_at"],
    )


@dataclass(frozen=True)
class _Head:
    """A conversation's own row."""

    id: str
    title: str
    created_at: float
    updated_at: float


class Conversation(Result):
    """`get_conversation` (DESIGN §6a): the turns, the Markdown export, and whether a turn is running."""

    conversation_id: str
    title: str
    created_at: float
    updated_at: float
    turns: list[Turn]
    markdown: str
    running: bool = False


class Conversations:
    def __init__(self, db: Database):
        self._db = db

    # ---- conversations ------------------------------------------------------------------------
    def create(self, first_question: str) -> str:
        conversation_id = uuid.uuid4().hex
        now = time.time()
        self._db.execute(
            "INSERT INTO conversations(id, title, created_at, updated_at) VALUES (?, ?, ?, ?)",
            (conversation_id, title_of(first_question), now, now),
        )
        return conversation_id

    def require(self, conversation_id: str) -> _Head:
        row = self._db.one(
            "SELECT id, title, created_at, updated_at FROM conversations WHERE id = ?",
            (str(conversation_id or ""),),
        )
        if row is None:
            raise NotFound(
                f"There is no conversation {conversation_id!r}; it may have been deleted. "
                f"Start a new chat or pick one from the list."
            )
        return _Head(row["id"], row["title"], row["created_at"], row["updated_at"])

    def find(self, query: str | None = None) -> list[ConversationSummary]:
        """Newest first; `query` matches the title, the questions and the answers (case-insensitive)."""
        sql = (
            "SELECT c.id, c.title, c.updated_at, (SELECT count(*) FROM conversation_turns t "
            "WHERE t.conversation_id = c.id) AS turns FROM conversations c"
        )
        params: tuple[Any, ...] = ()
        if query and query.strip():
            sql += (
                " WHERE c.title LIKE ? ESCAPE '\\' OR EXISTS (SELECT 1 FROM conversation_turns t "
                "WHERE t.conversation_id = c.id AND (t.user_text LIKE ? ESCAPE '\\' "
                "OR t.answer LIKE ? ESCAPE '\\'))"
            )
            params = (_like(query),) * 3
        rows = self._db.query(sql + " ORDER BY c.updated_at DESC, c.rowid DESC", params)
        return [
            ConversationSummary(
                conversation_id=r["id"], title=r["title"], updated_at=r["updated_at"], turns=r["turns"]
            )
            for r in rows
        ]

    def get(self, conversation_id: str) -> Conversation:
        head = self.require(conversation_id)
        rows = self._db.query(
            "SELECT * FROM conversation_turns WHERE conversation_id = ? ORDER BY position", (head.id,)
        )
        turns = [_turn(r) for r in rows]
        return Conversation(
            conversation_id=head.id,
            title=head.title,
            created_at=head.created_at,
            updated_at=head.updated_at,
            turns=turns,
            markdown=to_markdown(head.title, turns),
        )

    def rename(self, conversation_id: str, title: str) -> None:
        clean = " ".join(str(title or "").split())
        if not clean:
            raise InvalidInput("A conversation needs a title; type a few words.")
        self.require(conversation_id)
        self._db.execute("UPDATE conversations SET title = ? WHERE id = ?", (clean[:200], conversation_id))

    def delete(self, conversation_id: str) -> None:
        self.require(conversation_id)
        self._db.execute("DELETE FROM conversations WHERE id = ?", (conversation_id,))

    def newest(self) -> str | None:
        row = self._db.one("SELECT id FROM conversations ORDER BY updated_at DESC, rowid DESC LIMIT 1")
        return row["id"] if row else None

    def messages(self, conversation_id: str) -> list[dict[str, str]]:
        """The stored exchange as chat messages (what `chat --continue` sends before the new question)."""
        out: list[dict[str, str]] = []
        for turn in self.get(conversation_id).turns:
            out.append({"role": "user", "content": turn.user})
            if turn.answer:
                out.append({"role": "assistant", "content": turn.answer})
        return out

    # ---- turns --------------------------------------------------------------------------------
    def begin_turn(self, conversation_id: str, position: int, user_text: str, model: str) -> None:
        """Store the question as turn `position`, dropping that turn and every later one first."""
        now = time.time()
        with self._db.atomic() as conn:
            conn.execute(
                "DELETE FROM conversation_turns WHERE conversation_id = ? AND position >= ?",
                (conversation_id, position),
            )
            conn.execute(
                "INSERT INTO conversation_turns(conversation_id, position, user_text, model, started_at) "
                "VALUES (?, ?, ?, ?, ?)",
                (conversation_id, position, user_text, model, now),
            )
            conn.execute("UPDATE conversations SET updated_at = ? WHERE id = ?", (now, conversation_id))

    def finish_turn(self, position: int, turn: TurnRecord) -> None:
        """Store how turn `position` of `turn`'s conversation ended."""
        plan = turn.plan_json()
        now = time.time()
        with self._db.atomic() as conn:
            conn.execute(
                "UPDATE conversation_turns SET answer = ?, trace = ?, sources = ?, plan_id = ?, plan = ?, "
                "status = ?, error = ?, finished_at = ? WHERE conversation_id = ? AND position = ?",
                (
                    turn.answer,
                    json.dumps(turn.trace, ensure_ascii=False),
                    json.dumps(turn.sources, ensure_ascii=False),
                    turn.plan.transaction_id if turn.plan is not None else None,
                    json.dumps(plan, ensure_ascii=False) if plan else None,
                    turn.status,
                    json.dumps(turn.error) if turn.error else None,
                    now,
                    turn.conversation_id,
                    position,
                ),
            )
            conn.execute("UPDATE conversations SET updated_at = ? WHERE id = ?", (now, turn.conversation_id))


def _file_link(source: dict[str, Any]) -> str:
    path = str(source.get("path") or "")
    url = "file://" + ("" if path.startswith("/") else "/") + path.replace("\\", "/").replace(" ", "%20")
    return f"[{source.get('name') or path}]({url})"


def _plan_lines(plan: dict[str, Any]) -> list[str]:
    lines = [f"**Action plan** ({plan.get('transaction_id', '')}): {plan.get('summary') or ''}", ""]
    for op in plan.get("operations") or []:
        old, new = op.get("old_path"), op.get("new_path")
        target = f"`{old}` → `{new}`" if old and new else f"`{old or new}`"
        if op.get("kind") == "requalify":
            target += f": {op.get('new_summary')!r}"
        lines.append(f"- {op.get('kind')} {target}" + (f" — {op['reason']}" if op.get("reason") else ""))
    return lines


def to_markdown(title: str, turns: list[Turn]) -> str:
    """The conversation as a Markdown document: questions, answers, sources as links, plans' operations."""
    lines = [f"# {title}", ""]
    for turn in turns:
        lines += ["## You", "", turn.user, "", "## SenseTree", "", turn.answer or "_(no answer)_", ""]
        if turn.stopped:
            lines += ["_(stopped)_", ""]
        if turn.sources:
            lines += ["**Sources**", ""] + [f"- {_file_link(s)}" for s in turn.sources] + [""]
        if turn.plan:
            lines += _plan_lines(turn.plan) + [""]
    return "\n".join(lines).rstrip() + "\n"
